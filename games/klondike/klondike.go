// Package klondike is Klondike solitaire (Draw 1 and Draw 3, unlimited
// passes) as the arcade plays it: a pure rules engine with undo, scoring,
// stuck detection, seen-only hints and a thoughtful solver.
//
// Pile indices (what Action.From and Action.To name):
//
//	0      stock (tap it with a Draw action)
//	1      waste
//	2..5   foundations (any Ace may start any empty one)
//	6..12  tableau columns, left to right
//
// Actions:
//
//	Draw                  turn one (Draw 1) or up to three (Draw 3) stock cards
//	                      onto the waste, or turn the waste over into a new
//	                      stock when the stock is empty
//	Move{From, Index, To} move card Index of pile From and every card on it
//	                      onto pile To
//	Auto{From, Index}     double click: to its foundation if it fits, else to
//	                      its best tableau place (see Game.autoMove); History
//	                      records the Move it resolved to
//
// The deal: engine.ShuffledDecks(seed, 1) gives 52 cards. Column c (0..6)
// takes the next c+1 cards, bottom first, so column 0 is deck[0], column 1
// is deck[1:3] and so on; the last card of each column is face up. The other
// 24 cards, deck[28:52], are the stock with the END of the slice on top:
// deck[51] is the first card turned.
//
// solver.go is over 800 lines on purpose: it is the search's hot loop (the
// position, its moves, the automatic moves and the pruning that reads
// them), which shares unexported helpers at every step and is read and
// profiled as one piece.
package klondike

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"sshuffle/engine"
)

// Pile indices.
const (
	PileStock       = 0
	PileWaste       = 1
	PileFoundation0 = 2 // foundations are 2..5
	PileTableau0    = 6 // columns are 6..12
	NumPiles        = 13
)

var _ engine.Solitaire = (*Game)(nil)

// state is everything that Undo must restore apart from the score.
// Cards are bottom first; for the stock and the waste the last card is the
// top. down counts the face-down cards at the bottom of each tableau pile.
type state struct {
	piles [NumPiles][]engine.Card
	down  [NumPiles]int
	// fan is how many cards of the latest Draw 3 packet are still on the
	// waste: the renderer shows that many side by side.
	fan int
}

func (s *state) clone() state {
	c := *s
	for i := range s.piles {
		c.piles[i] = append([]engine.Card(nil), s.piles[i]...)
	}
	return c
}

func (s *state) equal(o *state) bool {
	if s.down != o.down || s.fan != o.fan {
		return false
	}
	for i := range s.piles {
		if !slices.Equal(s.piles[i], o.piles[i]) {
			return false
		}
	}
	return true
}

type snapshot struct {
	st    state
	score int
}

// Game is one Klondike game in play.
type Game struct {
	spec  engine.Spec
	draw  int // 1 or 3
	st    state
	score int
	undo  []snapshot
	hist  []engine.Action
	// seen marks cards the player has looked at: face-up tableau cards and
	// stock cards turned at least once. It is knowledge, so Undo keeps it.
	seen [64]bool
}

func drawCount(variant string) (int, error) {
	switch variant {
	case "", "draw1":
		return 1, nil
	case "draw3":
		return 3, nil
	}
	return 0, fmt.Errorf("klondike has no variant %q: choose draw1 or draw3", variant)
}

func checkSpec(spec engine.Spec) (int, error) {
	if spec.Game != "klondike" {
		return 0, fmt.Errorf("spec is for %q, not klondike", spec.Game)
	}
	return drawCount(spec.Variant)
}

// deal lays out the opening position of a spec (see the package comment).
func deal(seed uint64) state {
	deck := engine.ShuffledDecks(seed, 1)
	var s state
	n := 0
	for c := range 7 {
		p := PileTableau0 + c
		s.piles[p] = append([]engine.Card(nil), deck[n:n+c+1]...)
		s.down[p] = c
		n += c + 1
	}
	s.piles[PileStock] = append([]engine.Card(nil), deck[n:]...)
	return s
}

