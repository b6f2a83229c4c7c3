package lobby

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/games/kings"
	"sshuffle/games/spite"
	"sshuffle/internal/uitest"
)

// A rated table says so on its line, with its host's rating beside the
// host's name, and its detail gives every seat's rating after the seats.
func TestListShowsRatings(t *testing.T) {
	tables := []Table{
		{Code: "RATED", Game: spite.Name, Host: "ann", HostRating: "1623", Rated: true,
			Seats: []Seat{{Name: "ann", Rating: "1623"}, {Name: "Ada", Computer: true, Strength: "hard", Rating: "1750"}}},
		{Code: "CASUL", Game: kings.Name, Host: "bob", HostRating: "1500?",
			Seats: []Seat{{Name: "bob", Rating: "1500?"}, {}, {Reserved: "eve"}}},
	}
	g := newRig(t, true, tables)
	f := g.frame()
	require.True(t, strings.HasSuffix(strings.TrimSpace(lineOf(t, f, "RATED")), "host ann 1623, rated"), lineOf(t, f, "RATED"))
	require.True(t, strings.HasSuffix(strings.TrimSpace(lineOf(t, f, "CASUL")), "host bob 1500?"), lineOf(t, f, "CASUL"))
	require.Contains(t, strings.Join(strings.Fields(f), " "), "Seats: 1 ann, 2 Ada (hard). Rated. Ratings: ann 1623, Ada 1750.")
	g.press("down")
	require.Contains(t, strings.Join(strings.Fields(g.frame()), " "), "Seats: 1 bob, 2 free, 3 kept for eve. Ratings: bob 1500?.")
	require.NotContains(t, g.frame(), "Rated.")
}

// The form's ratings line, under the button, goes between casual (the
// default) and rated, and the table asked for is rated only when it says
// so; the last seat stays the line before the button.
func TestOpenRated(t *testing.T) {
	for _, rated := range []bool{false, true} {
		g := newRig(t, true, nil)
		g.press("n")
		for i := 0; i < 12 && !strings.Contains(lineOf(t, g.frame(), "> "), "Ratings"); i++ {
			g.press("down")
		}
		require.Contains(t, lineOf(t, g.frame(), "> "), "casual: the games change no rating")
		g.press("up", "up")
		require.Contains(t, lineOf(t, g.frame(), "> "), "Seat 2")
		g.press("down", "down")
		if rated {
			g.press("right")
			require.Contains(t, lineOf(t, g.frame(), "> "), "rated: every game moves ratings")
		}
		g.press("enter", "enter")
		require.Len(t, g.req.opens, 1)
		require.Equal(t, rated, g.req.opens[0].Rated)
	}
}

// Ratings beside the longest names still fit 80x24: where they leave no
// room (the longest settings and names) the ratings are left out.
func TestRatingsFit80x24(t *testing.T) {
	tables := manyTables()
	for i := range tables {
		tables[i].Rated, tables[i].HostRating = true, "1500?"
		for j := range tables[i].Seats {
			if tables[i].Seats[j].Name != "" || tables[i].Seats[j].Computer {
				tables[i].Seats[j].Rating = "1500?"
			}
		}
	}
	for _, color := range []bool{true, false} {
		g := newRig(t, color, tables)
		g.fit("a rated list", uitest.Fit{Whole: []string{"LONGA", "host " + longHost},
			Wrapped: []string{"1 " + longHost, "2 computer (normal)", "3 " + longGuest, "Rated."}, Keys: listKeys})
		g.press("down")
		g.fit("a rated Spite table chosen", uitest.Fit{Whole: []string{"LONGB", "host " + longHost},
			Wrapped: []string{"1 " + longHost, "2 " + longGuest, "Rated."}, Keys: listKeys})
		g.press("n", "right")
		for range g.s.form.lines() - 2 {
			g.press("down", "right", "right")
		}
		g.press("up")
		for !strings.Contains(lineOf(t, g.frame(), "> "), "Ratings") {
			g.press("down")
		}
		g.press("right")
		g.fit("the new-table form of Kings in the Corner, rated", uitest.Fit{Whole: []string{"rated: every game moves ratings"},
			Keys: []string{"↑↓", "←→", "enter", "esc"}})
	}
}
