// Package tripeaks is TriPeaks as the rule page (seed 004) and docs/rules.md
// define it: 28 cards in three overlapping peaks, one pass through a
// 24-card stock, plays one rank up or down onto the waste with King and Ace
// connecting, and BVS scoring in points.
package tripeaks

import (
	"errors"
	"fmt"
	"strings"

	"sshuffle/engine"
)

// Pile indices as Piles reports them (the arcade maps clicks to these):
//
//	0..27  the 28 slots: 0..2 the apexes (row 0), 3..8 row 1, 9..17 row 2,
//	       18..27 the face-up bottom row, each row left to right
//	28     the stock (StockPile)
//	29     the waste (WastePile)
const (
	NumSlots  = 28
	StockPile = 28
	WastePile = 29
)

// Row starts: row r holds slots rowStart[r] .. rowStart[r+1]-1.
var rowStart = [5]int{0, 3, 9, 18, 28}

// cover[i] lists the two slots lying over slot i (none for the bottom row).
// coveredBy is its inverse: the slots that slot i lies over.
var (
	cover     [NumSlots][]int
	coveredBy [NumSlots][]int
	slotX     [NumSlots]int
	slotY     [NumSlots]int
	coverMask [NumSlots]uint32 // cover as a bit set, for the solver
)

func init() {
	for p := 0; p < 3; p++ {
		// An apex lies under the two row-1 cards of its own peak.
		cover[p] = []int{3 + 2*p, 4 + 2*p}
	}
	for j := 0; j < 6; j++ {
		// Row 1 card j belongs to peak j/2; within a peak row 2 has three
		// cards, so the pair under it shifts by one per peak.
		k := j + j/2
		cover[3+j] = []int{9 + k, 10 + k}
	}
	for k := 0; k < 9; k++ {
		cover[9+k] = []int{18 + k, 19 + k}
	}
	for i, cs := range cover {
		for _, c := range cs {
			coveredBy[c] = append(coveredBy[c], i)
			coverMask[i] |= 1 << c
		}
	}
	// The bottom row sits at even half-columns; each card above sits
	// centred over the two that cover it.
	for i := NumSlots - 1; i >= 0; i-- {
		switch {
		case i >= 18:
			slotX[i], slotY[i] = 2*(i-18), 3
		default:
			slotX[i] = (slotX[cover[i][0]] + slotX[cover[i][1]]) / 2
			slotY[i] = slotY[cover[i][0]] - 1
		}
	}
}

// peakBonus is the BVS bonus for the n-th peak cleared (1-based).
func peakBonus(n int) int {
	if n >= 3 {
		return 30
	}
	return 15
}

const drawCost = 5

// state is a plain value so that undo is a copy.
type state struct {
	slots  [NumSlots]engine.Card // NoCard once played
	stock  [24]engine.Card       // bottom first; stock[nStock-1] is the top
	nStock int
	waste  [52]engine.Card // bottom first
	nWaste int
	score  int
	run    int // cards played since the last stock turn
	peaks  int // peaks cleared so far
}

// Game is one TriPeaks deal in play.
type Game struct {
	spec engine.Spec
	st   state
	undo engine.UndoStack[state]
}

var _ engine.Solitaire = (*Game)(nil)

// New deals spec (Game "tripeaks", no variant) from engine.ShuffledDecks.
func New(spec engine.Spec) (*Game, error) {
	if spec.Game != "tripeaks" {
		return nil, fmt.Errorf("tripeaks can't deal a %q game", spec.Game)
	}
	if spec.Variant != "" {
		return nil, fmt.Errorf("TriPeaks has no variant %q", spec.Variant)
	}
	return newFromCards(spec, engine.ShuffledDecks(spec.Seed, 1)), nil
}

// newFromCards deals cards[0:28] to the slots in index order and the rest to
// the stock with cards[51] on top, which at once starts the waste.
func newFromCards(spec engine.Spec, cards []engine.Card) *Game {
	g := &Game{spec: spec}
	copy(g.st.slots[:], cards[:NumSlots])
	copy(g.st.stock[:], cards[NumSlots:])
	g.st.nStock = 24
	g.st.nStock--
	g.st.waste[0] = g.st.stock[g.st.nStock]
	g.st.stock[g.st.nStock] = engine.NoCard
	g.st.nWaste = 1
	return g
}

func (g *Game) Spec() engine.Spec { return g.spec }
func (g *Game) Score() int        { return g.st.score }
func (g *Game) Moves() int        { return g.undo.Len() }

// Won: every peak card is gone (removing an apex needs its whole peak gone,
// so this is the same as all three peaks cleared).
func (g *Game) Won() bool { return g.st.peaks == 3 }

// Stuck follows the rule page: the stock is gone and nothing fits.
func (g *Game) Stuck() bool {
	if g.Won() || g.st.nStock > 0 {
		return false
	}
	for i := range NumSlots {
		if g.st.playable(i) == nil {
			return false
		}
	}
	return true
}

func (g *Game) History() []engine.Action { return g.undo.History() }

// Undo steps back one successful action.
func (g *Game) Undo() bool { return g.undo.Pop(&g.st) }

func (s *state) wasteTop() engine.Card {
	if s.nWaste == 0 {
		return engine.NoCard
	}
	return s.waste[s.nWaste-1]
}

