package klondike

import (
	"math/bits"

	"sshuffle/engine"
)

// The solver plays "thoughtful" Klondike: it knows every card. It is a
// search over positions where the stock and waste are one list, the talon,
// in the order cards come off the stock (waste bottom first, then the stock
// from its top). Drawing is never a move of its own: a move plays one
// talon card that the stock can bring to the waste top, and carries the
// Draw taps that bring it there. Tableau moves don't touch the talon, so
// putting all draws just before the card they serve loses nothing.
//
// Pruning:
//   - a card goes to its foundation at once, without branching, when no card
//     can need it any more: rank 1 or 2, or both opposite-colour cards one
//     rank lower and both same-colour cards two ranks lower are already up
//     (the lower ones could otherwise come back down and want c under them).
//     In Draw 1 that includes talon cards, since every talon card is always
//     reachable.
//   - in Draw 1 a talon card that is not safe goes up only in the move that
//     takes the next card of its suit up from a column after it, the cards
//     between being talon cards too (see held).
//   - a run moves between columns only if it turns up a card, empties a
//     column, or frees a card that then goes to a foundation; a King never
//     moves from the bottom of one column to an empty one; of several empty
//     columns only the first is tried.
//   - a card that fits its foundation and lies on a face-up card goes up at
//     once too, safe or not: it could come straight back down onto that
//     card, so the two positions are worth the same, and the search keeps
//     only one of them (see auto). Not in a position bound by must or lay,
//     where cards may be coming down one by one (see digs).
//   - likewise a run on a Spade or a Heart moves onto its twin (the Club or
//     Diamond of the same rank) when that twin is a column top that could
//     not go up: the run could move straight back (see twin). A run so
//     moved onto a card a bound move had to build on is that build; a
//     build onto a bound card that twin would so move is not tried.
//   - a foundation card comes down only when a card that could go on it is
//     face up or in the talon, or is another foundation card that may come
//     down by this rule, or is the card under it on its foundation, which
//     then may come down next (see digs); never when it is safe (it would
//     go straight back up).
//   - a card laid on a column from where it stays available (a Draw 1 talon,
//     a foundation) must be built on by the next move (see sstate.must); a
//     lay-down that no move the search would try could build on at once is
//     not tried at all (see canBuild).
//   - in Draw 3 a talon card laid on a column must be built on or moved by
//     the next move, unless that move plays from the talon or binds the
//     move after it (see sstate.lay and touchesLay).
//   - a run that empties the only empty column must be followed by a King
//     going there, and is not tried when no King could; emptying it any
//     earlier gains nothing, the run's cards being just as free in it.
//   - positions are keyed with columns in any order. In Draw 1 the split
//     between stock and waste is left out of the key: every talon card is
//     reachable from any split, so it changes nothing. In Draw 3 the key
//     holds the set of talon cards the split lets the stock reach instead,
//     and a position whose set lies within the sets of the searched
//     positions with the same layout is left out (see keys and domSet).
//     A position bound by must is left out once the same position free
//     of the rule has been searched, having only moves that one has. The
//     lay rule is not in the key at all (see sstate.lay).
//   - a Draw 3 position whose layout was searched with splits reaching
//     some of its talon cards plays only the others (its fresh ones), and
//     is left out when tableau moves alone can bring none of those into
//     play (see kid.fresh and deadIn).
//   - a position where some card can never leave its place is proved lost
//     without searching it (see dead); every position not bound by must
//     is checked.
//   - a Draw 3 search takes turns with a Draw 1 search of the same deal,
//     whose exhaustion proves the Draw 3 deal lost too (see searchDraw3).

const maxCol = 19 // 6 face-down cards and a King-to-Ace run

type sstate struct {
	col   [7][maxCol]engine.Card
	n     [7]uint8
	down  [7]uint8
	talon [24]engine.Card
	tn    uint8 // talon length
	tp    uint8 // talon[:tp] is the waste, talon[tp:] the stock
	found [4]uint8
	fpile [4]int8 // the foundation pile index holding each suit, 0 if none yet
	// must is 1 + the column the next move has to build on, or 0. A card
	// laid on a column from a place where it would stay just as available
	// (a Draw 1 talon, a foundation) is only worth laying there for a card
	// that goes on it next; laying it any earlier can always be put off
	// until then, since nothing else could use that column top meanwhile.
	must uint8
	// lay is 1 + the column a Draw 3 talon card was just laid on, or 0.
	// Laying it changes the talon, so unlike must it allows any talon move
	// next; otherwise the next move must build on that card or move it.
	// Any move that does neither leaves the card and the talon alone, so
	// the card could have been laid after it just as well.
	//
	// The key leaves lay out: the first time a position is reached decides
	// whether it is searched bound or free, and any later arrival finds it
	// searched. That is sound because a move m the rule leaves out is
	// searched from the position Q before the lay-down: m is a move there
	// too (it leaves the talon and the card's column alone; if Q was
	// bound by an earlier lay-down, m either touches that one's column,
	// and so is allowed in Q, or commutes with it as well, back to the
	// first position free of the rule), and the lay-down, from the same
	// split onto the same column top, follows it to the very position m
	// leads to here. Q is on the search's path, so it is searched through
	// only once that line is. Keyed apart, most layouts a lost deal
	// reaches after a lay-down were searched twice, bound and free: about
	// a fifth of its positions (reports/solvers.md).
	lay uint8
	// hc caches the hash of each column and (hc[7]) of the talon for the
	// key; dirty marks the ones out of date (bit 7: the talon).
	hc    [8]uint64
	dirty uint8
	// cameDown: a card came down from its foundation since twin last looked,
	// so a twin that could go up before may not now.
	cameDown bool
	// tset is the set of talon cards (bit c for card c).
	tset uint64
	// faceUp is the set of face-up column cards: twin and wanted look for
	// cards there only when one they want is among them.
	faceUp uint64
}

type solver struct {
	draw int
	// pause, when set, is called every pauseEvery positions (see
	// SolvePaced); it does nothing to the search.
	pause func()
}

