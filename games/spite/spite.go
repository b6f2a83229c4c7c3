// Package spite is Spite and Malice for two as docs/tablegames.md plays it: two
// packs, a pay-off pile each, shared centre stacks built up from the Ace
// with Kings wild, four side stacks a player fed only from the hand, and
// the first to empty the pay-off pile wins. The package is pure: the deal
// and every reshuffle come from the spec's seeded engine.RNG.
package spite

import (
	"errors"
	"fmt"
	"strconv"

	"sshuffle/engine"
)

// Name is the game's name in a spec and a record.
const Name = "spite"

// MinPlayers and MaxPlayers: Spite and Malice is for two.
const MinPlayers, MaxPlayers = 2, 2

const (
	// HandSize is the hand a player draws up to.
	HandSize = 5
	// SideStacks is how many side stacks each player has.
	SideStacks = 4
	// stackTop is the rank at which a centre stack is complete and leaves.
	stackTop = 12
	numCards = 104
	// maxPayoff is the largest pay-off setting.
	maxPayoff = 30
)

// Settings are the table options of docs/tablegames.md, Values[0] the default.
var Settings = []engine.Setting{
	{Key: "payoff", Label: "Pay-off pile", Values: []string{"20", "26", "30", "13"}},
	{Key: "centres", Label: "Centre stacks", Values: []string{"4", "3"}},
	{Key: "kingAce", Label: "A King may start a stack as an Ace", Values: []string{"false", "true"}},
	{Key: "match", Label: "Match", Values: []string{"single", "50"}},
}

// ErrNotYourTurn is the error (or wrapped in the error) Do returns to a seat
// acting out of turn; the arcade words it with the other player's name.
var ErrNotYourTurn = errors.New("It is the other player's turn.")

// rules are the settings a game plays by.
type rules struct {
	payoff  int
	centres int
	kingAce bool
	target  int // match points to reach; 0 for a single game
}

// parseRules reads a settings text into its canonical form and its rules.
func parseRules(text string) (rules, string, error) {
	canon, err := engine.NormalizeSettings(text, Settings)
	if err != nil {
		return rules{}, "", err
	}
	m, _ := engine.ParseSettings(canon)
	r := rules{payoff: 20, centres: 4}
	if v, ok := m["payoff"]; ok {
		r.payoff, _ = strconv.Atoi(v)
	}
	if v, ok := m["centres"]; ok {
		r.centres, _ = strconv.Atoi(v)
	}
	r.kingAce = m["kingAce"] == "true"
	if m["match"] == "50" {
		r.target = 50
	}
	return r, canon, nil
}

// The kinds of action.
const (
	Play      = "play"
	Discard   = "discard"
	Pass      = "pass"
	Reshuffle = "reshuffle"
)

// Where a played card comes from.
const (
	FromHand   = "hand"
	FromPayoff = "payoff"
	FromSide   = "side"
)

// Action is one move. Only the fields its kind uses are set; Do stores the
// canonical form, so two actions that mean the same are equal.
type Action struct {
	Do   string      // Play, Discard, Pass, or Reshuffle (the table's own entry)
	From string      // Play: FromHand, FromPayoff or FromSide
	Card engine.Card // Play from the hand, Discard
	Side int         // Play from a side stack, Discard: 0..3
	To   int         // Play: the centre slot, 0..centres-1
	// Stock is a reshuffle's new stock, top first, as ASCII cards joined by
	// spaces: a string, so that Action stays comparable.
	Stock string
}

// PlayHand, PlayPayoff, PlaySide and DiscardTo build actions.
func PlayHand(c engine.Card, to int) Action { return Action{Do: Play, From: FromHand, Card: c, To: to} }
func PlayPayoff(to int) Action              { return Action{Do: Play, From: FromPayoff, To: to} }
func PlaySide(side, to int) Action          { return Action{Do: Play, From: FromSide, Side: side, To: to} }
func DiscardTo(c engine.Card, side int) Action {
	return Action{Do: Discard, Card: c, Side: side}
}

// canonical keeps only the fields the action's kind uses.
func (a Action) canonical() Action {
	switch a.Do {
	case Play:
		switch a.From {
		case FromHand:
			return PlayHand(a.Card, a.To)
		case FromPayoff:
			return PlayPayoff(a.To)
		case FromSide:
			return PlaySide(a.Side, a.To)
		}
	case Discard:
		return DiscardTo(a.Card, a.Side)
	case Pass:
		return Action{Do: Pass}
	}
	return a
}

