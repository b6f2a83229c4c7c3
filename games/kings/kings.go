// Package kings is Kings in the Corner for two to four seats, as
// docs/tablegames.md defines it: seven cards each, four face-up piles at
// N, E, S and W, Kings into the corners, building down in alternate colours,
// whole piles moving onto one another, and penalty points for the cards left
// when someone goes out.
//
// The package is pure: no I/O, no clock, and the only randomness is the
// spec's seeded engine.RNG (the deal and the first player) and each computer
// player's own seed.
package kings

import (
	"errors"
	"fmt"

	"sshuffle/engine"
)

// Name is the game's name in specs and records.
const Name = "kings"

// MinPlayers and MaxPlayers bound the seats at a table.
const MinPlayers, MaxPlayers = 2, 4

// HandSize is the deal: seven cards to each seat.
const HandSize = 7

// Settings are docs/tablegames.md's table options, the default first, the
// values as a record writes them.
var Settings = []engine.Setting{
	{Key: "draw", Label: "Draw a card", Values: []string{"start", "end"}},
	{Key: "kingsAtOnce", Label: "Kings must be played at once", Values: []string{"false", "true"}},
	{Key: "match", Label: "Play", Values: []string{"hand", "25"}},
}

// MatchTarget is the total that ends a match played to 25.
const MatchTarget = 25

// ErrNotYourTurn is wrapped by every refusal of a seat acting out of turn,
// so the arcade can say whose turn it is by name.
var ErrNotYourTurn = errors.New("it is not your turn")

// Place names a pile: N, E, S, W are the spaces dealt at the start, the
// corners take only Kings when empty.
type Place uint8

const (
	N Place = iota
	E
	S
	W
	NE
	SE
	SW
	NW
	numPlaces
)

var placeNames = [numPlaces]string{"N", "E", "S", "W", "NE", "SE", "SW", "NW"}

func (p Place) String() string {
	if p < numPlaces {
		return placeNames[p]
	}
	return fmt.Sprintf("place %d", p)
}

// Corner reports whether p is one of NE, SE, SW, NW.
func (p Place) Corner() bool { return p >= NE && p < numPlaces }

// ParsePlace reads "N", "NE" and so on.
func ParsePlace(s string) (Place, bool) {
	for i, n := range placeNames {
		if n == s {
			return Place(i), true
		}
	}
	return 0, false
}

// Kind is what an action does. The zero Kind is no action at all, so a
// zero Action is refused rather than read as something.
type Kind uint8

const (
	Play Kind = iota + 1 // a hand card onto a pile, a King into a corner, a card into a space
	Move                 // a whole pile From onto To, or a King's pile into a corner
	End                  // end the turn (with draw=end, drawing first)
)

// Action is one thing a seat does. It is a plain comparable value.
type Action struct {
	Do   Kind
	Card engine.Card // Play
	From Place       // Move
	To   Place       // Play, Move
}

// canonical clears the fields a kind does not use, so that one action has
// one value in the history and in Legal.
func (a Action) canonical() Action {
	switch a.Do {
	case Play:
		return Action{Do: Play, Card: a.Card, To: a.To}
	case Move:
		return Action{Do: Move, From: a.From, To: a.To}
	case End:
		return Action{Do: End}
	}
	return a
}

func (a Action) String() string {
	switch a.Do {
	case Play:
		return fmt.Sprintf("play %v to %v", a.Card, a.To)
	case Move:
		return fmt.Sprintf("move %v onto %v", a.From, a.To)
	case End:
		return "end the turn"
	}
	return "no action"
}

// pile is bottom first. A pile is always one run down in alternate colours
// ending no lower than an Ace, so thirteen cards is its most.
type pile struct {
	c [13]engine.Card
	n uint8
}

func (p *pile) top() engine.Card {
	if p.n == 0 {
		return engine.NoCard
	}
	return p.c[p.n-1]
}

func (p *pile) bottom() engine.Card {
	if p.n == 0 {
		return engine.NoCard
	}
	return p.c[0]
}

