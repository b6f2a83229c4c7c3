package ui

import (
	"errors"
	"strings"

	"sshuffle/arcade/hub"
	"sshuffle/engine"
)

// What the two table screens (the lobby, where a table seats, and the
// table itself) share: a membership of a table passes from the lobby to
// the table screen when the game starts, and back when a rematch seats
// again. It is held as every live screen holds its room (Live): the hold
// itself passes in the route, so its states reach whichever screen has it.

// TableHold is a live screen's hold on a table membership.
type TableHold = Live[hub.TableState, *hub.TableMember]

// JoinTable joins the table t as p (seat: a seat number, hub.AnySeat or
// hub.Watch) and holds the membership; with orWatch, a table that started
// or is full is watched instead.
func JoinTable(e *Env, t *hub.Table, p hub.Person, seat int, orWatch bool) (*TableHold, error) {
	return Join(e, func(sink func(hub.TableState)) (*hub.TableMember, error) {
		m, err := t.Join(p, seat, sink)
		if orWatch && (errors.Is(err, hub.ErrTableStarted) || errors.Is(err, hub.ErrTableFull)) {
			m, err = t.Join(p, hub.Watch, sink)
		}
		return m, err
	})
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
		return "The match is over: r for a rematch, n for none, q leaves."
	}
	return ""
}
