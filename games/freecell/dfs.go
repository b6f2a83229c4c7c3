package freecell

import (
	"math/bits"

	"sshuffle/engine"
)

// The search is depth-first on one board changed in place: a move is
// made and unmade, never copied, and the memory is the set of position
// keys (8 bytes each) and the path. At each position every move is made
// once to key its child (dropping those already seen) and to weigh it
// with the cost heuristic, then unmade; the children are tried cheapest
// first. The first stages are pruned (see genMoves and beam) so that a
// deal whose greedy line goes wrong is handed on quickly; they prove
// nothing. The last stage runs without pruning and is complete, since
// every one-card move is generated up to the symmetries of the key (see
// search in solver.go for why its exhaustion is a proof).

// dkid is a child waiting in its parent's frame.
type dkid struct {
	cost int32
	m    smove
}

// dframe is one position on the path: its children kids[lo:hi], the next
// to try, and what undoes the move that led to it.
type dframe struct {
	lo, hi, next int32
	autoLo       int32 // its automatic moves are autos[autoLo:]
	m            move
	colc         [numCols]int32
}

type dfs struct {
	b     board
	w     weights
	colh  [numCols]uint64
	cellh uint64
	colc  [numCols]int32
	// colm[i] is colMix(colh[i]) and colk their sum, for the columns not
	// in keyDirty; costDirty has the columns whose colc is out of date.
	colm      [numCols]uint64
	colk      uint64
	keyDirty  uint8
	costDirty uint8
	// loc[c] is the column card c lies in (not kept for other cards).
	loc [64]uint8
	// runAt[i][p] is where the run ends below p in column i when p is the
	// top: the column's runStart once the cards above p are gone.
	runAt [numCols][maxCol]uint8
	seen  keySet
	nodes int
	// autos holds the source pile (low four bits) and suit of every
	// automatic move on the path, so that unmaking a move can put those
	// cards back.
	autos  []uint8
	frames []dframe
	kids   []dkid
	movBuf []move
	// prune leaves out moves that are rarely needed and keeps only the
	// beam cheapest children of each position: fast, and proves nothing.
	prune bool
	beam  int
	// fitsToCell keeps, in a pruned stage, the move of a column's top
	// card to a cell when the card fits on another column (see
	// leftOutOfCell).
	fitsToCell bool
	// strict is the first stage's own pruning (see leftOutOfCell).
	strict bool
	at     keyIndex // shorten's line: the index of each key
	line   []board  // and each position
	// shortTries counts the moves shorten made, for measuring.
	shortTries int
}

func (d *dfs) key() uint64 {
	for m := d.keyDirty; m != 0; m &= m - 1 {
		i := bits.TrailingZeros8(m)
		x := colMix(d.colh[i])
		d.colk += x - d.colm[i]
		d.colm[i] = x
	}
	d.keyDirty = 0
	return d.colk ^ d.cellh
}

func (d *dfs) pushCard(i int, c engine.Card) {
	b := &d.b
	d.colh[i] ^= zobrist[b.n[i]][c]
	n := b.n[i]
	b.cols[i][n] = c
	b.n[i]++
	d.loc[c&63] = uint8(i)
	if n > 0 && fits(c, b.cols[i][n-1]) {
		d.runAt[i][n] = d.runAt[i][n-1]
	} else {
		d.runAt[i][n] = n
	}
	d.keyDirty |= 1 << i
	d.costDirty |= 1 << i
}

func (d *dfs) popCard(i int) engine.Card {
	b := &d.b
	b.n[i]--
	c := b.cols[i][b.n[i]]
	b.cols[i][b.n[i]] = engine.NoCard
	d.colh[i] ^= zobrist[b.n[i]][c]
	d.keyDirty |= 1 << i
	d.costDirty |= 1 << i
	return c
}

// raise puts the next card of suit s on its foundation (the caller has
// taken it from its pile) and marks the columns whose depth terms change:
// those holding the suit's next two cards.
func (d *dfs) raise(s int) {
	d.b.found[s]++
	f := int(d.b.found[s])
	for r := f + 1; r <= f+2 && r <= 13; r++ {
		c := engine.NewCard(engine.Rank(r), engine.Suit(s))
		if i := d.loc[c&63]; d.b.n[i] > 0 {
			d.costDirty |= 1 << i
		}
	}
}

