package profile

import (
	"context"
	"log/slog"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/engine/rating"
	"sshuffle/games"
	"sshuffle/internal/uitest"
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

// The profile gives the player's rating at each table game: a newcomer's
// marked provisional, one settled by many games plain; the page fits
// 80x24.
func TestProfileShowsRatings(t *testing.T) {
	st, err := badger.OpenInMemory()
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	ctx := context.Background()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	id := "SHA256:testkey"
	_, err = st.CreateAccount(ctx, id, "tess")
	require.NoError(t, err)
	e := &ui.Env{Games: games.Default(), Store: st, Log: slog.New(slog.DiscardHandler), Now: func() time.Time { return now },
		Player: &ui.Player{ID: id, Name: "tess"}, Unicode: true, Color: false, Width: 80, Height: 24}
	v := New(e).View()
	require.Contains(t, v, "Ratings  Spite and Malice 1500?  Kings in the Corner 1500?")
	require.Contains(t, v, "? provisional")
	uitest.Fits(t, v, 80, 24)
	// Many rated Spite games against a computer, won and lost in turn,
	// settle the rating.
	for i := range 30 {
		require.NoError(t, st.RecordTableGame(ctx, store.TableGame{Code: "RATED", Game: "spite", Spec: "spite/" + strconv.Itoa(i),
			Record: []byte(`{}`), Winner: 0, Points: []int{9, 0}, Totals: []int{9, 0}, MatchWinner: 0, Rated: true,
			Started: now, Finished: now.Add(time.Duration(i) * time.Minute),
			Seats: []store.TableSeat{{Account: id, Name: "tess", Strength: "person", Place: 1 + i%2},
				{Name: "Chip", Strength: "normal", Place: 2 - i%2, Rating: &store.SeatRating{Rating: 1500, Deviation: 10}}}}))
	}
	r, err := st.Rating(ctx, id, "spite")
	require.NoError(t, err)
	require.LessOrEqual(t, r.Deviation, rating.Provisional)
	v = New(e).View()
	require.Contains(t, v, "Spite and Malice "+rating.Label(rating.Rating{Rating: r.Rating, Deviation: r.Deviation})+"  Kings")
	require.NotContains(t, v, "Spite and Malice "+rating.Label(rating.Rating{Rating: r.Rating, Deviation: r.Deviation})+"?")
	uitest.Fits(t, v, 80, 24)
}
