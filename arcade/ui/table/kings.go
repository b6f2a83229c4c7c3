package table

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games/kings"
)

func init() {
	Register(kings.Name, DrawingOf(NewKings, func(c Common, v kings.View) KingsState { return KingsState{Common: c, View: v} }))
}

// KingsState is a push of a Kings in the Corner table's state to one
// seat's screen (or a watcher's, with the spectator's view).
type KingsState struct {
	Common
	View kings.View
}

// KingsScreen is a seat (or a watcher) at a Kings in the Corner table.
type KingsScreen struct {
	core
	v   kings.View
	act func(kings.Action)
}

// NewKings is the screen of the seat whose view first holds (a watcher's
// when first.View.Seat is engine.Spectator).
func NewKings(e *ui.Env, cfg Config[kings.Action], first KingsState) *KingsScreen {
	s := &KingsScreen{act: cfg.Act}
	s.core = core{env: e, table: cfg.Table, entry: cfg.Game, leave: cfg.Leave, rematch: cfg.Rematch, decline: cfg.Decline, phrases: cfg.Phrases, fam: s}
	s.take(first)
	return s
}

func (s *KingsScreen) take(m KingsState) {
	s.v = m.View
	s.setCommon(m.Common)
	s.refresh()
}

// Update takes the table's pushes for this table and the player's input.
func (s *KingsScreen) Update(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(KingsState); ok {
		if m.Table == s.table {
			s.version++
			s.take(m)
		}
		return nil
	}
	return s.core.Update(msg)
}

func (s *KingsScreen) title() string { return "Kings in the Corner" }

func (s *KingsScreen) rules() string {
	return "Kings in the Corner: play hand cards onto the piles, one lower in the other colour; only Kings go " +
		"into the empty corners, anything into an empty N, E, S or W space. A pile moves whole onto another " +
		"pile when its bottom card fits there. The first to play every card goes out; the others score penalties."
}

func (s *KingsScreen) settings() string {
	t := "draw at the start"
	if s.v.DrawEnd {
		t = "draw at the end"
	}
	if s.v.KingsAtOnce {
		t += " · Kings at once"
	}
	return t
}

func (s *KingsScreen) seatNo() int { return s.v.Seat }
func (s *KingsScreen) turn() int {
	if s.v.Over {
		return engine.NoSeat
	}
	return s.v.Turn
}
func (s *KingsScreen) hand() int { return len(s.v.Hand) }

func (s *KingsScreen) firstSpot() spot {
	if len(s.v.Hand) > 0 {
		return spot{kind: spHand, seat: s.v.Seat, i: 0}
	}
	return spot{kind: spPile, i: int(kings.N)}
}

func (s *KingsScreen) valid(at spot) bool {
	switch at.kind {
	case spHand:
		return at.seat == s.v.Seat && at.i < len(s.v.Hand)
	case spPile:
		return at.i >= 0 && at.i < len(s.v.Piles)
	case spEnd:
		return s.v.Seat >= 0
	}
	return false
}

func (s *KingsScreen) canHold(at spot) string {
	switch at.kind {
	case spHand:
		return ""
	case spPile:
		if len(s.v.Piles[at.i]) == 0 {
			return kings.ErrNothingThere.Error()
		}
		return ""
	}
	return kings.ErrNothingThere.Error()
}

func (s *KingsScreen) drop(held, to spot) (string, bool) {
	if to.kind != spPile {
		if held.kind == spPile {
			return kings.ErrPileOntoPile.Error(), false
		}
		return kings.ErrCardOntoPile.Error(), false
	}
	place := kings.Place(to.i)
	switch held.kind {
	case spHand:
		s.act(kings.Action{Do: kings.Play, Card: s.v.Hand[held.i], To: place})
	case spPile:
		s.act(kings.Action{Do: kings.Move, From: kings.Place(held.i), To: place})
	default:
		return kings.ErrNoPlace.Error(), false
	}
	return "", true
}

func (s *KingsScreen) place(held spot) (string, bool) {
	for _, a := range s.v.Legal() {
		if (held.kind == spHand && a.Do == kings.Play && a.Card == s.v.Hand[held.i]) ||
			(held.kind == spPile && a.Do == kings.Move && a.From == kings.Place(held.i)) {
			s.act(a)
			return "", true
		}
	}
	return kings.ErrFitsNowhere.Error(), false
}

func (s *KingsScreen) end() (string, bool) {
	s.act(kings.Action{Do: kings.End})
	return "", true
}

func (s *KingsScreen) heldName(at spot) string {
	switch at.kind {
	case spHand:
		return cardWord(s.v.Hand[at.i]) + " from your hand"
	case spPile:
		p := s.v.Piles[at.i]
		if len(p) == 1 {
			return fmt.Sprintf("the %v pile (%s)", kings.Place(at.i), cardWord(p[0]))
		}
		return fmt.Sprintf("the %v pile (%s down to %s)", kings.Place(at.i), cardWord(p[0]), cardWord(p[len(p)-1]))
	}
	return "a card"
}

