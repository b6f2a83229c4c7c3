package klondike

import (
	"math/bits"

	"sshuffle/engine"
)

// targetsOf[c] has a bit for each card c can go on in the tableau, and
// takersOf[c] one for each card that can go on c.
var targetsOf, takersOf = func() (t, u [64]uint64) {
	for _, su := range engine.Suits {
		for r := engine.Ace; r < engine.King; r++ {
			c := engine.NewCard(r, su)
			for _, su2 := range engine.Suits {
				if y := engine.NewCard(r+1, su2); onto(c, y) {
					t[c] |= 1 << y
					u[y] |= 1 << c
				}
			}
		}
	}
	return t, u
}()

var allCards = func() (m uint64) {
	for _, su := range engine.Suits {
		for r := engine.Ace; r <= engine.King; r++ {
			m |= 1 << engine.NewCard(r, su)
		}
	}
	return m
}()

var kings = func() (m uint64) {
	for _, su := range engine.Suits {
		m |= 1 << engine.NewCard(engine.King, su)
	}
	return m
}()

// dead proves a position lost without searching: some card can never
// leave its place, and every card has to, to reach its foundation.
//
// A card leaves its place in one of two ways. It goes up, which needs it
// free (no card on it) and every lower card of its suit up first; or it
// leads a run onto a card one rank higher of the other colour, which has
// to be a column top then (a King needs an empty column). A face-down
// card can do neither until the card on it has left. The card on a card
// stays on it until it leaves itself, wherever the two are moved together,
// so "c is ever a column top" is "c is a top now, or the card on it ever
// leaves". A card on its foundation can be a column top once it can come
// down, onto a card that can be a top (a King onto an empty column); a
// talon card leaves by being played, in Draw 3 only once the stock can
// bring it to the waste top, and is a possible top after when it is laid
// on a column, or once it can come down when it goes up.
//
// run finds the cards that can ever leave in one least fixed point: a
// card is in it once what it needs is. Every event of a real game is in
// it (the first one outside it would have had what it needed), so a card
// that never leaves proves the position lost. Following only blockers
// (face-down cards and the lowest face-up one) and taking every face-up
// card for a possible top is not enough: a face-up card with a run on it
// that can go nowhere is what holds most lost Draw 3 positions.
//
// The fixed point takes a column top for one that stays free for every
// card that wants it; twins is where two cards that both need the same one
// are told apart.
//
// The search checks every position it expands that no must binds (see
// dfs.run): a lost position is cut where it is first reached, not after
// its whole subtree (reports/solvers.md).
func (sv *solver) dead(s *sstate) bool { return sv.deadIn(s, new(deadScratch), 0, true) }

// deadScratch is what dead works in. A search keeps one for all its
// checks: clearing it afresh for each (5 KB) cost a check more than it
// saved, so run writes every entry it later reads.
type deadScratch struct {
	pl places
	st stamps
}

// fresh, when not 0, is a set of talon cards such that a line from the
// position is worth searching only if the first talon card it plays is
// one of them (see kid.fresh). The fixed point takes column cards before
// any talon card, so where it first turns to the talon it holds every
// event of tableau moves alone: when no card of fresh can be played
// there, no such line exists, and deadIn says true as for a lost
// position. When one can, the check stops there and says false: such a
// position is a layout searched before with another talon split, and the
// rest of the check seldom proves it lost (one in seven to one in fifteen
// on hard lost deals) for what it costs them all.
//
// Without twins the plain fixed point keeps no steps (stamps): that
// bookkeeping is for twins alone.
func (sv *solver) deadIn(s *sstate, w *deadScratch, fresh uint64, twins bool) bool {
	dead, _ := sv.deadBy(s, w, fresh, twins)
	return dead
}

// deadBy is deadIn, saying too whether twins was what proved it.
func (sv *solver) deadBy(s *sstate, w *deadScratch, fresh uint64, twins bool) (dead, byTwins bool) {
	f := fixpoint{pl: &w.pl, fresh: fresh}
	if twins {
		f.st = &w.st
	}
	if !f.run(sv, s) {
		return true, false
	}
	if f.fresh != 0 || !twins {
		return false, false
	}
	dead = f.twins(s)
	return dead, dead
}

