package kings

import (
	"fmt"
	"math/bits"

	"sshuffle/engine"
)

// Strengths are the computer players' names, weakest first.
var Strengths = []string{"easy", "normal", "hard"}

// NewPlayer returns a computer player of the given strength. Each is a
// function of the views it is handed and of its own seeded RNG; the plan it
// keeps within a turn was made from an earlier view of the same turn, and
// nothing hidden reaches a seat during its turn (draws come before the
// first action or end the turn), so the plan is still a function of views.
func NewPlayer(strength string, seed uint64) (engine.Player[Action, View], error) {
	switch strength {
	case "easy":
		return &easy{rng: engine.NewRNG(seed)}, nil
	case "normal":
		return &planned{plan: planner{limit: 600, eval: plainEval}}, nil
	case "hard":
		return &planned{plan: planner{limit: 4000, eval: threatEval, keep: 10}, rng: engine.NewRNG(seed), samples: 48}, nil
	}
	return nil, fmt.Errorf("there is no %q computer player (easy, normal, hard)", strength)
}

// easy plays like a beginner: any card from the hand that fits, picked at
// random, until none does. It never moves a pile.
type easy struct{ rng *engine.RNG }

func (p *easy) Choose(v View) Action {
	if v.Over || v.Turn != v.Seat {
		return Action{Do: End}
	}
	p0 := apos{b: v.boardOf(), hand: maskOf(v.Hand)}
	var buf [128]Action
	plays := buf[:0]
	for _, a := range p0.moves(v.KingsAtOnce, buf[:0]) {
		if a.Do == Play {
			plays = append(plays, a)
		}
	}
	if len(plays) == 0 {
		return Action{Do: End}
	}
	return plays[p.rng.Intn(len(plays))]
}

// apos is a position within one seat's turn as its player sees it: the
// piles and that seat's hand as a set (bit i is engine.CardFromIndex(i)).
type apos struct {
	b    board
	hand uint64
}

func maskOf(cs []engine.Card) uint64 {
	var m uint64
	for _, c := range cs {
		m |= 1 << c.Index()
	}
	return m
}

func (p *apos) push(to Place, c engine.Card) {
	d := &p.b[to]
	d.c[d.n] = c
	d.n++
}

func (p *apos) apply(a Action) {
	switch a.Do {
	case Play:
		p.hand &^= 1 << a.Card.Index()
		p.push(a.To, a.Card)
	case Move:
		src, dst := &p.b[a.From], &p.b[a.To]
		copy(dst.c[dst.n:], src.cards())
		dst.n += src.n
		*src = pile{}
	}
}

// spaces finds the first empty N/E/S/W space and the first empty corner
// (numPlaces when there is none). Empty places of a kind are alike, so
// the players only ever try the first.
func (p *apos) spaces() (space, corner Place) {
	space, corner = numPlaces, numPlaces
	for q := range numPlaces {
		if p.b[q].n == 0 {
			if q.Corner() {
				corner = min(corner, q)
			} else {
				space = min(space, q)
			}
		}
	}
	return space, corner
}

const kingsMask = uint64(0xf) << (4 * 12) // the four Kings' bits

// moves appends the plays and pile moves the rules allow, with equal
// empty places folded into one. Ending the turn is not among them.
func (p *apos) moves(kingsAtOnce bool, out []Action) []Action {
	space, corner := p.spaces()
	if kingsAtOnce && corner < numPlaces && p.hand&kingsMask != 0 {
		for m := p.hand & kingsMask; m != 0; m &= m - 1 {
			out = append(out, Action{Do: Play, Card: engine.CardFromIndex(bits.TrailingZeros64(m)), To: corner})
		}
		return out
	}
	if corner < numPlaces {
		for m := p.hand & kingsMask; m != 0; m &= m - 1 {
			out = append(out, Action{Do: Play, Card: engine.CardFromIndex(bits.TrailingZeros64(m)), To: corner})
		}
		for f := N; f <= W; f++ {
			if p.b[f].n > 0 && p.b[f].bottom().Rank() == engine.King {
				out = append(out, Action{Do: Move, From: f, To: corner})
			}
		}
	}
	for f := range numPlaces {
		if p.b[f].n == 0 {
			continue
		}
		bot := p.b[f].bottom()
		for t := range numPlaces {
			if t != f && p.b[t].n > 0 && fits(bot, p.b[t].top()) {
				out = append(out, Action{Do: Move, From: f, To: t})
			}
		}
	}
	for m := p.hand; m != 0; m &= m - 1 {
		c := engine.CardFromIndex(bits.TrailingZeros64(m))
		for t := range numPlaces {
			if p.b[t].n > 0 && fits(c, p.b[t].top()) {
				out = append(out, Action{Do: Play, Card: c, To: t})
			}
		}
	}
	if space < numPlaces {
		for m := p.hand; m != 0; m &= m - 1 {
			out = append(out, Action{Do: Play, Card: engine.CardFromIndex(bits.TrailingZeros64(m)), To: space})
		}
	}
	return out
}