func (a Action) String() string {
	switch a.Do {
	case Play:
		switch a.From {
		case FromHand:
			return fmt.Sprintf("play %v from hand to centre %d", a.Card, a.To)
		case FromPayoff:
			return fmt.Sprintf("play pay-off to centre %d", a.To)
		case FromSide:
			return fmt.Sprintf("play side %d to centre %d", a.Side, a.To)
		}
	case Discard:
		return fmt.Sprintf("discard %v to side %d", a.Card, a.Side)
	case Pass:
		return "pass"
	case Reshuffle:
		return "reshuffle " + a.Stock
	}
	return fmt.Sprintf("%+v", struct {
		Do, From string
		Card     engine.Card
		Side, To int
	}{a.Do, a.From, a.Card, a.Side, a.To})
}

// state is the whole position as a plain value, so that a refused action
// is checked on the real state and applied on a copy, and tests can compare
// positions with ==. Every pile is bottom first.
type state struct {
	payoff   [2][maxPayoff]engine.Card
	nPayoff  [2]int
	hand     [2][HandSize]engine.Card
	nHand    [2]int
	side     [2][SideStacks][numCards]engine.Card
	nSide    [2][SideStacks]int
	centre   [4][stackTop]engine.Card
	nCentre  [4]int
	stock    [numCards]engine.Card // stock[nStock-1] is the next card drawn
	nStock   int
	recycle  [numCards]engine.Card
	nRecycle int

	turn   int
	over   bool
	winner int
	score  [2]int
	// barren counts turns in a row that began with nothing left to draw
	// and put no card on a centre stack; two of them are a full round.
	barren   int
	drawable bool // stock or recycle held a card when this turn began
	played   bool // a card went to a centre stack this turn
	rng      engine.RNG
}

// Game is one game of Spite and Malice in play.
type Game struct {
	spec    engine.Spec
	r       rules
	st      state
	start   Start
	history []engine.Acted[Action]
	// replaying: reshuffles come from queue (a record's), not from the RNG.
	replaying bool
	queue     [][]engine.Card
}

var _ engine.Table[Action, View] = (*Game)(nil)

// New deals the game of spec for two players. The 104 cards are shuffled
// with the spec's seed and dealt in order: the pay-off piles of seat 0 and
// seat 1 (bottom first, so each pile's last card is its top), the hands of
// seat 0 and seat 1, and the stock with the next card drawn first. While
// both tops are of one rank, both pay-off piles are shuffled again with the
// same generator, which then goes on to make every reshuffle.
func New(spec engine.Spec, players int) (*Game, error) {
	if spec.Game != Name {
		return nil, fmt.Errorf("spite can't deal a %q game", spec.Game)
	}
	if spec.Variant != "" || spec.Winnable {
		return nil, fmt.Errorf("Spite and Malice has no variants")
	}
	if players != 2 {
		return nil, fmt.Errorf("Spite and Malice is for two players, not %d", players)
	}
	r, canon, err := parseRules(spec.Settings)
	if err != nil {
		return nil, err
	}
	spec.Settings = canon
	rng := engine.NewRNG(spec.Seed)
	deck := make([]engine.Card, 0, numCards)
	deck = append(deck, engine.Deck()...)
	deck = append(deck, engine.Deck()...)
	rng.Shuffle(deck)
	p := r.payoff
	pay := [][]engine.Card{deck[:p], deck[p : 2*p]}
	for pay[0][p-1].Rank() == pay[1][p-1].Rank() {
		rng.Shuffle(pay[0])
		rng.Shuffle(pay[1])
	}
	start := Start{
		Payoff: []Cards{pay[0], pay[1]},
		Hands:  []Cards{deck[2*p : 2*p+HandSize], deck[2*p+HandSize : 2*p+2*HandSize]},
		Stock:  deck[2*p+2*HandSize:],
		First:  higherTop(pay[0][p-1], pay[1][p-1]),
	}
	g, err := fromStart(spec, r, start, *rng)
	if err != nil {
		return nil, err // not reached: the deal is well formed
	}
	return g, nil
}

// higherTop is the seat whose pay-off top ranks higher (King 13).
func higherTop(a, b engine.Card) int {
	if b.Rank() > a.Rank() {
		return 1
	}
	return 0
}

