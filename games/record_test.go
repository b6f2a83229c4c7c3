package games

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
)

// recordOf is the record the game package writes whole, as JSON: what the
// kit's kept record must be, byte for byte.
type recordOf func(g engine.TableGame, seats []string) []byte

// The record the kit keeps as the game goes is json.Marshal of the game's
// whole record at every step, as the seats' words change and once the game
// is over; one handed out earlier still reads as it did.
func TestKeptRecordIsMarshal(t *testing.T) {
	whole := map[string]recordOf{
		kings.Name: func(g engine.TableGame, seats []string) []byte {
			x := g.(*tableGame[kings.Action, kings.View, *kings.Game, *kings.Match])
			b, err := json.Marshal(x.g.Record(seats))
			require.NoError(t, err)
			return b
		},
		spite.Name: func(g engine.TableGame, seats []string) []byte {
			x := g.(*tableGame[spite.Action, spite.View, *spite.Game, *spite.Match])
			b, err := json.Marshal(x.g.Record(seats))
			require.NoError(t, err)
			return b
		},
	}
	for _, kit := range []engine.TableKit{KingsKit(), SpiteKit()} {
		name := kit.Info().Name
		t.Run(name, func(t *testing.T) {
			m, err := kit.NewMatch(engine.Spec{Game: name, Seed: 11}, 2)
			require.NoError(t, err)
			g := m.Game()
			players := make([]engine.TablePlayer, 2)
			for i := range players {
				players[i], err = kit.NewPlayer("easy", uint64(i+1))
				require.NoError(t, err)
			}
			seats := []string{"person", "normal"}
			type handed struct {
				rec  any
				want string
			}
			var earlier []handed
			check := func() {
				rec := g.Record(seats)
				got, err := json.Marshal(rec)
				require.NoError(t, err)
				want := whole[name](g, seats)
				require.Equal(t, string(want), string(got))
				a, ok := rec.(JSONRecord)
				require.True(t, ok, "the kit keeps the record's JSON")
				require.Equal(t, string(want), string(a.AppendJSON(nil)))
				require.Equal(t, len(want), a.JSONLen())
				earlier = append(earlier, handed{rec, string(want)})
			}
			check()
			for step := 0; ; step++ {
				if _, over := g.Over(); over {
					break
				}
				require.Less(t, step, 2000, "the game ends")
				seat := g.Turn()
				require.NoError(t, g.Play(seat, players[seat]))
				if step == 7 {
					seats = []string{"easy", "normal"} // the person lost the seat to a computer
				}
				if step%3 == 0 {
					check()
				}
			}
			check()
			check() // again, over: nothing new to add
			for _, e := range earlier {
				b, err := json.Marshal(e.rec)
				require.NoError(t, err)
				require.Equal(t, e.want, string(b), "a record handed out before is unchanged")
			}
		})
	}
}
