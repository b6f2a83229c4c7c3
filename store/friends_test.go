package store

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestFollowUnfollowFollowing(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	for _, id := range []string{"a", "b", "c"} {
		_, err := s.CreateAccount(id, "")
		require.NoError(t, err)
	}
	got, err := s.Following(ctx, "a")
	require.NoError(t, err)
	require.Empty(t, got)

	require.NoError(t, s.Follow(ctx, "a", "c"))
	require.NoError(t, s.Follow(ctx, "a", "b"))
	require.NoError(t, s.Follow(ctx, "a", "b"), "following twice is a no-op")
	require.ErrorIs(t, s.Follow(ctx, "a", "a"), ErrInvalid)
	require.ErrorIs(t, s.Follow(ctx, "a", "nobody"), ErrNotFound)
	got, err = s.Following(ctx, "a")
	require.NoError(t, err)
	require.Equal(t, []string{"b", "c"}, got)
	got, err = s.Following(ctx, "b")
	require.NoError(t, err)
	require.Empty(t, got, "following is one way")

	require.NoError(t, s.Unfollow(ctx, "a", "b"))
	require.NoError(t, s.Unfollow(ctx, "a", "b"), "unfollowing twice is a no-op")
	got, err = s.Following(ctx, "a")
	require.NoError(t, err)
	require.Equal(t, []string{"c"}, got)

	done, cancel := context.WithCancel(ctx)
	cancel()
	require.ErrorIs(t, s.Follow(done, "a", "b"), context.Canceled)
	_, err = s.Following(done, "a")
	require.ErrorIs(t, err, context.Canceled)
}

// An abandoned game counts as played and abandoned, never as a best score,
// and stays off the boards.
func TestAbandonedGamesCountApart(t *testing.T) {
	s, _ := openTemp(t)
	rec := func(i int, r Result) {
		r.Account, r.Key, r.Spec, r.Finished = "a", "klondike/draw1", fmt.Sprintf("klondike/draw1/%d", i), t0.Add(time.Duration(i)*time.Minute)
		require.NoError(t, s.RecordResult(r))
	}
	rec(1, Result{Score: 900, Abandoned: true, ByPoints: true})
	st, err := s.StatsFor("a", "klondike/draw1")
	require.NoError(t, err)
	require.Equal(t, 1, st.Played)
	require.Equal(t, 1, st.Abandoned)
	require.Zero(t, st.BestScore, "an abandoned game is not a best score")
	board, err := s.Board("klondike/draw1", "", 10)
	require.NoError(t, err)
	require.Empty(t, board, "an abandoned game is not on the board")

	rec(2, Result{Score: 120, Won: true, Elapsed: time.Minute, ByPoints: true})
	rec(3, Result{Score: 700, Abandoned: true, Elapsed: time.Second, ByPoints: true})
	st, err = s.StatsFor("a", "klondike/draw1")
	require.NoError(t, err)
	require.Equal(t, Stats{Played: 3, Won: 1, Abandoned: 2, BestScore: 120, BestTime: time.Minute,
		TotalTime: time.Minute + time.Second, Last: t0.Add(3 * time.Minute)}, st)
	board, err = s.Board("klondike/draw1", "", 10)
	require.NoError(t, err)
	require.Len(t, board, 1)
	require.Equal(t, 120, board[0].Score)

	r := Result{Account: "a", Key: "k", Spec: "k/1", Won: true, Abandoned: true, Finished: t0}
	require.ErrorIs(t, s.RecordResult(r), ErrInvalid)
}