func fromGame(g *Game) sstate {
	var s sstate
	for i := range 7 {
		p := g.st.piles[PileTableau0+i]
		copy(s.col[i][:], p)
		s.n[i] = uint8(len(p))
		s.down[i] = uint8(g.st.down[PileTableau0+i])
		for _, c := range p[s.down[i]:] {
			s.faceUp |= 1 << c
		}
	}
	w, st := g.st.piles[PileWaste], g.st.piles[PileStock]
	k := copy(s.talon[:], w)
	for i := len(st) - 1; i >= 0; i-- {
		s.talon[k] = st[i]
		k++
	}
	s.tn, s.tp = uint8(k), uint8(len(w))
	for _, c := range s.talon[:k] {
		s.tset |= 1 << c
	}
	s.dirty = 0xff
	for f := range 4 {
		p := g.st.piles[PileFoundation0+f]
		if len(p) > 0 {
			su := p[0].Suit()
			s.found[su] = uint8(len(p))
			s.fpile[su] = int8(PileFoundation0 + f)
		}
	}
	return s
}

func (s *sstate) won() bool {
	return s.found[0]+s.found[1]+s.found[2]+s.found[3] == 52
}

func (s *sstate) fits(c engine.Card) bool { return s.found[c.Suit()]+1 == uint8(c.Rank()) }

// up: c, a column card, can go up by one move once it is free. In Draw 1
// that is also when every card of its suit between its foundation and c is
// in the talon: those go up first, in the same move (see held).
func (sv *solver) up(s *sstate, c engine.Card) bool {
	return upIn(&s.found, sv.held(s), c)
}

// held is the set of talon cards that go up only in a move that takes a
// column card of their suit up after them: in Draw 1 every talon card, in
// Draw 3 none.
//
// A Draw 1 talon card c that fits its foundation and is not safe (auto
// plays the safe ones) gains nothing by going up but letting the next card
// of its suit follow it: from the talon it can be laid on any column top
// just as it could come down onto one from its foundation, and while up it
// covers the card under it. So a line that plays c up and, some moves
// later, the next card of its suit, can play c up just before that card
// instead: the moves between neither take c down (one that does could lay
// it from the talon instead, to the same position), nor take the next card
// up, nor the card under c, which c covers. When the next card is in the
// talon too, the same holds of it, so a run of held cards goes up together
// in the move that takes the column card after them up: from a column top
// (expand's moves to a foundation), or at once after a run moved off it to
// free it (apply). The rules that ask whether a run frees a card for a
// foundation (expand, canBuild, wanted) count that card as one that can go
// up. Twin and auto still ask whether a card fits: twin may keep a run on a
// card that goes up only over held cards, since the move that frees it
// takes it up too, and so twin never moves that run straight back.
//
// A talon card that fits is laid on a column from the talon, not brought
// up to come down (see expand).
func (sv *solver) held(s *sstate) uint64 {
	if sv.draw == 1 {
		return s.tset
	}
	return 0
}

// upIn is up with the foundations at found and the held talon cards hold.
func upIn(found *[4]uint8, hold uint64, c engine.Card) bool {
	f, r := uint(found[c.Suit()]), uint(c.Rank())
	if r <= f {
		return false
	}
	between := (uint64(1)<<r - uint64(1)<<(f+1)) << (16 * uint(c.Suit()))
	return hold&between == between
}

// safe: no card could ever need c on the tableau.
func (s *sstate) safe(c engine.Card) bool { return safeIn(&s.found, c) }

// safeIn is safe with the foundations at found.
func safeIn(found *[4]uint8, c engine.Card) bool {
	r := uint8(c.Rank())
	if found[c.Suit()]+1 != r {
		return false
	}
	if r <= 2 {
		return true
	}
	// Only the opposite colour one rank lower could go on c. Those cards
	// could still come back down from their foundations, but only to take
	// a card of c's colour two ranks lower, so those must be up too.
	d, h := found[engine.Diamonds], found[engine.Hearts]
	cl, sp := found[engine.Clubs], found[engine.Spades]
	if c.Red() {
		return cl >= r-1 && sp >= r-1 && d >= r-2 && h >= r-2
	}
	return d >= r-1 && h >= r-1 && cl >= r-2 && sp >= r-2
}

// fpileFor gives the foundation pile index for c's suit, claiming the
// leftmost free one for an Ace as the game does.
func (s *sstate) fpileFor(c engine.Card) int {
	su := c.Suit()
	if s.fpile[su] != 0 {
		return int(s.fpile[su])
	}
	for p := PileFoundation0; p < PileTableau0; p++ {
		used := false
		for _, q := range s.fpile {
			used = used || int(q) == p
		}
		if !used {
			s.fpile[su] = int8(p)
			return p
		}
	}
	return -1
}

func onto(lead, top engine.Card) bool {
	return lead.Rank()+1 == top.Rank() && lead.Red() != top.Red()
}

// reach calls f for each talon index the stock can bring to the waste top,
// with the Draw taps needed, fewest taps first.
func (sv *solver) reach(s *sstate, f func(i, taps int)) {
	tn, tp := int(s.tn), int(s.tp)
	if tn == 0 {
		return
	}
	if sv.draw == 1 {
		for i := tp; i < tn; i++ {
			f(i, i-tp+1)
		}
		base := tn - tp + 1
		for i := 0; i < tp; i++ {
			f(i, base+i+1)
		}
		return
	}
	var done [24]bool
	if tp > 0 {
		done[tp-1] = true
		f(tp-1, 0)
	}
	k := 0
	for j := tp; j < tn; {
		j = min(j+3, tn)
		k++
		if !done[j-1] {
			done[j-1] = true
			f(j-1, k)
		}
	}
	base := k + 1
	k = 0
	for j := 0; j < tn; {
		j = min(j+3, tn)
		k++
		if !done[j-1] {
			done[j-1] = true
			f(j-1, base+k)
		}
	}
}

// reachMask is the set of talon indices reach gives, in Draw 3.
func (sv *solver) reachMask(s *sstate) uint32 { return reachMasks[s.tn][s.tp] }

