package history

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/internal/uitest"
	"sshuffle/store"
)

// The page lists the player's games newest first in 80x24, scrolls, and
// enter asks for the replay of the game under the cursor.
func TestHistoryPage(t *testing.T) {
	e, _ := uitest.Env(t)
	ctx := context.Background()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	var ids []string
	for i := range 30 {
		r := store.Result{Account: e.Player.ID, Spec: fmt.Sprintf("klondike/draw1/%d", i+1), Key: "klondike/draw1",
			Won: i%2 == 0, Moves: 100 + i, Elapsed: time.Duration(60+i) * time.Second, Finished: at.Add(time.Duration(i) * time.Minute),
			Abandoned: i%2 == 1}
		require.NoError(t, e.Store.RecordResult(ctx, r))
		ids = append([]string{store.ResultID(r)}, ids...)
	}
	r := ui.NewRouter(e, uitest.Pages, New(e), "")
	f := uitest.Frame(r)
	uitest.CheckFit(t, f, uitest.Fit{W: 80, H: 24, Keys: []string{"enter", "q"}})
	require.Contains(t, f, "> Dec 01 10:29  klondike draw1: left after 129 moves")
	require.Contains(t, f, "Dec 01 10:28  klondike draw1: won in 1:28, 128 moves")
	require.Contains(t, f, "1 of 30  id "+ids[0])
	for range 25 {
		uitest.Press(r, "down")
	}
	f = uitest.Frame(r)
	uitest.Fits(t, f, 80, 24)
	require.Contains(t, f, "> Dec 01 10:04", "scrolled to the cursor")
	require.Contains(t, f, "26 of 30  id "+ids[25])
	s := uitest.Press(r, "enter")
	route := uitest.PageOf(t, s)
	require.Equal(t, ui.Replay, route.Page)
	require.Equal(t, ids[25], route.ID)
}

func TestHistoryPageEmptyAndGuest(t *testing.T) {
	e, _ := uitest.Env(t)
	f := uitest.Plain(New(e).View())
	require.Contains(t, f, "No finished games yet")
	e.Player.Guest = true
	f = uitest.Plain(New(e).View())
	require.Contains(t, f, "Guests' games are not kept")
}
