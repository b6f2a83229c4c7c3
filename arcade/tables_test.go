package arcade

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui/lobby"
	"sshuffle/arcade/ui/table"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/kings"
)

func TestTableStateOnTheScreens(t *testing.T) {
	ann, bob := hub.Person{ID: "a", Name: "ann"}, hub.Person{ID: "b", Name: "bob"}
	st := hub.TableState{Code: "ABCDE", Game: "kings", Host: "a", You: "a", Seat: 0, Turn: 1,
		Seats: []hub.SeatInfo{
			{Person: ann, Here: true},
			{Person: bob, StandIn: true},
			{Computer: "hard"},
			{Person: hub.Person{ID: "c", Name: "cy"}, Gone: true},
			{Reserved: hub.Person{ID: "d", Name: "dee"}},
		},
		Watchers: []hub.Person{{ID: "w", Name: "wes"}}, Phase: hub.TablePlaying}
	require.Equal(t, []table.Seat{
		{Name: "ann"}, {Name: "bob", Away: true}, {Computer: true, Strength: "hard"},
		{Name: "cy", Computer: true, Strength: "normal"}, {Name: "dee"},
	}, tableSeats(st))
	require.Equal(t, lobby.Table{Code: "ABCDE", Game: "kings", Host: "ann", Watchers: 1, Playing: true,
		Seats: []lobby.Seat{{Name: "ann"}, {Name: "bob"}, {Computer: true, Strength: "hard"},
			{Name: "cy", Computer: true, Strength: "normal"}, {Reserved: "dee"}}}, stateTable(st))

	require.Equal(t, "", tableNote(st))
	st.Auto = true
	require.Equal(t, "bob's time ran out: the computer plays this turn.", tableNote(st))
	st.Turn = 0
	require.Equal(t, "Your time ran out: the computer plays this turn.", tableNote(st))
	st.Auto, st.Paused = false, true
	require.Equal(t, "Paused until bob is back.", tableNote(st), "cy lost the seat: nobody waits for her; ann is here")
	st.Seats[0].Here = false
	require.Equal(t, "Paused until ann and bob are back.", tableNote(st))
	st.Paused, st.Phase = false, hub.TableBetween
	require.Equal(t, "Next game in a moment.", tableNote(st))
	st.Phase, st.Reason = hub.TableClosed, hub.ErrTableBroke.Error()
	require.Equal(t, hub.ErrTableBroke.Error(), tableNote(st))

	// No view while seating: the table screen is not built.
	st.Phase = hub.TableSeating
	_, ok := screenState(games.Default(), st)
	require.False(t, ok)
	g, err := kings.New(engine.Spec{Game: kings.Name, Seed: 3}, 3)
	require.NoError(t, err)
	st.View, err = kings.EncodeView(g.View(engine.Spectator))
	require.NoError(t, err)
	st.Phase, st.Totals = hub.TablePlaying, []int{1, 2, 3}
	msg, ok := screenState(games.Default(), st)
	require.True(t, ok)
	ks, ok := msg.(table.KingsState)
	require.True(t, ok)
	require.Equal(t, "ABCDE", ks.Table)
	require.Equal(t, []int{1, 2, 3}, ks.Totals)
	require.Equal(t, 1, ks.Watchers)
	require.Equal(t, engine.Spectator, ks.View.Seat)
}

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
