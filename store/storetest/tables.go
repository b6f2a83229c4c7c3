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

// Stats count games and matches apart: a match of three games, then a
// rematch of two at the same code (a new deal, numbered from 0 again), is
// five games and two matches for each person seated, each won by whoever
// the record says; a computer's seat counts for nobody.
func testTableMatchesApart(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t, nil)
	at := t0
	game := func(spec string, no, winner int, end bool, matchWinner int) store.TableGame {
		at = at.Add(time.Minute)
		return store.TableGame{
			Code: "KKKKK", Game: "kings", Spec: spec, GameNo: no, Record: []byte(`{"game":"kings"}`),
			Seats: []store.TableSeat{
				{Account: "a", Name: "ann", Strength: "person"},
				{Account: "b", Name: "bob", Strength: "person"},
				{Strength: "hard"},
			},
			Winner: winner, Points: []int{0, 3, 5}, LowWins: true, Totals: []int{0, 3, 5},
			MatchEnd: end, MatchWinner: matchWinner, Started: at.Add(-time.Second), Finished: at,
		}
	}
	for _, g := range []store.TableGame{
		game("kings/match=25/1", 0, 0, false, -1),
		game("kings/match=25/1", 1, 2, false, -1),
		game("kings/match=25/1", 2, 1, true, 0),
		game("kings/match=25/2", 0, 1, false, -1),
		game("kings/match=25/2", 1, 1, true, 1),
	} {
		require.NoError(t, s.RecordTableGame(ctx, g))
	}
	st, err := s.TableStats(ctx, "a")
	require.NoError(t, err)
	require.Equal(t, []store.TableStats{{Game: "kings", Played: 5, Won: 1, Matches: 2, MatchesWon: 1, AgainstPeople: 5}}, st)
	st, err = s.TableStats(ctx, "b")
	require.NoError(t, err)
	require.Equal(t, []store.TableStats{{Game: "kings", Played: 5, Won: 3, Matches: 2, MatchesWon: 1, AgainstPeople: 5}}, st)
	gs, err := s.TableGames(ctx, "a", 10)
	require.NoError(t, err)
	require.Len(t, gs, 5)
}
