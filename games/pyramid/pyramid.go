// Package pyramid is Pyramid as the rule page (seed 004) and docs/rules.md
// define it: 28 cards face up in seven rows, pairs adding to 13 come off
// (a King alone), a 24-card stock turned one card at a time, 3 passes.
//
// Scoring: the rule texts give Pyramid no points table (leaderboards rank it
// by time, then moves), so Score is always 0.
package pyramid

import (
	"errors"
	"fmt"
	"strings"

	"sshuffle/engine"
)

// Pile indices as Piles reports them (the arcade maps clicks to these):
//
//	0..27  the pyramid, row by row from the top, each row left to right:
//	       row r (0..6) holds slots r(r+1)/2 .. r(r+1)/2+r
//	28     the stock (StockPile), Label "cards left r redeals left"
//	29     the turned card (TurnedPile): the card just turned, 0 or 1 card
//	30     the waste (WastePile): unused turned cards, top playable
const (
	NumSlots   = 28
	StockPile  = 28
	TurnedPile = 29
	WastePile  = 30
	Passes     = 3
)

var (
	slotRow, slotCol [NumSlots]int
	cover            [NumSlots][]int // the two slots lying over a slot
	coverMask        [NumSlots]uint32
)

func init() {
	for r := range 7 {
		for i := 0; i <= r; i++ {
			s := r*(r+1)/2 + i
			slotRow[s], slotCol[s] = r, i
			if r < 6 {
				a, b := (r+1)*(r+2)/2+i, (r+1)*(r+2)/2+i+1
				cover[s] = []int{a, b}
				coverMask[s] = 1<<a | 1<<b
			}
		}
	}
}

// state is a plain value so that undo is a copy.
type state struct {
	slots  [NumSlots]engine.Card // NoCard once removed
	stock  [24]engine.Card       // bottom first; stock[nStock-1] is next
	nStock int
	waste  [24]engine.Card // bottom first
	nWaste int
	turned engine.Card
	pass   int // 1..Passes
	gone   int // cards removed
}

// Game is one Pyramid deal in play.
type Game struct {
	spec engine.Spec
	st   state
	undo engine.UndoStack[state]
}

var _ engine.Solitaire = (*Game)(nil)

// New deals spec (Game "pyramid", no variant) from engine.ShuffledDecks.
func New(spec engine.Spec) (*Game, error) {
	if spec.Game != "pyramid" {
		return nil, fmt.Errorf("pyramid can't deal a %q game", spec.Game)
	}
	if spec.Variant != "" {
		return nil, fmt.Errorf("Pyramid has no variant %q", spec.Variant)
	}
	return newFromCards(spec, engine.ShuffledDecks(spec.Seed, 1)), nil
}

// newFromCards deals cards[0:28] to the pyramid in slot order and the rest
// to the stock, cards[51] turned first.
func newFromCards(spec engine.Spec, cards []engine.Card) *Game {
	g := &Game{spec: spec}
	copy(g.st.slots[:], cards[:NumSlots])
	copy(g.st.stock[:], cards[NumSlots:])
	g.st.nStock = 24
	g.st.pass = 1
	return g
}

func (g *Game) Spec() engine.Spec { return g.spec }

// Score is 0: the texts give Pyramid no points (see the package comment).
func (g *Game) Score() int { return 0 }
func (g *Game) Moves() int { return g.undo.Len() }
func (g *Game) Won() bool  { return g.st.gone == 52 }

func (g *Game) History() []engine.Action { return g.undo.History() }

// Undo steps back one successful action.
func (g *Game) Undo() bool { return g.undo.Pop(&g.st) }

// Stuck: nothing comes off now and either the stock can't be turned or
// redealt any more, or every card left has been turned before and turning
// on through the passes left never offers a pair or a King. Before that
// point a turn may show a new card, so the game goes on (and Stuck reveals
// nothing about unseen cards).
func (g *Game) Stuck() bool {
	if g.Won() {
		return false
	}
	s := g.st
	if s.canRemove() {
		return false
	}
	if s.checkDraw() != nil {
		return true
	}
	if s.pass == 1 && s.nStock > 0 {
		return false
	}
	for s.checkDraw() == nil {
		s.draw()
		if s.canRemove() {
			return false
		}
	}
	return true
}