// onFreshCovered, when set (by tests), sees each position deadIn finds
// no line worth searching from for its fresh cards.
var onFreshCovered func(s *sstate, fresh uint64)

// noPin: no card is held in place.
const noPin = engine.Card(63)

// fixpoint is the least fixed point dead computes, or one with a card held
// in place (it never leaves), which gives what can happen before that card
// leaves. In the plain one each card that leaves gets the next step, and
// each card that can be a top the step of the card whose leaving made it
// one (0 for a top now): what a card needs came at earlier steps, so what
// came before a card's step can happen while that card stays.
type fixpoint struct {
	exp, left, need, talonSet uint64 // can be a column top; can leave; must leave
	down                      uint64 // on its foundation (or can go up from the talon)
	upped                     uint64 // could go up when it left
	// What a card's leaving needs, as sets, so that the next card to
	// leave is found with a few operations on them: tops (a column card
	// with no card on it that stays), cards with a target that can be a
	// top (a King: once a column can be empty), cards whose lower cards
	// of the suit can all be up, and face-up column cards.
	tops, lead, upOK, faceUp uint64
	// Talon cards to look at again: whether the stock brings one to the
	// waste top changes only when a talon card is played.
	talonTodo     uint64
	pl            *places
	st            *stamps // nil with a card held in place
	step          uint8
	empty         bool
	upTo          [4]uint8 // see climb
	found         [4]uint8 // the foundations
	mask, tplayed uint32   // bit i: talon card i is in reach; can be played
	tn            int
	fresh         uint64 // see deadIn
}

// places: where each card lies, a column and its index there or a talon
// index; the same for every fixed point of a position.
type places struct {
	colOf, idxOf, talOf [64]uint8
}

// stamps: the steps of the plain fixed point, and what it held before
// each step (a fixed point with that step's card held in place starts
// from there, see before).
type stamps struct {
	leftAt, expAt [64]uint8
	upAt          [4][14]uint8 // the step upTo reached each rank
	snap          [52]fixSnap
	deps
}

type fixSnap struct {
	exp, left, down, tops, lead uint64
	tplayed                     uint32
	upTo                        [4]uint8
	empty                       bool
}

// run computes the fixed point; true when every card can leave.
func (f *fixpoint) run(sv *solver, s *sstate) bool {
	if f.pl == nil {
		f.pl, f.st = new(places), new(stamps)
	}
	f.init(sv, s)
	return f.solve(s, noPin, nil)
}

func (f *fixpoint) init(sv *solver, s *sstate) {
	st := f.st
	if st != nil {
		st.emptyDep, st.talonDep = 0, 0
	}
	for k := range 7 {
		n := int(s.n[k])
		if n == 0 {
			f.empty = true
			continue
		}
		top := s.col[k][n-1]
		f.exp |= 1 << top
		f.tops |= 1 << top
		if st != nil {
			st.expAt[top], st.expDep[top], st.freeDep[top] = 0, 0, 0
		}
		for j, c := range s.col[k][:n] {
			f.need |= 1 << c
			f.pl.colOf[c], f.pl.idxOf[c] = uint8(k), uint8(j)
			if j >= int(s.down[k]) {
				f.faceUp |= 1 << c
			}
		}
	}
	f.tn = int(s.tn)
	for i, c := range s.talon[:f.tn] {
		f.need |= 1 << c
		f.talonSet |= 1 << c
		f.pl.talOf[c] = uint8(i)
	}
	f.down = allCards &^ f.need
	f.mask = 0xffffffff
	if sv.draw == 3 {
		f.mask = sv.reachMask(s)
	}
	for _, su := range engine.Suits {
		f.upTo[su] = f.climb(su, s.found[su])
		f.upOK |= upToMask[su][f.upTo[su]+1]
		if st == nil {
			continue
		}
		for r := range f.upTo[su] + 1 {
			st.upAt[su][r], st.upDep[su][r] = 0, 0
		}
		for r := f.upTo[su] + 1; r < 14; r++ {
			st.upAt[su][r] = 255
		}
	}
	for m := f.exp; m != 0; m &= m - 1 {
		f.lead |= takersOf[bits.TrailingZeros64(m)]
	}
	f.talonTodo = f.talonSet
	f.found = s.found
	for m := f.down; m != 0; m &= m - 1 {
		if c := engine.Card(bits.TrailingZeros64(m)); c.Rank() != engine.King && f.canDown(c) {
			f.expose(c, f.downDep(c))
		}
	}
	if f.empty {
		f.lead |= kings
		f.kingsDown()
	}
}