// lower takes the top card of suit s off its foundation (the caller puts
// it back) and marks the columns whose depth terms change.
func (d *dfs) lower(s int) engine.Card {
	f := int(d.b.found[s])
	d.b.found[s]--
	for r := f + 1; r <= f+2 && r <= 13; r++ {
		c := engine.NewCard(engine.Rank(r), engine.Suit(s))
		if i := d.loc[c&63]; d.b.n[i] > 0 {
			d.costDirty |= 1 << i
		}
	}
	return engine.NewCard(engine.Rank(f), engine.Suit(s))
}

func (d *dfs) setCell(i int, c engine.Card) {
	if old := d.b.cells[i]; old != engine.NoCard {
		d.cellh ^= zcell[old]
	}
	if c != engine.NoCard {
		d.cellh ^= zcell[c]
	}
	d.b.cells[i] = c
}

// takeFrom removes the card of pile p (a cell or a column top).
func (d *dfs) takeFrom(p int) engine.Card {
	if p < firstFound {
		c := d.b.cells[p]
		d.setCell(p, engine.NoCard)
		return c
	}
	return d.popCard(p - firstCol)
}

func (d *dfs) putTo(p int, c engine.Card) {
	if p < firstFound {
		d.setCell(p, c)
		return
	}
	d.pushCard(p-firstCol, c)
}

// do makes m and every automatic move after it; it reports whether a card
// went to a foundation.
func (d *dfs) do(m move) bool {
	up := false
	switch {
	case m.to >= firstCol && m.from >= firstCol:
		var buf [maxCol]engine.Card
		src, dst := m.from-firstCol, m.to-firstCol
		for k := m.count - 1; k >= 0; k-- {
			buf[k] = d.popCard(src)
		}
		for k := range m.count {
			d.pushCard(dst, buf[k])
		}
	case m.to >= firstFound && m.to < firstCol:
		c := d.takeFrom(m.from)
		d.raise(int(c.Suit()))
		up = true
	default:
		d.putTo(m.to, d.takeFrom(m.from))
	}
	// The position before m had nothing left to go up. If no card went
	// up with m (so no card became safe), only the card m uncovered can
	// go now.
	if !up {
		if m.from < firstCol {
			return false
		}
		i := m.from - firstCol
		n := d.b.n[i]
		if n == 0 {
			return false
		}
		if c := d.b.cols[i][n-1]; !d.b.canFound(c) || !d.b.safeStrong(c) {
			return false
		}
	}
	return d.auto() || up
}

// auto is autoStrong recording its moves.
func (d *dfs) auto() bool {
	b := &d.b
	any := false
	for {
		// want has a bit for each card that is next on its foundation,
		// so that most positions are passed over in one look at each top.
		var want uint64
		for s, f := range b.found {
			want |= 1 << (s<<4 | int(f) + 1)
		}
		hit := false
		for _, c := range b.cells {
			hit = hit || want>>(c&63)&1 != 0
		}
		for i := range numCols {
			if n := b.n[i]; n > 0 {
				hit = hit || want>>(b.cols[i][n-1]&63)&1 != 0
			}
		}
		if !hit {
			return any
		}
		moved := false
		for i, c := range b.cells {
			if c != engine.NoCard && b.canFound(c) && b.safeStrong(c) {
				d.setCell(i, engine.NoCard)
				d.raise(int(c.Suit()))
				d.autos = append(d.autos, uint8(i)|uint8(c.Suit())<<4)
				moved = true
			}
		}
		for i := range numCols {
			n := b.n[i]
			if n == 0 {
				continue
			}
			if c := b.cols[i][n-1]; b.canFound(c) && b.safeStrong(c) {
				d.popCard(i)
				d.raise(int(c.Suit()))
				d.autos = append(d.autos, uint8(firstCol+i)|uint8(c.Suit())<<4)
				moved = true
			}
		}
		if !moved {
			return any
		}
		any = true
	}
}

