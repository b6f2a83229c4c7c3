package arcade

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/games"
)

func TestTableCommandRoutes(t *testing.T) {
	s := &Server{games: games.Default()}
	for _, bad := range [][]string{{"table"}, {"table", "poker"}, {"table", "kings", "wizard"},
		{"table", "spite", "person", "person"}, {"table", "kings", "easy", "easy", "easy", "easy"}} {
		r, why := s.firstRoute(bad)
		require.Nil(t, r, bad)
		require.NotEmpty(t, why, bad)
	}
	r, why := s.firstRoute([]string{"table", "kings", "hard", "person"})
	require.Empty(t, why)
	require.NotNil(t, r.OpenTable)
	require.Equal(t, []hub.SeatPlan{{}, {Computer: "hard"}, {}}, r.OpenTable.Seats)
	r, _ = s.firstRoute([]string{"table", "spite"})
	require.Equal(t, []hub.SeatPlan{{}, {}}, r.OpenTable.Seats, "by default a seat for a friend")
}

// Settings ride along as KEY=VALUE words, in any place among the seats.
func TestTableCommandSettings(t *testing.T) {
	s := &Server{games: games.Default()}
	r, why := s.firstRoute([]string{"table", "kings", "match=25", "person", "draw=end", "hard"})
	require.Empty(t, why)
	require.Equal(t, []hub.SeatPlan{{}, {}, {Computer: "hard"}}, r.OpenTable.Seats)
	require.Equal(t, "draw=end,match=25", r.OpenTable.Settings)
	r, why = s.firstRoute([]string{"table", "kings", "--pace", "quick", "match=25", "hard"})
	require.Empty(t, why)
	require.Equal(t, hub.Quick, r.OpenTable.Speed)
	require.Equal(t, "match=25", r.OpenTable.Settings)
	require.Equal(t, []hub.SeatPlan{{}, {Computer: "hard"}}, r.OpenTable.Seats)
	for _, bad := range []string{"match=9", "colour=red"} {
		r, why = s.firstRoute([]string{"table", "kings", bad})
		require.Nil(t, r, bad)
		require.Contains(t, why, "Those settings do not work", bad)
	}
}