func (s *KingsScreen) outcome(c *core) string {
	var b strings.Builder
	if s.v.Out >= 0 {
		b.WriteString(c.name(s.v.Out) + " went out.")
	} else {
		b.WriteString("Nobody went out.")
	}
	if len(s.v.Penalty) > 0 {
		b.WriteString(" Penalty points:")
		for i, p := range s.v.Penalty {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " %s %d", c.name(i), p)
		}
		b.WriteString(".")
	}
	return b.String()
}

// The compass of piles: each place's column and line on the table.
var compass = [...]struct{ col, row int }{
	kings.N: {1, 0}, kings.E: {2, 1}, kings.S: {1, 2}, kings.W: {0, 1},
	kings.NE: {2, 0}, kings.SE: {2, 2}, kings.SW: {0, 2}, kings.NW: {0, 0},
}

const (
	kingsCol   = 14 // between compass columns: two cards fanned and the marks
	kingsLeft  = 2
	kingsPanel = 46 // the seats' column
	kingsWho   = 15 // a seat's name beside its cards, from the mark
	kingsInfo  = 18 // the cards, from kingsPanel
)

// The Kings table at 80x24: the eight piles as a compass on the left (a
// pile shows its bottom and top card: every pile is one run down, so the
// two say what is in it), the seats and the stock on the right, the hand
// below, then the last actions.
func (s *KingsScreen) draw(sc *scene, c *core, top, bottom int) {
	y0 := top + 1
	for p, cards := range s.v.Piles {
		at := compass[p]
		x, y := kingsLeft+at.col*kingsCol, y0+at.row*3
		if len(cards) > 1 {
			sc.run(x, y, cards[0], cards[len(cards)-1], len(cards), spot{kind: spPile, i: p})
		} else {
			sc.pile(x, y, engine.Pile{Kind: engine.Tableau, Cards: cards}, spot{kind: spPile, i: p}, true)
		}
		label := kings.Place(p).String()
		if n := len(cards); n > 2 {
			label += fmt.Sprintf(" (%d)", n)
		}
		sc.text(x+1, y+1, label, faintPen)
	}
	sc.text(kingsLeft+kingsCol, y0+3, fmt.Sprintf("stock %d", s.v.Stock), faintPen)

	// The seats, whose turn it is marked in the text as well as in colour:
	// each on a line with its cards beside the name, or, when a name is
	// too long for that, on two lines, the cards under the name.
	infos := make([]string, len(s.v.Hands))
	two := false
	for seat, n := range s.v.Hands {
		info := plural(n, "card", "cards")
		if seat < len(s.v.Penalty) {
			info += fmt.Sprintf(" +%d", s.v.Penalty[seat])
		}
		if seat < len(c.common.Totals) {
			info += fmt.Sprintf(" (%d)", c.common.Totals[seat])
		}
		infos[seat] = info
		two = two || cells(c.who(seat)) > kingsWho || kingsInfo+cells(info) > sc.w-kingsPanel
	}
	sc.text(kingsPanel, top, "Seats", faintPen)
	if len(c.common.Totals) > 0 {
		legend := kingsInfo
		if two {
			legend = 6
		}
		sc.text(kingsPanel+legend, top, "(match total)", faintPen)
	}
	for seat := range s.v.Hands {
		y := top + 1 + seat
		if two {
			y = top + 1 + 2*seat
		}
		mark := "  "
		if s.turn() == seat {
			mark = c.sym("▸ ", "> ")
		}
		x := kingsPanel + sc.text(kingsPanel, y, mark, turnPen)
		if two {
			// The rating goes under the name with the cards: a long
			// name with what it is fills the line.
			info := infos[seat]
			if seat < len(c.common.Seats) && c.common.Seats[seat].Rating != "" {
				info += " · " + fit(c.common.Seats[seat].Rating, 6)
			}
			sc.text(x, y, c.whoOnly(seat), plainPen)
			sc.text(x+2, y+1, info, faintPen)
			continue
		}
		sc.textMax(x, y, c.who(seat), plainPen, kingsWho)
		sc.text(kingsPanel+kingsInfo, y, infos[seat], faintPen)
	}

	y := y0 + 9
	if s.v.Seat >= 0 {
		x := sc.text(0, y, fmt.Sprintf("Your hand (%d)", len(s.v.Hand)), faintPen)
		if !s.v.Over {
			sc.button(x+3, y, "[end turn]", spot{kind: spEnd})
		}
		y++
		y += c.handRow(sc, kingsLeft, y, 11, 3, s.v.Hand)
	}
	y++
	if n := bottom - y; n > 0 {
		c.logLines(sc, 0, y, sc.w, n)
	}
}
