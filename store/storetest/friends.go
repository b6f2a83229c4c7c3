package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/store"
)

func testFollowing(t *testing.T, open Opener) {
	s := open(t, nil)
	for _, id := range []string{"a", "b", "c"} {
		_, err := s.CreateAccount(ctx, id, "")
		require.NoError(t, err)
	}
	got, err := s.Following(ctx, "a")
	require.NoError(t, err)
	require.Empty(t, got)

	require.NoError(t, s.Follow(ctx, "a", "c"))
	require.NoError(t, s.Follow(ctx, "a", "b"))
	require.NoError(t, s.Follow(ctx, "a", "b"), "following twice is a no-op")
	require.ErrorIs(t, s.Follow(ctx, "a", "a"), store.ErrInvalid)
	require.ErrorIs(t, s.Follow(ctx, "a", "nobody"), store.ErrNotFound)
	require.ErrorIs(t, s.Follow(ctx, "a", ""), store.ErrInvalid)
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

// createAccounts creates the accounts f0000... (n of them) a few at a
// time: the cap tests need hundreds, and a networked backend answers each
// in a round trip, which one after another is most of those tests' time.
func createAccounts(t *testing.T, s store.Store, n int) {
	t.Helper()
	const workers = 8
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n && errs[w] == nil; i += workers {
				_, errs[w] = s.CreateAccount(ctx, fmt.Sprintf("f%04d", i), "")
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
}

func testFollowingCap(t *testing.T, open Opener) {
	s := open(t, nil)
	_, err := s.CreateAccount(ctx, "me", "")
	require.NoError(t, err)
	createAccounts(t, s, store.MaxFollowing+1)
	for i := range store.MaxFollowing + 1 {
		id := fmt.Sprintf("f%04d", i)
		err = s.Follow(ctx, "me", id)
		if i < store.MaxFollowing {
			require.NoError(t, err)
		} else {
			require.ErrorIs(t, err, store.ErrInvalid, "past the cap")
		}
	}
	got, err := s.Following(ctx, "me")
	require.NoError(t, err)
	require.Len(t, got, store.MaxFollowing)
}

// Many follows of one account at once still stop exactly at the cap: each
// one counts the follows already there, so two that count the same 499
// must not both be added.
func testFollowingCapUnderConcurrency(t *testing.T, open Opener) {
	s := open(t, nil)
	_, err := s.CreateAccount(ctx, "me", "")
	require.NoError(t, err)
	const parallel = 32
	const before = store.MaxFollowing - parallel/4 // 8 places left for 32 at once
	createAccounts(t, s, before+parallel)
	for i := range before {
		require.NoError(t, s.Follow(ctx, "me", fmt.Sprintf("f%04d", i)))
	}
	for round := range 3 {
		start := make(chan struct{})
		errs := make([]error, parallel)
		var wg sync.WaitGroup
		for g := range parallel {
			wg.Go(func() {
				<-start
				errs[g] = s.Follow(ctx, "me", fmt.Sprintf("f%04d", before+g))
			})
		}
		close(start)
		wg.Wait()
		added := 0
		for _, err := range errs {
			if err == nil {
				added++
			} else {
				require.ErrorIs(t, err, store.ErrInvalid, "a follow past the cap is refused as such")
			}
		}
		got, err := s.Following(ctx, "me")
		require.NoError(t, err)
		require.Equal(t, store.MaxFollowing, len(got), "round %d: %d follows at once", round, parallel)
		require.Equal(t, store.MaxFollowing-before, added, "round %d", round)
		// Make room again for the next round.
		for g := range parallel {
			require.NoError(t, s.Unfollow(ctx, "me", fmt.Sprintf("f%04d", before+g)))
		}
	}
}

// An abandoned game counts as played and abandoned, never as a best score,
// and stays off the boards.
func testAbandonedCountApart(t *testing.T, open Opener) {
	s := open(t, nil)
	rec := func(i int, r store.Result) {
		r.Account, r.Key, r.Spec, r.Finished = "a", "klondike/draw1", fmt.Sprintf("klondike/draw1/%d", i), t0.Add(time.Duration(i)*time.Minute)
		require.NoError(t, s.RecordResult(ctx, r))
	}
	rec(1, store.Result{Score: 900, Abandoned: true, ByPoints: true})
	st, err := s.StatsFor(ctx, "a", "klondike/draw1")
	require.NoError(t, err)
	require.Equal(t, 1, st.Played)
	require.Equal(t, 1, st.Abandoned)
	require.Zero(t, st.BestScore, "an abandoned game is not a best score")
	board, err := s.Board(ctx, "klondike/draw1", "", 10)
	require.NoError(t, err)
	require.Empty(t, board, "an abandoned game is not on the board")

	rec(2, store.Result{Score: 120, Won: true, Elapsed: time.Minute, ByPoints: true})
	rec(3, store.Result{Score: 700, Abandoned: true, Elapsed: time.Second, ByPoints: true})
	st, err = s.StatsFor(ctx, "a", "klondike/draw1")
	require.NoError(t, err)
	require.Equal(t, store.Stats{Played: 3, Won: 1, Abandoned: 2, BestScore: 120, BestTime: time.Minute,
		TotalTime: time.Minute + time.Second, Last: t0.Add(3 * time.Minute)}, st)
	board, err = s.Board(ctx, "klondike/draw1", "", 10)
	require.NoError(t, err)
	require.Len(t, board, 1)
	require.Equal(t, 120, board[0].Score)

	r := store.Result{Account: "a", Key: "k", Spec: "k/1", Won: true, Abandoned: true, Finished: t0}
	require.ErrorIs(t, s.RecordResult(ctx, r), store.ErrInvalid)
}