func (s *state) free(i int) bool {
	for _, c := range cover[i] {
		if s.slots[c] != engine.NoCard {
			return false
		}
	}
	return true
}

func (s *state) wasteTop() engine.Card {
	if s.nWaste == 0 {
		return engine.NoCard
	}
	return s.waste[s.nWaste-1]
}

// available returns the card at pile p if it can be used now, or why not.
func (s *state) available(p int) (engine.Card, error) {
	switch {
	case p >= 0 && p < NumSlots:
		c := s.slots[p]
		if c == engine.NoCard {
			return c, errors.New("That place is empty.")
		}
		if !s.free(p) {
			return c, fmt.Errorf("%v isn't free: both cards over it must go first.", c)
		}
		return c, nil
	case p == StockPile:
		return engine.NoCard, errors.New("Stock cards can't be used until you turn them.")
	case p == TurnedPile:
		if s.turned == engine.NoCard {
			return engine.NoCard, errors.New("No card is turned up.")
		}
		return s.turned, nil
	case p == WastePile:
		if s.nWaste == 0 {
			return engine.NoCard, errors.New("The waste pile is empty.")
		}
		return s.wasteTop(), nil
	}
	return engine.NoCard, errors.New("There is no such place on the table.")
}

// usable lists the piles whose card can be used now.
func (s *state) usable() []int {
	var ps []int
	for i := range NumSlots {
		if s.slots[i] != engine.NoCard && s.free(i) {
			ps = append(ps, i)
		}
	}
	if s.turned != engine.NoCard {
		ps = append(ps, TurnedPile)
	}
	if s.nWaste > 0 {
		ps = append(ps, WastePile)
	}
	return ps
}

func (s *state) canRemove() bool {
	ps := s.usable()
	for k, a := range ps {
		ca, _ := s.available(a)
		if ca.Rank() == engine.King {
			return true
		}
		for _, b := range ps[k+1:] {
			if cb, _ := s.available(b); ca.Rank()+cb.Rank() == 13 {
				return true
			}
		}
	}
	return false
}

func (s *state) remove(p int) {
	switch {
	case p < NumSlots:
		s.slots[p] = engine.NoCard
	case p == TurnedPile:
		s.turned = engine.NoCard
	case p == WastePile:
		s.nWaste--
		s.waste[s.nWaste] = engine.NoCard
	}
	s.gone++
}

func (s *state) checkDraw() error {
	if s.nStock > 0 {
		return nil
	}
	if s.nWaste == 0 && s.turned == engine.NoCard {
		return errors.New("The stock and the waste are empty.")
	}
	if s.pass >= Passes {
		return errors.New("The stock is empty and both redeals are used: 3 passes in all.")
	}
	return nil
}

// draw turns the next stock card, the unused one going on the waste, or
// with the stock empty turns the waste (and the turned card) over as a new
// stock, so the cards come again in the same order.
func (s *state) draw() {
	if s.turned != engine.NoCard {
		s.waste[s.nWaste] = s.turned
		s.nWaste++
		s.turned = engine.NoCard
	}
	if s.nStock > 0 {
		s.nStock--
		s.turned = s.stock[s.nStock]
		s.stock[s.nStock] = engine.NoCard
	} else {
		for i := 0; i < s.nWaste; i++ {
			s.stock[s.nWaste-1-i] = s.waste[i]
			s.waste[i] = engine.NoCard
		}
		s.nStock, s.nWaste = s.nWaste, 0
		s.pass++
	}
}

// pair checks that a and b can come off together.
func (s *state) pair(a, b int) error {
	ca, err := s.available(a)
	if err != nil {
		return err
	}
	if a == b {
		if ca.Rank() == engine.King {
			return nil
		}
		return errors.New("Pick two different cards.")
	}
	cb, err := s.available(b)
	if err != nil {
		return err
	}
	for _, c := range []engine.Card{ca, cb} {
		if c.Rank() == engine.King {
			return fmt.Errorf("%v counts 13 by itself: it comes off alone.", c)
		}
	}
	if sum := int(ca.Rank()) + int(cb.Rank()); sum != 13 {
		return fmt.Errorf("%v and %v add up to %d, not 13.", ca, cb, sum)
	}
	return nil
}