// reachMasks[tn][tp] is reachMask for a talon of tn cards, tp of them in
// the waste: the keys ask it for every successor.
var reachMasks = func() (t [25][25]uint32) {
	for tn := range 25 {
		for tp := range tn + 1 {
			t[tn][tp] = reachMaskOf(tn, tp)
		}
	}
	return t
}()

func reachMaskOf(tn, tp int) uint32 {
	if tn == 0 {
		return 0
	}
	var m uint32
	if tp > 0 {
		m |= 1 << (tp - 1)
	}
	for j := tp + 2; j < tn; j += 3 {
		m |= 1 << j
	}
	for j := 2; j < tn; j += 3 {
		m |= 1 << j
	}
	return m | 1<<(tn-1)
}

// reachList is reach without the taps, as a list.
func (sv *solver) reachList(s *sstate) (out [24]uint8, n int) {
	sv.reach(s, func(i, _ int) {
		out[n] = uint8(i)
		n++
	})
	return out, n
}

type path []engine.Action

func (p *path) taps(n int) {
	if p == nil {
		return
	}
	for range n {
		*p = append(*p, engine.Action{Kind: engine.Draw})
	}
}

func (p *path) move(from, idx, to int) {
	if p == nil {
		return
	}
	*p = append(*p, engine.Action{Kind: engine.Move, From: from, Index: idx, To: to})
}

// playTalon plays talon card i to pile `to` (a foundation or a column).
func (sv *solver) playTalon(s *sstate, p *path, i, taps, to int) {
	c := s.talon[i]
	p.taps(taps)
	p.move(PileWaste, i, to)
	copy(s.talon[i:], s.talon[i+1:s.tn])
	s.tn--
	s.talon[s.tn] = 0
	s.tp = uint8(i)
	s.tset &^= 1 << c
	s.dirty |= 0x80
	if to < PileTableau0 {
		s.found[c.Suit()]++
	} else {
		k := to - PileTableau0
		s.col[k][s.n[k]] = c
		s.n[k]++
		s.faceUp |= 1 << c
		s.dirty |= 1 << k
	}
}

func (s *sstate) uncover(k int) {
	if s.down[k] > 0 && s.down[k] == s.n[k] {
		s.down[k]--
		s.faceUp |= 1 << s.col[k][s.down[k]]
	}
}

// colMove moves the run from idx of column k onto column to (a column).
func (s *sstate) colMove(p *path, k, idx, to int) {
	p.move(PileTableau0+k, idx, PileTableau0+to)
	n := int(s.n[k])
	s.dirty |= 1<<k | 1<<to
	copy(s.col[to][s.n[to]:], s.col[k][idx:n])
	s.n[to] += uint8(n - idx)
	for j := idx; j < n; j++ {
		s.col[k][j] = 0
	}
	s.n[k] = uint8(idx)
	s.uncover(k)
}

func (s *sstate) colUp(p *path, k int) {
	n := int(s.n[k])
	c := s.col[k][n-1]
	p.move(PileTableau0+k, n-1, s.fpileFor(c))
	s.found[c.Suit()]++
	s.col[k][n-1] = 0
	s.n[k]--
	s.faceUp &^= 1 << c
	s.dirty |= 1 << k
	s.uncover(k)
}

// heldUp plays up the held talon cards between c's foundation and c (see
// held), before c goes up.
func (sv *solver) heldUp(s *sstate, p *path, c engine.Card) {
	for s.found[c.Suit()]+1 < uint8(c.Rank()) {
		x := engine.NewCard(engine.Rank(s.found[c.Suit()]+1), c.Suit())
		for i := range int(s.tn) {
			if s.talon[i] != x {
				continue
			}
			sv.playTalon(s, p, i, sv.tapsFor(s, p, i), s.fpileFor(x))
			break
		}
		if s.found[c.Suit()] != uint8(x.Rank()) {
			panic("klondike: a held card is not in the talon")
		}
	}
}

// tapsFor gives the Draw taps that bring talon card i to the waste top,
// worked out only when the actions are recorded (p not nil).
func (sv *solver) tapsFor(s *sstate, p *path, i int) int {
	taps := -1
	if p != nil {
		sv.reach(s, func(j, t int) {
			if j == i && taps < 0 {
				taps = t
			}
		})
	}
	return taps
}

// auto plays every safe foundation move. Only the next card of each suit
// can be one, so it looks for those four cards among the column tops (and
// in Draw 1 the talon) rather than at every pile.
func (sv *solver) auto(s *sstate, p *path) {
	for {
		var tops, next uint64
		for k := range 7 {
			if n := s.n[k]; n > 0 {
				tops |= 1 << s.col[k][n-1]
			}
		}
		for _, su := range engine.Suits {
			if r := s.found[su] + 1; r <= 13 {
				next |= 1 << engine.NewCard(engine.Rank(r), su)
			}
		}
		in := tops
		if sv.draw == 1 {
			in |= s.tset
		}
		played := next&in != 0 && sv.autoUp(s, p, tops)
		if !played {
			played = sv.twin(s, p, tops, next)
		}
		if !played {
			return
		}
	}
}

// autoUp is one pass of auto's foundation moves, suit by suit, with the
// column tops tops; it reports whether it played any.
func (sv *solver) autoUp(s *sstate, p *path, tops uint64) bool {
	played := false
	for _, su := range engine.Suits {
		r := s.found[su] + 1
		if r > 13 {
			continue
		}
		c := engine.NewCard(engine.Rank(r), su)
		if tops>>c&1 == 0 && (played || sv.draw != 1 || s.tset>>c&1 == 0) {
			continue // neither a column top nor a talon card it could play
		}
		safe := s.safe(c)
		for k := range 7 {
			n := int(s.n[k])
			if tops>>c&1 == 0 || n == 0 || s.col[k][n-1] != c {
				continue
			}
			// A card on a face-up card goes up even when unsafe: it
			// could come straight back down onto that card, so the
			// two positions are worth the same. Not in a position
			// bound by must or lay: cards come down one by one there
			// to dig out one under them (see digs), and must stay
			// until that one is used.
			if safe || (n-2 >= int(s.down[k]) && s.must == 0 && s.lay == 0) {
				s.colUp(p, k)
				played = true
				tops &^= 1 << c
				if n > 1 {
					tops |= 1 << s.col[k][n-2]
				}
			}
			break
		}
		if !safe {
			continue
		}
		if !played && sv.draw == 1 {
			for i := range int(s.tn) {
				if s.talon[i] == c {
					sv.playTalon(s, p, i, sv.tapsFor(s, p, i), s.fpileFor(c))
					played = true
					break
				}
			}
		}
	}
	return played
}