func (p *apos) key() uint64 {
	h := p.hand*0x9e3779b97f4a7c15 ^ 0xcbf29ce484222325
	for q := range p.b {
		for _, c := range p.b[q].cards() {
			h = (h ^ uint64(c)) * 0x100000001b3
		}
		h = (h ^ 0xff) * 0x100000001b3
	}
	return h
}

func handPenalty(m uint64) int {
	k := bits.OnesCount64(m & kingsMask)
	return 10*k + bits.OnesCount64(m) - k
}

// context is what an evaluation may know besides the position: the view's
// counts and the cards the seat has not seen.
type context struct {
	v       *View
	unseen  uint64
	nUnseen int
}

// plainEval scores the end of a turn by what is left in the hand and by
// the empty spaces left for others to fill with anything.
func plainEval(p *apos, _ *context) float64 {
	if p.hand == 0 {
		return 1e9
	}
	space := 0
	for q := N; q <= W; q++ {
		if p.b[q].n == 0 {
			space++
		}
	}
	return -3*float64(bits.OnesCount64(p.hand)) - float64(handPenalty(p.hand)) - 4*float64(space)
}

// accepts lists the cards that would go on the top of q.
func accepts(top engine.Card) uint64 {
	if top.Rank() <= engine.Ace {
		return 0
	}
	r := top.Rank() - 1
	var m uint64
	for _, s := range engine.Suits {
		if s.Red() != top.Red() {
			m |= 1 << engine.NewCard(r, s).Index()
		}
	}
	return m
}

// threatEval adds to plainEval what the next seat is likely to get: each
// card that would fit on a top and that the next seat may hold counts by
// the chance it holds it; an empty space counts as a sure play.
func threatEval(p *apos, cx *context) float64 {
	v := plainEval(p, cx)
	if p.hand == 0 || cx.nUnseen == 0 {
		return v
	}
	next := (cx.v.Seat + 1) % len(cx.v.Hands)
	share := float64(cx.v.Hands[next]) / float64(cx.nUnseen)
	var open, mine uint64
	for q := range numPlaces {
		if p.b[q].n > 0 {
			open |= acceptTab[p.b[q].top().Index()]
		}
	}
	mine = open & p.hand
	threat := float64(bits.OnesCount64(open&cx.unseen)) * share
	if _, corner := p.spaces(); corner < numPlaces {
		threat += float64(bits.OnesCount64(kingsMask&cx.unseen)) * share
	}
	return v - 2*threat + 0.5*float64(bits.OnesCount64(mine))
}

// leaf is one way to end the turn: where it leaves the table and how.
type leaf struct {
	v    float64
	p    apos
	path []Action
}

// planner searches the orders of plays and pile moves of one turn, each
// end position once, keeping the best few by eval.
type planner struct {
	limit int
	eval  func(*apos, *context) float64
	keep  int

	kingsAtOnce bool
	cx          *context
	nodes       int
	seen        map[uint64]struct{}
	path        []Action
	best        []leaf
	bufs        [][]Action // moves, one buffer a depth
	// positions, one a depth: a position handed to eval (a function
	// value) would otherwise be a new allocation at every node.
	pos []*apos
}

func (pl *planner) search(root apos, cx *context, kingsAtOnce bool) []leaf {
	pl.kingsAtOnce, pl.cx, pl.nodes = kingsAtOnce, cx, 0
	if pl.seen == nil {
		pl.seen = map[uint64]struct{}{}
	}
	clear(pl.seen)
	pl.path, pl.best = pl.path[:0], pl.best[:0]
	pl.dfs(&root, 0)
	return pl.best
}

