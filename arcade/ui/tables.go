package ui

import (
	"strings"

	"sshuffle/arcade/hub"
	"sshuffle/engine"
)

// What the two table screens (the lobby, where a table seats, and the
// table itself) share: a membership of a table passes from the lobby to
// the table screen when the game starts, and back when a rematch seats
// again, so the states its sink sends must reach whichever holds it.

// TableMsg is one state of a table the session is a member of. The router
// hands it to every screen of the stack: the screen holding that member's
// table takes it, the others drop it.
type TableMsg struct{ State hub.TableState }

// TableSink is a member's sink: its states go into the session's program.
func TableSink(e *Env) func(hub.TableState) {
	return func(st hub.TableState) { e.Send(TableMsg{State: st}) }
}

// SeatStrength is a computer seat's strength as the screens show it; a
// seat whose person lost it is played by the table's stand-in.
func SeatStrength(s hub.SeatInfo) string {
	if s.Computer != "" {
		return s.Computer
	}
	return "normal"
}

// TableNote is the one line about a table's state, in the screens' own
// words around validated names, or "".
func TableNote(st hub.TableState) string {
	switch {
	case st.Phase == hub.TableClosed:
		if st.Reason != "" {
			return st.Reason
		}
		return "The table has closed."
	case st.Paused:
		var away []string
		for _, s := range st.Seats {
			if s.Person.ID != "" && !s.Here && !s.Gone {
				away = append(away, s.Person.Name)
			}
		}
		if len(away) == 0 {
			return "Paused until everyone is back."
		}
		return "Paused until " + strings.Join(away, " and ") + " " + map[bool]string{true: "is", false: "are"}[len(away) == 1] + " back."
	case st.Auto && st.Turn == st.Seat:
		return "Your time ran out: the computer plays this turn."
	case st.Auto && st.Turn >= 0 && st.Turn < len(st.Seats) && st.Seats[st.Turn].Person.Name != "":
		return st.Seats[st.Turn].Person.Name + "'s time ran out: the computer plays this turn."
	case st.Phase == hub.TableBetween:
		return "Next game in a moment."
	case st.Phase == hub.TableFinished && st.Seat != engine.Spectator:
		return "The match is over: r asks for a rematch (the host's), q leaves."
	}
	return ""
}
