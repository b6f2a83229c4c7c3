// Package spider is Spider solitaire with one, two or four suits, played
// through engine.Solitaire: the rules with their error sentences, undo,
// scoring, a hint that uses only seen cards, and a solver.
//
// Pile indices (Piles, and Action.From/To):
//
//	0       the stock, X=0 Y=0, Label = rows left ("5".."0"); a tap (Draw)
//	        deals a row
//	1..8    the completed runs, X=4,6,...,18 Y=0; pile 1+k holds the k-th
//	        completed run as A..K of its suit (so the King shows), else empty
//	9..18   the ten columns, X=0,2,...,18 Y=2, FanDown; Cards are bottom
//	        first with NoCard for each face-down card
//
// Actions:
//
//	Move{From: column, Index: card index in that column (counting the
//	     face-down cards), To: column}: the group from Index to the top.
//	Draw{}: deal a row (From is ignored).
//	Auto{From: column, Index}: the group from Index to its best place: a
//	     column whose top is one higher and the same suit, else one higher,
//	     else an empty column. Auto on the stock deals a row. History
//	     records the Move or Draw it became.
package spider

import (
	"fmt"
	"strconv"

	"sshuffle/engine"
)

// Pile numbers, see the package comment.
const (
	PileStock      = 0
	PileFoundation = 1 // first of eight
	PileColumn     = 9 // first of ten
	numPiles       = PileColumn + numCols
)

const startScore = 500

var _ engine.Solitaire = (*Game)(nil)

type snapshot struct {
	p     pos
	score int
}

// Game is one Spider deal in play.
type Game struct {
	spec  engine.Spec
	stock [numRows * numCols]engine.Card // row r is stock[10r:10r+10], dealt to columns 0..9
	p     pos
	score int
	undo  engine.UndoStack[snapshot]
}

// deck builds the 104 cards of a variant before shuffling.
func deck(variant string) ([]engine.Card, error) {
	var suits [numRuns]engine.Suit
	switch variant {
	case "1suit":
		for i := range suits {
			suits[i] = engine.Spades
		}
	case "2suit":
		for i := range suits {
			suits[i] = engine.Spades
			if i >= 4 {
				suits[i] = engine.Hearts
			}
		}
	case "4suit":
		for i := range suits {
			suits[i] = engine.Suits[i%4]
		}
	default:
		return nil, fmt.Errorf("spider has no variant %q: choose 1suit, 2suit or 4suit", variant)
	}
	cards := make([]engine.Card, 0, numCards)
	for _, s := range suits {
		for r := engine.Ace; r <= engine.King; r++ {
			cards = append(cards, engine.NewCard(r, s))
		}
	}
	return cards, nil
}

// normalize checks a spec and fills in the default variant.
func normalize(spec engine.Spec) (engine.Spec, error) {
	if spec.Game != "spider" {
		return spec, fmt.Errorf("not a spider deal: %q", spec.Game)
	}
	if spec.Variant == "" {
		spec.Variant = "1suit"
	}
	return spec, nil
}

// New deals spec. The 104 cards (for the variant, sets in order A..K) are
// shuffled with engine.NewRNG(spec.Seed).Shuffle; the first 54 go round the
// columns left to right (so columns 1-4 get six), the other 50 are the
// stock rows in order. An empty Variant means 1suit and Spec() reports it so.
func New(spec engine.Spec) (*Game, error) {
	spec, err := normalize(spec)
	if err != nil {
		return nil, err
	}
	cards, err := deck(spec.Variant)
	if err != nil {
		return nil, err
	}
	engine.NewRNG(spec.Seed).Shuffle(cards)
	var cols [numCols][]engine.Card
	for i := 0; i < 54; i++ {
		cols[i%numCols] = append(cols[i%numCols], cards[i])
	}
	g := &Game{spec: spec, score: startScore}
	copy(g.stock[:], cards[54:])
	j := 0
	for c := range cols {
		j += copy(g.p.cards[j:], cols[c])
		g.p.n[c] = uint8(len(cols[c]))
		g.p.down[c] = uint8(len(cols[c]) - 1)
	}
	g.p.rows = numRows
	return g, nil
}

