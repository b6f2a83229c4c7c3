package lobby

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
)

func TestTableStateInTheLobby(t *testing.T) {
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
	require.Equal(t, Table{Code: "ABCDE", Game: "kings", Host: "ann", Watchers: 1, Playing: true,
		Seats: []Seat{{Name: "ann"}, {Name: "bob"}, {Computer: true, Strength: "hard"},
			{Name: "cy", Computer: true, Strength: "normal"}, {Reserved: "dee"}}}, stateTable(st))
}