// solve runs the fixed point from where f is, with pin held in place:
// true when every card can leave, or with a goal, once that is met.
func (f *fixpoint) solve(s *sstate, pin engine.Card, goal *twinGoal) bool {
	if goal != nil && f.met(s, goal) {
		return true
	}
	pinned := uint64(1) << pin
	for {
		open := f.need &^ f.left &^ pinned
		// A column card leaves up once it is a top and its suit is up
		// to it, or onto a target that can be a top, face up or a top.
		ready := open &^ f.talonSet & (f.tops&f.upOK | f.lead&(f.faceUp|f.tops))
		if ready == 0 {
			if f.fresh != 0 {
				if f.fresh&(f.upOK|f.lead) == 0 {
					if onFreshCovered != nil {
						onFreshCovered(s, f.fresh)
					}
					return false
				}
				return true // not looked at further, see deadIn
			}
			c, ok := f.nextTalon(open)
			if !ok {
				break
			}
			upOK := f.upOK>>c&1 != 0
			lead := f.lead>>c&1 != 0
			var d uint64
			if f.st != nil {
				_, d = f.talonLeaveDep(c, upOK, lead)
			}
			f.leave(c, upOK)
			f.tplayed |= 1 << f.pl.talOf[c]
			if lead {
				f.expose(c, d)
			} else {
				// Up: a top only once it can come down.
				f.down |= 1 << c
				f.grow(c.Suit())
			}
			f.talonTodo = f.talonSet // the stock reaches other cards now
			if goal != nil && f.met(s, goal) {
				return true
			}
			continue
		}
		c := engine.Card(bits.TrailingZeros64(ready))
		k, j := int(f.pl.colOf[c]), int(f.pl.idxOf[c])
		var d uint64
		if f.st != nil {
			d = f.columnLeaveDep(c)
		}
		f.leave(c, f.tops&f.upOK>>c&1 != 0)
		if j == 0 {
			if !f.empty {
				f.empty = true
				if f.st != nil {
					f.st.emptyDep = d
				}
				f.lead |= kings
				f.kingsDown()
			}
		} else {
			b := s.col[k][j-1]
			f.tops |= 1 << b
			if f.st != nil {
				f.st.freeDep[b] = d
			}
			f.expose(b, d)
		}
		if goal != nil {
			if f.met(s, goal) {
				return true
			}
		} else if f.left&f.need == f.need {
			return true
		}
	}
	return goal == nil && f.left&f.need == f.need
}

// nextTalon: a talon card that can leave, up or onto a target that can be
// a top, once the stock brings it to the waste top.
func (f *fixpoint) nextTalon(open uint64) (engine.Card, bool) {
	for m := f.talonTodo & open & (f.upOK | f.lead); m != 0; m &= m - 1 {
		c := engine.Card(bits.TrailingZeros64(m))
		f.talonTodo &^= 1 << c
		if f.reached(int(f.pl.talOf[c])) {
			return c, true
		}
	}
	return 0, false
}

// twinGoal is what a fixed point with one twin held in place looks for
// (see twins): either twin going up, or both cards they go on being tops.
type twinGoal struct {
	x, y    engine.Card
	targets uint64
}

func (f *fixpoint) met(s *sstate, g *twinGoal) bool {
	return f.exp&g.targets == g.targets || f.upsWhile(s, g.x) || f.upsWhile(s, g.y)
}

func (f *fixpoint) leave(c engine.Card, up bool) {
	if up {
		f.upped |= 1 << c
	}
	// Only a twin held in place starts from a snapshot (see before), and
	// twins tries no King and no card that went up.
	if f.st != nil && !up && c.Rank() != engine.King {
		f.st.snap[f.step] = fixSnap{exp: f.exp, left: f.left, down: f.down, tops: f.tops, lead: f.lead,
			tplayed: f.tplayed, upTo: f.upTo, empty: f.empty}
	}
	f.left |= 1 << c
	f.step++
	if f.st != nil {
		f.st.leftAt[c] = f.step
	}
}