// twin moves a run from a Spade or Heart onto its twin (the Club or
// Diamond of the same rank) when the twin is a column top: the run could
// move straight back, so the two positions are worth the same, and keeping
// runs on one twin makes them one position. tops is the set of column
// tops, next the set of cards that fit their foundations.
func (sv *solver) twin(s *sstate, p *path, tops, next uint64) bool {
	// A position out of auto has no twin to move, so only a column
	// changed since (dirty) can make one: as the twin's column or the
	// top's.
	changed := s.dirty & 0x7f
	if s.cameDown {
		// Every column, until none has a twin to move.
		changed = 0x7f
	}
	if changed == 0 {
		return false
	}
	return sv.twinScan(s, p, changed, tops, next)
}

// topColumn is the column whose top is c, which must be a column top.
func (s *sstate) topColumn(c engine.Card) int {
	b := 0
	for s.n[b] == 0 || s.col[b][s.n[b]-1] != c {
		b++
	}
	return b
}

// twinOf is the card of the same rank and colour: Clubs and Spades, and
// Diamonds and Hearts, are twins (suits 0 and 3, 1 and 2).
func twinOf(c engine.Card) engine.Card { return engine.NewCard(c.Rank(), 3-c.Suit()) }

// kept: runs are kept on c rather than on its twin (see twin).
func kept(c engine.Card) bool { return c.Suit() == engine.Clubs || c.Suit() == engine.Diamonds }

// twinsOf maps a set of Clubs and Diamonds to the set of their twins
// (a card is bit suit<<4|rank, see engine.NewCard).
func twinsOf(kt uint64) uint64 { return (kt&0xffff)<<48 | (kt&0xffff0000)<<16 }

// twinScan is twin for a top or a twin in the columns changed marks.
func (sv *solver) twinScan(s *sstate, p *path, changed uint8, tops, next uint64) bool {
	// The Club and Diamond tops, but for one that could go up: a twin
	// that could go up stays free for that, the run may just have left it
	// for the purpose.
	kt := tops & 0xffffffff &^ next
	if kt == 0 {
		return false
	}
	var ct uint64 // the tops of the changed columns
	for m := changed; m != 0; m &= m - 1 {
		if b := bits.TrailingZeros8(m); s.n[b] > 0 {
			ct |= 1 << s.col[b][s.n[b]-1]
		}
	}
	want, anyCol := twinsOf(kt), twinsOf(kt&ct) // the twins of those tops
	if want&s.faceUp&^tops == 0 {
		// None lies face up under a card: no run to move.
		s.cameDown = false
		return false
	}
	for a := range 7 {
		w := anyCol
		if changed>>a&1 != 0 {
			w = want
		}
		if w == 0 {
			continue
		}
		for j := int(s.down[a]); j < int(s.n[a])-1; j++ {
			x := s.col[a][j]
			if w>>x&1 == 0 {
				continue
			}
			b := s.topColumn(twinOf(x))
			s.colMove(p, a, j+1, b)
			// A bound card moves with the run; a bound card the run
			// now covers has been built on, as the rule wanted.
			s.must = followRun(s.must, a, b)
			s.lay = followRun(s.lay, a, b)
			return true
		}
	}
	s.cameDown = false
	return false
}

// wordHash folds cards into h eight at a time: the key is computed for
// every successor, so it has to be cheap.
func wordHash(h uint64, cs []engine.Card) uint64 {
	for len(cs) >= 8 {
		w := uint64(cs[0]) | uint64(cs[1])<<8 | uint64(cs[2])<<16 | uint64(cs[3])<<24 |
			uint64(cs[4])<<32 | uint64(cs[5])<<40 | uint64(cs[6])<<48 | uint64(cs[7])<<56
		h = (h ^ w) * 0x9e3779b97f4a7c15
		h ^= h >> 32
		cs = cs[8:]
	}
	w := uint64(len(cs)) << 56
	for i, c := range cs {
		w |= uint64(c) << (8 * i)
	}
	h = (h ^ w) * 0xff51afd7ed558ccd
	return h ^ h>>29
}

// key identifies a position for the transposition table. The column
// hashes are summed, so the order of the columns, which changes nothing,
// leaves the key alone; only columns a move changed are hashed again.
func (sv *solver) key(s *sstate) uint64 {
	k, _, _ := sv.keys(s)
	return k
}

// keys gives the key, and in Draw 3 also the key without the talon split
// (base) and the set of talon cards the stock reaches (mask): which cards
// it reaches is all the split decides, since a move's result does not
// depend on it. So splits that reach the same cards are one position, and
// a position reaching a subset of the cards others with the same base
// reach between them is dominated by them (see domSet).
func (sv *solver) keys(s *sstate) (key, base uint64, mask uint32) {
	return sv.keysMust(s, s.must)
}

// keysFree is keys of s free of the must rule (must 0).
func (sv *solver) keysFree(s *sstate) (key, base uint64, mask uint32) {
	return sv.keysMust(s, 0)
}