// faceUp: a card shows once nothing lies over it; the bottom row starts so.
func (s *state) faceUp(i int) bool {
	for _, c := range cover[i] {
		if s.slots[c] != engine.NoCard {
			return false
		}
	}
	return true
}

// fits reports whether c may go on w: one rank apart, King and Ace touching.
func fits(c, w engine.Card) bool {
	d := int(c.Rank()) - int(w.Rank())
	return d == 1 || d == -1 || d == 12 || d == -12
}

// playable says why slot i can't be played now, or nil.
func (s *state) playable(i int) error {
	if i < 0 || i >= NumSlots {
		return errors.New("There is no such place on the table.")
	}
	c := s.slots[i]
	if c == engine.NoCard {
		return errors.New("That place is empty.")
	}
	if !s.faceUp(i) {
		return errors.New("That card is face down: it turns up once both cards over it are gone.")
	}
	w := s.wasteTop()
	if !fits(c, w) {
		return fmt.Errorf("%v can't go on %v: it must be one rank higher or lower.", c, w)
	}
	return nil
}

func (s *state) play(i int) {
	c := s.slots[i]
	s.slots[i] = engine.NoCard
	s.waste[s.nWaste] = c
	s.nWaste++
	s.run++
	s.score += s.run
	if i < 3 {
		s.peaks++
		s.score += peakBonus(s.peaks)
	}
}

func (s *state) draw() {
	s.nStock--
	s.waste[s.nWaste] = s.stock[s.nStock]
	s.stock[s.nStock] = engine.NoCard
	s.nWaste++
	s.score -= drawCost
	s.run = 0
}

// check says why a would be refused, or nil.
func (s *state) check(a engine.Action) error {
	if s.peaks == 3 {
		return errors.New("All three peaks are clear: the game is won.")
	}
	switch a.Kind {
	case engine.Draw:
		return s.checkDraw()
	case engine.Auto, engine.Move:
		if a.From == StockPile && a.Kind == engine.Auto {
			return s.checkDraw()
		}
		if a.Kind == engine.Move && a.To != WastePile {
			return errors.New("Peak cards go only onto the waste pile.")
		}
		switch a.From {
		case StockPile:
			return errors.New("Tap the stock to turn its next card.")
		case WastePile:
			return errors.New("The waste card stays put: play peak cards onto it.")
		}
		return s.playable(a.From)
	}
	return errors.New("That action isn't part of TriPeaks.")
}

func (s *state) checkDraw() error {
	if s.nStock == 0 {
		return errors.New("The stock is empty: TriPeaks goes through it only once.")
	}
	return nil
}

// Do applies a: Draw (or Auto on the stock) turns the next stock card;
// Move{From: slot, To: WastePile} or Auto{From: slot} plays that card.
func (g *Game) Do(a engine.Action) error {
	if err := g.st.check(a); err != nil {
		return err
	}
	g.undo.Push(g.st, a)
	if a.Kind == engine.Draw || a.From == StockPile {
		g.st.draw()
	} else {
		g.st.play(a.From)
	}
	return nil
}

// Piles reports the slots, the stock and the waste in pile-index order.
// Face-down slots carry NoCard so the arcade can never show them.
func (g *Game) Piles() []engine.Pile {
	s := &g.st
	ps := make([]engine.Pile, 0, NumSlots+2)
	for i := range NumSlots {
		p := engine.Pile{Kind: engine.Slot, X: slotX[i], Y: slotY[i]}
		if c := s.slots[i]; c != engine.NoCard {
			if s.faceUp(i) {
				p.Cards = []engine.Card{c}
			} else {
				p.Cards = []engine.Card{engine.NoCard}
				p.FaceDown = 1
				p.Blocked = true
			}
		}
		ps = append(ps, p)
	}
	ps = append(ps, engine.Pile{
		Kind: engine.Stock, X: 0, Y: 6,
		Cards: make([]engine.Card, s.nStock), FaceDown: s.nStock,
		Label: fmt.Sprint(s.nStock),
	})
	ps = append(ps, engine.Pile{
		Kind: engine.Waste, X: 4, Y: 6,
		Cards: append([]engine.Card(nil), s.waste[:s.nWaste]...),
	})
	return ps
}

// Text is the opening layout for `sshuffle deal tripeaks SEED`, every card
// shown (it is for checking deals). Face-down cards are in brackets.
func Text(spec engine.Spec) (string, error) {
	g, err := New(spec)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "TriPeaks %s\n", spec)
	for r := range 4 {
		line := []byte(strings.Repeat(" ", 44))
		for i := rowStart[r]; i < rowStart[r+1]; i++ {
			lab := g.st.slots[i].ASCII()
			if r < 3 {
				lab = "[" + lab + "]"
			} else {
				lab = " " + lab + " "
			}
			copy(line[2*slotX[i]:], lab)
		}
		b.WriteString(strings.TrimRight(string(line), " ") + "\n")
	}
	b.WriteString("Waste: " + g.st.wasteTop().ASCII() + "\n")
	b.WriteString("Stock, next card first:")
	for i := g.st.nStock - 1; i >= 0; i-- {
		b.WriteString(" " + g.st.stock[i].ASCII())
	}
	b.WriteString("\n")
	return b.String(), nil
}
