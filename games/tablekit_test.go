package games_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/spite"
	"sshuffle/internal/toygame"
)

// remote is a computer player from elsewhere: it answers an encoded view
// with whatever bytes choose gives.
type remote struct {
	choose func(view []byte) ([]byte, error)
	seen   [][]byte
}

func (r *remote) ChooseEncoded(view []byte) ([]byte, error) {
	r.seen = append(r.seen, view)
	return r.choose(view)
}

// TestKitGame: the erased game applies encoded actions and refuses bytes
// that are no action with the game's sentence; a player that holds only
// bytes is handed the seat's view and its choice is played, and a choice
// the rules refuse (or bytes that are none) is replaced by a legal action
// so the table never stalls; Describe words each action once.
func TestKitGame(t *testing.T) {
	kit := toygame.Kit()
	m, err := kit.NewMatch(engine.Spec{Game: toygame.Name, Seed: 9}, 2)
	require.NoError(t, err)
	g := m.Game()
	names := []string{"ann", "bob"}

	require.EqualError(t, g.Do(g.Turn(), []byte(`{"card":"KD"}`)), "That is not a move of High Card.")
	require.Zero(t, g.Actions())
	_, err = kit.EncodeAction(spite.Action{Do: spite.Pass})
	require.Error(t, err, "another game's action")

	seat := g.Turn()
	view, err := kit.DecodeView(g.View(seat))
	require.NoError(t, err)
	card := view.(toygame.View).Hand[1]
	good, err := kit.EncodeAction(toygame.Action{Card: card})
	require.NoError(t, err)
	p := &remote{choose: func([]byte) ([]byte, error) { return good, nil }}
	before := g.View(seat)
	require.NoError(t, g.Play(seat, p))
	require.Equal(t, [][]byte{before}, p.seen, "the player saw the seat's view")
	require.Equal(t, 1, g.Actions())
	require.Equal(t, []string{names[seat] + " played " + card.String()}, g.Describe(names))
	require.Empty(t, g.Describe(names), "each action is worded once")

	for _, bad := range []func([]byte) ([]byte, error){
		func([]byte) ([]byte, error) { return []byte("garbage"), nil },
		func([]byte) ([]byte, error) { return good, nil }, // played already: the rules refuse it
		func([]byte) ([]byte, error) { return nil, errors.New("no answer") },
	} {
		if g.Turn() == engine.NoSeat {
			break
		}
		n := g.Actions()
		require.NoError(t, g.Play(g.Turn(), &remote{choose: bad}))
		require.Equal(t, n+1, g.Actions(), "a legal action stood in")
	}
	require.Len(t, g.Describe(names), 3)
}

// TestKitsOfTheHouse: the house's table games are registered once, with
// everything the server needs, and a kit's game plays to a record its own
// Replay accepts.
func TestKitsOfTheHouse(t *testing.T) {
	cat := games.Default()
	var names []string
	for _, g := range cat.TableGames() {
		in := g.Kit.Info()
		names = append(names, in.Name)
		require.Equal(t, g.Name, in.Name)
		require.Equal(t, g.Title, in.Title)
		require.NotEmpty(t, in.Strengths)
		require.Contains(t, in.Strengths, in.StandInStrength())
		kit, ok := cat.TableKit(in.Name)
		require.True(t, ok)
		m, err := kit.NewMatch(engine.Spec{Game: in.Name, Seed: 4}, in.MinPlayers)
		require.NoError(t, err)
		players := make([]engine.TablePlayer, in.MinPlayers)
		for i := range players {
			players[i], err = kit.NewPlayer(in.Strengths[0], uint64(i+1))
			require.NoError(t, err)
		}
		g := m.Game()
		for n := 0; g.Turn() != engine.NoSeat; n++ {
			require.Less(t, n, 20000)
			require.NoError(t, g.Play(g.Turn(), players[g.Turn()]))
		}
		line, err := games.RecordJSON(g, []string{"easy", "easy"})
		require.NoError(t, err)
		require.NoError(t, kit.Replay(line), in.Name)
	}
	require.Equal(t, []string{"spite", "kings"}, names)
	_, ok := cat.TableKit("klondike")
	require.False(t, ok, "a solitaire has no table kit")
}

