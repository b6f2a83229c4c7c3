// Package freecell is FreeCell with Microsoft-numbered deals: the rules,
// the board the arcade draws, a text form of a deal, a solver and a move
// notation for solutions.
//
// Pile index order (what Piles returns and Action.From/To name):
//
//	0..3   free cells          (X = 0, 2, 4, 6; Y = 0)
//	4..7   foundations, one per suit in the order clubs, diamonds,
//	       hearts, spades      (X = 8, 10, 12, 14; Y = 0)
//	8..15  tableau columns 1..8 (X = 0, 2, ..., 14; Y = 2; FanDown)
//
// dfs.go is over 800 lines on purpose: it is the search's hot loop (moves
// made and unmade in place, children keyed and weighed without making
// them), whose parts share the board's kept sums at every step and are
// read and profiled as one piece.
package freecell

import (
	"fmt"

	"sshuffle/engine"
)

const (
	numCells   = 4
	numCols    = 8
	firstFound = 4
	firstCol   = 8
	numPiles   = 16
	// A column holds at most its 7 dealt cards plus a Queen-to-Ace run on
	// a King: 19 cards.
	maxCol = 20
)

// board is the whole position in fixed arrays so that the solver can copy
// it by value without allocating.
type board struct {
	cols  [numCols][maxCol]engine.Card
	n     [numCols]uint8
	cells [numCells]engine.Card
	found [4]uint8 // highest rank on each suit's foundation, 0 when empty
}

func (b *board) col(i int) []engine.Card { return b.cols[i][:b.n[i]] }

func (b *board) top(i int) engine.Card {
	if b.n[i] == 0 {
		return engine.NoCard
	}
	return b.cols[i][b.n[i]-1]
}

func (b *board) push(i int, c engine.Card) {
	b.cols[i][b.n[i]] = c
	b.n[i]++
}

func (b *board) pop(i int) engine.Card {
	b.n[i]--
	c := b.cols[i][b.n[i]]
	b.cols[i][b.n[i]] = engine.NoCard
	return c
}

func (b *board) freeCells() int {
	k := 0
	for _, c := range b.cells {
		if c == engine.NoCard {
			k++
		}
	}
	return k
}

func (b *board) emptyCols() int {
	k := 0
	for _, n := range b.n {
		if n == 0 {
			k++
		}
	}
	return k
}

func (b *board) foundCount() int {
	return int(b.found[0]) + int(b.found[1]) + int(b.found[2]) + int(b.found[3])
}

func (b *board) won() bool { return b.foundCount() == 52 }

// fits reports whether c may be placed on card on in a column: one rank
// lower and the other colour.
func fits(c, on engine.Card) bool { return fitsTable[c&63][on&63] }

// fitsTable[c][on] is fits(c, on) for every pair of card bytes.
var fitsTable = func() (t [64][64]bool) {
	for c := range engine.Card(64) {
		for on := range engine.Card(64) {
			t[c][on] = c.Valid() && on.Valid() && c.Rank()+1 == on.Rank() && c.Red() != on.Red()
		}
	}
	return t
}()

// whyNotOn is the sentence for a card that does not fit on another.
func whyNotOn(c, on engine.Card) string {
	if c.Rank()+1 != on.Rank() {
		if on.Rank() == engine.Ace {
			return fmt.Sprintf("%v can't go on %v: nothing goes on an Ace", c, on)
		}
		return fmt.Sprintf("%v can't go on %v: only a %s can", c, on, (on.Rank() - 1).Name())
	}
	return fmt.Sprintf("%v can't go on %v: both are %s", c, on, c.Colour())
}

// capacity is how many cards one move can carry: (free cells + 1) doubled
// for each empty column that is not the destination.
func capacity(freeCells, emptyCols int) int {
	return (freeCells + 1) << emptyCols
}

// runStart is the index of the lowest card of the run at the top of column
// i (the top card alone when it is not on its parent).
func (b *board) runStart(i int) int {
	n := int(b.n[i])
	if n == 0 {
		return 0
	}
	j := n - 1
	for j > 0 && fits(b.cols[i][j], b.cols[i][j-1]) {
		j--
	}
	return j
}

// canFound reports whether c is the next card of its foundation.
func (b *board) canFound(c engine.Card) bool {
	return b.found[c.Suit()]+1 == uint8(c.Rank())
}

// safeSimple is the game's automatic-move rule: no card left in play can
// still need c as a place to land. Aces and twos are never needed (an Ace
// is better on its foundation than on a two); any other card is needed
// only by the two cards of the other colour one rank lower.
func (b *board) safeSimple(c engine.Card) bool {
	r := uint8(c.Rank())
	if r <= 2 {
		return true
	}
	o1, o2 := otherColour(c.Suit())
	return b.found[o1] >= r-1 && b.found[o2] >= r-1
}

// safeStrong adds the rule used by many solvers: when the other colour's
// foundations reach rank-2 and the same colour's other foundation reaches
// rank-3, the other-colour cards of rank-1 can themselves go up at once
// and nothing needs to land on them, so they do not need c either.
func (b *board) safeStrong(c engine.Card) bool {
	if b.safeSimple(c) {
		return true
	}
	r := uint8(c.Rank())
	o1, o2 := otherColour(c.Suit())
	same := sameColourOther(c.Suit())
	return b.found[o1] >= r-2 && b.found[o2] >= r-2 && b.found[same] >= r-3
}

func otherColour(s engine.Suit) (engine.Suit, engine.Suit) {
	if s.Red() {
		return engine.Clubs, engine.Spades
	}
	return engine.Diamonds, engine.Hearts
}

func sameColourOther(s engine.Suit) engine.Suit {
	switch s {
	case engine.Clubs:
		return engine.Spades
	case engine.Spades:
		return engine.Clubs
	case engine.Diamonds:
		return engine.Hearts
	}
	return engine.Diamonds
}

// single is one card moving to a foundation: from a cell (0..3) or a
// column (8..15), in pile numbering.
type single struct{ from int }

// autoStep finds one card the rule lets go up, cells first, then columns
// left to right, and moves it. The set of cards a closure moves does not
// depend on this order: moving a card up never makes another card unsafe
// or covered.
func (b *board) autoStep(safe func(*board, engine.Card) bool) (single, bool) {
	for i, c := range b.cells {
		if c != engine.NoCard && b.canFound(c) && safe(b, c) {
			b.cells[i] = engine.NoCard
			b.found[c.Suit()]++
			return single{from: i}, true
		}
	}
	for i := range numCols {
		c := b.top(i)
		if c != engine.NoCard && b.canFound(c) && safe(b, c) {
			b.pop(i)
			b.found[c.Suit()]++
			return single{from: firstCol + i}, true
		}
	}
	return single{}, false
}

func (b *board) autoAll(safe func(*board, engine.Card) bool) {
	for {
		if _, ok := b.autoStep(safe); !ok {
			return
		}
	}
}

// deal lays out Microsoft deal number n: the Rosetta Code "Deal cards for
// FreeCell" method.
func deal(n uint64) board {
	var b board
	deck := engine.Deck()
	state := uint32(n)
	for i := 0; len(deck) > 0; i++ {
		state = (state*214013 + 2531011) & 0x7fffffff
		j := int(state>>16) % len(deck)
		c := deck[j]
		deck[j] = deck[len(deck)-1]
		deck = deck[:len(deck)-1]
		b.push(i%numCols, c)
	}
	return b
}