// undo takes back m and the automatic moves after it, autos[autoLo:].
func (d *dfs) undo(m move, autoLo int) {
	for k := len(d.autos) - 1; k >= autoLo; k-- {
		p, s := int(d.autos[k]&15), int(d.autos[k]>>4)
		d.putTo(p, d.lower(s))
	}
	d.autos = d.autos[:autoLo]
	switch {
	case m.to >= firstCol && m.from >= firstCol:
		var buf [maxCol]engine.Card
		src, dst := m.from-firstCol, m.to-firstCol
		for k := m.count - 1; k >= 0; k-- {
			buf[k] = d.popCard(dst)
		}
		for k := range m.count {
			d.pushCard(src, buf[k])
		}
	case m.to >= firstFound && m.to < firstCol:
		d.putTo(m.from, d.lower(m.to-firstFound))
	default:
		d.putTo(m.from, d.takeFrom(m.to))
	}
}

// keySet is an open-addressing set of position keys; reset empties it
// for the next search without giving its memory back unless it is far
// larger than the next search needs.
type keySet struct {
	slots []uint64
	n     int
}

func (t *keySet) reset(budget int) {
	want := engine.TableSize(min(budget, 1<<10))
	if len(t.slots) >= want && len(t.slots) <= 8*want {
		clear(t.slots)
	} else {
		t.slots = make([]uint64, want)
	}
	t.n = 0
}

// add inserts k and reports whether it was new.
func (t *keySet) add(k uint64) bool {
	if k == 0 {
		k = 0x9e3779b97f4a7c15
	}
	if t.n*2 >= len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	for i := (k ^ k>>29) & mask; ; i = (i + 1) & mask {
		switch t.slots[i] {
		case 0:
			t.slots[i] = k
			t.n++
			return true
		case k:
			return false
		}
	}
}

func (t *keySet) grow() {
	old := t.slots
	t.slots = make([]uint64, 2*len(old))
	t.n = 0
	for _, k := range old {
		if k != 0 {
			t.add(k)
		}
	}
}

func (d *dfs) start(b board, w weights, budget int) {
	d.b, d.w = b, w
	d.cellh = 0
	for _, c := range d.b.cells {
		if c != engine.NoCard {
			d.cellh ^= zcell[c]
		}
	}
	d.colk = 0
	for i := range numCols {
		d.colh[i] = colHash(&d.b, i)
		d.colm[i] = colMix(d.colh[i])
		d.colk += d.colm[i]
		for p, c := range d.b.col(i) {
			d.loc[c&63] = uint8(i)
			d.runAt[i][p] = uint8(p)
			if p > 0 && fits(c, d.b.cols[i][p-1]) {
				d.runAt[i][p] = d.runAt[i][p-1]
			}
		}
	}
	d.autos = d.autos[:0]
	d.auto() // do counts on nothing being left to go up
	d.key()
	for i := range numCols {
		d.colc[i] = int32(colCost(&d.b, i, w))
	}
	d.costDirty = 0
	d.autos, d.frames, d.kids = d.autos[:0], d.frames[:0], d.kids[:0]
	d.seen.reset(budget)
	d.nodes = 0
}

// recost brings colc up to date: the columns cards were put on or taken
// from, and those whose depth terms changed with a foundation.
func (d *dfs) recost() {
	for m := d.costDirty; m != 0; m &= m - 1 {
		i := bits.TrailingZeros8(m)
		d.colc[i] = int32(colCost(&d.b, i, d.w))
	}
	d.costDirty = 0
}

// restore puts back colc as it was before a move just undone.
func (d *dfs) restore(colc [numCols]int32) {
	d.colc = colc
	d.costDirty = 0
}

func (d *dfs) cost() int32 {
	h := int32(restCost(&d.b, d.w))
	for _, c := range d.colc {
		h += c
	}
	return h
}

func (d *dfs) resolveSmove(sm smove) move {
	m := move{from: int(sm.from), index: int(sm.index), count: 1, to: int(sm.to)}
	if m.from >= firstCol {
		m.count = int(d.b.n[m.from-firstCol]) - m.index
	}
	return m
}

