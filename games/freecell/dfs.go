package freecell

import (
	"math/bits"

	"sshuffle/engine"
)

// The search is depth-first on one board changed in place: a move is
// made and unmade, never copied, and the memory is the set of position
// keys (8 bytes each) and the path. At each position every child is
// keyed (dropping those already seen) and weighed with the cost
// heuristic, mostly without making its move (see peek: the key and the
// cost are kept as sums a move changes in a few places); the children are
// tried cheapest first. The first stages are pruned (see genMoves and beam) so that a
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
}

type dfs struct {
	b  board
	w  weights
	wv [len(weights{})]int32 // w, as the sums below add it
	// hp[i][p] is the hash of cards 0..p-1 of column i (see colHash), so
	// hp[i][n[i]] is the column's.
	hp    [numCols][maxCol + 1]uint64
	cellh uint64
	// colm[i] is colMix of column i's hash and colk their sum, for the
	// columns not in keyDirty.
	colm     [numCols]uint64
	colk     uint64
	keyDirty uint8
	// The cost (restCost plus colCost of every column) is kept as it
	// changes: acc is restCost plus the blocked, out-of-sequence and
	// king-run (wBase: cards 0..p in one run from a king, runAt[i][p] ==
	// 0) terms of every column; step[i][p] is what card p of column i
	// added to acc when it was pushed, and minr[i][p] the lowest rank of
	// cards 0..p.
	// The depth terms weigh the cards lying on the next two cards of each
	// suit (tracked cards; no other card in play has a rank that close to
	// its foundation's): dacc is their sum, and trk[i] the weights of the
	// tracked cards in column i, by which dacc grows with each card pushed
	// on it; tw[c] is card c's weight in them: wDepth for the next card
	// of its foundation, wDepth2 for the one after, 0 for any other.
	acc, dacc             int32
	trk                   [numCols]int32
	tw                    [64]int32
	step                  [numCols][maxCol]int32
	minr                  [numCols][maxCol]uint8
	nFree, nEmpty, nFound int
	// Card masks (bit c&63 for card c): next has the next card of each
	// suit's foundation, tops the column tops, inCells the free-cell
	// cards.
	next, tops, inCells uint64
	// loc[c] and pos[c] are the column and depth card c was last pushed
	// at: where it lies if it is in a column at all.
	loc [64]uint8
	pos [64]uint8
	// runAt[i][p] is where the run ends below p in column i when p is the
	// top: the column's runStart once the cards above p are gone.
	runAt [numCols][maxCol]uint8
	// lead[i] is the lowest card of column i's top run (NoCard when the
	// column is empty) and runLen[i] the run's length.
	lead   [numCols]engine.Card
	runLen [numCols]uint8
	seen   keySet
	nodes  int
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
		x := colMix(d.hp[i][d.b.n[i]])
		d.colk += x - d.colm[i]
		d.colm[i] = x
	}
	d.keyDirty = 0
	return d.colk ^ d.cellh
}

func (d *dfs) pushCard(i int, c engine.Card) {
	b := &d.b
	d.dacc += d.trk[i]
	d.trk[i] += d.tw[c&63]
	n := b.n[i]
	d.hp[i][n+1] = d.hp[i][n] ^ zobrist[n][c]
	b.cols[i][n] = c
	b.n[i]++
	d.loc[c&63] = uint8(i)
	d.pos[c&63] = n
	r := uint8(c.Rank())
	var s int32
	d.tops |= 1 << (c & 63)
	if n > 0 {
		under := b.cols[i][n-1]
		d.tops &^= 1 << (under & 63)
		if fits(c, under) {
			d.runAt[i][n] = d.runAt[i][n-1]
			d.runLen[i]++
			if d.runAt[i][n] == 0 && b.cols[i][0].Rank() == engine.King {
				s = -d.wv[wBase] // one run from a king at the bottom
			}
		} else {
			d.runAt[i][n] = n
			d.lead[i], d.runLen[i] = c, 1
			s = d.wv[wSeq]
		}
		if m := d.minr[i][n-1]; r > m {
			s += d.wv[wBlock]
			r = m
		}
	} else {
		d.runAt[i][n] = n
		d.lead[i], d.runLen[i] = c, 1
		d.nEmpty--
		s = d.wv[wEmpty]
		if c.Rank() == engine.King {
			s -= d.wv[wBase]
		}
	}
	d.minr[i][n] = r
	d.step[i][n] = s
	d.acc += s
	d.keyDirty |= 1 << i
}

