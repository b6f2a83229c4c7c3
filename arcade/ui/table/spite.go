package table

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games/spite"
)

func init() {
	Register(spite.Name, DrawingOf(NewSpite, func(c Common, v spite.View) SpiteState { return SpiteState{Common: c, View: v} }))
}

// SpiteState is a push of a Spite and Malice table's state to one seat's
// screen (or a watcher's: View is then the spectator's view, with no hand).
type SpiteState struct {
	Common
	View spite.View
}

// SpiteScreen is a seat (or a watcher) at a Spite and Malice table.
type SpiteScreen struct {
	core
	v   spite.View
	act func(spite.Action)
}

// NewSpite is the screen of the seat whose view first holds (a watcher's
// when first.View.Seat is engine.Spectator).
func NewSpite(e *ui.Env, cfg Config[spite.Action], first SpiteState) *SpiteScreen {
	s := &SpiteScreen{act: cfg.Act}
	s.core = core{env: e, table: cfg.Table, entry: cfg.Game, leave: cfg.Leave, rematch: cfg.Rematch, decline: cfg.Decline, phrases: cfg.Phrases, fam: s}
	s.take(first)
	return s
}

func (s *SpiteScreen) take(m SpiteState) {
	s.v = m.View
	s.setCommon(m.Common)
	s.refresh()
}

// Update takes the table's pushes for this table and the player's input.
func (s *SpiteScreen) Update(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(SpiteState); ok {
		if m.Table == s.table {
			s.version++
			s.take(m)
		}
		return nil
	}
	return s.core.Update(msg)
}

func (s *SpiteScreen) title() string { return "Spite and Malice" }

func (s *SpiteScreen) rules() string {
	return "Spite and Malice: play your pay-off card, hand cards and side-stack tops onto the centre stacks, " +
		"Ace up to Queen (Kings are wild). You end your turn by discarding a hand card onto one of your side " +
		"stacks. The first to empty the pay-off pile wins."
}

func (s *SpiteScreen) settings() string {
	t := fmt.Sprintf("pay-off %d · %d stacks", s.v.Payoff, s.v.Centres)
	if s.v.KingAce {
		t += " · King as Ace"
	}
	return t
}

func (s *SpiteScreen) seatNo() int { return s.v.Seat }
func (s *SpiteScreen) turn() int {
	if s.v.Over {
		return engine.NoSeat
	}
	return s.v.Turn
}
func (s *SpiteScreen) hand() int { return len(s.v.Hand) }

// me is the seat drawn at the bottom: the player's, or seat 0 for a watcher.
func (s *SpiteScreen) me() int { return max(s.v.Seat, 0) }

func (s *SpiteScreen) firstSpot() spot {
	if len(s.v.Hand) > 0 {
		return spot{kind: spHand, seat: s.me(), i: 0}
	}
	return spot{kind: spPayoff, seat: s.me()}
}

func (s *SpiteScreen) valid(at spot) bool {
	switch at.kind {
	case spHand:
		return at.seat == s.v.Seat && at.i < len(s.v.Hand)
	case spCentre:
		return at.i < len(s.v.Stacks)
	case spPayoff, spSide:
		return at.seat == 0 || at.seat == 1
	case spEnd:
		return len(s.v.Hand) == 0 && s.v.Seat >= 0
	}
	return false
}

func (s *SpiteScreen) sideTop(seat, i int) engine.Card {
	if seat < 0 || seat > 1 || i < 0 || i >= spite.SideStacks {
		return engine.NoCard
	}
	st := s.v.Players[seat].Sides[i]
	if len(st) == 0 {
		return engine.NoCard
	}
	return st[len(st)-1]
}

func (s *SpiteScreen) canHold(at spot) string {
	switch {
	case at.kind == spCentre:
		return spite.ErrCentreStays.Error()
	case at.seat != s.v.Seat:
		return spite.ErrNotYours(s.name(at.seat), "").Error()
	case at.kind == spHand:
		return ""
	case at.kind == spPayoff && s.v.Players[at.seat].PayoffTop == engine.NoCard:
		return spite.ErrPayoffEmpty.Error()
	case at.kind == spSide && s.sideTop(at.seat, at.i) == engine.NoCard:
		return spite.ErrSideEmpty.Error()
	}
	return ""
}

func (s *SpiteScreen) drop(held, to spot) (string, bool) {
	var a spite.Action
	switch {
	case to.kind == spHand:
		return spite.ErrIntoHand.Error(), false
	case to.kind == spPayoff:
		return spite.ErrOntoPayoff.Error(), false
	case to.kind == spSide && to.seat != s.v.Seat:
		return spite.ErrNotYours(s.name(to.seat), "side stack").Error(), false
	case to.kind == spSide && held.kind != spHand:
		return spite.ErrSideFromHand.Error(), false
	case to.kind == spSide:
		a = spite.DiscardTo(s.v.Hand[held.i], to.i)
	case to.kind != spCentre:
		return spite.ErrNoPlace.Error(), false
	case held.kind == spHand:
		a = spite.PlayHand(s.v.Hand[held.i], to.i)
	case held.kind == spPayoff:
		a = spite.PlayPayoff(to.i)
	case held.kind == spSide:
		a = spite.PlaySide(held.i, to.i)
	default:
		return spite.ErrNoPlace.Error(), false
	}
	s.act(a)
	return "", true
}

func (s *SpiteScreen) place(held spot) (string, bool) {
	for _, a := range s.v.Legal() {
		if a.Do != spite.Play {
			continue
		}
		switch {
		case held.kind == spHand && a.From == spite.FromHand && a.Card == s.v.Hand[held.i],
			held.kind == spPayoff && a.From == spite.FromPayoff,
			held.kind == spSide && a.From == spite.FromSide && a.Side == held.i:
			s.act(a)
			return "", true
		}
	}
	return spite.ErrFitsNowhere.Error(), false
}