func (p *pile) cards() []engine.Card { return p.c[:p.n] }

// hand keeps the order cards arrived in: it is the seat's own knowledge,
// and a stable order makes views and records reproducible.
type hand struct {
	c [52]engine.Card
	n uint8
}

func (h *hand) cards() []engine.Card { return h.c[:h.n] }

func (h *hand) index(c engine.Card) int {
	for i := range int(h.n) {
		if h.c[i] == c {
			return i
		}
	}
	return -1
}

func (h *hand) add(c engine.Card) {
	h.c[h.n] = c
	h.n++
}

func (h *hand) remove(c engine.Card) {
	i := h.index(c)
	copy(h.c[i:h.n], h.c[i+1:h.n])
	h.n--
	h.c[h.n] = engine.NoCard
}

func (h *hand) king() engine.Card {
	for _, c := range h.cards() {
		if c.Rank() == engine.King {
			return c
		}
	}
	return engine.NoCard
}

// penalty is docs/tablegames.md's scoring: 10 for each King, 1 for any
// other card.
func penalty(cards []engine.Card) int {
	p := 0
	for _, c := range cards {
		if c.Rank() == engine.King {
			p += 10
		} else {
			p++
		}
	}
	return p
}

// board is the eight piles.
type board [numPlaces]pile

// fits: one rank lower and the opposite colour. An Ace top takes nothing,
// which the rank test already says; fitErr words it.
func fits(c, top engine.Card) bool {
	return c.Rank()+1 == top.Rank() && c.Red() != top.Red()
}

func opposite(c engine.Card) string {
	if c.Red() {
		return "black"
	}
	return "red"
}

// fitErr says why c can't go on top, as the rest of a sentence.
func fitErr(c, top engine.Card) string {
	switch {
	case top.Rank() == engine.Ace:
		return "nothing goes on an Ace."
	case c.Rank() == engine.King:
		return fmt.Sprintf("%v can't go on the %v: nothing is higher than a King, so Kings go into empty corners.", c, top)
	case c.Rank()+1 == top.Rank():
		return fmt.Sprintf("%v can't go on the %v: it needs a %s card one higher.", c, top, opposite(c))
	}
	return fmt.Sprintf("%v can't go on the %v: it needs a %s %s.", c, top, opposite(c), (c.Rank() + 1).Name())
}

func sentence(s string) error {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		s = string(s[0]-'a'+'A') + s[1:]
	}
	return errors.New(s)
}

// forcedKing is the King the seat must put into a corner before anything
// else when Kings are played at once: one it holds while a corner is empty.
func (b *board) forcedKing(h *hand) engine.Card {
	for p := NE; p < numPlaces; p++ {
		if b[p].n == 0 {
			return h.king()
		}
	}
	return engine.NoCard
}