// New deals the game a spec names.
func New(spec engine.Spec) (*Game, error) {
	d, err := checkSpec(spec)
	if err != nil {
		return nil, err
	}
	g := &Game{spec: spec, draw: d, st: deal(spec.Seed)}
	g.markSeen()
	return g, nil
}

// Layout describes an arbitrary position, for tests and for building the
// rule texts' examples. Cards are bottom first; Stock and Waste have their
// top last. A layout need not hold all 52 cards, but no card may appear
// twice.
type Layout struct {
	Variant     string // "draw1" (or "") or "draw3"
	Stock       []engine.Card
	Waste       []engine.Card
	Foundations [4][]engine.Card
	Columns     [7][]engine.Card
	FaceDown    [7]int
	Score       int
}

// NewFromLayout builds a game in the given position. Every waste card and
// face-up card counts as seen; stock cards do not.
func NewFromLayout(l Layout) (*Game, error) {
	d, err := drawCount(l.Variant)
	if err != nil {
		return nil, err
	}
	var s state
	var dup [64]bool
	add := func(p int, cs []engine.Card) error {
		for _, c := range cs {
			if !c.Valid() {
				return fmt.Errorf("layout: %d is not a card", c)
			}
			if dup[c] {
				return fmt.Errorf("layout: %v appears twice", c)
			}
			dup[c] = true
		}
		s.piles[p] = append([]engine.Card(nil), cs...)
		return nil
	}
	if err := add(PileStock, l.Stock); err != nil {
		return nil, err
	}
	if err := add(PileWaste, l.Waste); err != nil {
		return nil, err
	}
	for i, f := range l.Foundations {
		for k, c := range f {
			if c.Rank() != engine.Rank(k+1) || c.Suit() != f[0].Suit() {
				return nil, fmt.Errorf("layout: foundation %d is not one suit from the Ace up", i)
			}
		}
		if err := add(PileFoundation0+i, f); err != nil {
			return nil, err
		}
	}
	for i, col := range l.Columns {
		p := PileTableau0 + i
		if err := add(p, col); err != nil {
			return nil, err
		}
		fd := l.FaceDown[i]
		if fd < 0 || (fd > 0 && fd >= len(col)) {
			return nil, fmt.Errorf("layout: column %d must end in a face-up card", i+1)
		}
		s.down[p] = fd
	}
	if len(s.piles[PileWaste]) > 0 && d == 3 {
		s.fan = min(3, len(s.piles[PileWaste]))
	}
	g := &Game{spec: engine.Spec{Game: "klondike", Variant: l.Variant}, draw: d, st: s, score: max(0, l.Score)}
	if g.spec.Variant == "" {
		g.spec.Variant = "draw1"
	}
	g.markSeen()
	for _, c := range s.piles[PileWaste] {
		g.seen[c] = true
	}
	return g, nil
}

func (g *Game) markSeen() {
	for p := PileWaste; p < NumPiles; p++ {
		for _, c := range g.st.piles[p][g.st.down[p]:] {
			g.seen[c] = true
		}
	}
}

// Spec is the deal this game came from.
func (g *Game) Spec() engine.Spec { return g.spec }

// DrawCount is 1 or 3.
func (g *Game) DrawCount() int { return g.draw }

// Score is the standard (Wikipedia) score, never below 0.
func (g *Game) Score() int { return g.score }

// Moves counts the actions of the current line of play, draws included.
func (g *Game) Moves() int { return len(g.hist) }

// History returns the successful actions since the deal; Auto actions appear
// as the Move they resolved to.
func (g *Game) History() []engine.Action { return append([]engine.Action(nil), g.hist...) }

// Won reports all 52 cards on the foundations.
func (g *Game) Won() bool {
	n := 0
	for f := PileFoundation0; f < PileTableau0; f++ {
		n += len(g.st.piles[f])
	}
	return n == 52
}

// Undo steps back one successful action.
func (g *Game) Undo() bool {
	if len(g.undo) == 0 {
		return false
	}
	last := g.undo[len(g.undo)-1]
	g.undo = g.undo[:len(g.undo)-1]
	g.hist = g.hist[:len(g.hist)-1]
	g.st = last.st
	g.score = last.score
	return true
}

