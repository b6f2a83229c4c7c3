package table

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/historytest"
	"sshuffle/internal/uitest"
	"sshuffle/store"
)

// A replay's frame of a finished game is the seat's screen with the
// stored seats' names and the replay's note, in 80x24; at the end, the
// game's outcome.
func TestStill(t *testing.T) {
	e, _ := uitest.Env(t)
	kit, _ := games.Default().TableKit("kings")
	g := historytest.TableGame(t, kit, "KINGS", 3, 3, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC),
		store.Account{ID: "SHA256:ann", Name: "ann"}, store.Account{ID: "SHA256:bob", Name: "bob"})
	spec, err := engine.ParseSpec(g.Spec)
	require.NoError(t, err)
	m, err := kit.NewMatch(spec, 3)
	require.NoError(t, err)
	v, err := kit.DecodeView(m.Game().View(1))
	require.NoError(t, err)
	f, err := Still(e, g, "Replay of game 1 at KINGS, from your seat.", false, v)
	require.NoError(t, err)
	f = uitest.Plain(f)
	uitest.Fits(t, f, 80, 24)
	require.Contains(t, f, "Replay of game 1 at KINGS, from your seat.")
	require.Contains(t, f, "bob (you)", "seat 1's view")
	require.Contains(t, f, "ann")
	require.Contains(t, f, g.Seats[2].Name)

	_, err = Still(e, store.TableGame{Game: "chess"}, "", false, v)
	require.Error(t, err)
}