// FromStart builds a game from a record's start: the deal after any
// tie-break. Later reshuffles use a generator seeded from the deal itself,
// so a restored game stays deterministic.
func FromStart(settings string, seats int, start Start) (*Game, error) {
	if seats != 2 {
		return nil, fmt.Errorf("Spite and Malice is for two players, not %d", seats)
	}
	r, canon, err := parseRules(settings)
	if err != nil {
		return nil, err
	}
	var h uint64 = 14695981039346656037
	for _, cs := range [][]Cards{start.Payoff, start.Hands, {start.Stock}} {
		for _, c := range cs {
			for _, x := range c {
				h = (h ^ uint64(x)) * 1099511628211
			}
			h = (h ^ 0xff) * 1099511628211
		}
	}
	return fromStart(engine.Spec{Game: Name, Settings: canon, Seed: h}, r, start, *engine.NewRNG(h))
}

func fromStart(spec engine.Spec, r rules, start Start, rng engine.RNG) (*Game, error) {
	if len(start.Payoff) != 2 || len(start.Hands) != 2 {
		return nil, errors.New("a start needs two pay-off piles and two hands")
	}
	var count [64]int
	n := 0
	tally := func(cs []engine.Card) error {
		for _, c := range cs {
			if !c.Valid() {
				return fmt.Errorf("%v is not a card", c)
			}
			count[c]++
			n++
		}
		return nil
	}
	for i := range 2 {
		if len(start.Payoff[i]) != r.payoff {
			return nil, fmt.Errorf("pay-off pile %d has %d cards; this table deals %d", i, len(start.Payoff[i]), r.payoff)
		}
		if len(start.Hands[i]) != HandSize {
			return nil, fmt.Errorf("hand %d has %d cards; a hand is dealt %d", i, len(start.Hands[i]), HandSize)
		}
		if err := tally(start.Payoff[i]); err != nil {
			return nil, err
		}
		if err := tally(start.Hands[i]); err != nil {
			return nil, err
		}
	}
	if err := tally(start.Stock); err != nil {
		return nil, err
	}
	if n != numCards {
		return nil, fmt.Errorf("a start holds %d cards, not the %d of two packs", n, numCards)
	}
	for _, c := range engine.Deck() {
		if count[c] != 2 {
			return nil, fmt.Errorf("a start holds %v %d times, not twice", c, count[c])
		}
	}
	t0, t1 := start.Payoff[0][r.payoff-1], start.Payoff[1][r.payoff-1]
	if t0.Rank() == t1.Rank() {
		return nil, errors.New("both pay-off tops are of one rank: the tie-break redeal must come before the start")
	}
	if start.First != higherTop(t0, t1) {
		return nil, errors.New("the first player must be the one whose pay-off top is higher")
	}
	g := &Game{spec: spec, r: r, start: start.clone()}
	s := &g.st
	for i := range 2 {
		s.nPayoff[i] = copy(s.payoff[i][:], start.Payoff[i])
		s.nHand[i] = copy(s.hand[i][:], start.Hands[i])
	}
	for i, c := range start.Stock {
		s.stock[len(start.Stock)-1-i] = c
	}
	s.nStock = len(start.Stock)
	s.turn = start.First
	s.winner = engine.NoSeat
	s.rng = rng
	s.drawable = s.nStock > 0
	return g, nil
}

func (g *Game) Spec() engine.Spec { return g.spec }
func (g *Game) Seats() int        { return 2 }

// Turn is the seat to act, or NoSeat once the game is over.
func (g *Game) Turn() int {
	if g.st.over {
		return engine.NoSeat
	}
	return g.st.turn
}

// Over reports the result: the winner's score is 5 and one for each card
// left in the loser's pay-off pile; a drawn stalemate has no winner.
func (g *Game) Over() (engine.TableResult, bool) {
	if !g.st.over {
		return engine.TableResult{Winner: engine.NoSeat, Points: []int{0, 0}}, false
	}
	return engine.TableResult{Winner: g.st.winner, Points: []int{g.st.score[0], g.st.score[1]}}, true
}

// History is every action since the deal, reshuffles (engine.NoSeat)
// included.
func (g *Game) History() []engine.Acted[Action] {
	return append([]engine.Acted[Action](nil), g.history...)
}

// HistoryLen is len(History()), without the copy.
func (g *Game) HistoryLen() int { return len(g.history) }

// Acted is History()[i], without the copy.
func (g *Game) Acted(i int) engine.Acted[Action] { return g.history[i] }

// need is the rank centre stack i needs next (1 when it is empty).
func (s *state) need(i int) engine.Rank { return engine.Rank(s.nCentre[i] + 1) }

func article(r engine.Rank) string {
	if r == engine.Ace || r == 8 || r == 11 {
		return "an " + r.Name()
	}
	return "a " + r.Name()
}

