package lobby

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/internal/uitest"
)

func TestTableStateInTheLobby(t *testing.T) {
	st := uitest.KingsTable()
	require.Equal(t, Table{Code: "ABCDE", Game: "kings", Host: "ann", Watchers: 1, Playing: true,
		Seats: []Seat{{Name: "ann"}, {Name: "bob"}, {Computer: true, Strength: "hard"},
			{Name: "cy", Computer: true, Strength: "normal"}, {Reserved: "dee"}}}, stateTable(st))
}