// Every computer strength of the house's table games has its fixed rating
// (measured by `sshuffle ratings`, reports/ratings.md), so that a rated
// game against any of them can be rated; the stand-in is the anchor.
func TestStrengthsAreRated(t *testing.T) {
	for _, g := range games.Default().TableGames() {
		in := g.Kit.Info()
		require.Len(t, in.Ratings, len(in.Strengths), in.Name)
		for _, s := range in.Strengths {
			r, ok := in.Ratings[s]
			require.True(t, ok, "%s %s", in.Name, s)
			require.Greater(t, r.Rating, 0.0)
			require.Greater(t, r.Deviation, 0.0)
		}
		require.Equal(t, 1500.0, in.Ratings[in.StandInStrength()].Rating, in.Name)
	}
}

// TestChoiceHalvesPlayAsPlay: a choice made in two halves (the thinking
// handed off, the answer applied later) plays every house game exactly as
// Play does, for every strength; a foreign player's bad answer is replaced
// by a legal action as Play replaces it.
func TestChoiceHalvesPlayAsPlay(t *testing.T) {
	cat := games.Default()
	for _, tg := range cat.TableGames() {
		kit := tg.Kit
		in := kit.Info()
		for _, strength := range in.Strengths {
			play := func(split bool) []byte {
				m, err := kit.NewMatch(engine.Spec{Game: in.Name, Seed: 11}, in.MinPlayers)
				require.NoError(t, err)
				players := make([]engine.TablePlayer, in.MinPlayers)
				for i := range players {
					players[i], err = kit.NewPlayer(strength, uint64(i+7))
					require.NoError(t, err)
				}
				g := m.Game()
				for n := 0; g.Turn() != engine.NoSeat; n++ {
					require.Less(t, n, 20000)
					seat := g.Turn()
					if !split {
						require.NoError(t, g.Play(seat, players[seat]))
						continue
					}
					think := g.Choice(seat, players[seat])
					require.NoError(t, g.PlayChosen(seat, think()))
				}
				line, err := games.RecordJSON(g, make([]string, in.MinPlayers))
				require.NoError(t, err)
				return line
			}
			require.Equal(t, string(play(false)), string(play(true)), "%s %s", in.Name, strength)
		}
	}

	kit := toygame.Kit()
	m, err := kit.NewMatch(engine.Spec{Game: toygame.Name, Seed: 9}, 2)
	require.NoError(t, err)
	g := m.Game()
	for _, bad := range []func([]byte) ([]byte, error){
		func([]byte) ([]byte, error) { return []byte("garbage"), nil },
		func([]byte) ([]byte, error) { return nil, errors.New("no answer") },
	} {
		n := g.Actions()
		think := g.Choice(g.Turn(), &remote{choose: bad})
		require.NoError(t, g.PlayChosen(g.Turn(), think()))
		require.Equal(t, n+1, g.Actions(), "a legal action stood in")
	}
}

// BenchmarkViewCodec is one seat's view of a game in play encoded (as a
// table does for each seat looked at, with every state) and decoded (as
// each screen does), for each house table game.
func BenchmarkViewCodec(b *testing.B) {
	for _, tg := range games.Default().TableGames() {
		kit := tg.Kit
		in := kit.Info()
		m, err := kit.NewMatch(engine.Spec{Game: in.Name, Seed: 3}, in.MaxPlayers)
		if err != nil {
			b.Fatal(err)
		}
		g := m.Game()
		players := make([]engine.TablePlayer, in.MaxPlayers)
		for i := range players {
			players[i], _ = kit.NewPlayer(in.Strengths[0], uint64(i+1))
		}
		for range 30 {
			if g.Turn() == engine.NoSeat {
				break
			}
			if err := g.Play(g.Turn(), players[g.Turn()]); err != nil {
				b.Fatal(err)
			}
		}
		view := g.View(0)
		b.Run(in.Name+"/encode", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = g.View(0)
			}
		})
		b.Run(in.Name+"/decode", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := kit.DecodeView(view); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
