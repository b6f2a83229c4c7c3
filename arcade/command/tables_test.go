package command

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
)

// A table nobody sits at (all left while it was seating) has no host, and
// the line says so rather than leave a blank.
func TestTablesTextHost(t *testing.T) {
	l := TableListing{Tables: []OpenTable{
		{Code: "KQRST", Game: "kings", Phase: "seating", Host: "ann", Seats: []TableSeat{{Name: "ann"}, {Free: true}}},
		{Code: "SPMAL", Game: "spite", Phase: "seating", Seats: []TableSeat{{Free: true}, {Free: true}}, Watchers: 1},
	}}
	out := l.Text()
	require.Contains(t, out, "KQRST  kings  seating        host ann, default settings; seats: ann, free; 0 watching")
	require.Contains(t, out, "SPMAL  spite  seating        no host, default settings; seats: free, free; 1 watching")
	require.NotContains(t, out, "host ,")
}

// tables passes on whether a table is rated and each taken seat's rating.
func TestTablesRated(t *testing.T) {
	l := Tables(Request{Tables: func() []hub.TableInfo {
		return []hub.TableInfo{{Code: "RATED", Game: "spite", Rated: true, Host: hub.Person{ID: "a", Name: "ann"},
			Seats: []hub.SeatInfo{{Name: "ann", Person: hub.Person{ID: "a", Name: "ann"}, Rating: "1623"},
				{Name: "Ada", Computer: "hard", Rating: "1781"}}}}
	}})
	require.True(t, l.Tables[0].Rated)
	require.Equal(t, []TableSeat{{Name: "ann"}, {Name: "Ada", Computer: "hard"}}, l.Tables[0].Seats)
	require.Equal(t, []string{"1623", "1781"}, l.Tables[0].Ratings)
	require.Contains(t, l.Text(), "host ann, default settings, rated; seats: ann, Ada (hard)")
}
