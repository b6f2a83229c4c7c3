package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/engine/rating"
	"sshuffle/store"
)

func ratedGame(code, game string, seats []store.TableSeat, at time.Time) store.TableGame {
	points := make([]int, len(seats))
	totals := make([]int, len(seats))
	return store.TableGame{
		Code: code, Game: game, Spec: game + "/7", GameNo: 0, Record: []byte(`{"game":"` + game + `"}`),
		Seats: seats, Winner: 0, Points: points, Totals: totals, MatchEnd: true, MatchWinner: 0,
		Started: at.Add(-time.Minute), Finished: at, Rated: true,
	}
}

func ratingOf(r store.Rating) rating.Rating {
	return rating.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}
}

// A rated game moves each person's rating by the Glicko-2 period that
// rating.RateGame computes from everyone's rating before it, once however
// often it is recorded; a computer's rating is the fixed one the game
// names; a casual game moves nothing; the board lists the rated, highest
// first, under their current names.
func testRatings(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t, nil)
	for _, a := range []struct{ id, name string }{{"a", "ann"}, {"b", "bob"}, {"c", "cat"}} {
		_, err := s.CreateAccount(ctx, a.id, a.name)
		require.NoError(t, err)
	}
	fresh, err := s.Rating(ctx, "a", "spite")
	require.NoError(t, err)
	def := rating.Default()
	require.Equal(t, store.Rating{Account: "a", Game: "spite", Rating: def.Rating, Deviation: def.Deviation, Volatility: def.Volatility}, fresh)

	// ann beats bob.
	g1 := ratedGame("RRRRR", "spite", []store.TableSeat{
		{Account: "a", Name: "ann", Strength: "person", Place: 1},
		{Account: "b", Name: "bob", Strength: "person", Place: 2},
	}, t0)
	require.NoError(t, s.RecordTableGame(ctx, g1))
	require.NoError(t, s.RecordTableGame(ctx, g1), "again is a no-op")
	want, err := rating.RateGame([]rating.Seat{{Rating: def}, {Rating: def}}, []int{1, 2})
	require.NoError(t, err)
	ann, err := s.Rating(ctx, "a", "spite")
	require.NoError(t, err)
	bob, err := s.Rating(ctx, "b", "spite")
	require.NoError(t, err)
	require.Equal(t, want[0], ratingOf(ann))
	require.Equal(t, want[1], ratingOf(bob))
	require.Equal(t, 1, ann.Games)
	require.Equal(t, 1, bob.Games)
	require.True(t, ann.Last.Equal(t0))
	require.Greater(t, ann.Rating, bob.Rating)

	// The kept game says each person's rating before and after.
	gs, err := s.TableGames(ctx, "b", 10)
	require.NoError(t, err)
	require.Len(t, gs, 1)
	require.True(t, gs[0].Rated)
	require.Equal(t, &store.SeatRating{Rating: def.Rating, Deviation: def.Deviation, Volatility: def.Volatility,
		After: want[1].Rating, AfterDeviation: want[1].Deviation}, gs[0].Seats[1].Rating)

	// A casual game between them moves nothing.
	casual := g1
	casual.Code, casual.Rated = "CCCCC", false
	casual.Seats = []store.TableSeat{{Account: "a", Name: "ann", Strength: "person"}, {Account: "b", Name: "bob", Strength: "person"}}
	casual.Winner = 1
	require.NoError(t, s.RecordTableGame(ctx, casual))
	again, err := s.Rating(ctx, "b", "spite")
	require.NoError(t, err)
	require.Equal(t, bob, again)

	// Kings of three: bob went out, cat and a computer tie on penalties.
	hard := store.SeatRating{Rating: 1700, Deviation: 40, Volatility: 0.06}
	g2 := ratedGame("KKKKK", "kings", []store.TableSeat{
		{Account: "b", Name: "bob", Strength: "person", Place: 1},
		{Account: "c", Name: "cat", Strength: "person", Place: 2},
		{Name: "Ada", Strength: "hard", Place: 2, Rating: &hard},
	}, t0.Add(time.Hour))
	require.NoError(t, s.RecordTableGame(ctx, g2))
	comp := rating.Rating{Rating: 1700, Deviation: 40, Volatility: 0.06}
	want2, err := rating.RateGame([]rating.Seat{{Rating: def}, {Rating: def}, {Rating: comp, Fixed: true}}, []int{1, 2, 2})
	require.NoError(t, err)
	bobKings, err := s.Rating(ctx, "b", "kings")
	require.NoError(t, err)
	catKings, err := s.Rating(ctx, "c", "kings")
	require.NoError(t, err)
	require.Equal(t, want2[0], ratingOf(bobKings))
	require.Equal(t, want2[1], ratingOf(catKings))
	bobSpite, err := s.Rating(ctx, "b", "spite")
	require.NoError(t, err)
	require.Equal(t, bob, bobSpite, "a game of kings leaves spite alone")

	all, err := s.Ratings(ctx, "b")
	require.NoError(t, err)
	require.Len(t, all, 2)
	require.Equal(t, "kings", all[0].Game)
	require.Equal(t, "spite", all[1].Game)
	require.Equal(t, bobKings.Rating, all[0].Rating)
	none, err := s.Ratings(ctx, "nobody")
	require.NoError(t, err)
	require.Empty(t, none)

	board, err := s.RatingBoard(ctx, "spite", 10)
	require.NoError(t, err)
	require.Len(t, board, 2)
	require.Equal(t, []string{"ann", "bob"}, []string{board[0].Name, board[1].Name})
	require.Equal(t, ann.Rating, board[0].Rating)
	require.Equal(t, "a", board[0].Account)
	// bob beats ann in a second rated game: the board follows, one entry
	// each.
	g3 := ratedGame("SSSSS", "spite", []store.TableSeat{
		{Account: "a", Name: "ann", Strength: "person", Place: 2},
		{Account: "b", Name: "bob", Strength: "person", Place: 1},
	}, t0.Add(2*time.Hour))
	require.NoError(t, s.RecordTableGame(ctx, g3))
	g3.Seats[1].Place = 2 // a retry that differs still counts only once
	require.NoError(t, s.RecordTableGame(ctx, g3))
	board, err = s.RatingBoard(ctx, "spite", 10)
	require.NoError(t, err)
	require.Len(t, board, 2)
	ann, err = s.Rating(ctx, "a", "spite")
	require.NoError(t, err)
	bob, err = s.Rating(ctx, "b", "spite")
	require.NoError(t, err)
	require.Equal(t, 2, ann.Games)
	require.Equal(t, 2, bob.Games)
	first := "ann"
	if bob.Rating > ann.Rating {
		first = "bob"
	}
	require.Equal(t, first, board[0].Name)
	top, err := s.RatingBoard(ctx, "spite", 1)
	require.NoError(t, err)
	require.Len(t, top, 1)
	empty, err := s.RatingBoard(ctx, "nothing", 10)
	require.NoError(t, err)
	require.Empty(t, empty)
}

