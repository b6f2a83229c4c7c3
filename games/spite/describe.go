package spite

import (
	"fmt"
	"strconv"

	"sshuffle/engine"
)

// Describe words one entry of a game's history for a table's log, in the
// order History holds them: a seat's action ("ann played 7♣ on the 6
// stack"), then what the rules did because of it (the next seat's draw, a
// reshuffle, which has seat engine.NoSeat). before and after are the public
// views (engine.Spectator's) around the action: every card a line names was
// face up or is in the action itself, so the log can go to every member.
// names holds the seats' names, which the arcade supplies.
func Describe(before, after View, seat int, a Action, names []string) []string {
	who := func(s int) string {
		if s >= 0 && s < len(names) && names[s] != "" {
			return names[s]
		}
		return "seat " + strconv.Itoa(s+1)
	}
	var lines []string
	switch a.Do {
	case Reshuffle:
		return []string{"the recycle pile was shuffled into a new stock"}
	case Play:
		if seat < 0 || seat > 1 || a.To < 0 || a.To >= len(before.Stacks) {
			break
		}
		me := before.Players[seat]
		c, from := a.Card, ""
		switch a.From {
		case FromPayoff:
			c, from = me.PayoffTop, " from the pay-off pile"
		case FromSide:
			if a.Side >= 0 && a.Side < SideStacks && len(me.Sides[a.Side]) > 0 {
				c = me.Sides[a.Side][len(me.Sides[a.Side])-1]
			}
			from = fmt.Sprintf(" from side stack %d", a.Side+1)
		}
		stack := before.Stacks[a.To]
		need := engine.Rank(len(stack) + 1)
		card := c.String()
		if c.Rank() == engine.King && need != engine.King {
			card += " as " + article(need)
		}
		line := who(seat) + " played " + card + from
		if len(stack) == 0 {
			line += " to start a new stack"
		} else {
			line += " on the " + (need - 1).Short() + " stack"
		}
		if need == stackTop {
			line += ", which went to the recycle pile"
		}
		lines = append(lines, line)
		if !after.Over && after.Turn == seat && a.From == FromHand && before.Players[seat].HandCount == 1 {
			if n := after.Players[seat].HandCount; n > 0 {
				lines = append(lines, fmt.Sprintf("%s drew %d", who(seat), n))
			}
		}
	case Discard:
		lines = append(lines, fmt.Sprintf("%s discarded %v on side stack %d", who(seat), a.Card, a.Side+1))
	case Pass:
		lines = append(lines, who(seat)+" passed")
	}
	if len(lines) == 0 {
		return []string{who(seat) + " moved"}
	}
	if (a.Do == Discard || a.Do == Pass) && !after.Over && after.Turn >= 0 && after.Turn != seat {
		t := after.Turn
		if n := after.Players[t].HandCount - before.Players[t].HandCount; n > 0 {
			lines = append(lines, fmt.Sprintf("%s drew %d", who(t), n))
		}
	}
	return lines
}