// Piles is the table as the player sees it; face-down cards are NoCard.
func (g *Game) Piles() []engine.Pile {
	out := make([]engine.Pile, NumPiles)
	stock := g.st.piles[PileStock]
	out[PileStock] = engine.Pile{
		Kind: engine.Stock, Cards: make([]engine.Card, len(stock)), FaceDown: len(stock),
		X: 0, Y: 0, Label: strconv.Itoa(len(stock)),
	}
	waste := g.st.piles[PileWaste]
	wp := engine.Pile{Kind: engine.Waste, Cards: append([]engine.Card(nil), waste...), X: 2, Y: 0, Show: min(1, len(waste))}
	if g.draw == 3 {
		wp.Fan = engine.FanRight
		if len(waste) > 0 {
			wp.Show = min(len(waste), max(1, g.st.fan))
		}
	}
	out[PileWaste] = wp
	for i := range 4 {
		p := PileFoundation0 + i
		out[p] = engine.Pile{Kind: engine.Foundation, Cards: append([]engine.Card(nil), g.st.piles[p]...), X: 6 + 2*i, Y: 0}
	}
	for i := range 7 {
		p := PileTableau0 + i
		cs := append([]engine.Card(nil), g.st.piles[p]...)
		for k := range g.st.down[p] {
			cs[k] = engine.NoCard
		}
		out[p] = engine.Pile{Kind: engine.Tableau, Cards: cs, FaceDown: g.st.down[p], X: 2 * i, Y: 2, Fan: engine.FanDown}
	}
	return out
}

// Do applies one action or explains in one sentence why it is illegal.
func (g *Game) Do(a engine.Action) error {
	switch a.Kind {
	case engine.Draw:
		return g.doDraw()
	case engine.Move:
		if err := g.checkMove(a.From, a.Index, a.To); err != nil {
			return err
		}
		g.apply(a.From, a.Index, a.To)
		return nil
	case engine.Auto:
		m, err := g.autoMove(a.From, a.Index)
		if err != nil {
			return err
		}
		g.apply(m.From, m.Index, m.To)
		return nil
	}
	return errors.New("That action is not part of Klondike")
}

func (g *Game) push(a engine.Action) {
	g.undo = append(g.undo, snapshot{st: g.st.clone(), score: g.score})
	g.hist = append(g.hist, a)
}

func (g *Game) addScore(d int) { g.score = max(0, g.score+d) }

func (g *Game) doDraw() error {
	s := &g.st
	stock, waste := s.piles[PileStock], s.piles[PileWaste]
	if len(stock) == 0 && len(waste) == 0 {
		return errors.New("The stock and the waste are both empty")
	}
	g.push(engine.Action{Kind: engine.Draw})
	if len(stock) == 0 {
		// Turning the waste over keeps its order: the bottom waste card
		// becomes the top of the new stock.
		ns := make([]engine.Card, len(waste))
		for i, c := range waste {
			ns[len(waste)-1-i] = c
		}
		s.piles[PileStock], s.piles[PileWaste] = ns, waste[:0]
		s.fan = 0
		if g.draw == 1 {
			g.addScore(-100)
		}
		return nil
	}
	n := min(g.draw, len(stock))
	for range n {
		c := stock[len(stock)-1]
		stock = stock[:len(stock)-1]
		waste = append(waste, c)
		g.seen[c] = true
	}
	s.piles[PileStock], s.piles[PileWaste] = stock, waste
	s.fan = n
	return nil
}

func isTableau(p int) bool    { return p >= PileTableau0 && p < NumPiles }
func isFoundation(p int) bool { return p >= PileFoundation0 && p < PileTableau0 }