func (g *Game) Spec() engine.Spec { return g.spec }
func (g *Game) Score() int        { return g.score }
func (g *Game) Moves() int        { return g.undo.Len() }
func (g *Game) Won() bool         { return g.p.runs >= numRuns }

func (g *Game) History() []engine.Action { return g.undo.History() }

// row returns the cards of the next stock row.
func (g *Game) row() []engine.Card {
	r := numRows - int(g.p.rows)
	return g.stock[r*numCols : r*numCols+numCols]
}

// Piles reports the table as the player sees it; see the package comment.
func (g *Game) Piles() []engine.Pile {
	ps := make([]engine.Pile, 0, numPiles)
	n := int(g.p.rows) * numCols
	ps = append(ps, engine.Pile{
		Kind: engine.Stock, Cards: make([]engine.Card, n), FaceDown: n,
		X: 0, Y: 0, Label: strconv.Itoa(int(g.p.rows)),
	})
	for k := 0; k < numRuns; k++ {
		p := engine.Pile{Kind: engine.Foundation, X: 4 + 2*k, Y: 0}
		if k < int(g.p.runs) {
			for r := engine.Ace; r <= engine.King; r++ {
				p.Cards = append(p.Cards, engine.NewCard(r, g.p.done[k]))
			}
		}
		ps = append(ps, p)
	}
	for c := 0; c < numCols; c++ {
		cs := append([]engine.Card(nil), g.p.col(c)...)
		d := int(g.p.down[c])
		for i := 0; i < d; i++ {
			cs[i] = engine.NoCard
		}
		ps = append(ps, engine.Pile{
			Kind: engine.Tableau, Cards: cs, FaceDown: d,
			X: 2 * c, Y: 2, Fan: engine.FanDown,
		})
	}
	return ps
}

// Do applies a; see the package comment for what actions mean.
func (g *Game) Do(a engine.Action) error {
	switch a.Kind {
	case engine.Draw:
		return g.deal()
	case engine.Move:
		from, i, to, err := g.checkMove(a.From, a.Index, a.To)
		if err != nil {
			return err
		}
		g.apply(from, i, to)
		return nil
	case engine.Auto:
		if a.From == PileStock {
			return g.deal()
		}
		from, i, err := g.checkGroup(a.From, a.Index)
		if err != nil {
			return err
		}
		to, ok := g.p.bestPlace(from, i)
		if !ok {
			return fmt.Errorf("%s has nowhere to go", groupName(g.p.col(from)[i:]))
		}
		g.apply(from, i, to)
		return nil
	}
	return fmt.Errorf("Spider has no such action")
}

func (g *Game) push(a engine.Action) {
	g.undo.Push(snapshot{p: g.p, score: g.score}, a)
}

// charge applies one move or row's cost and the runs it completed.
// The -1 is taken first and the total is kept at 0 or more, so a move that
// completes a run from a score of 0 gives 100.
func (g *Game) charge(runs int) {
	g.score = max(0, g.score-1+100*runs)
}

func (g *Game) apply(from, i, to int) {
	g.push(engine.Action{Kind: engine.Move, From: PileColumn + from, Index: i, To: PileColumn + to})
	g.charge(g.p.move(from, i, to))
}

func (g *Game) deal() error {
	if g.p.rows == 0 {
		return fmt.Errorf("The stock is empty: there are no more rows to deal")
	}
	if g.p.hasEmpty() {
		return fmt.Errorf("Fill every empty column before dealing a row")
	}
	g.push(engine.Action{Kind: engine.Draw})
	g.charge(g.p.deal(g.row()))
	return nil
}

// Undo steps back one action, score included.
func (g *Game) Undo() bool {
	var s snapshot
	if !g.undo.Pop(&s) {
		return false
	}
	g.p, g.score = s.p, s.score
	return true
}