// expand weighs the children of the position at the top of the path and
// sorts them into its frame. It reports a win: then the winning move is
// the frame's only child.
func (d *dfs) expand() bool {
	f := &d.frames[len(d.frames)-1]
	lo := len(d.kids)
	d.movBuf = d.genMoves(d.movBuf[:0], d.prune)
	for _, m := range d.movBuf {
		autoLo := len(d.autos)
		saved := d.colc
		d.do(m)
		sm := smove{uint8(m.from), uint8(m.index), uint8(m.to)}
		if d.seen.add(d.key()) {
			d.nodes++
			if d.b.won() {
				d.undo(m, autoLo)
				d.restore(saved)
				d.kids = append(d.kids[:lo], dkid{m: sm})
				f.lo, f.hi, f.next = int32(lo), int32(lo+1), int32(lo)
				return true
			}
			d.recost()
			c := d.cost()
			// Insertion keeps the kids sorted by cost, ties in the order
			// made.
			d.kids = append(d.kids, dkid{})
			j := len(d.kids) - 1
			for j > lo && d.kids[j-1].cost > c {
				d.kids[j] = d.kids[j-1]
				j--
			}
			d.kids[j] = dkid{cost: c, m: sm}
		}
		d.undo(m, autoLo)
		d.restore(saved)
	}
	hi := len(d.kids)
	if d.beam > 0 && hi-lo > d.beam {
		hi = lo + d.beam
		d.kids = d.kids[:hi]
	}
	f.lo, f.hi, f.next = int32(lo), int32(hi), int32(lo)
	return false
}

// run searches from b with weights w within budget positions.
func (d *dfs) run(b board, w weights, budget int) engine.Result[smove] {
	d.start(b, w, budget)
	d.seen.add(d.key())
	d.nodes = 1
	if d.b.won() {
		return engine.Result[smove]{Outcome: engine.Solved, Nodes: 1}
	}
	d.frames = append(d.frames, dframe{})
	won := d.expand()
	for !won {
		if d.nodes >= budget {
			return engine.Result[smove]{Outcome: engine.Undecided, Nodes: d.nodes}
		}
		f := &d.frames[len(d.frames)-1]
		if f.next == f.hi {
			d.kids = d.kids[:f.lo]
			if len(d.frames) == 1 {
				return engine.Result[smove]{Outcome: engine.Impossible, Nodes: d.nodes}
			}
			d.undo(f.m, int(f.autoLo))
			d.restore(f.colc)
			d.frames = d.frames[:len(d.frames)-1]
			continue
		}
		k := d.kids[f.next]
		f.next++
		m := d.resolveSmove(k.m)
		nf := dframe{m: m, autoLo: int32(len(d.autos)), colc: d.colc}
		d.do(m)
		d.recost()
		d.frames = append(d.frames, nf)
		won = d.expand()
	}
	moves := make([]smove, 0, len(d.frames))
	for _, f := range d.frames[1:] {
		moves = append(moves, smove{uint8(f.m.from), uint8(f.m.index), uint8(f.m.to)})
	}
	moves = append(moves, d.kids[len(d.kids)-1].m)
	return engine.Result[smove]{Outcome: engine.Solved, Moves: moves, Nodes: d.nodes}
}

