package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/store"
)

// A rematch at a table deals a new match under the same code, whose games
// are numbered from the start again: they are other games, kept and
// counted beside the first match's, while the same game recorded twice is
// still counted once.
func testTableRematchKept(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t, nil)
	game := func(spec string, no int, at time.Time) store.TableGame {
		return store.TableGame{
			Code: "AAAAA", Game: "spite", Spec: spec, GameNo: no, Record: []byte(`{"game":"spite"}`),
			Seats:  []store.TableSeat{{Account: "a", Name: "ann", Strength: "person"}, {Strength: "hard"}},
			Winner: 0, Points: []int{5, 0}, Totals: []int{1, 0}, MatchEnd: true, MatchWinner: 0,
			Started: at.Add(-time.Minute), Finished: at,
		}
	}
	first, rematch := game("spite/11", 0, t0), game("spite/12", 0, t0.Add(time.Hour))
	require.NoError(t, s.RecordTableGame(ctx, first))
	require.NoError(t, s.RecordTableGame(ctx, rematch))
	require.NoError(t, s.RecordTableGame(ctx, rematch), "again is a no-op")
	// A rematch finished within the same second as another game is kept
	// too.
	same := game("spite/13", 0, t0.Add(time.Hour))
	require.NoError(t, s.RecordTableGame(ctx, same))
	gs, err := s.TableGames(ctx, "a", 10)
	require.NoError(t, err)
	require.Len(t, gs, 3)
	st, err := s.TableStats(ctx, "a")
	require.NoError(t, err)
	require.Equal(t, []store.TableStats{{Game: "spite", Played: 3, Won: 3, Matches: 3, MatchesWon: 3}}, st)
}
