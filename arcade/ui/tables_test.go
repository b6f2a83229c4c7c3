package ui_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/internal/uitest"
)

func TestTableNote(t *testing.T) {
	st := uitest.KingsTable()
	require.Equal(t, "", ui.TableNote(st))
	st.Auto = true
	require.Equal(t, "bob's time ran out: the computer plays this turn.", ui.TableNote(st))
	st.Turn = 0
	require.Equal(t, "Your time ran out: the computer plays this turn.", ui.TableNote(st))
	st.Auto, st.Paused = false, true
	require.Equal(t, "Paused until bob is back.", ui.TableNote(st), "cy lost the seat: nobody waits for her; ann is here")
	st.Seats[0].Here = false
	require.Equal(t, "Paused until ann and bob are back.", ui.TableNote(st))
	st.Paused, st.Phase = false, hub.TableBetween
	require.Equal(t, "Next game in a moment.", ui.TableNote(st))
	st.Phase, st.Reason = hub.TableClosed, hub.ErrTableBroke.Error()
	require.Equal(t, hub.ErrTableBroke.Error(), ui.TableNote(st))
}