// check says why a would be refused for the seat holding h, or nil. It
// does not look at whose turn it is; the game does that first.
func (b *board) check(h *hand, a Action, kingsAtOnce bool) error {
	if a.Do == Play || a.Do == Move || a.Do == End {
		if kingsAtOnce {
			if k := b.forcedKing(h); k != engine.NoCard && !(a.Do == Play && a.Card.Rank() == engine.King && a.To.Corner() && b[a.To].n == 0) {
				return fmt.Errorf("%v must go into an empty corner first: at this table Kings are played at once.", k)
			}
		}
	}
	switch a.Do {
	case Play:
		if !a.Card.Valid() {
			return errors.New("That isn't a card.")
		}
		if a.To >= numPlaces {
			return errors.New("There is no such place: the piles are N, E, S, W and the corners NE, SE, SW, NW.")
		}
		if h.index(a.Card) < 0 {
			return fmt.Errorf("You don't hold %v.", a.Card)
		}
		dst := &b[a.To]
		if dst.n == 0 {
			if a.To.Corner() && a.Card.Rank() != engine.King {
				return fmt.Errorf("Only a King goes into an empty corner, not %v.", a.Card)
			}
			return nil
		}
		if !fits(a.Card, dst.top()) {
			return sentence(fitErr(a.Card, dst.top()))
		}
		return nil
	case Move:
		if a.From >= numPlaces || a.To >= numPlaces {
			return errors.New("There is no such place: the piles are N, E, S, W and the corners NE, SE, SW, NW.")
		}
		if a.From == a.To {
			return errors.New("A pile can't move onto itself.")
		}
		src, dst := &b[a.From], &b[a.To]
		if src.n == 0 {
			return fmt.Errorf("There is no pile at %v to move.", a.From)
		}
		if dst.n == 0 {
			switch {
			case !a.To.Corner():
				return fmt.Errorf("A whole pile moves onto another pile, or into an empty corner with a King at its bottom; %v takes a card from your hand.", a.To)
			case src.bottom().Rank() != engine.King:
				return fmt.Errorf("Only a pile with a King at its bottom moves into an empty corner; the %v pile starts with %v.", a.From, src.bottom())
			case a.From.Corner():
				return fmt.Errorf("The %v pile is in a corner already.", a.From)
			}
			return nil
		}
		if !fits(src.bottom(), dst.top()) {
			if dst.top().Rank() == engine.Ace {
				return errors.New("Nothing goes on an Ace.")
			}
			return fmt.Errorf("The %v pile starts with %v, and %s", a.From, src.bottom(), fitErr(src.bottom(), dst.top()))
		}
		return nil
	case End:
		return nil
	}
	return errors.New("That isn't a move in Kings in the Corner.")
}

// apply carries out an action check accepted.
func (b *board) apply(h *hand, a Action) {
	switch a.Do {
	case Play:
		h.remove(a.Card)
		d := &b[a.To]
		d.c[d.n] = a.Card
		d.n++
	case Move:
		src, dst := &b[a.From], &b[a.To]
		copy(dst.c[dst.n:], src.cards())
		dst.n += src.n
		*src = pile{}
	}
}

// state is a plain value, so refusing an action is checking before
// touching it, and tests compare positions with ==.
type state struct {
	board   board
	hands   [MaxPlayers]hand
	stock   [52]engine.Card // bottom first: stock[nStock-1] is the next card drawn
	nStock  uint8
	players uint8
	first   int8
	turn    int8 // engine.NoSeat once the hand is over
	out     int8 // the seat that went out, or engine.NoSeat
	over    bool
	played  bool  // a card or pile moved in this turn
	drew    bool  // a card was drawn in this turn
	idle    uint8 // turns in a row that drew nothing and played nothing
	turnNo  uint16
	step    uint16 // actions taken in this turn
}

// Game is one hand of Kings in the Corner in play.
type Game struct {
	spec        engine.Spec
	drawEnd     bool
	kingsAtOnce bool
	st          state
	start       Start
	hist        []engine.Acted[Action]
}

var _ engine.Table[Action, View] = (*Game)(nil)

type rules struct {
	drawEnd, kingsAtOnce bool
	match                bool
}

func parseRules(settings string) (string, rules, error) {
	canon, err := engine.NormalizeSettings(settings, Settings)
	if err != nil {
		return "", rules{}, err
	}
	m, _ := engine.ParseSettings(canon)
	return canon, rules{drawEnd: m["draw"] == "end", kingsAtOnce: m["kingsAtOnce"] == "true", match: m["match"] == "25"}, nil
}

// New deals spec for players seats: the shuffled pack gives seven cards to
// each seat in turn, then N, E, S, W, and the rest is the stock in order;
// the next draw of the same RNG picks the first player.
func New(spec engine.Spec, players int) (*Game, error) {
	if spec.Game != Name {
		return nil, fmt.Errorf("kings can't deal a %q game", spec.Game)
	}
	if spec.Variant != "" {
		return nil, fmt.Errorf("Kings in the Corner has no variant %q", spec.Variant)
	}
	rng := engine.NewRNG(spec.Seed)
	deck := engine.Deck()
	rng.Shuffle(deck)
	if players < MinPlayers || players > MaxPlayers {
		return nil, fmt.Errorf("Kings in the Corner is for %d to %d players, not %d", MinPlayers, MaxPlayers, players)
	}
	first := rng.Intn(players)
	g, err := FromStart(spec.Settings, players, dealStart(deck, players, first))
	if err != nil {
		return nil, err
	}
	g.spec.Seed = spec.Seed
	g.spec.Winnable = spec.Winnable
	return g, nil
}

