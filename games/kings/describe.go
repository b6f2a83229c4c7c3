package kings

import (
	"strconv"

	"sshuffle/engine"
)

// Describe words one action for a table's log ("cy moved the E pile onto
// N", "dee drew"), with what the rules did because of it (a draw, going
// out). before and after are the public views (engine.Spectator's) around
// the action, so every card a line names was face up or is the card the
// action played; names holds the seats' names, which the arcade supplies.
func Describe(before, after View, seat int, a Action, names []string) []string {
	who := func(s int) string {
		if s >= 0 && s < len(names) && names[s] != "" {
			return names[s]
		}
		return "seat " + strconv.Itoa(s+1)
	}
	var lines []string
	pileAt := func(p Place) Cards {
		if p < numPlaces {
			return before.Piles[p]
		}
		return nil
	}
	switch a.Do {
	case Play:
		dst := pileAt(a.To)
		switch {
		case len(dst) > 0:
			lines = append(lines, who(seat)+" played "+a.Card.String()+" on the "+dst[len(dst)-1].String()+" at "+a.To.String())
		case a.To.Corner():
			lines = append(lines, who(seat)+" put "+a.Card.String()+" in the "+a.To.String()+" corner")
		default:
			lines = append(lines, who(seat)+" put "+a.Card.String()+" at "+a.To.String())
		}
	case Move:
		if a.To.Corner() && len(pileAt(a.To)) == 0 {
			lines = append(lines, who(seat)+" moved the "+a.From.String()+" pile into the "+a.To.String()+" corner")
		} else {
			lines = append(lines, who(seat)+" moved the "+a.From.String()+" pile onto "+a.To.String())
		}
	case End:
		if before.DrawEnd && after.Stock < before.Stock {
			lines = append(lines, who(seat)+" drew and ended the turn")
		} else {
			lines = append(lines, who(seat)+" ended the turn")
		}
	default:
		lines = append(lines, who(seat)+" moved")
	}
	if after.Over {
		if after.Out == seat && seat != engine.NoSeat {
			lines = append(lines, who(seat)+" went out")
		} else if a.Do == End && after.Out == engine.NoSeat {
			lines = append(lines, "a round passed with no play: the hand ends with nobody out")
		}
		return lines
	}
	if a.Do == End && !before.DrawEnd && after.Stock < before.Stock && after.Turn >= 0 {
		lines = append(lines, who(after.Turn)+" drew")
	}
	return lines
}