func groupName(cs []engine.Card) string {
	if len(cs) == 1 {
		return cs[0].String()
	}
	return cs[0].String() + "-" + cs[len(cs)-1].String()
}

// checkGroup checks that pile/index names a group that may move, and returns
// the column and index.
func (g *Game) checkGroup(pile, index int) (int, int, error) {
	switch {
	case pile == PileStock:
		return 0, 0, fmt.Errorf("The stock deals whole rows: tap it to deal one")
	case pile >= PileFoundation && pile < PileColumn:
		return 0, 0, fmt.Errorf("Completed runs stay off the table")
	case pile < 0 || pile >= numPiles:
		return 0, 0, fmt.Errorf("Pick a card in one of the ten columns")
	}
	c := pile - PileColumn
	cs := g.p.col(c)
	if len(cs) == 0 {
		return 0, 0, fmt.Errorf("That column is empty")
	}
	if index < 0 || index >= len(cs) {
		return 0, 0, fmt.Errorf("There is no card there")
	}
	if index < int(g.p.down[c]) {
		return 0, 0, fmt.Errorf("That card is face down")
	}
	for i := index; i+1 < len(cs); i++ {
		a, b := cs[i], cs[i+1]
		if a.Rank() != b.Rank()+1 {
			return 0, 0, fmt.Errorf("%s and %s can't move together: %s is not one lower than %s", a, b, b, a)
		}
		if a.Suit() != b.Suit() {
			return 0, 0, fmt.Errorf("%s and %s can't move together: a group must be one suit", a, b)
		}
	}
	return c, index, nil
}

func (g *Game) checkMove(fromPile, index, toPile int) (int, int, int, error) {
	from, i, err := g.checkGroup(fromPile, index)
	if err != nil {
		return 0, 0, 0, err
	}
	switch {
	case toPile == PileStock:
		return 0, 0, 0, fmt.Errorf("Cards can't go back to the stock")
	case toPile >= PileFoundation && toPile < PileColumn:
		return 0, 0, 0, fmt.Errorf("Only a complete King-to-Ace run of one suit goes off the table, and it leaves on its own")
	case toPile < 0 || toPile >= numPiles:
		return 0, 0, 0, fmt.Errorf("Cards can only go on one of the ten columns")
	}
	to := toPile - PileColumn
	if to == from {
		return 0, 0, 0, fmt.Errorf("The cards are already in that column")
	}
	lead := g.p.col(from)[i]
	if err := placeError(lead, g.p.top(to)); err != nil {
		return 0, 0, 0, err
	}
	return from, i, to, nil
}

// placeError is the destination rule's sentence, or nil if lead may go on
// top (NoCard: an empty column, which takes anything).
func placeError(lead, top engine.Card) error {
	switch {
	case top == engine.NoCard:
		return nil
	case top.Rank() == lead.Rank()+1:
		return nil
	case top.Rank() == engine.Ace:
		return fmt.Errorf("%s can't go on %s: nothing goes on an Ace", lead, top)
	case lead.Rank() == engine.King:
		return fmt.Errorf("%s can't go on %s: a King only moves into an empty column", lead, top)
	}
	return fmt.Errorf("%s can't go on %s: it must go on a %s", lead, top, (lead.Rank() + 1).Name())
}

// bestPlace is where Auto sends the group of column from starting at i.
func (p *pos) bestPlace(from, i int) (int, bool) {
	lead := p.col(from)[i]
	empty := -1
	any := -1
	for to := 0; to < numCols; to++ {
		if to == from {
			continue
		}
		t := p.top(to)
		switch {
		case t == engine.NoCard:
			if empty < 0 && i > 0 {
				empty = to
			}
		case t.Rank() == lead.Rank()+1:
			if t.Suit() == lead.Suit() {
				return to, true
			}
			if any < 0 {
				any = to
			}
		}
	}
	if any >= 0 {
		return any, true
	}
	return empty, empty >= 0
}

