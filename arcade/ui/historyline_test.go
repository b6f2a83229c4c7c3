package ui

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/store"
)

// A history line words a game for the player whose history it is.
func TestHistoryLine(t *testing.T) {
	cases := []struct {
		e             store.HistoryEntry
		what, outcome string
	}{
		{store.HistoryEntry{Result: &store.Result{Key: "spider/2suit", Moves: 1, Abandoned: true}},
			"spider 2suit", "left after 1 move"},
		{store.HistoryEntry{Result: &store.Result{Key: "tripeaks", Won: true, Moves: 40, Elapsed: 95 * time.Second, ByPoints: true, Score: 12}},
			"tripeaks", "won in 1:35, 40 moves, 12 points"},
		{store.HistoryEntry{Table: &store.TableGame{Game: "kings", GameNo: 1, Winner: 2, LowWins: true, Points: []int{3, 7, 0},
			Seats: []store.TableSeat{{Account: "me", Name: "ann"}, {Account: "b", Name: "bob"}, {Name: "Ada"}}}},
			"kings with bob, Ada (game 2)", "Ada won, penalties 3-7-0"},
		{store.HistoryEntry{Table: &store.TableGame{Game: "spite", Winner: 1, Points: []int{0, 12}, MatchEnd: true, MatchWinner: 1,
			Seats: []store.TableSeat{{Name: "bob", Account: "b"}, {Account: "me", Name: "ann"}}}},
			"spite with bob", "won 0-12; match won"},
		{store.HistoryEntry{Race: &store.RaceRecord{Key: "klondike/draw1", Racers: []store.RaceRacer{
			{Account: "b", Name: "bob", Place: 1}, {Account: "me", Name: "ann", Place: 2, Time: 61 * time.Second}}}},
			"race klondike draw1 with bob", "2nd of 2, 1:01"},
	}
	for _, c := range cases {
		what, outcome := HistoryLine(c.e, "me")
		require.Equal(t, c.what, what)
		require.Equal(t, c.outcome, outcome)
	}
}
