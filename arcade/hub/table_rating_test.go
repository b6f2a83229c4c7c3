package hub

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A rated table says so everywhere (its listing, its states, its results,
// its snapshot); its seats carry ratings, a person's from the wiring and a
// computer's fixed one from the kit; after each game is recorded a rated
// table reads its people's ratings again, a casual one does not (its games
// move none).
func TestRatedAndCasualTables(t *testing.T) {
	for _, rated := range []bool{false, true} {
		e := newTenv(t)
		e.mu.Lock()
		e.ratingOf = func(account, game string) string {
			if game != "spite" || account != "id-ann" {
				return "wrong"
			}
			if len(e.results) > 0 { // called without e.mu held: the table's goroutine
				return "1612"
			}
			return "1500?"
		}
		e.mu.Unlock()
		ann := person("ann")
		tb := e.open(TableConfig{Game: "spite", Seats: []SeatPlan{{}, {Computer: "hard"}}, Host: ann, Rated: rated, TurnClock: -1})
		a := e.sit(tb, "ann", 0)
		st := e.current(tb, a)
		require.Equal(t, rated, st.Rated)
		require.Equal(t, "1500?", st.Seats[0].Rating)
		require.Equal(t, "1781", st.Seats[1].Rating, "the kit's fixed rating of hard")
		listed := inspect(tb, func() TableInfo { return tb.info() })
		require.Equal(t, rated, listed.Rated)
		require.Equal(t, "1500?", listed.Seats[0].Rating)
		require.NoError(t, a.m.Start())
		e.play(tb, []*seatAt{a}, nil)
		e.mu.Lock()
		snap := e.saved[tb.Code()]
		e.mu.Unlock()
		if snap != nil {
			require.Equal(t, rated, snap.Rated)
		}
		res := e.resultList()
		require.Len(t, res, 1)
		require.Equal(t, rated, res[0].Rated)
		if rated {
			a.r.until(t, "ann's new rating shows", func(st TableState) bool { return st.Seats[0].Rating == "1612" })
		} else {
			require.Equal(t, "1500?", e.current(tb, a).Seats[0].Rating, "a casual game re-reads nothing")
		}
	}
}

// A restored rated table is still rated.
func TestRatedTableRestored(t *testing.T) {
	e := newTenv(t)
	ann := person("ann")
	tb := e.open(TableConfig{Game: "spite", Seats: []SeatPlan{{}, {Computer: "hard"}}, Host: ann, Rated: true, TurnClock: -1})
	a := e.sit(tb, "ann", 0)
	require.NoError(t, a.m.Start())
	var snap *TableSnapshot
	a.r.until(t, "the table is playing", func(st TableState) bool { return st.Phase == TablePlaying })
	for snap == nil {
		e.mu.Lock()
		snap = e.saved[tb.Code()]
		e.mu.Unlock()
		if snap == nil {
			e.clock.Advance(tb.cfg.Pace)
		}
	}
	require.True(t, snap.Rated)
	e.h.Close()
	h2 := e.hub(e.clock)
	t.Cleanup(h2.Close)
	rt, err := h2.RestoreTable(*snap)
	require.NoError(t, err)
	require.True(t, inspect(rt, func() bool { return rt.cfg.Rated }))
}