func (pl *planner) dfs(p *apos, depth int) bool {
	k := p.key()
	if _, ok := pl.seen[k]; ok {
		return false
	}
	pl.seen[k] = struct{}{}
	pl.nodes++
	for len(pl.bufs) <= depth {
		pl.bufs = append(pl.bufs, nil)
		pl.pos = append(pl.pos, new(apos))
	}
	ms := p.moves(pl.kingsAtOnce, pl.bufs[depth][:0])
	pl.bufs[depth] = ms
	_, corner := p.spaces()
	if forced := pl.kingsAtOnce && corner < numPlaces && p.hand&kingsMask != 0; !forced {
		pl.offer(p)
	}
	if p.hand == 0 {
		return true // out: nothing beats it
	}
	for _, a := range ms {
		if pl.nodes >= pl.limit {
			return false
		}
		// The child's position is this depth's: each child is searched
		// whole before the next is set up in its place.
		q := pl.pos[depth]
		*q = *p
		q.apply(a)
		pl.path = append(pl.path, a)
		done := pl.dfs(q, depth+1)
		pl.path = pl.path[:len(pl.path)-1]
		if done {
			return true
		}
	}
	return false
}

// offer keeps p among the best few end positions (ties go to the one
// found first, so the search stays deterministic).
func (pl *planner) offer(p *apos) {
	keep := max(pl.keep, 1)
	v := pl.eval(p, pl.cx)
	if len(pl.best) == keep && v <= pl.best[keep-1].v {
		return
	}
	i := len(pl.best)
	for i > 0 && pl.best[i-1].v < v {
		i--
	}
	l := leaf{v: v, p: *p, path: append([]Action(nil), pl.path...)}
	pl.best = append(pl.best, leaf{})
	copy(pl.best[i+1:], pl.best[i:])
	pl.best[i] = l
	if len(pl.best) > keep {
		pl.best = pl.best[:keep]
	}
}

// planned is normal and hard: it plans its whole turn at the turn's first
// decision and then plays the plan out. Hard also weighs its best few
// plans against samples of what the other seats may hold.
type planned struct {
	plan    planner
	rng     *engine.RNG
	samples int

	// The plan in hand: its steps, and the position each starts from,
	// for checking that the table is still where the plan expects it
	// (someone may have acted for this seat in between).
	steps  []Action
	before []apos
	seat   int
	turn   int

	// The view and the context of the search thinking now, kept here:
	// the search hands them to its evaluation (a function value), which
	// would make each a new allocation at every decision.
	view View
	cx   context
}

func (p *planned) Choose(v View) Action {
	if v.Over || v.Turn != v.Seat || v.Seat < 0 {
		return Action{Do: End}
	}
	cur := apos{b: v.boardOf(), hand: maskOf(v.Hand)}
	for i := range p.before {
		if v.Seat == p.seat && v.TurnNo == p.turn && p.before[i] == cur {
			return p.steps[i]
		}
	}
	p.view = v
	p.steps = p.think(&p.view)
	p.view = View{} // holds none of the view's cards past the decision
	p.seat, p.turn = v.Seat, v.TurnNo
	p.before = p.before[:0]
	for _, a := range p.steps {
		p.before = append(p.before, cur)
		cur.apply(a)
	}
	return p.steps[0]
}

func (p *planned) think(v *View) []Action {
	root := apos{b: v.boardOf(), hand: maskOf(v.Hand)}
	p.cx = context{v: v}
	cx := &p.cx
	seen := root.hand
	for _, cs := range v.Piles {
		seen |= maskOf(cs)
	}
	cx.unseen = (uint64(1)<<52 - 1) &^ seen
	cx.nUnseen = bits.OnesCount64(cx.unseen)
	best := p.plan.search(root, cx, v.KingsAtOnce)
	if len(best) == 0 {
		// Only when Kings are played at once and the search ran out
		// before a King reached a corner: play the first one.
		return root.moves(v.KingsAtOnce, nil)[:1]
	}
	pick := 0
	if len(best) > 1 && p.rng != nil && best[0].p.hand != 0 {
		pick = p.weigh(v, cx, best)
	}
	steps := append([]Action(nil), best[pick].path...)
	if best[pick].p.hand != 0 {
		steps = append(steps, Action{Do: End})
	}
	return steps
}

