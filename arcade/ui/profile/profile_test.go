package profile

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/store"
	"sshuffle/store/badger"
)

// A won daily deal shows on the profile as a streak and on the game's
// boards, today's and all time.
func TestProfileAndBoardsShowADailyWin(t *testing.T) {
	st, err := badger.OpenInMemory()
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	id := "SHA256:testkey"
	_, err = st.CreateAccount(context.Background(), id, "tess")
	require.NoError(t, err)
	e := &ui.Env{Games: games.Default(), Store: st, Log: slog.New(slog.DiscardHandler), Now: func() time.Time { return now },
		Player: &ui.Player{ID: id, Name: "tess"}, Unicode: true, Color: true, Width: 80, Height: 24}
	tp, _ := games.Default().Entry("tripeaks")
	require.NoError(t, st.RecordResult(context.Background(), store.Result{Account: id, Name: "tess", Spec: "tripeaks/w/5", Key: tp.Key(),
		Won: true, Score: 40, Moves: 30, Elapsed: time.Minute, Finished: now, Daily: true, Day: store.Day(now), ByPoints: true}))
	require.Contains(t, New(e).View(), "1/1", "the profile shows the streak")
	v := NewBoards(e, tp).View()
	require.Contains(t, v, "tess")
	require.Contains(t, v, "Your streak: 1 day")
	require.Contains(t, v, "40 pts", "TriPeaks ranks by points")
	require.Contains(t, v, "points, time, moves")
}