// apply performs a move already checked legal, with its scoring.
func (g *Game) apply(from, idx, to int) {
	g.push(engine.Action{Kind: engine.Move, From: from, Index: idx, To: to})
	s := &g.st
	run := s.piles[from][idx:]
	s.piles[to] = append(s.piles[to], run...)
	s.piles[from] = s.piles[from][:idx]
	switch {
	case from == PileWaste && isFoundation(to):
		g.addScore(10)
	case from == PileWaste:
		g.addScore(5)
	case isTableau(from) && isFoundation(to):
		g.addScore(10)
	case isFoundation(from):
		g.addScore(-15)
	}
	if from == PileWaste && s.fan > 0 {
		s.fan--
	}
	if isTableau(from) && s.down[from] > 0 && s.down[from] == len(s.piles[from]) {
		s.down[from]--
		g.seen[s.piles[from][s.down[from]]] = true
		g.addScore(5)
	}
}

// source returns the cards that would move, or why they can't.
func (g *Game) source(from, idx int) ([]engine.Card, error) {
	if from < 0 || from >= NumPiles {
		return nil, fmt.Errorf("There is no pile %d", from)
	}
	if from == PileStock {
		return nil, errors.New("Stock cards can't be moved: tap the stock to turn them")
	}
	p := g.st.piles[from]
	if len(p) == 0 {
		switch {
		case from == PileWaste:
			return nil, errors.New("The waste is empty")
		case isFoundation(from):
			return nil, errors.New("That foundation is empty")
		}
		return nil, errors.New("That column is empty")
	}
	if idx < 0 || idx >= len(p) {
		return nil, errors.New("There is no card there")
	}
	switch {
	case from == PileWaste && idx != len(p)-1:
		return nil, errors.New("Only the top waste card can be played")
	case isFoundation(from) && idx != len(p)-1:
		return nil, errors.New("Only the top card of a foundation can come back down")
	case isTableau(from) && idx < g.st.down[from]:
		return nil, errors.New("A face-down card can't move")
	}
	run := p[idx:]
	for k := 1; k < len(run); k++ {
		a, b := run[k-1], run[k]
		if a.Red() == b.Red() {
			return nil, fmt.Errorf("%v and %v can't move together: both are %s", a, b, a.Colour())
		}
		if b.Rank()+1 != a.Rank() {
			return nil, fmt.Errorf("%v and %v can't move together: a run goes down one rank at a time", a, b)
		}
	}
	return run, nil
}

// fitTableau says whether a run led by lead may go on tableau pile to.
func (g *Game) fitTableau(lead engine.Card, single bool, to int) error {
	if g.fitsTableau(lead, to) {
		return nil
	}
	p := g.st.piles[to]
	if len(p) == 0 {
		if lead.Rank() == engine.King {
			return nil
		}
		if single {
			return errors.New("Only a King can fill an empty column")
		}
		return errors.New("Only a King-led run can fill an empty column")
	}
	top := p[len(p)-1]
	if top.Red() == lead.Red() {
		return fmt.Errorf("%v can't go on %v: both are %s", lead, top, top.Colour())
	}
	if lead.Rank()+1 != top.Rank() {
		if top.Rank() == engine.Ace {
			return fmt.Errorf("%v can't go on %v: nothing goes on an Ace in a column", lead, top)
		}
		want := "red"
		if top.Red() {
			want = "black"
		}
		return fmt.Errorf("%v can't go on %v: a column builds down one rank at a time, so it takes a %s %s",
			lead, top, want, (top.Rank() - 1).Name())
	}
	return nil
}

// fitsTableau is fitTableau without the sentence, for the hint and the
// stuck check, which try every pair of places and would otherwise format a
// sentence for each that does not fit.
func (g *Game) fitsTableau(lead engine.Card, to int) bool {
	p := g.st.piles[to]
	if len(p) == 0 {
		return lead.Rank() == engine.King
	}
	return onto(lead, p[len(p)-1])
}

// fitsFoundation is fitFoundation without the sentence.
func (g *Game) fitsFoundation(c engine.Card, to int) bool {
	p := g.st.piles[to]
	if len(p) == 0 {
		return c.Rank() == engine.Ace
	}
	top := p[len(p)-1]
	return top.Suit() == c.Suit() && c.Rank() == top.Rank()+1
}