// canGo reports whether card c may go on a stack that needs rank n next.
func canGo(c engine.Card, n engine.Rank, kingAce bool) bool {
	return c.Rank() == n || c.Rank() == engine.King && (n > engine.Ace || kingAce)
}

// fits says why card c can't go on a stack that needs rank n, or nil.
func fits(c engine.Card, n engine.Rank, kingAce bool) error {
	switch {
	case canGo(c, n, kingAce):
		return nil
	case n == engine.Ace && c.Rank() == engine.King:
		return errors.New("A King can't start a stack at this table: a stack starts with an Ace.")
	case n == engine.Ace:
		return fmt.Errorf("%v can't start a stack: a stack starts with an Ace.", c)
	}
	return fmt.Errorf("%v can't go on the %s stack: it needs %s.", c, (n - 1).Name(), article(n))
}

func (s *state) handIndex(seat int, c engine.Card) int {
	for i := range s.nHand[seat] {
		if s.hand[seat][i] == c {
			return i
		}
	}
	return -1
}

// check says why seat may not do a now, or nil. It never changes s.
func (g *Game) check(seat int, a Action) error {
	s := &g.st
	if seat != 0 && seat != 1 {
		return errors.New("Only the two players at the table can make moves.")
	}
	if s.over {
		return errors.New("The game is over.")
	}
	if a.Do == Reshuffle {
		return errors.New("The table shuffles the recycle pile into the stock; a player can't.")
	}
	if seat != s.turn {
		return ErrNotYourTurn
	}
	switch a.Do {
	case Play:
		var c engine.Card
		switch a.From {
		case FromHand:
			if !a.Card.Valid() {
				return errors.New("That isn't a card.")
			}
			if s.handIndex(seat, a.Card) < 0 {
				return fmt.Errorf("You don't hold %v.", a.Card)
			}
			c = a.Card
		case FromPayoff:
			c = s.payoff[seat][s.nPayoff[seat]-1]
		case FromSide:
			if a.Side < 0 || a.Side >= SideStacks {
				return errors.New("There is no such side stack: you have four.")
			}
			if s.nSide[seat][a.Side] == 0 {
				return errors.New("That side stack is empty.")
			}
			c = s.side[seat][a.Side][s.nSide[seat][a.Side]-1]
		default:
			return errors.New("Cards are played from your hand, your pay-off pile or the top of a side stack.")
		}
		if a.To < 0 || a.To >= g.r.centres {
			return fmt.Errorf("There is no such centre stack: this table has %d.", g.r.centres)
		}
		return fits(c, s.need(a.To), g.r.kingAce)
	case Discard:
		if s.nHand[seat] == 0 {
			return errors.New("Your hand is empty: pass to end your turn.")
		}
		if !a.Card.Valid() {
			return errors.New("That isn't a card.")
		}
		if s.handIndex(seat, a.Card) < 0 {
			return fmt.Errorf("You don't hold %v.", a.Card)
		}
		if a.Side < 0 || a.Side >= SideStacks {
			return errors.New("There is no such side stack: you have four.")
		}
		return nil
	case Pass:
		if s.nHand[seat] > 0 {
			return errors.New("You still hold cards: end your turn by discarding one onto a side stack.")
		}
		return nil
	}
	return errors.New("That isn't a move in Spite and Malice.")
}

// Do applies a for seat, or leaves the game as it was and says why not.
func (g *Game) Do(seat int, a Action) error {
	if err := g.check(seat, a); err != nil {
		return err
	}
	a = a.canonical()
	next := g.st
	var log []engine.Acted[Action]
	queue := g.queue
	if err := g.apply(&next, seat, a, &log, &queue); err != nil {
		return err
	}
	g.st, g.queue = next, queue
	g.history = append(g.history, engine.Acted[Action]{Seat: seat, Action: a})
	g.history = append(g.history, log...)
	return nil
}

