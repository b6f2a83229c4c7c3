package freecell

import (
	"errors"
	"fmt"
	"strings"

	"sshuffle/engine"
)

// MaxDeal is the highest Microsoft deal number accepted.
const MaxDeal = 1_000_000

// Settings are the player's FreeCell options.
type Settings struct {
	// AutoFoundation sends safe cards up after every move: only cards no
	// card left in play can still need (Aces, twos, and cards whose two
	// other-colour cards one rank lower are already up). On by default.
	AutoFoundation bool
	// FoundationReturn (the PlaySoli option) lets the top foundation card
	// come back to a legal tableau place, never to a cell. Off by default.
	FoundationReturn bool
}

// DefaultSettings are what New uses.
func DefaultSettings() Settings { return Settings{AutoFoundation: true} }

// Game is a FreeCell game in play.
type Game struct {
	spec engine.Spec
	set  Settings
	b    board
	undo engine.UndoStack[board]
	// The hint plan: the solver's actions from position planAt on.
	plan   []engine.Action
	planAt board
}

var _ engine.Solitaire = (*Game)(nil)

// New deals spec with the default settings.
func New(spec engine.Spec) (*Game, error) { return NewWithSettings(spec, DefaultSettings()) }

// NewWithSettings deals spec with the given settings.
func NewWithSettings(spec engine.Spec, set Settings) (*Game, error) {
	if err := checkSpec(spec); err != nil {
		return nil, err
	}
	g := &Game{spec: spec, set: set, b: deal(spec.Seed)}
	if set.AutoFoundation {
		g.b.autoAll((*board).safeSimple)
	}
	return g, nil
}

func checkSpec(spec engine.Spec) error {
	if spec.Game != "freecell" {
		return fmt.Errorf("This is FreeCell, not %q", spec.Game)
	}
	if spec.Variant != "" {
		return fmt.Errorf("FreeCell has no variant %q", spec.Variant)
	}
	if spec.Seed < 1 || spec.Seed > MaxDeal {
		return fmt.Errorf("FreeCell deals are numbered 1 to %d, so there is no deal %d", MaxDeal, spec.Seed)
	}
	if spec.Winnable && spec.Seed == 11982 {
		return errors.New("Deal 11982 can't be won, so it is not among the winnable deals")
	}
	return nil
}

func (g *Game) Spec() engine.Spec        { return g.spec }
func (g *Game) Settings() Settings       { return g.set }
func (g *Game) Score() int               { return 0 }
func (g *Game) Moves() int               { return g.undo.Len() }
func (g *Game) Won() bool                { return g.b.won() }
func (g *Game) History() []engine.Action { return g.undo.History() }

// Piles reports the board; see the package comment for the index order.
func (g *Game) Piles() []engine.Pile {
	ps := make([]engine.Pile, 0, numPiles)
	for i, c := range g.b.cells {
		p := engine.Pile{Kind: engine.Cell, X: 2 * i, Y: 0}
		if c != engine.NoCard {
			p.Cards = []engine.Card{c}
		}
		ps = append(ps, p)
	}
	for s := range 4 {
		p := engine.Pile{Kind: engine.Foundation, X: 8 + 2*s, Y: 0, Label: engine.Suit(s).Symbol()}
		for r := 1; r <= int(g.b.found[s]); r++ {
			p.Cards = append(p.Cards, engine.NewCard(engine.Rank(r), engine.Suit(s)))
		}
		ps = append(ps, p)
	}
	for i := range numCols {
		ps = append(ps, engine.Pile{
			Kind:  engine.Tableau,
			Cards: append([]engine.Card(nil), g.b.col(i)...),
			X:     2 * i, Y: 2, Fan: engine.FanDown,
		})
	}
	return ps
}

// move is a resolved action: count cards from pile from (starting at card
// index) to pile to.
type move struct {
	from, index, count, to int
}

// Do applies an action: Move{From, Index, To} moves card Index of pile
// From and everything on it to pile To (any foundation pile means the
// card's own foundation); Auto{From, Index} sends the card to its
// foundation, else to its best place.
func (g *Game) Do(a engine.Action) error {
	m, err := resolveAction(&g.b, a, g.set)
	if err != nil {
		return err
	}
	follows := len(g.plan) > 0 && g.plan[0] == a && g.planAt == g.b
	g.undo.Push(g.b, a)
	apply(&g.b, m)
	if g.set.AutoFoundation {
		g.b.autoAll((*board).safeSimple)
	}
	if follows {
		g.plan, g.planAt = g.plan[1:], g.b
	}
	return nil
}