// upToMask[su][r]: the cards of suit su up to rank r.
var upToMask = func() (m [4][15]uint64) {
	for _, su := range engine.Suits {
		for r := 1; r < 15; r++ {
			m[su][r] = m[su][r-1]
			if r <= 13 {
				m[su][r] |= 1 << engine.NewCard(engine.Rank(r), su)
			}
		}
	}
	return m
}()

// reached: talon card i can ever come to the waste top.
func (f *fixpoint) reached(i int) bool {
	if f.mask>>i&1 != 0 || f.tplayed>>(i+1)&1 != 0 {
		return true // in reach, or the card on it in the waste is played
	}
	if rest := uint32(1)<<f.tn - 1&^(uint32(1)<<(i+1)-1); f.tplayed&rest == rest {
		return true // it becomes the last card
	}
	before := f.tplayed & (uint32(1)<<i - 1)
	switch bits.OnesCount32(before) {
	case 0:
		return false
	case 1:
		// One card before it goes: it moves down one place, and
		// the stock, dealt again or from that card on, reaches
		// it at i-1 = 2 mod 3 or i-1 = at+2 mod 3.
		at := bits.TrailingZeros32(before)
		return (i-1)%3 == 2 || (i-at)%3 == 0
	}
	return true
}

// climb: upTo[su] is the rank up to which every card of the suit can be a
// column top, or is up, so the next can go up once it is free.
func (f *fixpoint) climb(su engine.Suit, r uint8) uint8 {
	if r >= 13 {
		return r
	}
	// The suit's cards are bits su<<4|rank: count the run of set bits
	// from rank r+1 up (bit 14 of the suit is never set, so it stops).
	run := bits.TrailingZeros64(^((f.exp | f.down) >> (uint(su)<<4 | uint(r+1))))
	return r + uint8(min(run, 13-int(r)))
}

func (f *fixpoint) grow(su engine.Suit) {
	r0 := f.upTo[su]
	if r := f.climb(su, r0); r != r0 {
		f.upTo[su] = r
		f.upOK |= upToMask[su][r+1]
		if f.st != nil {
			for q := r0 + 1; q <= r; q++ {
				f.st.upAt[su][q] = f.step
				f.st.upDep[su][q] = f.st.upDep[su][q-1] | f.rankDep(engine.NewCard(engine.Rank(q), su))
			}
		}
	}
}

func (f *fixpoint) expose(b engine.Card, d uint64) {
	if f.exp>>b&1 != 0 {
		return
	}
	f.exp |= 1 << b
	if f.st != nil {
		f.st.expAt[b] = f.step
		f.st.expDep[b] = d
	}
	f.lead |= takersOf[b]
	f.grow(b.Suit())
	// Foundation cards that can come down onto it, and the one under it
	// on its foundation once it came down from there.
	for m := takersOf[b] & f.down &^ f.exp; m != 0; m &= m - 1 {
		if c := engine.Card(bits.TrailingZeros64(m)); f.canDown(c) {
			f.expose(c, f.downDep(c))
		}
	}
	if r := b.Rank(); r > engine.Ace && f.down>>b&1 != 0 {
		if c := engine.NewCard(r-1, b.Suit()); f.down>>c&1 != 0 && f.canDown(c) {
			f.expose(c, f.downDep(c))
		}
	}
}

// canDown: foundation card c can come down, onto a card that can be a
// top (a King onto an empty column), once a card on it on its foundation
// came down first.
func (f *fixpoint) canDown(c engine.Card) bool {
	r := c.Rank()
	if uint8(r) < f.found[c.Suit()] && f.exp>>engine.NewCard(r+1, c.Suit())&1 == 0 {
		return false
	}
	if r == engine.King {
		return f.empty
	}
	return targetsOf[c]&f.exp != 0
}

func (f *fixpoint) kingsDown() {
	for m := kings & f.down &^ f.exp; m != 0; m &= m - 1 {
		if c := engine.Card(bits.TrailingZeros64(m)); f.canDown(c) {
			f.expose(c, f.downDep(c))
		}
	}
}