// weigh plays each candidate end of turn on over the same samples of the
// unseen cards (dealt to the other seats by their counts, the rest the
// stock): every other seat takes a greedy turn, then this seat does. A
// seat going out first costs the most; otherwise what this seat holds
// after its next turn counts.
func (p *planned) weigh(v *View, cx *context, cands []leaf) int {
	n := len(v.Hands)
	unseen := make([]engine.Card, 0, cx.nUnseen)
	for m := cx.unseen; m != 0; m &= m - 1 {
		unseen = append(unseen, engine.CardFromIndex(bits.TrailingZeros64(m)))
	}
	score := make([]float64, len(cands))
	hands := make([]uint64, n)
	for range p.samples {
		p.rng.Shuffle(unseen)
		at := 0
		for s := range n {
			if s == v.Seat {
				continue
			}
			hands[s] = maskOf(unseen[at : at+v.Hands[s]])
			at += v.Hands[s]
		}
		stock := unseen[at:]
		for i := range cands {
			score[i] += rollout(v, cands[i].p, hands, stock)
		}
	}
	best := 0
	for i := range score {
		// A plan's own evaluation breaks near ties among the samples.
		score[i] += cands[i].v * 0.01 * float64(p.samples)
		if score[i] > score[best] {
			best = i
		}
	}
	return best
}

func rollout(v *View, end apos, others []uint64, stock []engine.Card) float64 {
	n := len(v.Hands)
	b := end.b
	var hands [MaxPlayers]uint64
	copy(hands[:], others)
	hands[v.Seat] = end.hand
	draw := func(s int) {
		if len(stock) > 0 {
			hands[s] |= 1 << stock[0].Index()
			stock = stock[1:]
		}
	}
	if v.DrawEnd {
		draw(v.Seat)
	}
	for k := 1; k <= n; k++ {
		s := (v.Seat + k) % n
		if !v.DrawEnd {
			draw(s)
		}
		greedyTurn(&b, &hands[s])
		if hands[s] == 0 {
			if s == v.Seat {
				return 40
			}
			return -40 - float64(handPenalty(hands[v.Seat]))
		}
		if v.DrawEnd {
			draw(s)
		}
	}
	m := hands[v.Seat]
	return -3*float64(bits.OnesCount64(m)) - float64(handPenalty(m))
}

// greedyTurn is the stand-in for a seat in the samples: it makes any
// play it finds (Kings into corners, then pile moves, then cards onto
// piles, filling a space last, with its highest card) until none is left.
// It is written out rather than built on moves because the samples call it
// thousands of times a decision.
func greedyTurn(b *board, h *uint64) {
	p := apos{b: *b, hand: *h}
next:
	for p.hand != 0 {
		space, corner := p.spaces()
		if corner < numPlaces {
			if k := p.hand & kingsMask; k != 0 {
				p.apply(Action{Do: Play, Card: engine.CardFromIndex(bits.TrailingZeros64(k)), To: corner})
				continue
			}
			for f := N; f <= W; f++ {
				if p.b[f].n > 0 && p.b[f].bottom().Rank() == engine.King {
					p.apply(Action{Do: Move, From: f, To: corner})
					continue next
				}
			}
		}
		for f := range numPlaces {
			if p.b[f].n == 0 {
				continue
			}
			bot := p.b[f].bottom()
			for t := range numPlaces {
				if t != f && p.b[t].n > 0 && fits(bot, p.b[t].top()) {
					p.apply(Action{Do: Move, From: f, To: t})
					continue next
				}
			}
		}
		for t := range numPlaces {
			if p.b[t].n > 0 {
				if m := p.hand & acceptTab[p.b[t].top().Index()]; m != 0 {
					p.apply(Action{Do: Play, Card: engine.CardFromIndex(bits.TrailingZeros64(m)), To: t})
					continue next
				}
			}
		}
		if space < numPlaces {
			p.apply(Action{Do: Play, Card: engine.CardFromIndex(63 - bits.LeadingZeros64(p.hand)), To: space})
			continue
		}
		break
	}
	*b, *h = p.b, p.hand
}

// acceptTab[i] is accepts of engine.CardFromIndex(i).
var acceptTab [52]uint64

func init() {
	for i := range acceptTab {
		acceptTab[i] = accepts(engine.CardFromIndex(i))
	}
}