// Stuck reports that no sequence of moves can make progress: no row can be
// dealt now or after filling the empty columns (there are rows left and at
// least ten cards on the table), and no position reachable by tableau moves
// turns up a card or completes a run. Moves that only shuffle groups
// between equal places do not count. The search is capped; when the cap is
// hit the game is not called stuck.
func (g *Game) Stuck() bool {
	p := g.p
	if p.runs >= numRuns {
		return false
	}
	if p.rows > 0 && p.tableCount() >= numCols {
		return false
	}
	return !progressReachable(p, stuckBudget)
}

const stuckBudget = 20000

func progressReachable(p pos, budget int) bool {
	seen := engine.NewSeenSet(1024)
	seen.Add(p.key())
	down, runs := p.faceDown(), p.runs
	queue := []pos{p}
	for len(queue) > 0 {
		q := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		found := false
		q.legalMoves(func(from, i, to int) {
			if found {
				return
			}
			r := q
			r.move(from, i, to)
			if r.runs > runs || r.faceDown() < down {
				found = true
				return
			}
			if seen.Add(r.key()) {
				queue = append(queue, r)
			}
		})
		if found || seen.Len() > budget {
			return true
		}
	}
	return false
}

// key is a position key. Once the stock is empty the columns are
// interchangeable, so they are hashed in sorted order; before that a row
// deal puts a known card on each column, so which column holds what counts.
func (p *pos) key() uint64 {
	var hs [numCols]uint64
	s := 0
	for c := 0; c < numCols; c++ {
		n := int(p.n[c])
		hs[c] = colKey(p.cards[s:s+n], nil, p.down[c])
		s += n
	}
	return p.sumKey(hs)
}

// colKey hashes one column for key: the cards a then b, bottom first, so
// a move's key can be worked out from the cards before the move.
func colKey(a, b []engine.Card, down uint8) uint64 {
	const prime = 1099511628211
	h := (14695981039346656037 ^ uint64(down)) * prime
	for _, x := range a {
		h = (h ^ uint64(x)) * prime
	}
	for _, x := range b {
		h = (h ^ uint64(x)) * prime
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	return h ^ h>>33
}

// sumKey combines the column keys hs (a copy: it may be sorted) into key.
func (p *pos) sumKey(hs [numCols]uint64) uint64 {
	if p.rows == 0 {
		sortKeys(&hs)
	}
	h := uint64(p.rows)<<8 | uint64(p.runs)
	for _, x := range hs {
		h = (h ^ x) * 0x9e3779b97f4a7c15
		h ^= h >> 29
	}
	h ^= h >> 32
	h *= 0xd6e8feb86659fd93
	return h ^ h>>32
}

// sortKeys sorts ten column keys in ascending order with a sorting
// network (29 compare-exchanges, each a min and a max without a branch).
// The keys are random, so an insertion sort mispredicts most of its
// comparisons; this runs for every child the solver makes once the stock
// is dealt.
func sortKeys(hs *[numCols]uint64) {
	cx := func(i, j int) {
		a, b := hs[i], hs[j]
		hs[i], hs[j] = min(a, b), max(a, b)
	}
	cx(4, 9)
	cx(3, 8)
	cx(2, 7)
	cx(1, 6)
	cx(0, 5)
	cx(1, 4)
	cx(6, 9)
	cx(0, 3)
	cx(5, 8)
	cx(0, 2)
	cx(3, 6)
	cx(7, 9)
	cx(0, 1)
	cx(2, 4)
	cx(5, 7)
	cx(8, 9)
	cx(1, 2)
	cx(4, 6)
	cx(7, 8)
	cx(3, 5)
	cx(2, 5)
	cx(6, 8)
	cx(1, 3)
	cx(4, 7)
	cx(2, 3)
	cx(6, 7)
	cx(3, 4)
	cx(5, 6)
	cx(4, 5)
}

// Clone is an independent copy of the game, undo history included.
func (g *Game) Clone() *Game {
	h := *g
	h.undo = g.undo.Clone()
	return &h
}