// resolveAction turns an action into the move it makes on b, or says why
// it can't be made.
func resolveAction(b *board, a engine.Action, set Settings) (move, error) {
	switch a.Kind {
	case engine.Move:
		return resolve(b, a.From, a.Index, a.To, set)
	case engine.Auto:
		return resolveAuto(b, a.From, a.Index, set)
	case engine.Draw:
		return move{}, errors.New("FreeCell has no stock to draw from")
	}
	return move{}, errors.New("That is not a FreeCell move")
}

// Undo steps back one move, with the automatic moves that followed it.
func (g *Game) Undo() bool { return g.undo.Pop(&g.b) }

func pileName(p int) string {
	switch {
	case p < firstFound:
		return fmt.Sprintf("free cell %d", p+1)
	case p < firstCol:
		return "the " + engine.Suit(p-firstFound).Name() + " foundation"
	}
	return fmt.Sprintf("column %d", p-firstCol+1)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// source checks that the cards from card index of pile from can be picked
// up together, and returns them.
func source(b *board, from, index int, set Settings) ([]engine.Card, error) {
	if from < 0 || from >= numPiles {
		return nil, fmt.Errorf("There is no pile %d to move from", from)
	}
	switch {
	case from < firstFound:
		if b.cells[from] == engine.NoCard {
			return nil, fmt.Errorf("Free cell %d is empty", from+1)
		}
		if index != 0 {
			return nil, errors.New("A cell holds one card")
		}
		return b.cells[from : from+1], nil
	case from < firstCol:
		s := from - firstFound
		if b.found[s] == 0 {
			return nil, fmt.Errorf("The %s foundation is empty", engine.Suit(s).Name())
		}
		if !set.FoundationReturn {
			return nil, errors.New("Cards on the foundations stay there")
		}
		if index != int(b.found[s])-1 {
			return nil, errors.New("Only the top card of a foundation can come back")
		}
		return []engine.Card{engine.NewCard(engine.Rank(b.found[s]), engine.Suit(s))}, nil
	}
	col := b.col(from - firstCol)
	if len(col) == 0 {
		return nil, fmt.Errorf("Column %d is empty", from-firstCol+1)
	}
	if index < 0 || index >= len(col) {
		return nil, fmt.Errorf("Column %d has no card there", from-firstCol+1)
	}
	cards := col[index:]
	for j := 1; j < len(cards); j++ {
		if !fits(cards[j], cards[j-1]) {
			return nil, fmt.Errorf("%v can't move with the cards on it: %s", cards[0], whyNotOn(cards[j], cards[j-1]))
		}
	}
	return cards, nil
}

// resolve checks a move and says what it does, without changing b.
func resolve(b *board, from, index, to int, set Settings) (move, error) {
	cards, err := source(b, from, index, set)
	if err != nil {
		return move{}, err
	}
	if to < 0 || to >= numPiles {
		return move{}, fmt.Errorf("There is no pile %d to move to", to)
	}
	if from >= firstFound && from < firstCol && to < firstCol {
		return move{}, errors.New("A foundation card can only come back to a column")
	}
	m := move{from: from, index: index, count: len(cards), to: to}
	lead := cards[0]
	if to == from {
		return move{}, errors.New("Pick a different place to move to")
	}
	switch {
	case to < firstFound:
		if len(cards) > 1 {
			return move{}, errors.New("A cell holds one card")
		}
		if b.cells[to] != engine.NoCard {
			return move{}, fmt.Errorf("A cell holds one card, and %s has %v", pileName(to), b.cells[to])
		}
	case to < firstCol:
		if len(cards) > 1 {
			return move{}, errors.New("Cards go to the foundations one at a time")
		}
		if from >= firstFound && from < firstCol {
			return move{}, errors.New("That card is already on its foundation")
		}
		if !b.canFound(lead) {
			if lead.Rank() == engine.Ace {
				return move{}, errors.New("That card is already on its foundation")
			}
			return move{}, fmt.Errorf("%v can't go to the foundation before %v", lead, engine.NewCard(lead.Rank()-1, lead.Suit()))
		}
		m.to = firstFound + int(lead.Suit())
	default:
		dst := to - firstCol
		empty := b.emptyCols()
		if b.n[dst] == 0 {
			empty--
		} else if top := b.top(dst); !fits(lead, top) {
			return move{}, errors.New(whyNotOn(lead, top))
		}
		if limit := capacity(b.freeCells(), empty); len(cards) > limit {
			return move{}, fmt.Errorf("Only %s can move at once with %s and %s", plural(limit, "card", "cards"),
				plural(b.freeCells(), "free cell", "free cells"), plural(empty, "spare empty column", "spare empty columns"))
		}
	}
	return m, nil
}

// resolveAuto picks the destination of a double click: the foundation,
// else a column the card fits on, else an empty column, else a free cell.
func resolveAuto(b *board, from, index int, set Settings) (move, error) {
	if from >= firstFound && from < firstCol && from < numPiles && set.FoundationReturn {
		index = int(b.found[from-firstFound]) - 1
	}
	if _, err := source(b, from, index, set); err != nil {
		return move{}, err
	}
	if m, err := resolve(b, from, index, firstFound, set); err == nil {
		return m, nil
	}
	var firstErr error
	try := func(to int) (move, bool) {
		m, err := resolve(b, from, index, to, set)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return m, err == nil
	}
	for i := range numCols {
		if b.n[i] > 0 && firstCol+i != from {
			if m, ok := try(firstCol + i); ok {
				return m, nil
			}
		}
	}
	firstErr = nil
	for i := range numCols {
		if b.n[i] == 0 {
			if m, ok := try(firstCol + i); ok {
				return m, nil
			}
			break
		}
	}
	for i := range numCells {
		if b.cells[i] == engine.NoCard {
			if m, ok := try(i); ok {
				return m, nil
			}
			break
		}
	}
	if firstErr != nil {
		return move{}, firstErr
	}
	return move{}, errors.New("There is no place for that card to go")
}

// apply carries out a resolved move.
func apply(b *board, m move) {
	var buf [maxCol]engine.Card
	cards := buf[:0]
	switch {
	case m.from < firstFound:
		cards = append(cards, b.cells[m.from])
		b.cells[m.from] = engine.NoCard
	case m.from < firstCol:
		s := m.from - firstFound
		cards = append(cards, engine.NewCard(engine.Rank(b.found[s]), engine.Suit(s)))
		b.found[s]--
	default:
		i := m.from - firstCol
		cards = append(cards, b.cols[i][m.index:b.n[i]]...)
		for range m.count {
			b.pop(i)
		}
	}
	switch {
	case m.to < firstFound:
		b.cells[m.to] = cards[0]
	case m.to < firstCol:
		b.found[cards[0].Suit()]++
	default:
		for _, c := range cards {
			b.push(m.to-firstCol, c)
		}
	}
}

// Stuck reports that no move can change the position: no card can go up,
// onto a column, into an empty column or into an empty cell.
func (g *Game) Stuck() bool {
	if g.b.won() {
		return false
	}
	return !hasUsefulMove(&g.b, g.set)
}

func hasUsefulMove(b *board, set Settings) bool {
	free := b.freeCells() > 0
	empty := b.emptyCols() > 0
	for i, c := range b.cells {
		if c == engine.NoCard {
			continue
		}
		if b.canFound(c) || empty {
			return true
		}
		for j := range numCols {
			if b.n[j] > 0 && fits(c, b.top(j)) {
				return true
			}
		}
		_ = i
	}
	for i := range numCols {
		c := b.top(i)
		if c == engine.NoCard {
			continue
		}
		if b.canFound(c) || free || (empty && b.n[i] > 1) {
			return true
		}
		for j := range numCols {
			if j != i && b.n[j] > 0 && fits(c, b.top(j)) {
				return true
			}
		}
	}
	if set.FoundationReturn {
		for s := range 4 {
			if b.found[s] == 0 {
				continue
			}
			c := engine.NewCard(engine.Rank(b.found[s]), engine.Suit(s))
			if empty {
				return true
			}
			for j := range numCols {
				if b.n[j] > 0 && fits(c, b.top(j)) {
					return true
				}
			}
		}
	}
	return false
}

// Text is the deal in the Rosetta Code layout: one row per line, the
// eight columns left to right, cards as "JD", "TH".
func Text(spec engine.Spec) (string, error) {
	if err := checkSpec(spec); err != nil {
		return "", err
	}
	b := deal(spec.Seed)
	var sb strings.Builder
	for row := 0; ; row++ {
		var cells []string
		for i := range numCols {
			if row < int(b.n[i]) {
				cells = append(cells, b.cols[i][row].ASCII())
			}
		}
		if len(cells) == 0 {
			break
		}
		sb.WriteString(strings.Join(cells, " "))
		sb.WriteByte('\n')
	}
	return sb.String(), nil
}