// keysMust is keys of s with must set to must.
func (sv *solver) keysMust(s *sstate, must uint8) (key, base uint64, mask uint32) {
	if s.dirty != 0 {
		for k := range 7 {
			if s.dirty&(1<<k) != 0 {
				s.hc[k] = wordHash(uint64(s.down[k])+1, s.col[k][:s.n[k]])
			}
		}
		if s.dirty&0x80 != 0 {
			s.hc[7] = wordHash(0x5bd1e9955bd1e995, s.talon[:s.tn])
		}
		s.dirty = 0
	}
	h := s.hc[0] + s.hc[1] + s.hc[2] + s.hc[3] + s.hc[4] + s.hc[5] + s.hc[6]
	h = (h ^ h>>29) * 0xbf58476d1ce4e5b9
	h ^= s.hc[7]
	// wordHash(h, [found[0..3], must]), worked out in place.
	w := uint64(5)<<56 | uint64(s.found[0]) | uint64(s.found[1])<<8 | uint64(s.found[2])<<16 |
		uint64(s.found[3])<<24 | uint64(must)<<32
	base = (h ^ w) * 0xff51afd7ed558ccd
	base ^= base >> 29
	if sv.draw != 3 {
		return base, base, 0
	}
	mask = sv.reachMask(s)
	key = (base ^ uint64(mask)) * 0x94d049bb133111eb
	return key ^ key>>31, base, mask
}

// smove is one search move, kept small because the search stores one per
// position; the Draw taps and safe moves that go with it are worked out
// again when the winning line is turned into actions.
type smove struct {
	kind uint8 // mColUp, mColCol, mTalon, mDown
	a    uint8 // column, talon index or suit
	b    uint8 // run index
	to   uint8 // column, or toFound for a talon card going up
}

const (
	mColUp = iota
	mColCol
	mTalon
	mDown
)

const toFound = 7

// apply plays m and the safe moves after it, recording the actions in p
// when p is not nil.
func (sv *solver) apply(s *sstate, m smove, p *path) {
	s.must, s.lay = 0, 0
	switch m.kind {
	case mColUp:
		sv.heldUp(s, p, s.col[m.a][s.n[m.a]-1])
		s.colUp(p, int(m.a))
	case mColCol:
		free := m.b > s.down[m.a]
		s.colMove(p, int(m.a), int(m.b), int(m.to))
		if free && !s.fits(s.col[m.a][m.b-1]) {
			// Freed for a foundation over held cards (see held): it
			// goes up with them at once, as the reason the run moved.
			// Left a column top, twin would move the run straight back.
			c := s.col[m.a][m.b-1]
			sv.heldUp(s, p, c)
			s.colUp(p, int(m.a))
		}
		if m.b == 0 && s.onlyEmpty(int(m.a)) {
			// Emptied for a King, and the only empty column: the King
			// comes next. Emptying the column any earlier gains
			// nothing, as the run's cards stay just as available in it.
			s.must = m.a + 1
		}
	case mTalon:
		i, taps := int(m.a), -1
		if p != nil {
			sv.reach(s, func(j, t int) {
				if j == i && taps < 0 {
					taps = t
				}
			})
		}
		to := PileTableau0 + int(m.to)
		if m.to == toFound {
			to = s.fpileFor(s.talon[i])
		}
		sv.playTalon(s, p, i, taps, to)
		if m.to != toFound {
			if sv.draw == 1 {
				s.must = m.to + 1
			} else {
				s.lay = m.to + 1
			}
		}
	case mDown:
		su, to := m.a, int(m.to)
		r := s.found[su]
		p.move(int(s.fpile[su]), int(r)-1, PileTableau0+to)
		s.found[su]--
		s.col[to][s.n[to]] = engine.NewCard(engine.Rank(r), engine.Suit(su))
		s.n[to]++
		s.faceUp |= 1 << s.col[to][s.n[to]-1]
		s.dirty |= 1 << to
		s.must = uint8(to) + 1
		s.cameDown = true
	}
	sv.auto(s, p)
}

// expand yields the successors of s, most promising first, since the
// depth-first search tries them in that order.
func (sv *solver) expand(s sstate, yield func(smove, sstate)) {
	var n sstate
	sv.successors(s, &n, ^uint32(0), func(m smove) { yield(m, n) })
}

