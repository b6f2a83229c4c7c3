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