// partners lists the usable piles whose card adds to 13 with pile a's.
func (s *state) partners(a int) []int {
	ca, _ := s.available(a)
	var out []int
	for _, b := range s.usable() {
		if cb, _ := s.available(b); b != a && ca.Rank()+cb.Rank() == 13 {
			out = append(out, b)
		}
	}
	return out
}

// auto reads a double click on pile a: a King comes off; a card with just
// one partner in play comes off with it.
func (s *state) auto(a int) (int, error) {
	ca, err := s.available(a)
	if err != nil {
		return 0, err
	}
	if ca.Rank() == engine.King {
		return a, nil
	}
	ps := s.partners(a)
	switch len(ps) {
	case 0:
		return 0, fmt.Errorf("%v has no free partner adding up to 13.", ca)
	case 1:
		return ps[0], nil
	}
	names := make([]string, len(ps))
	for i, p := range ps {
		c, _ := s.available(p)
		names[i] = c.String()
	}
	return 0, fmt.Errorf("%v can pair with %s: pick one.", ca, strings.Join(names, " or "))
}

// Do applies a:
//   - Draw (or Auto on the stock) turns the next stock card, or redeals;
//   - Move{From: a, To: b} removes cards a and b (slots, TurnedPile, WastePile)
//     if they add to 13; a == b removes a King;
//   - Auto{From: a} removes a King, or pairs a with its only partner.
func (g *Game) Do(a engine.Action) error {
	s := &g.st
	if g.Won() {
		return errors.New("Every card is gone: the game is won.")
	}
	var from, to int
	switch {
	case a.Kind == engine.Draw || a.Kind == engine.Auto && a.From == StockPile:
		if err := s.checkDraw(); err != nil {
			return err
		}
		g.undo.Push(*s, a)
		s.draw()
		return nil
	case a.Kind == engine.Move:
		if err := s.pair(a.From, a.To); err != nil {
			return err
		}
		from, to = a.From, a.To
	case a.Kind == engine.Auto:
		b, err := s.auto(a.From)
		if err != nil {
			return err
		}
		from, to = a.From, b
	default:
		return errors.New("That action isn't part of Pyramid.")
	}
	g.undo.Push(*s, a)
	s.remove(from)
	if to != from {
		s.remove(to)
	}
	return nil
}

// Piles reports the pyramid, stock, turned card and waste in pile-index
// order. Stock cards are never shown.
func (g *Game) Piles() []engine.Pile {
	s := &g.st
	ps := make([]engine.Pile, 0, NumSlots+3)
	for i := range NumSlots {
		p := engine.Pile{Kind: engine.Slot, X: 6 - slotRow[i] + 2*slotCol[i], Y: slotRow[i]}
		if c := s.slots[i]; c != engine.NoCard {
			p.Cards = []engine.Card{c}
			p.Blocked = !s.free(i)
		}
		ps = append(ps, p)
	}
	ps = append(ps, engine.Pile{
		Kind: engine.Stock, X: 16, Y: 0,
		Cards: make([]engine.Card, s.nStock), FaceDown: s.nStock,
		Label: fmt.Sprintf("%d r%d", s.nStock, Passes-s.pass),
	})
	// The turned card has no kind of its own; it is a one-card waste.
	turned := engine.Pile{Kind: engine.Waste, X: 16, Y: 2}
	if s.turned != engine.NoCard {
		turned.Cards = []engine.Card{s.turned}
	}
	ps = append(ps, turned)
	ps = append(ps, engine.Pile{
		Kind: engine.Waste, X: 18, Y: 2,
		Cards: append([]engine.Card(nil), s.waste[:s.nWaste]...),
	})
	return ps
}

// Text is the opening layout for `sshuffle deal pyramid SEED`, every card
// shown, the stock in the order it will be turned.
func Text(spec engine.Spec) (string, error) {
	g, err := New(spec)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Pyramid %s\n", spec)
	for r := range 7 {
		b.WriteString(strings.Repeat("  ", 6-r))
		for i := 0; i <= r; i++ {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(g.st.slots[r*(r+1)/2+i].ASCII())
		}
		b.WriteString("\n")
	}
	b.WriteString("Stock, next card first:")
	for i := g.st.nStock - 1; i >= 0; i-- {
		b.WriteString(" " + g.st.stock[i].ASCII())
	}
	b.WriteString("\n")
	return b.String(), nil
}