// genMoves appends every move worth trying from b: foundation moves
// first, then moves onto cards, then into an empty column, then into a
// cell. Equivalent destinations are tried once: the first empty cell and
// the first empty column stand for all of them.
func (d *dfs) genMoves(out []move, prune bool) []move {
	b := &d.b
	n0 := len(out)
	free := b.freeCells()
	empty := b.emptyCols()
	firstEmpty := -1
	for i := range numCols {
		if b.n[i] == 0 {
			firstEmpty = i
			break
		}
	}
	firstCell := -1
	for i, c := range b.cells {
		if c == engine.NoCard {
			firstCell = i
			break
		}
	}
	for i, c := range b.cells {
		if c != engine.NoCard && b.canFound(c) {
			out = append(out, move{from: i, count: 1, to: firstFound + int(c.Suit())})
		}
	}
	for i := range numCols {
		if c := b.top(i); c != engine.NoCard && b.canFound(c) {
			out = append(out, move{from: firstCol + i, index: int(b.n[i]) - 1, count: 1, to: firstFound + int(c.Suit())})
		}
	}
	if prune && d.strict && len(out) > n0 {
		return out // pruning policy: see leftOutOfCell
	}
	limit := capacity(free, empty)
	var tops [numCols]engine.Card
	var runs, from [numCols]int
	for j := range numCols {
		tops[j] = b.top(j)
		if n := int(b.n[j]); n > 0 {
			runs[j] = int(d.runAt[j][n-1])
			// The lowest card of column j a move may take.
			from[j] = runs[j]
			if prune {
				// A run's lead that sits on its own parent stays
				// there, and a run too long to move as a whole is
				// left.
				from[j] = max(from[j], n-limit)
				if from[j] > runs[j] {
					from[j] = maxCol
				}
			}
		}
	}
	// Only the two cards of the other colour one rank below a column
	// top fit on it; a move is open if one of them lies in another
	// column's top run within reach. pairs has bit 8i+j for a run of
	// column i onto column j, so that the moves come out in that order.
	var pairs uint64
	for j, dst := range tops {
		r := dst.Rank() - 1
		if dst == engine.NoCard || r == 0 {
			continue
		}
		o1, o2 := otherColour(dst.Suit())
		for _, c := range [2]engine.Card{engine.NewCard(r, o1), engine.NewCard(r, o2)} {
			i := int(d.loc[c&63])
			n := int(b.n[i])
			if i == j || n == 0 {
				continue
			}
			k := n - 1 - (int(r) - int(b.cols[i][n-1].Rank()))
			if k < from[i] || k >= n || b.cols[i][k] != c || n-k > limit {
				continue
			}
			if prune && k > from[i] {
				continue
			}
			pairs |= 1 << (8*i + j)
		}
	}
	for ; pairs != 0; pairs &= pairs - 1 {
		p := bits.TrailingZeros64(pairs)
		i, j := p>>3, p&7
		n := int(b.n[i])
		k := n - 1 - (int(tops[j].Rank()) - 1 - int(tops[i].Rank()))
		out = append(out, move{from: firstCol + i, index: k, count: n - k, to: firstCol + j})
	}
	for i, c := range b.cells {
		if c == engine.NoCard {
			continue
		}
		for j, dst := range tops {
			if dst != engine.NoCard && fits(c, dst) {
				out = append(out, move{from: i, count: 1, to: firstCol + j})
			}
		}
	}
	if firstEmpty >= 0 {
		for i, c := range b.cells {
			if c != engine.NoCard {
				if prune && (free > 0 || d.onColumn(c) >= 0) {
					continue // pruning policy: see leftOutOfCell
				}
				out = append(out, move{from: i, count: 1, to: firstCol + firstEmpty})
			}
		}
		lim := capacity(free, empty-1)
		for i := range numCols {
			n := int(b.n[i])
			if n == 0 {
				continue
			}
			start := max(runs[i], n-lim)
			if start == 0 {
				start = 1
			}
			if prune {
				if start == 1 && runs[i] == 0 || start == n-1 && firstCell >= 0 && b.cols[i][start].Rank() != engine.King {
					continue // pruning policy: see leftOutOfCell
				}
				out = append(out, move{from: firstCol + i, index: start, count: n - start, to: firstCol + firstEmpty})
				continue
			}
			for k := start; k < n; k++ {
				out = append(out, move{from: firstCol + i, index: k, count: n - k, to: firstCol + firstEmpty})
			}
		}
	}
	if firstCell >= 0 {
		for i := range numCols {
			if n := int(b.n[i]); n > 0 {
				if prune && d.leftOutOfCell(i, free, empty) {
					continue // pruning policy: see leftOutOfCell
				}
				out = append(out, move{from: firstCol + i, index: n - 1, count: 1, to: firstCell})
			}
		}
	}
	return out
}