func (d *dfs) popCard(i int) engine.Card {
	b := &d.b
	b.n[i]--
	n := b.n[i]
	c := b.cols[i][n]
	b.cols[i][n] = engine.NoCard
	d.acc -= d.step[i][n]
	d.trk[i] -= d.tw[c&63]
	d.dacc -= d.trk[i]
	d.tops &^= 1 << (c & 63)
	if n == 0 {
		d.nEmpty++
		d.lead[i], d.runLen[i] = engine.NoCard, 0
	} else {
		d.tops |= 1 << (b.cols[i][n-1] & 63)
		if d.runLen[i]--; d.runLen[i] == 0 {
			r := d.runAt[i][n-1]
			d.lead[i], d.runLen[i] = b.cols[i][r], n-r
		}
	}
	d.keyDirty |= 1 << i
	return c
}

// raise puts the next card of suit s on its foundation (the caller has
// taken it from its pile, so it is in no column). The two cards after it
// become the tracked ones.
func (d *dfs) raise(s int) {
	f := d.b.found[s]
	d.next ^= 3 << (s<<4 | int(f) + 1)
	d.b.found[s]++
	d.nFound++
	d.acc -= d.wv[wLeft]
	c := engine.Card(uint8(s)<<4 | f)
	d.tw[c+1] = 0
	if f < 12 {
		d.tw[c+2] = d.wv[wDepth]
		d.retrack(c+2, d.wv[wDepth]-d.wv[wDepth2])
	}
	if f < 11 {
		d.tw[c+3] = d.wv[wDepth2]
		d.retrack(c+3, d.wv[wDepth2])
	}
}

// lower takes the top card of suit s off its foundation (the caller puts
// it back, and pushCard weighs it then).
func (d *dfs) lower(s int) engine.Card {
	f := d.b.found[s]
	d.next ^= 3 << (s<<4 | int(f))
	d.b.found[s]--
	d.nFound--
	d.acc += d.wv[wLeft]
	c := engine.Card(uint8(s)<<4 | f)
	d.tw[c&63] = d.wv[wDepth]
	if f < 13 {
		d.tw[c+1] = d.wv[wDepth2]
		d.retrack(c+1, d.wv[wDepth2]-d.wv[wDepth])
	}
	if f < 12 {
		d.tw[c+2] = 0
		d.retrack(c+2, -d.wv[wDepth2])
	}
	return c
}

// retrack changes the depth weight of card c by dw, if c is in a column.
func (d *dfs) retrack(c engine.Card, dw int32) {
	i, p := d.loc[c&63]&7, d.pos[c&63]
	if n := d.b.n[i]; p < n && d.b.cols[i][p] == c {
		d.dacc += int32(n-1-p) * dw
		d.trk[i] += dw
	}
}

func (d *dfs) setCell(i int, c engine.Card) {
	if old := d.b.cells[i]; old != engine.NoCard {
		d.inCells &^= 1 << (old & 63)
		d.cellh ^= zcell[old]
		d.nFree++
		d.acc -= d.wv[wCell]
	}
	if c != engine.NoCard {
		d.inCells |= 1 << (c & 63)
		d.cellh ^= zcell[c]
		d.nFree--
		d.acc += d.wv[wCell]
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
		if c := d.b.cols[i][n-1]; d.next>>(c&63)&1 == 0 || !d.b.safeStrong(c) {
			return false
		}
	}
	return d.auto() || up
}