// apply makes a checked action on s. It fails only when replaying a record
// whose reshuffle does not fit.
func (g *Game) apply(s *state, seat int, a Action, log *[]engine.Acted[Action], queue *[][]engine.Card) error {
	switch a.Do {
	case Play:
		var c engine.Card
		switch a.From {
		case FromHand:
			i := s.handIndex(seat, a.Card)
			c = a.Card
			copy(s.hand[seat][i:], s.hand[seat][i+1:s.nHand[seat]])
			s.nHand[seat]--
			s.hand[seat][s.nHand[seat]] = engine.NoCard
		case FromPayoff:
			s.nPayoff[seat]--
			c = s.payoff[seat][s.nPayoff[seat]]
			s.payoff[seat][s.nPayoff[seat]] = engine.NoCard
		case FromSide:
			s.nSide[seat][a.Side]--
			c = s.side[seat][a.Side][s.nSide[seat][a.Side]]
			s.side[seat][a.Side][s.nSide[seat][a.Side]] = engine.NoCard
		}
		s.centre[a.To][s.nCentre[a.To]] = c
		s.nCentre[a.To]++
		s.played = true
		if s.nCentre[a.To] == stackTop {
			// A stack that reaches Q leaves for the recycle pile.
			copy(s.recycle[s.nRecycle:], s.centre[a.To][:stackTop])
			s.nRecycle += stackTop
			s.centre[a.To] = [stackTop]engine.Card{}
			s.nCentre[a.To] = 0
		}
		if s.nPayoff[seat] == 0 {
			s.over, s.winner = true, seat
			s.score[seat] = 5 + s.nPayoff[1-seat]
			return nil
		}
		if s.nHand[seat] == 0 {
			return g.draw(s, seat, HandSize, log, queue)
		}
		return nil
	case Discard:
		i := s.handIndex(seat, a.Card)
		copy(s.hand[seat][i:], s.hand[seat][i+1:s.nHand[seat]])
		s.nHand[seat]--
		s.hand[seat][s.nHand[seat]] = engine.NoCard
		s.side[seat][a.Side][s.nSide[seat][a.Side]] = a.Card
		s.nSide[seat][a.Side]++
	}
	// A discard or a pass ends the turn.
	if !s.played && !s.drawable {
		s.barren++
	} else {
		s.barren = 0
	}
	if s.barren >= 2 {
		// A full round with nothing played to the centre and nothing to
		// draw: fewer pay-off cards wins, equal is a draw.
		s.over = true
		switch {
		case s.nPayoff[0] < s.nPayoff[1]:
			s.winner, s.score[0] = 0, 5+s.nPayoff[1]
		case s.nPayoff[1] < s.nPayoff[0]:
			s.winner, s.score[1] = 1, 5+s.nPayoff[0]
		}
		return nil
	}
	s.turn = 1 - s.turn
	s.played = false
	s.drawable = s.nStock+s.nRecycle > 0
	return g.draw(s, s.turn, HandSize-s.nHand[s.turn], log, queue)
}

// draw gives seat up to n cards from the stock, shuffling the recycle pile
// into a new stock when the stock runs out.
func (g *Game) draw(s *state, seat, n int, log *[]engine.Acted[Action], queue *[][]engine.Card) error {
	for range n {
		if s.nStock == 0 {
			if s.nRecycle == 0 {
				return nil
			}
			if err := g.reshuffle(s, log, queue); err != nil {
				return err
			}
		}
		s.nStock--
		s.hand[seat][s.nHand[seat]] = s.stock[s.nStock]
		s.stock[s.nStock] = engine.NoCard
		s.nHand[seat]++
	}
	return nil
}

func (g *Game) reshuffle(s *state, log *[]engine.Acted[Action], queue *[][]engine.Card) error {
	var top []engine.Card // the new stock, top first
	if g.replaying {
		if len(*queue) == 0 {
			return errors.New("this needs the recycle pile shuffled into the stock, and the record has no reshuffle left")
		}
		top = (*queue)[0]
		*queue = (*queue)[1:]
		if !sameCards(top, s.recycle[:s.nRecycle]) {
			return errors.New("the record's reshuffle is not the cards of the recycle pile")
		}
	} else {
		top = append([]engine.Card(nil), s.recycle[:s.nRecycle]...)
		s.rng.Shuffle(top)
	}
	for i, c := range top {
		s.stock[len(top)-1-i] = c
	}
	s.nStock = len(top)
	s.recycle = [numCards]engine.Card{}
	s.nRecycle = 0
	*log = append(*log, engine.Acted[Action]{Seat: engine.NoSeat, Action: Action{Do: Reshuffle, Stock: asciiList(top)}})
	return nil
}

func sameCards(a, b []engine.Card) bool {
	if len(a) != len(b) {
		return false
	}
	var n [256]int
	for _, c := range a {
		n[c]++
	}
	for _, c := range b {
		n[c]--
	}
	for _, k := range n {
		if k != 0 {
			return false
		}
	}
	return true
}

// Legal lists every action seat may take now: each distinct one once.
func (g *Game) Legal(seat int) []Action {
	if g.st.over || seat != g.st.turn {
		return nil
	}
	return legalFromView(g.View(seat))
}