// upStep: the step from which column card c can go up (255: never).
func (f *fixpoint) upStep(s *sstate, c engine.Card) uint8 {
	if f.talonSet>>c&1 != 0 {
		return 255
	}
	k, j := int(f.pl.colOf[c]), int(f.pl.idxOf[c])
	at := f.st.upAt[c.Suit()][c.Rank()-1]
	if j+1 < int(s.n[k]) {
		at = max(at, f.st.leftAt[s.col[k][j+1]])
	}
	return at
}

// upsWhile: c can go up in the fixed point, at its place or wherever it
// went (the cards on it are the same, and more can only make it harder).
func (f *fixpoint) upsWhile(s *sstate, c engine.Card) bool {
	if f.upOK>>c&1 == 0 {
		return false
	}
	if f.talonSet>>c&1 != 0 {
		return f.left>>c&1 != 0 || f.reached(int(f.pl.talOf[c]))
	}
	return f.tops>>c&1 != 0
}

// twins proves a position lost by two cards of the same rank and colour
// that both need the same column top. Take x and y such twins, both to
// leave their places, and say x leaves first (then the same with the two
// the other way round). While y stays in place, x goes up, or onto one of
// the two cards it can go on, t. After that y has to leave: up; onto the
// other one, t'; or onto t once x has left it, by going up or onto t' (a
// card that is not a King goes nowhere else). Everything up to y's leaving
// happens while y is in place, so the fixed point with y held there has,
// for some win with x first: x going up, or y going up, or both t and t'
// column tops. When it has none of them, and neither has the fixed point
// with x held, there is no win. Only pairs where one of t and t' is a top
// no sooner than both twins leave (in the plain fixed point) are tried:
// for the others, what came before a twin's step needed no twin to move.
func (f *fixpoint) twins(s *sstate) bool {
	for _, su := range []engine.Suit{engine.Clubs, engine.Diamonds} {
		for r := engine.Ace; r < engine.King; r++ {
			x := engine.NewCard(r, su)
			y := twinOf(x)
			if f.need>>x&1 == 0 || f.need>>y&1 == 0 || f.upped&(1<<x|1<<y) != 0 {
				continue
			}
			ts := targetsOf[x]
			t := engine.Card(bits.TrailingZeros64(ts))
			t2 := engine.Card(63 - bits.LeadingZeros64(ts))
			late := max(f.st.expAt[t], f.st.expAt[t2])
			if f.exp>>t&1 != 0 && f.exp>>t2&1 != 0 && late < max(f.st.leftAt[x], f.st.leftAt[y]) {
				continue
			}
			if f.upStep(s, x) < f.st.leftAt[y] || f.upStep(s, y) < f.st.leftAt[x] {
				continue // it could go up before its twin left
			}
			if f.surelyFirst(x, y, t, t2) || f.surelyFirst(y, x, t, t2) {
				if checkSurely {
					f.checkSurelyFirst(s, x, y, t, t2)
				}
				continue
			}
			if !f.firstOK(s, x, y, t, t2) && !f.firstOK(s, y, x, t, t2) {
				return true
			}
		}
	}
	return false
}

// firstOK: with y held in place, x or y goes up, or t and t' are both
// column tops, so a win may have x leave first (see twins).
func (f *fixpoint) firstOK(s *sstate, x, y, t, t2 engine.Card) bool {
	g := f.before(y)
	return g.solve(s, y, &twinGoal{x: x, y: y, targets: 1<<t | 1<<t2})
}

// before is f as it stood just before card y left: what came at earlier
// steps needed nothing y's leaving brought, so it holds with y in place.
func (f *fixpoint) before(y engine.Card) fixpoint {
	at := f.st.leftAt[y]
	sn := &f.st.snap[at-1]
	g := fixpoint{exp: sn.exp, left: sn.left, need: f.need, talonSet: f.talonSet, down: sn.down,
		tops: sn.tops, lead: sn.lead, faceUp: f.faceUp, talonTodo: f.talonSet, pl: f.pl, step: at - 1,
		empty: sn.empty, upTo: sn.upTo, found: f.found, mask: f.mask, tplayed: sn.tplayed, tn: f.tn}
	for _, su := range engine.Suits {
		g.upOK |= upToMask[su][g.upTo[su]+1]
	}
	return g
}