func dealStart(deck []engine.Card, players, first int) Start {
	st := Start{Hands: make([]Cards, players), First: first}
	i := 0
	for range HandSize {
		for s := range players {
			st.Hands[s] = append(st.Hands[s], deck[i])
			i++
		}
	}
	st.Piles = StartPiles{deck[i], deck[i+1], deck[i+2], deck[i+3]}
	st.Stock = append(Cards(nil), deck[i+4:]...)
	return st
}

// FromStart builds a hand from a record's start: settings in the spec's
// "k=v,..." form, the seat count, and the deal.
func FromStart(settings string, seats int, start Start) (*Game, error) {
	canon, r, err := parseRules(settings)
	if err != nil {
		return nil, err
	}
	if seats < MinPlayers || seats > MaxPlayers {
		return nil, fmt.Errorf("Kings in the Corner is for %d to %d players, not %d", MinPlayers, MaxPlayers, seats)
	}
	if len(start.Hands) != seats {
		return nil, fmt.Errorf("the start deals %d hands for %d seats", len(start.Hands), seats)
	}
	if start.First < 0 || start.First >= seats {
		return nil, fmt.Errorf("the first player %d is not a seat", start.First)
	}
	var seen [52]bool
	count := 0
	see := func(c engine.Card) error {
		if !c.Valid() {
			return fmt.Errorf("the start holds a card that is not one")
		}
		if seen[c.Index()] {
			return fmt.Errorf("the start holds %v twice", c)
		}
		seen[c.Index()] = true
		count++
		return nil
	}
	g := &Game{
		spec:        engine.Spec{Game: Name, Settings: canon},
		drawEnd:     r.drawEnd,
		kingsAtOnce: r.kingsAtOnce,
	}
	st := &g.st
	for s, h := range start.Hands {
		if len(h) != HandSize {
			return nil, fmt.Errorf("seat %d is dealt %d cards, not %d", s, len(h), HandSize)
		}
		for _, c := range h {
			if err := see(c); err != nil {
				return nil, err
			}
			st.hands[s].add(c)
		}
	}
	for i, c := range start.Piles.list() {
		if err := see(c); err != nil {
			return nil, err
		}
		st.board[i].c[0] = c
		st.board[i].n = 1
	}
	for i, c := range start.Stock {
		if err := see(c); err != nil {
			return nil, err
		}
		st.stock[len(start.Stock)-1-i] = c
	}
	if count != 52 {
		return nil, fmt.Errorf("the start holds %d cards, not 52", count)
	}
	st.nStock = uint8(len(start.Stock))
	st.players = uint8(seats)
	st.first = int8(start.First)
	st.turn = int8(start.First)
	st.out = engine.NoSeat
	g.start = start.clone()
	st.beginTurn(g.drawEnd)
	return g, nil
}

// beginTurn draws for the seat to play when the draw comes first. Records
// never hold this draw: it is the rules' doing, not the seat's.
func (st *state) beginTurn(drawEnd bool) {
	st.played, st.drew, st.step = false, false, 0
	if !drawEnd && st.nStock > 0 {
		st.draw(int(st.turn))
	}
}

func (st *state) draw(seat int) {
	st.nStock--
	st.hands[seat].add(st.stock[st.nStock])
	st.stock[st.nStock] = engine.NoCard
	st.drew = true
}

func (g *Game) Spec() engine.Spec { return g.spec }
func (g *Game) Seats() int        { return int(g.st.players) }