// successors is expand playing each successor into n, which holds it
// only until yield returns: copying it is left to the caller, and n is the
// caller's so that it stays off the heap. Of the talon cards only those
// at the indices in talon are played.
func (sv *solver) successors(s sstate, n *sstate, talon uint32, yield func(smove)) {
	emit := func(m smove) {
		if s.must != 0 && (m.to != s.must-1 || m.kind == mColUp) && !s.digs(m) {
			return
		}
		if s.lay != 0 && !s.touchesLay(m) {
			return
		}
		if s.lay == 0 && (s.must == 0 || m.to == s.must-1) && s.twinTop(m) {
			// Twin would move it onto the twin: the move onto that. In
			// a position bound by must, that leaves the bound card with
			// nothing on it, so laying it served nothing: the same
			// build onto the twin is a move before it (its card's place
			// being as free there), and that card could be laid later
			// (see sstate.must).
			return
		}
		*n = s
		sv.apply(n, m, nil)
		if n.must != 0 && !sv.canBuild(n, talon) {
			return // the card laid down would wait for nothing
		}
		yield(m)
	}
	// The column tops, and the column of each: a card goes onto the
	// columns whose tops are among its targets.
	firstEmpty := -1
	var tops uint64
	var topCol [64]uint8
	for k := range 7 {
		if n := s.n[k]; n > 0 {
			t := s.col[k][n-1]
			tops |= 1 << t
			topCol[t&63] = uint8(k)
		} else if firstEmpty < 0 {
			firstEmpty = k
		}
	}
	// builds is the set of columns c could go on (bit k for column k),
	// leaving out empty ones; dests adds the first empty one for a King.
	builds := func(c engine.Card) (m uint8) {
		for t := targetsOf[c&63] & tops; t != 0; t &= t - 1 {
			m |= 1 << topCol[bits.TrailingZeros64(t)]
		}
		return m
	}
	dests := func(c engine.Card) uint8 {
		if c.Rank() == engine.King {
			if firstEmpty < 0 {
				return 0
			}
			return 1 << firstEmpty
		}
		return builds(c)
	}
	// Column to foundation.
	for k := range 7 {
		if s.n[k] > 0 && sv.up(&s, s.col[k][s.n[k]-1]) {
			emit(smove{kind: mColUp, a: uint8(k)})
		}
	}
	// Runs that turn up a card, deepest columns first.
	for d := 6; d >= 1; d-- {
		for k := range 7 {
			if int(s.down[k]) != d || s.n[k] == 0 {
				continue
			}
			for m := dests(s.col[k][d]) &^ (1 << k); m != 0; m &= m - 1 {
				emit(smove{kind: mColCol, a: uint8(k), b: uint8(d), to: uint8(bits.TrailingZeros8(m))})
			}
		}
	}
	// Talon cards to a foundation, then to a column. A held card goes up
	// only with a column card (see held), unless it is safe: auto plays
	// those in Draw 1, but the Draw 1 search of a Draw 3 deal starts where
	// Draw 3's auto left the talon.
	ri, rn := sv.reachList(&s)
	if talon != ^uint32(0) {
		w := 0
		for _, i := range ri[:rn] {
			if talon>>i&1 != 0 {
				ri[w] = i
				w++
			}
		}
		rn = w
	}
	hold := sv.held(&s)
	for _, i := range ri[:rn] {
		if c := s.talon[i]; s.fits(c) && (hold>>c&1 == 0 || s.safe(c)) {
			emit(smove{kind: mTalon, a: i, to: toFound})
		}
	}
	for _, i := range ri[:rn] {
		c := s.talon[i]
		if s.fits(c) && hold>>c&1 == 0 {
			// It would go straight up: the move above, and then down
			// onto the column if wanted. A held card cannot.
			continue
		}
		for m := dests(c); m != 0; m &= m - 1 {
			emit(smove{kind: mTalon, a: i, to: uint8(bits.TrailingZeros8(m))})
		}
	}
	// Runs that empty a column, or free a card for a foundation.
	for k := range 7 {
		d := int(s.down[k])
		for idx := d; idx < int(s.n[k]); idx++ {
			lead := s.col[k][idx]
			to := builds(lead) &^ (1 << k)
			if to == 0 {
				continue
			}
			switch {
			case idx == 0 && d == 0:
				if lead.Rank() == engine.King {
					continue
				}
			case idx > d:
				if !sv.up(&s, s.col[k][idx-1]) {
					continue
				}
			default:
				continue // turning up a card: done above
			}
			for m := to; m != 0; m &= m - 1 {
				emit(smove{kind: mColCol, a: uint8(k), b: uint8(idx), to: uint8(bits.TrailingZeros8(m))})
			}
		}
	}
	// A foundation card comes down for a card that could go on it.
	for su := range engine.Suits {
		r := s.found[su]
		if r < 2 {
			continue
		}
		f := engine.NewCard(engine.Rank(r), engine.Suit(su))
		if s.safeDown(f) || !s.wanted(f, hold) {
			continue
		}
		for m := dests(f); m != 0; m &= m - 1 {
			emit(smove{kind: mDown, a: uint8(su), to: uint8(bits.TrailingZeros8(m))})
		}
	}
}

// touchesLay: m may follow the lay-down of a talon card on column
// s.lay-1. It may if it plays from the talon, builds on that card, or
// moves it (alone or under a run); any other move commutes with the
// lay-down, which can wait until after it. Except one that sets must
// (a card down from a foundation, a column emptied): the move after that
// is bound, so the lay-down could not wait.
func (s *sstate) touchesLay(m smove) bool {
	k := s.lay - 1
	switch m.kind {
	case mTalon, mDown:
		return true
	case mColUp:
		return m.a == k
	}
	return m.a == k || m.to == k || m.b == 0 // mColCol
}

// digs: m brings a card down from a foundation on the way to one that
// builds on the card the bound move has to build on (see auto: cards go up
// whenever they could come straight back, so a card a move needs may lie
// under others of its suit). It digs when it brings down the card under the
// bound card, which came down from its foundation itself, or the top of a
// foundation that holds, further down, a card that could go on the bound
// card.
func (s *sstate) digs(m smove) bool {
	k := int(s.must) - 1
	if m.kind != mDown || s.n[k] == 0 {
		return false
	}
	c := s.col[k][s.n[k]-1]
	if s.fits(c) && m.a == uint8(c.Suit()) {
		return true
	}
	return buriedBuilder(&s.found, engine.Suit(m.a), c)
}

// buriedBuilder: the foundation of suit su holds, under its top, a card
// that could go on c.
func buriedBuilder(found *[4]uint8, su engine.Suit, c engine.Card) bool {
	r := uint8(c.Rank()) - 1
	return r >= 1 && found[su] > r && onto(engine.NewCard(engine.Rank(r), su), c)
}

// canBuild: some move the search would try can build on the top card of
// column s.must-1 now (and twin would leave the build there), or dig
// towards one (see digs). A position where none can is a dead end, since
// its next move must build there; leaving it out saves a position per
// card laid down for nothing. It asks what expand would try, so it may
// say yes where expand then finds nothing, but never no where expand
// finds a build that stays or a dig. Of the talon cards it looks only at
// those at the indices in talon, as expand would (see successors).
func (sv *solver) canBuild(s *sstate, talon uint32) bool {
	to := int(s.must) - 1
	hold := sv.held(s)
	if s.n[to] == 0 {
		return sv.kingGoes(s, to, hold, talon)
	}
	c := s.col[to][s.n[to]-1]
	// Twin would move any build off c onto its twin (see expand's emit):
	// only digging can follow.
	built := !s.twinTakes(c)
	for _, su := range engine.Suits {
		r := s.found[su]
		if r < 2 {
			continue
		}
		// See digs: the card under c on its foundation, when c fits, or
		// the top of a foundation holding a builder of c; and a
		// foundation card that builds on c itself. Each only if the
		// search would bring it down (see expand).
		f := engine.NewCard(engine.Rank(r), su)
		if ((s.fits(c) && su == c.Suit()) || buriedBuilder(&s.found, su, c) || (built && onto(f, c))) &&
			s.comesDown(f, hold) {
			return true
		}
	}
	if !built {
		return false
	}
	empties := 0
	for k := range 7 {
		if s.n[k] == 0 {
			empties++
		}
	}
	for k := range 7 {
		if k == to {
			continue
		}
		d := int(s.down[k])
		for idx := d; idx < int(s.n[k]); idx++ {
			if !onto(s.col[k][idx], c) {
				continue
			}
			// A run that turns up a card, frees one for a foundation,
			// or empties a column: the only empty one waits for a King
			// (see apply).
			if (idx == d && d > 0) || (idx > d && sv.up(s, s.col[k][idx-1])) ||
				(idx == 0 && (empties > 0 || sv.kingFor(s))) {
				return true
			}
		}
	}
	// A talon card laid on c, when something could build on it in turn.
	if takersOf[c&63]&s.tset == 0 {
		return false
	}
	return sv.layThen(s, to, hold, talon, func(t engine.Card) bool { return onto(t, c) })
}

