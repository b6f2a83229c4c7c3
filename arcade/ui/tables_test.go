package ui

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
)

func TestTableNote(t *testing.T) {
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
	require.Equal(t, "", TableNote(st))
	st.Auto = true
	require.Equal(t, "bob's time ran out: the computer plays this turn.", TableNote(st))
	st.Turn = 0
	require.Equal(t, "Your time ran out: the computer plays this turn.", TableNote(st))
	st.Auto, st.Paused = false, true
	require.Equal(t, "Paused until bob is back.", TableNote(st), "cy lost the seat: nobody waits for her; ann is here")
	st.Seats[0].Here = false
	require.Equal(t, "Paused until ann and bob are back.", TableNote(st))
	st.Paused, st.Phase = false, hub.TableBetween
	require.Equal(t, "Next game in a moment.", TableNote(st))
	st.Phase, st.Reason = hub.TableClosed, hub.ErrTableBroke.Error()
	require.Equal(t, hub.ErrTableBroke.Error(), TableNote(st))
}