func (s *SpiteScreen) end() (string, bool) {
	if len(s.v.Hand) > 0 {
		return spite.ErrEndByDiscard.Error(), false
	}
	s.act(spite.Action{Do: spite.Pass})
	return "", true
}

func (s *SpiteScreen) heldName(at spot) string {
	switch at.kind {
	case spHand:
		return cardWord(s.v.Hand[at.i]) + " from your hand"
	case spPayoff:
		return "your pay-off card " + cardWord(s.v.Players[at.seat].PayoffTop)
	case spSide:
		return fmt.Sprintf("%s from side stack %d", cardWord(s.sideTop(at.seat, at.i)), at.i+1)
	}
	return "a card"
}

func (s *SpiteScreen) outcome(c *core) string {
	if s.v.Winner < 0 || s.v.Winner > 1 {
		return "The game is drawn."
	}
	return fmt.Sprintf("%s wins, scoring %d.", c.name(s.v.Winner), s.v.Score[s.v.Winner])
}

// The Spite table at 80x24: the other seat at the top, the centre stacks,
// this seat, its hand, and the last actions under them.
const (
	spiteSides = 16 // first side stack's column
	spiteGap   = 7  // between places: a card and room for both marks
	spiteLog   = 50 // the room of a seat's line
)

func (s *SpiteScreen) draw(sc *scene, c *core, top, bottom int) {
	me := s.me()
	other := 1 - me
	y := top
	s.seatLine(sc, c, other, y)
	s.seatPiles(sc, other, y+1, false)
	y += 5

	sc.text(2, y, "centre", faintPen)
	for i, st := range s.v.Stacks {
		x := spiteSides + i*spiteGap
		sc.pile(x, y, engine.Pile{Kind: engine.Foundation, Cards: st}, spot{kind: spCentre, i: i}, true)
		need := "full"
		if n := len(st); n < 12 {
			need = c.sym("→", "->") + engine.Rank(n+1).Short()
		}
		sc.text(x+1, y+1, need, faintPen)
	}
	// Under the label, left of the stacks: the last actions use the
	// right of the screen down to the hand.
	sc.text(2, y+1, fmt.Sprintf("stock %d", s.v.Stock), faintPen)
	sc.text(2, y+2, fmt.Sprintf("done %d", len(s.v.Recycle)), faintPen)
	y += 3

	s.seatLine(sc, c, me, y)
	s.seatPiles(sc, me, y+1, true)
	y += 5
	if s.v.Seat >= 0 {
		sc.text(2, y, "hand", faintPen)
		c.handRow(sc, spiteSides, y, 5, 1, s.v.Hand)
		if len(s.v.Hand) == 0 {
			sc.button(spiteSides+12, y, "[pass]", spot{kind: spEnd})
		}
		y++
	}
	// The last actions under the table, in lines of the window's width: a
	// new entry moves the others up whole lines, which the terminal
	// scrolls (arcade/render) instead of being sent them again. The line
	// over the message is theirs too, unless the settings are on it; a
	// blank line sets them apart from the hand when they leave room.
	n := bottom - y
	if !c.frame.below {
		n++
	}
	if len(c.logText(sc.w, n)) < n {
		y, n = y+1, n-1
	}
	c.logLines(sc, 0, y, sc.w, n)
}

func (s *SpiteScreen) seatLine(sc *scene, c *core, seat, y int) {
	p := s.v.Players[seat]
	mark := "  "
	if s.turn() == seat {
		mark = c.sym("▸ ", "> ")
	}
	x := sc.text(0, y, mark, turnPen)
	who := c.who(seat)
	info := fmt.Sprintf("  %d in hand · pay-off %s, %d left", p.HandCount, cardWord(p.PayoffTop), p.PayoffLeft)
	match := ""
	if seat < len(c.common.Totals) {
		match = fmt.Sprintf("match %d", c.common.Totals[seat])
	}
	room := spiteLog - 1 - x
	if match != "" {
		info += " · " + match
	}
	if cells(who)+cells(info) > room {
		// Long names leave no room for it all beside the name: the
		// pay-off pile's count goes under its card, the match total
		// under that, where the side stacks leave room.
		info = fmt.Sprintf("  %d in hand", p.HandCount)
		sc.text(1, y+2, fmt.Sprintf("%d left", p.PayoffLeft), faintPen)
		if match != "" {
			sc.text(1, y+3, match, faintPen)
		}
	}
	x += sc.textMax(x, y, who, plainPen, room)
	sc.textMax(x, y, info, faintPen, spiteLog-1-x)
}

// seatPiles draws a seat's pay-off top and its four side stacks, fanned
// down (the middle of a long one folded). The other seat's are there to
// read, not to pick up.
func (s *SpiteScreen) seatPiles(sc *scene, seat, y int, mine bool) {
	p := s.v.Players[seat]
	var top []engine.Card
	if p.PayoffTop != engine.NoCard {
		top = []engine.Card{p.PayoffTop}
	}
	nav := mine && s.v.Seat == seat
	sc.pile(2, y, engine.Pile{Kind: engine.Waste, Cards: top, Label: ""}, spot{kind: spPayoff, seat: seat}, nav)
	sc.text(9, y, "sides", faintPen)
	for i := range spite.SideStacks {
		sc.pileH(spiteSides+i*spiteGap, y, 3, engine.Pile{Kind: engine.Tableau, Cards: p.Sides[i], Fan: engine.FanDown},
			spot{kind: spSide, seat: seat, i: i}, nav, false)
	}
}