// layThen: a talon card the stock reaches and that is laid on column to
// rather than going up (see expand), one for which ok says yes, leaves a
// position where the card laid is built on in turn (see canBuild). They
// are tried in reach's order, as expand does.
func (sv *solver) layThen(s *sstate, to int, hold uint64, talon uint32, ok func(engine.Card) bool) bool {
	var n sstate
	ri, rn := sv.reachList(s)
	for _, i := range ri[:rn] {
		t := s.talon[i]
		if talon>>i&1 == 0 || !ok(t) || (s.fits(t) && hold>>t&1 == 0) {
			continue
		}
		n = *s
		sv.apply(&n, smove{kind: mTalon, a: i, to: uint8(to)}, nil)
		// The talon is another now: all of it counts.
		if n.must == 0 || sv.canBuild(&n, ^uint32(0)) {
			return true
		}
	}
	return false
}

// twinTakes: twin would move a run put on the column top c onto c's twin,
// a column top that could not go up (see twin and twinTop).
func (s *sstate) twinTakes(c engine.Card) bool { return s.twinColumn(c) >= 0 }

// twinColumn is the column whose top is the twin runs on c would be moved
// onto (c a Spade or Heart, its twin a column top that could not go up),
// or -1.
func (s *sstate) twinColumn(c engine.Card) int {
	if kept(c) {
		return -1
	}
	x := twinOf(c)
	if s.fits(x) {
		return -1
	}
	for k := range 7 {
		if s.n[k] > 0 && s.col[k][s.n[k]-1] == x {
			return k
		}
	}
	return -1
}

// comesDown: expand would bring the foundation top f down somewhere.
func (s *sstate) comesDown(f engine.Card, hold uint64) bool {
	if s.safeDown(f) || !s.wanted(f, hold) {
		return false
	}
	for k := range 7 {
		if n := s.n[k]; (n == 0 && f.Rank() == engine.King) || (n > 0 && onto(f, s.col[k][n-1])) {
			return true
		}
	}
	return false
}

// safeDown: f, just taken off its foundation, would go straight back up.
func (s *sstate) safeDown(f engine.Card) bool { return safeDownIn(s.found, f) }

func safeDownIn(found [4]uint8, f engine.Card) bool {
	found[f.Suit()]--
	return safeIn(&found, f)
}

// wanted: a card that could go on f would gain by it: a talon card, a run
// that turns up a card or empties its column, or a run whose removal frees
// a card for a foundation (with the held talon cards hold, see held). A run
// already sitting on a card like f (same rank and colour) gains nothing
// else by moving.
func (s *sstate) wanted(f engine.Card, hold uint64) bool { return s.wantedIn(s.found, hold, f) }

// wantedIn is wanted with the foundations at found.
func (s *sstate) wantedIn(found [4]uint8, hold uint64, f engine.Card) bool {
	if takersOf[f&63]&s.tset != 0 {
		return true
	}
	found[f.Suit()]--
	// The card under f on its foundation, when it would gain by coming
	// down: f comes down to let it.
	if r := found[f.Suit()]; r >= 2 {
		g := engine.NewCard(engine.Rank(r), f.Suit())
		if !safeDownIn(found, g) && s.wantedIn(found, hold, g) {
			return true
		}
	}
	for su := range engine.Suits {
		// A foundation card that could come down onto f in turn, for a
		// card that would gain by going on it.
		if r := found[su]; r >= 2 {
			g := engine.NewCard(engine.Rank(r), engine.Suit(su))
			if onto(g, f) && !safeDownIn(found, g) && s.wantedIn(found, hold, g) {
				return true
			}
		}
	}
	takers := takersOf[f&63]
	if takers&s.faceUp == 0 {
		return false
	}
	for k := range 7 {
		d := int(s.down[k])
		for j := d; j < int(s.n[k]); j++ {
			if takers>>s.col[k][j]&1 != 0 && (j == d || upIn(&found, hold, s.col[k][j-1])) {
				return true
			}
		}
	}
	return false
}

// DefaultNodes is the search budget that keeps a deal to about two
// seconds of one core: a position costs about 3 µs with the dead check,
// on a 2-core machine running two deals at once.
const DefaultNodes = 700_000

// SolveGame searches from the game's current position with every card
// known, visiting at most maxNodes positions. A solved result's Moves
// replay through Do from that position to a win.
func SolveGame(g *Game, maxNodes int) engine.Result[engine.Action] {
	return solveGame(g, maxNodes, 1, nil)
}

func solveGame(g *Game, maxNodes, threads int, pause func()) engine.Result[engine.Action] {
	sv := &solver{draw: g.draw, pause: pause}
	start := fromGame(g)
	var pre path
	sv.auto(&start, &pre)
	begin := start
	if sv.dead(&start) {
		return engine.Result[engine.Action]{Outcome: engine.Impossible, Nodes: 1}
	}
	// The search core's best-first search keeps every position it has
	// generated and its depth-first search can sink its whole budget below
	// one bad early choice; search (search.go) restarts instead.
	var r engine.Result[smove]
	switch {
	case threads > 1:
		r.Outcome, r.Moves, r.Nodes = sv.searchTeam(start, maxNodes, threads)
	case sv.draw == 3:
		r.Outcome, r.Moves, r.Nodes = sv.searchDraw3(start, maxNodes)
	default:
		r.Outcome, r.Moves, r.Nodes = sv.search(start, maxNodes)
	}
	out := engine.Result[engine.Action]{Outcome: r.Outcome, Nodes: r.Nodes}
	if r.Outcome == engine.Solved {
		p := pre
		for _, m := range r.Moves {
			sv.apply(&begin, m, &p)
		}
		out.Moves = p
	}
	return out
}