// auto is autoStrong recording its moves. The cards that may go up are
// the next cards of the foundations among the column tops and the cells;
// the order they go in does not change the position reached.
func (d *dfs) auto() bool {
	b := &d.b
	any := false
	for {
		hit := d.next & (d.tops | d.inCells)
		if hit == 0 {
			return any
		}
		moved := false
		for ; hit != 0; hit &= hit - 1 {
			c := engine.Card(bits.TrailingZeros64(hit))
			if !b.safeStrong(c) {
				continue
			}
			p := 0
			if d.inCells>>c&1 != 0 {
				for b.cells[p] != c {
					p++
				}
				d.setCell(p, engine.NoCard)
			} else {
				p = firstCol + int(d.loc[c]&7)
				d.popCard(p - firstCol)
			}
			d.raise(int(c.Suit()))
			d.autos = append(d.autos, uint8(p)|uint8(c.Suit())<<4)
			moved = true
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

// keySet is an open-addressing set of position keys. Its slots are the
// front of one backing array that only ever grows, so that searches one
// after another allocate nothing once it is as large as the largest: reset
// clears the slots the last search used and starts at the size the
// budget needs, up to 16,384 slots (a small table for a small search keeps
// in cache), grow doubles within it.
type keySet struct {
	slots   []uint64
	n       int
	backing []uint64
	tmp     []uint64 // grow's copy of the keys
}

func (t *keySet) reset(budget int) {
	clear(t.slots)
	t.slots = t.take(engine.TableSize(min(budget, 1<<13)))
	t.n = 0
}

// take is the first n slots of the backing array, cleared (those past the
// last search's are clear already), made larger first if need be.
func (t *keySet) take(n int) []uint64 {
	if cap(t.backing) < n {
		t.backing = make([]uint64, n)
	}
	return t.backing[:n]
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
	t.tmp = append(t.tmp[:0], t.slots...)
	clear(t.slots)
	t.slots = t.take(2 * len(t.slots))
	t.n = 0
	for _, k := range t.tmp {
		if k != 0 {
			t.add(k)
		}
	}
}

func (d *dfs) start(b board, w weights, budget int) {
	d.w = w
	for k, x := range w {
		d.wv[k] = int32(x)
	}
	// The board is built card by card, so that everything kept beside
	// it is made the way moves keep it.
	d.b = board{found: b.found}
	d.nFound = b.foundCount()
	d.nFree, d.nEmpty = numCells, numCols
	d.acc = int32((52-d.nFound)*w[wLeft] - numCols*w[wEmpty])
	d.cellh, d.colm, d.colk = 0, [numCols]uint64{}, 0
	for i := range numCols {
		d.hp[i][0] = 0
	}
	d.next, d.tops, d.inCells = 0, 0, 0
	for s, f := range b.found {
		d.next |= 1 << (s<<4 | int(f) + 1)
	}
	d.dacc, d.trk, d.tw = 0, [numCols]int32{}, [64]int32{}
	d.lead, d.runLen = [numCols]engine.Card{}, [numCols]uint8{}
	for s, f := range b.found {
		c := s<<4 | int(f)
		if f < 13 {
			d.tw[c+1] = d.wv[wDepth]
		}
		if f < 12 {
			d.tw[c+2] = d.wv[wDepth2]
		}
	}
	for i, c := range b.cells {
		if c != engine.NoCard {
			d.setCell(i, c)
		}
	}
	for i := range numCols {
		for _, c := range b.col(i) {
			d.pushCard(i, c)
		}
	}
	d.keyDirty = 1<<numCols - 1
	d.autos = d.autos[:0]
	d.auto() // do counts on nothing being left to go up
	d.key()
	d.autos, d.frames, d.kids = d.autos[:0], d.frames[:0], d.kids[:0]
	d.seen.reset(budget)
	d.nodes = 0
}

// cost is restCost plus colCost of every column.
func (d *dfs) cost() int32 { return d.acc + d.dacc }

func (d *dfs) resolveSmove(sm smove) move {
	m := move{from: int(sm.from), index: int(sm.index), count: 1, to: int(sm.to)}
	if m.from >= firstCol {
		m.count = int(d.b.n[m.from-firstCol]) - m.index
	}
	return m
}

// peek works out the key and the cost of the position move m leads to
// without making it, when no automatic move follows it: ok is false when
// one may (a card m uncovers or sends up makes another safe to go up),
// or when m wins, and then the caller makes the move. It does what do, key and cost
// would (see pushCard and popCard) on copies of the sums, and needs colm
// up to date.
func (d *dfs) peek(m move) (key uint64, cost int32, ok bool) {
	b := &d.b
	if m.to < firstFound && m.from >= firstCol {
		// A column's top card into a cell, the commonest move: the
		// steps below, for one card.
		i := (m.from - firstCol) & 7
		n := int(b.n[i])
		if n > 1 {
			if c := b.cols[i][n-2]; d.next>>(c&63)&1 != 0 && b.safeStrong(c) {
				return 0, 0, false
			}
		}
		c := b.cols[i][n-1]
		t := d.trk[i] - d.tw[c&63]
		cost = d.acc - d.step[i][n-1] + d.wv[wCell] + d.dacc - t
		key = (d.colk + colMix(d.hp[i][n-1]) - d.colm[i]) ^ d.cellh ^ zcell[c&63]
		return key, cost, true
	}
	if m.to >= firstFound && m.to < firstCol {
		return d.peekUp(m)
	}
	acc, dacc := d.acc, d.dacc
	colk, cellh := d.colk, d.cellh
	// The cards moved are c, then (from a column) cards k+1..n-1 of
	// column i.
	var c engine.Card
	i, k, n := 0, 0, 0
	if m.from >= firstCol {
		i = (m.from - firstCol) & 7
		n, k = int(b.n[i]), m.index
		if k > 0 {
			if c := b.cols[i][k-1]; d.next>>(c&63)&1 != 0 && b.safeStrong(c) {
				return 0, 0, false
			}
		}
		t := d.trk[i]
		for p := n - 1; p >= k; p-- {
			acc -= d.step[i][p]
			t -= d.tw[b.cols[i][p]&63]
			dacc -= t
		}
		colk += colMix(d.hp[i][k]) - d.colm[i]
		c = b.cols[i][k]
	} else {
		c = b.cells[m.from&3]
		acc -= d.wv[wCell]
		cellh ^= zcell[c&63]
	}
	if m.to < firstCol {
		acc += d.wv[wCell]
		cellh ^= zcell[c&63]
		return colk ^ cellh, acc + dacc, true
	}
	j := (m.to - firstCol) & 7
	p := int(b.n[j])
	h, t := d.hp[j][p], d.trk[j]
	var under engine.Card
	var mr uint8
	// base: cards 0..p-1 of column j lie in one run from a king at its
	// bottom (the wBase term, as pushCard weighs it).
	base := true
	if p > 0 {
		under, mr = b.cols[j][p-1], d.minr[j][p-1]
		base = d.runAt[j][p-1] == 0 && b.cols[j][0].Rank() == engine.King
	}
	for q := k; ; {
		dacc += t
		t += d.tw[c&63]
		h ^= zobrist[p][c&63]
		r := uint8(c.Rank())
		if p == 0 {
			acc += d.wv[wEmpty]
			mr = r
			base = c.Rank() == engine.King
		} else {
			if !fits(c, under) {
				acc += d.wv[wSeq]
				base = false
			}
			if r > mr {
				acc += d.wv[wBlock]
			} else {
				mr = r
			}
		}
		if base {
			acc -= d.wv[wBase]
		}
		under = c
		p++
		if q++; q >= n {
			break
		}
		c = b.cols[i][q]
	}
	colk += colMix(h) - d.colm[j]
	return colk ^ cellh, acc + dacc, true
}

// peekUp is peek for a move to a foundation: ok is false when a card
// may go up after it, or when it wins.
func (d *dfs) peekUp(m move) (key uint64, cost int32, ok bool) {
	b := &d.b
	if d.nFound == 51 {
		return 0, 0, false
	}
	var c engine.Card
	i, n := 0, 0
	tops, cells := d.tops, d.inCells
	if m.from >= firstCol {
		i = (m.from - firstCol) & 7
		n = int(b.n[i])
		c = b.cols[i][n-1]
		tops &^= 1 << (c & 63)
		if n > 1 {
			tops |= 1 << (b.cols[i][n-2] & 63)
		}
	} else {
		c = b.cells[m.from&3]
		cells &^= 1 << (c & 63)
	}
	s := int(c.Suit())
	f := b.found[s]
	found := b.found
	found[s]++
	next := d.next ^ 3<<(s<<4|int(f)+1)
	for hit := next & (tops | cells); hit != 0; hit &= hit - 1 {
		if safeStrongOn(&found, engine.Card(bits.TrailingZeros64(hit))) {
			return 0, 0, false
		}
	}
	// As do would: take c (popCard or setCell), then raise.
	acc, dacc := d.acc-d.wv[wLeft], d.dacc
	colk, cellh := d.colk, d.cellh
	if m.from >= firstCol {
		acc -= d.step[i][n-1]
		dacc -= d.trk[i] - d.tw[c&63]
		colk += colMix(d.hp[i][n-1]) - d.colm[i]
	} else {
		acc -= d.wv[wCell]
		cellh ^= zcell[c&63]
	}
	// raise re-weighs the two cards after c, at their depths once c
	// has gone.
	depth := func(x engine.Card) int32 {
		j, p := d.loc[x&63]&7, d.pos[x&63]
		k := b.n[j]
		if p >= k || b.cols[j][p] != x {
			return 0
		}
		if m.from >= firstCol && int(j) == i {
			k--
		}
		return int32(k - 1 - p)
	}
	if f < 12 {
		dacc += depth(c+1) * (d.wv[wDepth] - d.wv[wDepth2])
	}
	if f < 11 {
		dacc += depth(c+2) * d.wv[wDepth2]
	}
	return colk ^ cellh, acc + dacc, true
}

// safeStrongOn is board.safeStrong with the foundations found.
func safeStrongOn(found *[4]uint8, c engine.Card) bool {
	r := uint8(c.Rank())
	if r <= 2 {
		return true
	}
	o1, o2 := otherColour(c.Suit())
	if found[o1] >= r-1 && found[o2] >= r-1 {
		return true
	}
	return found[o1] >= r-2 && found[o2] >= r-2 && found[sameColourOther(c.Suit())] >= r-3
}

// peekKey is peek's key alone.
func (d *dfs) peekKey(m move) (uint64, bool) {
	b := &d.b
	if m.to >= firstFound && m.to < firstCol {
		k, _, ok := d.peekUp(m)
		return k, ok
	}
	colk, cellh := d.colk, d.cellh
	var c engine.Card
	i, k, n := 0, 0, 0
	if m.from >= firstCol {
		i = (m.from - firstCol) & 7
		n, k = int(b.n[i]), m.index
		if k > 0 {
			if c := b.cols[i][k-1]; d.next>>(c&63)&1 != 0 && b.safeStrong(c) {
				return 0, false
			}
		}
		colk += colMix(d.hp[i][k]) - d.colm[i]
		c = b.cols[i][k]
	} else {
		c = b.cells[m.from&3]
		cellh ^= zcell[c&63]
	}
	if m.to < firstCol {
		return colk ^ cellh ^ zcell[c&63], true
	}
	j := (m.to - firstCol) & 7
	p := int(b.n[j])
	h := d.hp[j][p] ^ zobrist[p][c&63]
	for q := k + 1; q < n; q++ {
		p++
		h ^= zobrist[p][b.cols[i][q]&63]
	}
	return (colk + colMix(h) - d.colm[j]) ^ cellh, true
}

// childKey is the key of the position m leads to; the board is left as
// it is.
func (d *dfs) childKey(m move) uint64 {
	if d.keyDirty != 0 {
		d.key()
	}
	if k, ok := d.peekKey(m); ok {
		return k
	}
	autoLo := len(d.autos)
	d.do(m)
	k := d.key()
	d.undo(m, autoLo)
	d.key()
	return k
}

// addKid puts a child among the kids[lo:] of the position being expanded,
// which insertion keeps sorted by cost, ties in the order made. With a
// beam only the beam cheapest are kept: a child that would sort after
// them all is dropped at once, and one that sorts before the last pushes
// the last out.
func (d *dfs) addKid(lo int, c int32, sm smove) {
	j := len(d.kids)
	if d.beam > 0 && j-lo >= d.beam {
		j--
		if d.kids[j].cost <= c {
			return
		}
	} else {
		d.kids = append(d.kids, dkid{})
	}
	for j > lo && d.kids[j-1].cost > c {
		d.kids[j] = d.kids[j-1]
		j--
	}
	d.kids[j] = dkid{cost: c, m: sm}
}

// expand weighs the children of the position at the top of the path and
// sorts them into its frame. It reports a win: then the winning move is
// the frame's only child.
func (d *dfs) expand() bool {
	f := &d.frames[len(d.frames)-1]
	lo := len(d.kids)
	d.movBuf = d.genMoves(d.movBuf[:0], d.prune)
	d.key() // for peek
	for _, m := range d.movBuf {
		sm := smove{uint8(m.from), uint8(m.index), uint8(m.to)}
		if k, c, ok := d.peek(m); ok {
			// The same steps as below, for a child that is no win
			// (peek leaves those to do).
			if d.seen.add(k) {
				d.nodes++
				d.addKid(lo, c, sm)
			}
			continue
		}
		autoLo := len(d.autos)
		d.do(m)
		if d.seen.add(d.key()) {
			d.nodes++
			if d.nFound == 52 {
				d.undo(m, autoLo)
				d.kids = append(d.kids[:lo], dkid{m: sm})
				f.lo, f.hi, f.next = int32(lo), int32(lo+1), int32(lo)
				return true
			}
			d.addKid(lo, d.cost(), sm)
		}
		d.undo(m, autoLo)
		d.key() // colm as peek needs it again
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
	if d.nFound == 52 {
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
			d.frames = d.frames[:len(d.frames)-1]
			continue
		}
		k := d.kids[f.next]
		f.next++
		m := d.resolveSmove(k.m)
		nf := dframe{m: m, autoLo: int32(len(d.autos))}
		d.do(m)
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
	free, empty := d.nFree, d.nEmpty
	if up := d.next & (d.tops | d.inCells); up != 0 {
		if up&d.inCells != 0 {
			for i, c := range b.cells {
				if c != engine.NoCard && up>>(c&63)&1 != 0 {
					out = append(out, move{from: i, count: 1, to: firstFound + int(c.Suit())})
				}
			}
		}
		if up&d.tops != 0 {
			for j := range numCols {
				if n := int(b.n[j]); n > 0 {
					if c := b.cols[j][n-1]; up>>(c&63)&1 != 0 {
						out = append(out, move{from: firstCol + j, index: n - 1, count: 1, to: firstFound + int(c.Suit())})
					}
				}
			}
		}
	}
	if prune && d.strict && len(out) > n0 {
		return out // pruning policy: see leftOutOfCell
	}
	limit := capacity(free, empty)
	// avail has a bit for every card that may lead a run onto another
	// column: in the top run of its column, with at most limit cards from
	// it up; when pruning, only the run's lowest card (a lead sitting on
	// its own parent stays there) and only if the whole run can move.
	var avail uint64
	if prune {
		for j, c := range d.lead {
			if int(d.runLen[j]) <= limit {
				avail |= 1 << (c & 63)
			}
		}
		avail &^= 1 // the empty columns' NoCard
	} else {
		for j := range numCols {
			n := int(b.n[j])
			for k := max(n-int(d.runLen[j]), n-limit); k < n; k++ {
				avail |= 1 << (b.cols[j][k] & 63)
			}
		}
	}
	// fit has the cards that fit on some column top. pairs has bit 8i+j
	// for a run of column i onto column j, so that the moves come out in
	// that order.
	fit := fitOn(d.tops)
	var pairs uint64
	for m := avail & fit; m != 0; m &= m - 1 {
		c := engine.Card(bits.TrailingZeros64(m))
		i := int(d.loc[c] & 7)
		p1, p2 := parents(c)
		if d.tops>>p1&1 != 0 {
			pairs |= 1 << (8*i + int(d.loc[p1]&7))
		}
		if d.tops>>p2&1 != 0 {
			pairs |= 1 << (8*i + int(d.loc[p2]&7))
		}
	}
	for ; pairs != 0; pairs &= pairs - 1 {
		p := bits.TrailingZeros64(pairs)
		i, j := p>>3, p&7
		n := int(b.n[i])
		k := n - 1 - (int(b.cols[j][b.n[j]-1].Rank()) - 1 - int(b.cols[i][n-1].Rank()))
		out = append(out, move{from: firstCol + i, index: k, count: n - k, to: firstCol + j})
	}
	if cm := d.inCells & fit; cm != 0 {
		for i, c := range b.cells {
			if cm>>(c&63)&1 == 0 {
				continue
			}
			// Onto those of its parents that are tops, lowest column
			// first.
			p1, p2 := parents(c)
			j1, j2 := int(d.loc[p1]&7), int(d.loc[p2]&7)
			ok1, ok2 := d.tops>>p1&1 != 0, d.tops>>p2&1 != 0
			if ok1 && ok2 && j2 < j1 {
				j1, j2 = j2, j1
			}
			if ok1 {
				out = append(out, move{from: i, count: 1, to: firstCol + j1})
			}
			if ok2 {
				out = append(out, move{from: i, count: 1, to: firstCol + j2})
			}
		}
	}
	firstEmpty := -1
	if empty > 0 {
		for j := range numCols {
			if b.n[j] == 0 {
				firstEmpty = j
				break
			}
		}
	}
	firstCell := -1
	if free > 0 {
		for i, c := range b.cells {
			if c == engine.NoCard {
				firstCell = i
				break
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
			start := max(n-int(d.runLen[i]), n-lim)
			if start == 0 {
				start = 1
			}
			if prune {
				// A lone card (start == n) would make the same position.
				if start == n {
					continue
				}
				// (start == 1 with the whole column one run: n ==
				// runLen[i].)
				if start == 1 && n == int(d.runLen[i]) || start == n-1 && firstCell >= 0 && b.cols[i][start].Rank() != engine.King {
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

// fitOn is the mask of the cards that fit on the cards of mask tops: for
// each, the two of the other colour one rank down.
func fitOn(tops uint64) uint64 {
	black := (tops | tops>>48) & 0xffff
	red := (tops>>16 | tops>>32) & 0xffff
	black, red = black>>1, red>>1
	return black<<16 | black<<32 | red | red<<48
}

// parents are the two cards c fits on (past the King: no cards), as
// mask bit numbers.
func parents(c engine.Card) (uint8, uint8) {
	r := uint8(c&15) + 1
	if c.Red() {
		return r, 3<<4 | r
	}
	return 1<<4 | r, 2<<4 | r
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
	// A short line has few detours to cut, and most lines are short:
	// below shortenFrom moves off the foundations (110 in the notation,
	// which writes the 52 foundation moves too) shortening costs most of
	// shorten's time for a fraction of a move.
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
			if j := at.get(d.childKey(m)); j > best {
				best, bm = j, m
			}
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
// while a cell is free. On every 8th deal of 1-32000 the first two make
// up 40% of the first stage's children; leaving them out, and the others,
// makes the whole search far smaller and its lines shorter
// (reports/solvers.md). One stage (dstages) keeps the cell move of a card
// that fits on a column: without it, a position of deal 1647 (move 20 of its line)
// that every pruned stage ran dry on took the complete stage 373,830
// positions (a hint over 0.5 s); with it, 10,577 at most over the
// hint benchmark's positions. The first stage alone (strict) also
// leaves out the move of a column's only card to a cell, and the move
// into one of the last two free cells, with no empty column, of a card
// whose removal uncovers one that can neither go up nor onto a column;
// and when a card can go up it makes only the moves to the foundations,
// which makes the first stage smaller again. In every
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
// leftOutOfCell) are not tried: trying them doubles shorten's moves and
// makes the lines no shorter.
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
