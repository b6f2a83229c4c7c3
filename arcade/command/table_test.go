package command

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/games"
)

// table's --pace sets the computer players' pace, before or among the
// seats; without it the table keeps the default; a pace that is none of
// the three is refused with the words that are.
func TestTablePace(t *testing.T) {
	c := games.Default()
	for _, ok := range []struct {
		args  []string
		speed hub.Speed
	}{
		{[]string{"table", "kings", "hard", "person"}, ""},
		{[]string{"table", "kings", "--pace", "quick", "hard", "person"}, hub.Quick},
		{[]string{"table", "kings", "hard", "--pace=instant", "person"}, hub.Instant},
		{[]string{"table", "kings", "hard", "person", "--pace", "Steady"}, hub.Steady},
	} {
		r, why := PlayRoute(c, ok.args)
		require.Empty(t, why, ok.args)
		require.Equal(t, ok.speed, r.OpenTable.Speed, ok.args)
		require.Equal(t, []hub.SeatPlan{{}, {Computer: "hard"}, {}}, r.OpenTable.Seats, ok.args)
	}
	for _, bad := range [][]string{{"table", "kings", "--pace"}, {"table", "kings", "--pace", "ludicrous"},
		{"table", "kings", "--pace="}, {"table", "kings", "--fast", "hard"}} {
		r, why := PlayRoute(c, bad)
		require.Nil(t, r, bad)
		require.Contains(t, why, "Usage: ssh -t HOST table", bad)
	}
	_, why := PlayRoute(c, []string{"table", "kings", "--pace", "ludicrous"})
	require.Contains(t, why, "A table's pace is steady, quick or instant.")
}

// table --rated opens a rated table; without it a table is casual.
func TestTableRated(t *testing.T) {
	c := games.Default()
	r, why := PlayRoute(c, []string{"table", "spite", "person"})
	require.Empty(t, why)
	require.False(t, r.OpenTable.Rated)
	r, why = PlayRoute(c, []string{"table", "spite", "--rated", "hard"})
	require.Empty(t, why)
	require.True(t, r.OpenTable.Rated)
	require.Equal(t, []hub.SeatPlan{{}, {Computer: "hard"}}, r.OpenTable.Seats)
	_, why = PlayRoute(c, []string{"table", "spite", "--rated=yes"})
	require.Contains(t, why, "Usage: ssh -t HOST table")
}