// searchDraw3 searches a Draw 3 position, taking turns with a Draw 1
// search of the same position. Draw 1 is Draw 3 with every talon card
// within reach at all times, so a position lost in Draw 1 is lost in Draw 3
// too; and the Draw 1 search is often far smaller, having no talon split
// to tell positions apart. It stops once it wins, which says nothing
// about Draw 3.
func (sv *solver) searchDraw3(start sstate, maxNodes int) (engine.Outcome, []smove, int) {
	return turns(newDFS(sv, start), newDFS(&solver{draw: 1, pause: sv.pause}, start), maxNodes)
}

// turns lets the Draw 3 search d3 and the Draw 1 search d1 take turns
// until one decides or they have visited maxNodes positions in all; they
// can go on later from where they stopped.
func turns(d3, d1 *dfs, maxNodes int) (engine.Outcome, []smove, int) {
	for {
		total := d3.nodes + d1.nodes
		if total >= maxNodes {
			return engine.Undecided, nil, total
		}
		if d1.out == engine.Undecided && d1.nodes*relaxShare[1] < d3.nodes*relaxShare[0] {
			d1.run(d1.nodes + maxNodes - total)
			if d1.out == engine.Impossible {
				return engine.Impossible, nil, d3.nodes + d1.nodes
			}
			continue
		}
		d3.run(d3.nodes + maxNodes - total)
		if d3.out != engine.Undecided {
			return d3.out, d3.path, d3.nodes + d1.nodes
		}
	}
}

// relaxShare is how many positions the Draw 1 search gets for how many
// the Draw 3 one gets. Measured over Draw 3 deals 1-1000 with KLIST (see
// list_test.go) at DefaultNodes: 0:1 (no Draw 1 search) decides 953
// within 2 s of CPU, 1:1 962, 2:1 964, 3:1 966, 5:1 967.
var relaxShare = [2]int{5, 1}

// Solve decides a deal with every card known ("thoughtful" Klondike).
func Solve(spec engine.Spec, maxNodes int) engine.Result[engine.Action] {
	return SolveOn(spec, maxNodes, 1)
}

// SolveOn is Solve on threads goroutines at once (see team.go); maxNodes
// counts the positions all of them visit.
func SolveOn(spec engine.Spec, maxNodes, threads int) engine.Result[engine.Action] {
	g, err := New(spec)
	if err != nil {
		return engine.Result[engine.Action]{Outcome: engine.Undecided} // a deal that can't be made is not a lost one
	}
	return solveGame(g, maxNodes, threads, nil)
}

// SolvePaced is Solve calling pause between stretches of a few hundred
// positions (well under a millisecond), so that a server running it on a
// busy core can let other work go first there (runtime.Gosched); the
// search and its answer are Solve's. When pause says false the search
// stops where it is, and ok is false: the deal was not decided.
func SolvePaced(spec engine.Spec, maxNodes int, pause func() bool) (r engine.Result[engine.Action], ok bool) {
	g, err := New(spec)
	if err != nil {
		return engine.Result[engine.Action]{Outcome: engine.Undecided}, true
	}
	defer func() {
		if v := recover(); v != nil {
			if _, is := v.(stopped); !is {
				panic(v)
			}
			r, ok = engine.Result[engine.Action]{Outcome: engine.Undecided}, false
		}
	}()
	// The search unwinds from wherever it is: it holds nothing that
	// outlives it.
	return solveGame(g, maxNodes, 1, func() {
		if !pause() {
			panic(stopped{})
		}
	}), true
}

// stopped unwinds a paced search told to stop.
type stopped struct{}

// onlyEmpty: column k is empty and no other one is.
func (s *sstate) onlyEmpty(k int) bool {
	for j := range 7 {
		if (s.n[j] == 0) != (j == k) {
			return false
		}
	}
	return true
}

// kingFor: some King could move to an empty column: a talon card the
// stock reaches, a King-led run that turns up a card, or a King on its
// foundation.
func (sv *solver) kingFor(s *sstate) bool {
	found := false
	sv.reach(s, func(i, _ int) {
		found = found || s.talon[i].Rank() == engine.King
	})
	if found {
		return true
	}
	for k := range 7 {
		if d := s.down[k]; d > 0 && s.n[k] > d && s.col[k][d].Rank() == engine.King {
			return true
		}
	}
	for _, f := range s.found {
		if f == 13 {
			return true
		}
	}
	return false
}

// kingGoes: a King the search would move to the empty column to, bound
// to take one, can go there: a King-led run that turns up a card, a King
// that would come down from its foundation, or a talon King that something
// could build on in turn (kingFor without the moves canBuild would leave
// out after them).
func (sv *solver) kingGoes(s *sstate, to int, hold uint64, talon uint32) bool {
	for k := range 7 {
		if d := s.down[k]; d > 0 && s.n[k] > d && s.col[k][d].Rank() == engine.King {
			return true
		}
	}
	for _, su := range engine.Suits {
		if s.found[su] == 13 && s.comesDown(engine.NewCard(engine.King, su), hold) {
			return true
		}
	}
	return sv.layThen(s, to, hold, talon, func(t engine.Card) bool { return t.Rank() == engine.King })
}

// twinTop: m puts a card on a Spade or Heart whose twin is a column top
// that m leaves alone and that could not go up. twin would move the card
// onto that twin, as the same move onto it does.
func (s *sstate) twinTop(m smove) bool {
	if m.kind == mColUp || (m.kind == mTalon && m.to == toFound) {
		return false
	}
	to := int(m.to)
	if s.n[to] == 0 {
		return false
	}
	// The twin is another card than the top at to, so it lies elsewhere.
	c := s.twinColumn(s.col[to][s.n[to]-1])
	return c >= 0 && (m.kind != mColCol || int(m.a) != c)
}

// followRun updates a 1-based column mark for a run moved from column a
// onto column b.
func followRun(m uint8, a, b int) uint8 {
	switch int(m) {
	case a + 1:
		return uint8(b) + 1
	case b + 1:
		return 0
	}
	return m
}
