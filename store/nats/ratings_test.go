package nats

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/internal/natstest"
	"sshuffle/store"
)

// Two handles (two nodes: no lock of one process keeps them apart) record
// rated games of the same people at once: the same game from both counts
// once, and different games all count, each from the ratings as the other
// left them.
func TestRatedGamesAcrossHandles(t *testing.T) {
	c := natstest.Single(t)
	a := openAt(t, c, -1, "rated", nil)
	b := openAt(t, c, -1, "rated", nil)
	ctx := context.Background()
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	game := func(code string, i int) store.TableGame {
		return store.TableGame{Code: code, Game: "spite", Spec: "spite/7", Record: []byte(`{}`),
			Seats: []store.TableSeat{
				{Account: "ann", Strength: "person", Place: 1 + i%2},
				{Account: "bob", Strength: "person", Place: 2 - i%2},
			},
			Finished: t0.Add(time.Duration(i) * time.Second), Rated: true}
	}
	const rounds = 6
	for i := range rounds {
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for j, s := range []*Store{a, b, a, b} {
			// Both handles record the same game, and each one game of
			// its own.
			code := fmt.Sprintf("S%04d", i)
			if j >= 2 {
				code = fmt.Sprintf("O%d%03d", j, i)
			}
			wg.Go(func() { errs[j] = s.RecordTableGame(ctx, game(code, i)) })
		}
		wg.Wait()
		for _, err := range errs {
			require.NoError(t, err)
		}
	}
	for _, s := range []*Store{a, b} {
		for _, who := range []string{"ann", "bob"} {
			r, err := s.Rating(ctx, who, "spite")
			require.NoError(t, err)
			require.Equal(t, 3*rounds, r.Games, "%s: the shared game once a round, and two of their own", who)
			gs, err := s.TableGames(ctx, who, 100)
			require.NoError(t, err)
			require.Len(t, gs, 3*rounds)
		}
	}
	board, err := b.RatingBoard(ctx, "spite", 10)
	require.NoError(t, err)
	require.Len(t, board, 2)
}