// shorten walks a winning line from start again, at each position taking
// the move that lands furthest along the line (by key, so a position the
// line reaches later with its columns in another order counts), which
// cuts out detours the depth-first search made. The moves it returns are
// numbered for the board they are played on.
//
// Only a move the search's generator left out can cut a detour: the
// search keyed every child the generator made at each position of the
// line, and takes a key once, so no later position of the line is among
// them (the line would have found it seen). So the moves tried are
// (most of) those the pruned generator leaves out (shortMoves), and when
// none jumps, the line's own next move is taken; a line from the
// complete stage (pruned false) has no jump at all and is returned as it
// is.
func (d *dfs) shorten(start board, moves []smove, pruned bool) []smove {
	if !pruned {
		return moves
	}
	// A short line has few detours to cut: over deals 1-32000 the lines
	// of fewer than shortenFrom moves off the foundations (110 in the
	// notation, which writes the 52 foundation moves too) were 86% of
	// all and shorten took 0.21 moves off each on average, against 2.9
	// off the rest. Leaving them as found costs 0.17 moves on the mean
	// over deals 1-1000 (96.51 -> 96.68) and most of shorten's time.
	off := 0
	for _, m := range moves {
		if m.to < firstFound || m.to >= firstCol {
			off++
		}
	}
	if off < shortenFrom {
		return moves
	}
	d.start(start, weights{}, 1)
	at := &d.at
	at.reset(len(moves) + 1)
	at.put(d.key(), 0)
	d.line = append(d.line[:0], d.b)
	for i, sm := range moves {
		d.do(d.resolveSmove(sm))
		at.put(d.key(), i+1)
		d.line = append(d.line, d.b)
	}
	d.start(start, weights{}, 1)
	out := make([]smove, 0, len(moves))
	// aligned: the board is the line's own, pile for pile, so the line's
	// move plays as it is.
	aligned := true
	var buf [4 * maxCol * numCols]move
	for i := 0; i < len(moves); {
		best, bm := i, move{}
		for _, m := range d.shortMoves(buf[:0]) {
			d.shortTries++
			autoLo := len(d.autos)
			d.do(m)
			if j := at.get(d.key()); j > best {
				best, bm = j, m
			}
			d.undo(m, autoLo)
		}
		if best == i && aligned {
			best, bm = i+1, d.resolveSmove(moves[i])
		}
		if best == i {
			// After a jump that left the columns in another order: the
			// generator's move that reaches the line's next position.
			d.movBuf = d.genMoves(d.movBuf[:0], true)
			for _, m := range d.movBuf {
				d.shortTries++
				autoLo := len(d.autos)
				d.do(m)
				j := at.get(d.key())
				d.undo(m, autoLo)
				if j == i+1 {
					best, bm = j, m
					break
				}
			}
		}
		if best == i {
			return moves // cannot happen: the line's own move is among them
		}
		out = append(out, smove{uint8(bm.from), uint8(bm.index), uint8(bm.to)})
		d.do(bm)
		d.autos = d.autos[:0]
		if best > i+1 {
			aligned = d.b == d.line[best]
		}
		i = best
	}
	return out
}

// The pruned generator leaves out (besides runs split off their own
// parents, see genMoves) four kinds of move to a free place, which the
// beam rarely needs: a column's top card to a cell when it lies on its
// own parent or fits on another column's top; a cell's card to an empty
// column when it fits on a column's top or a cell is free; a column
// that is one run moved, but for its bottom card, to an empty column;
// and one card other than a king moved from a column to an empty column
// while a cell is free. On every 8th deal of 1-32000 the first two made
// up 40% of the first stage's children; leaving them out took the whole
// search over deals 1-32000 from 42.5M positions to 23.7M, and the mean
// solution over 1-1000 from 101.0 moves to 96.9; the third took 6% more
// off (every 8th deal), the "a cell is free" 5.0% (all deals; 2.4% when
// it was "two cells"), the last 2-3% (every 8th deal, three offsets).
// One stage (dstages) keeps the cell move of a card that fits on a
// column: without it, a position of deal 1647 (move 20 of its line)
// that every pruned stage ran dry on took the complete stage 373,830
// positions (a hint over 0.5 s); with it, 10,577 at most over the
// hint benchmark's positions. The first stage alone (strict) also
// leaves out the move of a column's only card to a cell, and the move
// into one of the last two free cells, with no empty column, of a card
// whose removal uncovers one that can neither go up nor onto a column;
// and when a card can go up it makes only the moves to the foundations.
// These took 21-25% off (every 8th deal, offsets 1, 5, 3). In every
// stage, the lone king's move left out made deal 13996 take 1.25M
// positions, and the last-cell rule deal 31465 358k.

// leftOutOfCell says whether the pruned generator leaves out the move of
// column i's top card to a cell (free cells and empty columns as
// genMoves counted them).
func (d *dfs) leftOutOfCell(i, free, empty int) bool {
	b := &d.b
	n := int(b.n[i])
	c := b.cols[i][n-1]
	if n > 1 && fits(c, b.cols[i][n-2]) {
		return true
	}
	if d.strict {
		if n == 1 {
			return true
		}
		if u := b.cols[i][n-2]; free <= 2 && empty == 0 && !b.canFound(u) && d.onColumn(u) < 0 {
			return true
		}
	}
	j := d.onColumn(c)
	return j >= 0 && j != i && !d.fitsToCell
}

