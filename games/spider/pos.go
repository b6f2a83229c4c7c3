package spider

import "sshuffle/engine"

const (
	numCols  = 10
	numRows  = 5 // stock rows after the opening deal
	numCards = 104
	numRuns  = 8
)

// pos is a whole position as one value: the ten columns laid end to end in
// one array. Copying it is a 140-byte copy with no allocation, which is what
// makes unlimited undo cheap and lets the solver keep millions of positions.
// The stock's cards are not here: they never change order, so a position
// only needs how many rows are left (the game keeps the cards).
type pos struct {
	cards [numCards]engine.Card // column 0 bottom..top, then column 1, ...
	n     [numCols]uint8        // cards in each column
	down  [numCols]uint8        // face-down cards at the bottom of each column
	rows  uint8                 // stock rows still to deal
	runs  uint8                 // completed runs removed
	done  [numRuns]engine.Suit  // suit of each completed run, in order
}

func (p *pos) start(c int) int {
	s := 0
	for i := 0; i < c; i++ {
		s += int(p.n[i])
	}
	return s
}

// col returns column c bottom first. The slice aliases p.cards: callers
// that change p afterwards must not keep it.
func (p *pos) col(c int) []engine.Card {
	s := p.start(c)
	return p.cards[s : s+int(p.n[c])]
}

func (p *pos) top(c int) engine.Card {
	if p.n[c] == 0 {
		return engine.NoCard
	}
	return p.cards[p.start(c)+int(p.n[c])-1]
}

func (p *pos) tableCount() int {
	t := 0
	for _, n := range p.n {
		t += int(n)
	}
	return t
}

func (p *pos) empties() int {
	e := 0
	for _, n := range p.n {
		if n == 0 {
			e++
		}
	}
	return e
}

func (p *pos) hasEmpty() bool {
	for _, n := range p.n {
		if n == 0 {
			return true
		}
	}
	return false
}

// follows reports whether b may sit on a in a run that moves together.
func follows(a, b engine.Card) bool {
	return a.Suit() == b.Suit() && a.Rank() == b.Rank()+1
}

// runStart is the index in column c where its movable run begins: the
// lowest face-up card from which everything up to the top is one suit in
// sequence. An empty column gives 0.
func (p *pos) runStart(c int) int {
	cs := p.col(c)
	if len(cs) == 0 {
		return 0
	}
	i := len(cs) - 1
	for i > int(p.down[c]) && follows(cs[i-1], cs[i]) {
		i--
	}
	return i
}

// rebuild lays the columns out again after column from lost its top k
// cards and column to gained add on top (either may be -1).
func (p *pos) rebuild(from, k, to int, add []engine.Card) {
	var out [numCards]engine.Card
	j, s := 0, 0
	for c := 0; c < numCols; c++ {
		// A running start, not p.col: this runs for every move the
		// solver tries, and col would walk the columns before c again.
		cs := p.cards[s : s+int(p.n[c])]
		s += int(p.n[c])
		if c == from {
			cs = cs[:len(cs)-k]
		}
		j += copy(out[j:], cs)
		if c == to {
			j += copy(out[j:], add)
		}
	}
	if from >= 0 {
		p.n[from] -= uint8(k)
	}
	if to >= 0 {
		p.n[to] += uint8(len(add))
	}
	p.cards = out
}

// turnUp turns the top card of column c face up if it is face down.
func (p *pos) turnUp(c int) {
	if p.n[c] > 0 && p.down[c] >= p.n[c] {
		p.down[c] = p.n[c] - 1
	}
}

// removeRun takes a complete King-to-Ace run off column c if it has one on
// top, and turns up the card under it. It reports whether it did.
func (p *pos) removeRun(c int) bool {
	cs := p.col(c)
	n := len(cs)
	if n-int(p.down[c]) < 13 || cs[n-1].Rank() != engine.Ace {
		return false
	}
	for i := n - 1; i > n-13; i-- {
		if !follows(cs[i-1], cs[i]) {
			return false
		}
	}
	if p.runs < numRuns {
		p.done[p.runs] = cs[n-1].Suit()
	}
	p.runs++
	p.rebuild(c, 13, -1, nil)
	p.turnUp(c)
	return true
}

// move puts the cards of column from, from index i up, on column to, and
// applies what follows at once: the turn-up and a run removal. It does not
// check legality. It returns how many runs were completed.
func (p *pos) move(from, i, to int) int {
	cs := p.col(from)
	var run [numCards]engine.Card
	k := copy(run[:], cs[i:])
	p.rebuild(from, k, to, run[:k])
	p.turnUp(from)
	if p.removeRun(to) {
		return 1
	}
	return 0
}

// deal puts one card of row on each column, face up, then removes any runs
// the new cards complete.
func (p *pos) deal(row []engine.Card) int {
	var out [numCards]engine.Card
	j, s := 0, 0
	for c := 0; c < numCols; c++ {
		j += copy(out[j:], p.cards[s:s+int(p.n[c])])
		s += int(p.n[c])
		out[j] = row[c]
		j++
	}
	for c := range p.n {
		p.n[c]++
	}
	p.cards = out
	p.rows--
	done := 0
	for c := 0; c < numCols; c++ {
		if p.removeRun(c) {
			done++
		}
	}
	return done
}

// canDeal is the dealing rule: rows left and no empty column.
func (p *pos) canDeal() bool { return p.rows > 0 && !p.hasEmpty() }

// canPlace is the destination rule for a group led by lead onto column to.
func (p *pos) canPlace(lead engine.Card, to int) bool {
	t := p.top(to)
	return t == engine.NoCard || t.Rank() == lead.Rank()+1
}

// legalMoves calls f for every legal tableau move (from, i, to). Moves to
// several empty columns are all reported; callers that want only one can
// skip the rest.
func (p *pos) legalMoves(f func(from, i, to int)) {
	for from := 0; from < numCols; from++ {
		n := int(p.n[from])
		if n == 0 {
			continue
		}
		s := p.runStart(from)
		cs := p.col(from)
		for i := s; i < n; i++ {
			lead := cs[i]
			for to := 0; to < numCols; to++ {
				if to != from && p.canPlace(lead, to) {
					f(from, i, to)
				}
			}
		}
	}
}

func (p *pos) faceDown() int {
	t := 0
	for _, d := range p.down {
		t += int(d)
	}
	return t
}
