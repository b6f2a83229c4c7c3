package command

import (
	"testing"

	"github.com/stretchr/testify/require"
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