func (g *Game) Turn() int {
	if g.st.over {
		return engine.NoSeat
	}
	return int(g.st.turn)
}

// First is the seat that played first in this hand.
func (g *Game) First() int { return int(g.st.first) }

// check says why seat may not take a now, or nil.
func (g *Game) check(seat int, a Action) error {
	st := &g.st
	if st.over {
		return errors.New("The hand is over.")
	}
	if seat < 0 || seat >= int(st.players) {
		return fmt.Errorf("Seat %d isn't at this table.", seat)
	}
	if seat != int(st.turn) {
		return fmt.Errorf("%w: seat %d is to play.", ErrNotYourTurn, st.turn)
	}
	return st.board.check(&st.hands[seat], a, g.kingsAtOnce)
}

// Do applies a for seat, or leaves the hand as it was and says why not.
func (g *Game) Do(seat int, a Action) error {
	a = a.canonical()
	if err := g.check(seat, a); err != nil {
		return err
	}
	g.st.apply(seat, a, g.drawEnd)
	g.hist = append(g.hist, engine.Acted[Action]{Seat: seat, Action: a})
	return nil
}

func (st *state) apply(seat int, a Action, drawEnd bool) {
	st.step++
	if a.Do != End {
		st.board.apply(&st.hands[seat], a)
		st.played = true
		if st.hands[seat].n == 0 {
			// Going out ends the hand at once, before any draw.
			st.over, st.out, st.turn = true, int8(seat), engine.NoSeat
		}
		return
	}
	if drawEnd && st.nStock > 0 {
		st.draw(seat)
	}
	if st.played || st.drew {
		st.idle = 0
	} else {
		st.idle++
	}
	// A round of turns that neither drew nor played leaves the table as it
	// was a round before, so nothing will ever change unless someone
	// chooses to: docs/tablegames.md ends the hand there with nobody out.
	if st.idle >= st.players {
		st.over, st.turn = true, engine.NoSeat
		return
	}
	st.turn = int8((int(st.turn) + 1) % int(st.players))
	st.turnNo++
	st.beginTurn(drawEnd)
}

// Legal lists every action seat may take now.
func (g *Game) Legal(seat int) []Action {
	if g.st.over || seat != int(g.st.turn) {
		return nil
	}
	return legal(&g.st.board, &g.st.hands[seat], g.kingsAtOnce, nil)
}

// legal appends every action the seat holding h may take on b. It is
// built from check so the two can never disagree.
func legal(b *board, h *hand, kingsAtOnce bool, out []Action) []Action {
	for _, c := range h.cards() {
		for p := range numPlaces {
			a := Action{Do: Play, Card: c, To: p}
			if b.check(h, a, kingsAtOnce) == nil {
				out = append(out, a)
			}
		}
	}
	for f := range numPlaces {
		for t := range numPlaces {
			a := Action{Do: Move, From: f, To: t}
			if b.check(h, a, kingsAtOnce) == nil {
				out = append(out, a)
			}
		}
	}
	if b.check(h, Action{Do: End}, kingsAtOnce) == nil {
		out = append(out, Action{Do: End})
	}
	return out
}

// Over reports the hand's end: the seat that went out (or NoSeat) and each
// seat's penalty points.
func (g *Game) Over() (engine.TableResult, bool) {
	if !g.st.over {
		return engine.TableResult{}, false
	}
	return engine.TableResult{Winner: int(g.st.out), Points: g.penalties(), LowWins: true}, true
}

func (g *Game) penalties() []int {
	ps := make([]int, g.st.players)
	for s := range ps {
		ps[s] = penalty(g.st.hands[s].cards())
	}
	return ps
}

func (g *Game) History() []engine.Acted[Action] {
	return append([]engine.Acted[Action](nil), g.hist...)
}

// HistoryLen is len(History()), without the copy.
func (g *Game) HistoryLen() int { return len(g.hist) }

// Acted is History()[i], without the copy.
func (g *Game) Acted(i int) engine.Acted[Action] { return g.hist[i] }