// A rated game that lacks what rating it needs is refused and keeps
// nothing.
func testRatedGameChecked(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t, nil)
	noPlace := ratedGame("AAAAA", "spite", []store.TableSeat{
		{Account: "a", Strength: "person", Place: 1}, {Account: "b", Strength: "person"},
	}, t0)
	noComputerRating := ratedGame("BBBBB", "spite", []store.TableSeat{
		{Account: "a", Strength: "person", Place: 1}, {Strength: "hard", Place: 2},
	}, t0)
	twice := ratedGame("CCCCC", "kings", []store.TableSeat{
		{Account: "a", Strength: "person", Place: 1}, {Account: "a", Strength: "person", Place: 2},
		{Account: "b", Strength: "person", Place: 3},
	}, t0)
	pastSeats := ratedGame("DDDDD", "spite", []store.TableSeat{
		{Account: "a", Strength: "person", Place: 1}, {Account: "b", Strength: "person", Place: 3},
	}, t0)
	for _, g := range []store.TableGame{noPlace, noComputerRating, twice, pastSeats} {
		require.ErrorIs(t, s.RecordTableGame(ctx, g), store.ErrInvalid, g.Code)
	}
	gs, err := s.TableGames(ctx, "a", 10)
	require.NoError(t, err)
	require.Empty(t, gs)
	r, err := s.Ratings(ctx, "a")
	require.NoError(t, err)
	require.Empty(t, r)
	_, err = s.Rating(ctx, "a", "")
	require.ErrorIs(t, err, store.ErrInvalid)
}

// Rated games finishing at once for the same people all count: each is
// one more game on their ratings, and the board keeps one entry per
// account, the rating it holds.
func testConcurrentRatings(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t, nil)
	const games = 24
	var wg sync.WaitGroup
	errs := make(chan error, games)
	for i := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			other := fmt.Sprintf("p%d", i%4)
			g := ratedGame(fmt.Sprintf("G%04d", i), "spite", []store.TableSeat{
				{Account: "hub", Strength: "person", Place: 1 + i%2},
				{Account: other, Strength: "person", Place: 2 - i%2},
			}, t0.Add(time.Duration(i)*time.Second))
			errs <- s.RecordTableGame(ctx, g)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	hub, err := s.Rating(ctx, "hub", "spite")
	require.NoError(t, err)
	require.Equal(t, games, hub.Games)
	board, err := s.RatingBoard(ctx, "spite", 100)
	require.NoError(t, err)
	require.Len(t, board, 5)
	for i, r := range board {
		own, err := s.Rating(ctx, r.Account, "spite")
		require.NoError(t, err)
		require.Equal(t, own.Rating, r.Rating)
		if i > 0 {
			require.GreaterOrEqual(t, board[i-1].Rating, r.Rating)
		}
	}
}
