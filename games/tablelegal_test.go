package games_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/toygame"
)

// TestLegalEncoded: a whole game of each table game played by taking, at
// every turn, one of the actions listed from the seat's view alone: each
// is accepted, the list is never empty for the seat to act and always
// empty for the others, and the game ends.
func TestLegalEncoded(t *testing.T) {
	for _, tc := range []struct {
		kit   engine.TableKit
		seats int
	}{{games.SpiteKit(), 2}, {games.KingsKit(), 3}} {
		t.Run(tc.kit.Info().Name, func(t *testing.T) {
			lk, ok := tc.kit.(engine.TableLegal)
			require.True(t, ok)
			m, err := tc.kit.NewMatch(engine.Spec{Game: tc.kit.Info().Name, Seed: 11}, tc.seats)
			require.NoError(t, err)
			g := m.Game()
			rng := engine.NewRNG(5)
			for n := 0; ; n++ {
				require.Less(t, n, 5000, "the game ends")
				if _, over := g.Over(); over {
					break
				}
				turn := g.Turn()
				for s := range tc.seats {
					l, err := lk.LegalEncoded(g.View(s))
					require.NoError(t, err)
					if s != turn {
						require.Empty(t, l, "seat %d is not to act", s)
					}
				}
				l, err := lk.LegalEncoded(g.View(turn))
				require.NoError(t, err)
				require.NotEmpty(t, l)
				require.NoError(t, g.Do(turn, l[rng.Intn(len(l))]))
			}
		})
	}
	_, err := toygame.Kit().(engine.TableLegal).LegalEncoded([]byte("{}"))
	require.Error(t, err, "a view that is no view of the game")
}