// fitFoundation says whether card c may go on foundation pile to.
func (g *Game) fitFoundation(c engine.Card, to int) error {
	if g.fitsFoundation(c, to) {
		return nil
	}
	p := g.st.piles[to]
	if len(p) == 0 {
		if c.Rank() == engine.Ace {
			return nil
		}
		return errors.New("Only an Ace can start a foundation")
	}
	top := p[len(p)-1]
	if top.Suit() != c.Suit() {
		return fmt.Errorf("%v can't go on %v: a foundation keeps to one suit", c, top)
	}
	if c.Rank() != top.Rank()+1 {
		return fmt.Errorf("%v can't go on %v: a foundation goes up one rank at a time", c, top)
	}
	return nil
}

func (g *Game) checkMove(from, idx, to int) error {
	if isTableau(from) && isFoundation(to) && idx >= g.st.down[from] && idx < len(g.st.piles[from])-1 {
		return errors.New("Only the top card of a column can go to a foundation")
	}
	run, err := g.source(from, idx)
	if err != nil {
		return err
	}
	if to < 0 || to >= NumPiles {
		return fmt.Errorf("There is no pile %d", to)
	}
	switch {
	case to == from:
		return errors.New("Those cards are already there")
	case to == PileStock:
		return errors.New("Cards can't be put on the stock")
	case to == PileWaste:
		return errors.New("Cards can't be put on the waste")
	case isFoundation(to):
		if isFoundation(from) {
			return errors.New("A foundation card can only come back down to a column")
		}
		if len(run) > 1 {
			return errors.New("Only one card at a time goes to a foundation")
		}
		return g.fitFoundation(run[0], to)
	}
	return g.fitTableau(run[0], len(run) == 1, to)
}

// foundationFor is the foundation pile card c can go to now, or -1.
func (g *Game) foundationFor(c engine.Card) int {
	for f := PileFoundation0; f < PileTableau0; f++ {
		if g.fitsFoundation(c, f) {
			return f
		}
	}
	return -1
}

// autoMove resolves a double click. A single card goes to its foundation
// when it fits. Otherwise the run goes to the leftmost column holding a card
// it fits on; failing that, a King-led run goes to the leftmost empty column,
// unless it already fills a column from the bottom (that move would change
// nothing). Foundation cards don't come down on a double click: that costs
// 15 points and should be a deliberate Move.
func (g *Game) autoMove(from, idx int) (engine.Action, error) {
	run, err := g.source(from, idx)
	if err != nil {
		return engine.Action{}, err
	}
	if isFoundation(from) {
		return engine.Action{}, errors.New("A foundation card comes back down only when you move it to a column")
	}
	mv := func(to int) engine.Action { return engine.Action{Kind: engine.Move, From: from, Index: idx, To: to} }
	if len(run) == 1 {
		if f := g.foundationFor(run[0]); f >= 0 {
			return mv(f), nil
		}
	}
	empty := -1
	for to := PileTableau0; to < NumPiles; to++ {
		if to == from || g.fitTableau(run[0], len(run) == 1, to) != nil {
			continue
		}
		if len(g.st.piles[to]) > 0 {
			return mv(to), nil
		}
		if empty < 0 {
			empty = to
		}
	}
	if empty >= 0 && !(isTableau(from) && idx == 0) {
		return mv(empty), nil
	}
	return engine.Action{}, fmt.Errorf("%v has nowhere to go", run[0])
}

// Text is the opening layout of a spec with every card shown, for
// `sshuffle deal klondike SEED`.
func Text(spec engine.Spec) (string, error) {
	if _, err := checkSpec(spec); err != nil {
		return "", err
	}
	s := deal(spec.Seed)
	out := fmt.Sprintf("Klondike %s (face-down cards in brackets)\n", spec)
	for i := range 7 {
		p := PileTableau0 + i
		out += fmt.Sprintf("column %d:", i+1)
		for k, c := range s.piles[p] {
			if k < s.down[p] {
				out += fmt.Sprintf(" [%v]", c)
			} else {
				out += fmt.Sprintf(" %v", c)
			}
		}
		out += "\n"
	}
	out += "stock, first turned first:"
	st := s.piles[PileStock]
	for i := len(st) - 1; i >= 0; i-- {
		out += " " + st[i].String()
	}
	return out + "\n", nil
}
