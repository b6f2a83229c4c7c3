package freecell

import (
	"sshuffle/engine"
)

// The first stages of a search are depth-first on one board changed in
// place: a move is made and unmade, never copied, and the memory is the
// transposition table and the path. At each position every move is made
// once to key its child (dropping those already seen) and to weigh it
// with the cost heuristic, then unmade; the children are tried cheapest
// first. These stages are pruned (see genMoves and beam) so that a deal
// whose greedy line goes wrong is handed on quickly; they prove nothing.
// The search run without pruning on the same board is complete, since
// every one-card move is generated up to the symmetries of the key, but
// the solver's last stage is the best-first search of search.go, which
// finds the hard deals' solutions in fewer positions.

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
}

func (d *dfs) key() uint64 {
	var k uint64
	for _, h := range d.colh {
		k += colMix(h)
	}
	return k ^ d.cellh
}

func (d *dfs) pushCard(i int, c engine.Card) {
	b := &d.b
	d.colh[i] ^= zobrist[b.n[i]][c]
	b.cols[i][b.n[i]] = c
	b.n[i]++
}

func (d *dfs) popCard(i int) engine.Card {
	b := &d.b
	b.n[i]--
	c := b.cols[i][b.n[i]]
	b.cols[i][b.n[i]] = engine.NoCard
	d.colh[i] ^= zobrist[b.n[i]][c]
	return c
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
		d.b.found[c.Suit()]++
		up = true
	default:
		d.putTo(m.to, d.takeFrom(m.from))
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
				b.found[c.Suit()]++
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
				b.found[c.Suit()]++
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
	b := &d.b
	for k := len(d.autos) - 1; k >= autoLo; k-- {
		p, s := int(d.autos[k]&15), int(d.autos[k]>>4)
		c := engine.NewCard(engine.Rank(b.found[s]), engine.Suit(s))
		b.found[s]--
		d.putTo(p, c)
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
		s := m.to - firstFound
		c := engine.NewCard(engine.Rank(b.found[s]), engine.Suit(s))
		b.found[s]--
		d.putTo(m.from, c)
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
	for i := range numCols {
		d.colh[i] = colHash(&d.b, i)
		d.colc[i] = int32(colCost(&d.b, i, w))
	}
	for _, c := range d.b.cells {
		if c != engine.NoCard {
			d.cellh ^= zcell[c]
		}
	}
	d.autos, d.frames, d.kids = d.autos[:0], d.frames[:0], d.kids[:0]
	d.seen.reset(budget)
	d.nodes = 0
}

// recost brings colc up to date after m: every column when a card went
// up (the depth terms follow the foundations), else the two m touched.
func (d *dfs) recost(up bool, m move) {
	if up {
		for i := range numCols {
			d.colc[i] = int32(colCost(&d.b, i, d.w))
		}
		return
	}
	if m.from >= firstCol {
		d.colc[m.from-firstCol] = int32(colCost(&d.b, m.from-firstCol, d.w))
	}
	if m.to >= firstCol {
		d.colc[m.to-firstCol] = int32(colCost(&d.b, m.to-firstCol, d.w))
	}
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
	d.movBuf = genMoves(&d.b, d.movBuf[:0], d.prune)
	for _, m := range d.movBuf {
		autoLo := len(d.autos)
		saved := d.colc
		up := d.do(m)
		sm := smove{uint8(m.from), uint8(m.index), uint8(m.to)}
		if d.seen.add(d.key()) {
			d.nodes++
			if d.b.won() {
				d.undo(m, autoLo)
				d.colc = saved
				d.kids = append(d.kids[:lo], dkid{m: sm})
				f.lo, f.hi, f.next = int32(lo), int32(lo+1), int32(lo)
				return true
			}
			d.recost(up, m)
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
		d.colc = saved
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
			d.colc = f.colc
			d.frames = d.frames[:len(d.frames)-1]
			continue
		}
		k := d.kids[f.next]
		f.next++
		m := d.resolveSmove(k.m)
		nf := dframe{m: m, autoLo: int32(len(d.autos)), colc: d.colc}
		d.recost(d.do(m), m)
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
func genMoves(b *board, out []move, prune bool) []move {
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
	limit := capacity(free, empty)
	// Only a card one rank below a column top can land on it, so a run
	// of column i reaches column j only if j's top is within the run's
	// ranks above it.
	var tops [numCols]engine.Card
	for j := range numCols {
		tops[j] = b.top(j)
	}
	for i := range numCols {
		n := int(b.n[i])
		if n == 0 {
			continue
		}
		start := b.runStart(i)
		if prune {
			// A run's lead that sits on its own parent stays there.
			start = max(start, n-limit)
			if start > b.runStart(i) {
				continue
			}
		}
		low := int(b.cols[i][n-1].Rank())
		high := int(b.cols[i][start].Rank())
		for j, dst := range tops {
			r := int(dst.Rank()) - 1
			if j == i || dst == engine.NoCard || r < low || r > high {
				continue
			}
			k := n - 1 - (r - low)
			if n-k > limit {
				continue
			}
			if fits(b.cols[i][k], dst) {
				if prune && k > start {
					continue
				}
				out = append(out, move{from: firstCol + i, index: k, count: n - k, to: firstCol + j})
			}
		}
	}
	for i, c := range b.cells {
		if c == engine.NoCard {
			continue
		}
		for j := range numCols {
			if b.n[j] > 0 && fits(c, b.top(j)) {
				out = append(out, move{from: i, count: 1, to: firstCol + j})
			}
		}
	}
	if firstEmpty >= 0 {
		for i, c := range b.cells {
			if c != engine.NoCard {
				out = append(out, move{from: i, count: 1, to: firstCol + firstEmpty})
			}
		}
		lim := capacity(free, empty-1)
		for i := range numCols {
			n := int(b.n[i])
			if n == 0 {
				continue
			}
			start := max(b.runStart(i), n-lim)
			if start == 0 {
				start = 1
			}
			if prune {
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
func (d *dfs) shorten(start board, moves []smove) []smove {
	d.start(start, weights{}, 1)
	at := make(map[uint64]int, len(moves)+1)
	at[d.key()] = 0
	for i, sm := range moves {
		d.do(d.resolveSmove(sm))
		at[d.key()] = i + 1
	}
	d.start(start, weights{}, 1)
	out := make([]smove, 0, len(moves))
	for i := 0; i < len(moves); {
		best, bm := i, move{}
		d.movBuf = genMoves(&d.b, d.movBuf[:0], false)
		for _, m := range d.movBuf {
			autoLo := len(d.autos)
			d.do(m)
			if j, ok := at[d.key()]; ok && j > best {
				best, bm = j, m
			}
			d.undo(m, autoLo)
		}
		if best == i {
			return moves // cannot happen: the line's own move is among them
		}
		out = append(out, smove{uint8(bm.from), uint8(bm.index), uint8(bm.to)})
		d.do(bm)
		d.autos = d.autos[:0]
		i = best
	}
	return out
}