// onColumn is a column whose top card c fits on, -1 if none. (loc is
// kept only for column cards, so a card found there is checked.)
func (d *dfs) onColumn(c engine.Card) int {
	b := &d.b
	if c.Rank() == engine.King {
		return -1
	}
	o1, o2 := otherColour(c.Suit())
	for _, p := range [2]engine.Card{engine.NewCard(c.Rank()+1, o1), engine.NewCard(c.Rank()+1, o2)} {
		if j := int(d.loc[p&63]); b.n[j] > 0 && b.cols[j][b.n[j]-1] == p {
			return j
		}
	}
	return -1
}

// shortenFrom is the fewest moves off the foundations a line needs to be
// shortened (see shorten).
const shortenFrom = 110 - 52

// shortMoves appends the moves genMoves makes unpruned and not pruned:
// part of a column's top run onto a card, and part of it into an empty
// column (the pruned generator moves only the longest such run). The
// moves to a free place the pruning policy leaves out (see
// leftOutOfCell) are not tried: when the policy was only its first two
// kinds, trying them made shorten make twice the moves (deals 1-1000:
// 354,489 against 157,964) and the lines were no shorter (mean 96.95
// moves against 96.88).
func (d *dfs) shortMoves(out []move) []move {
	b := &d.b
	free, empty := b.freeCells(), b.emptyCols()
	limit := capacity(free, empty)
	firstEmpty := -1
	for i := range numCols {
		if b.n[i] == 0 {
			firstEmpty = i
			break
		}
	}
	lim := 0
	if firstEmpty >= 0 {
		lim = capacity(free, empty-1)
	}
	for i := range numCols {
		n := int(b.n[i])
		if n < 2 {
			continue
		}
		runs := int(d.runAt[i][n-1])
		for k := max(runs+1, n-limit); k < n; k++ {
			// Only the two cards of the other colour one rank up take
			// c; loc says where they lie if in a column.
			c := b.cols[i][k]
			if c.Rank() == engine.King {
				continue
			}
			o1, o2 := otherColour(c.Suit())
			for _, p := range [2]engine.Card{engine.NewCard(c.Rank()+1, o1), engine.NewCard(c.Rank()+1, o2)} {
				if j := int(d.loc[p&63]); j != i && b.n[j] > 0 && b.cols[j][b.n[j]-1] == p {
					out = append(out, move{from: firstCol + i, index: k, count: n - k, to: firstCol + j})
				}
			}
		}
		if firstEmpty >= 0 {
			for k := max(runs, n-lim, 1) + 1; k < n; k++ {
				out = append(out, move{from: firstCol + i, index: k, count: n - k, to: firstCol + firstEmpty})
			}
		}
	}
	return out
}

// keyIndex maps position keys to their index on a line (the last index
// put wins); get is -1 for a key not there.
type keyIndex struct {
	keys []uint64
	idx  []int32
}

func (t *keyIndex) reset(n int) {
	size := engine.TableSize(2 * n)
	if len(t.keys) < size {
		t.keys, t.idx = make([]uint64, size), make([]int32, size)
	} else {
		clear(t.keys)
	}
}

func (t *keyIndex) slot(k uint64) int {
	if k == 0 {
		k = 0x9e3779b97f4a7c15
	}
	mask := uint64(len(t.keys) - 1)
	i := (k ^ k>>29) & mask
	for t.keys[i] != 0 && t.keys[i] != k {
		i = (i + 1) & mask
	}
	t.keys[i] = k
	return int(i)
}

func (t *keyIndex) put(k uint64, i int) { t.idx[t.slot(k)] = int32(i) }

func (t *keyIndex) get(k uint64) int {
	if k == 0 {
		k = 0x9e3779b97f4a7c15
	}
	mask := uint64(len(t.keys) - 1)
	for i := (k ^ k>>29) & mask; t.keys[i] != 0; i = (i + 1) & mask {
		if t.keys[i] == k {
			return int(t.idx[i])
		}
	}
	return -1
}
