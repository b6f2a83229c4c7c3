package spite

import (
	"slices"

	"sshuffle/engine"
)

// hard plans a whole turn: it searches every order of plays from the hand,
// the side stacks and the pay-off top (stopping where new cards turn up: a
// pay-off card played, a hand emptied and refilled), and scores each way
// the turn could end: how likely the opponent is then to play its pay-off
// top, judged over sampled hands drawn from the cards this seat cannot
// see; whether its own hand and side stacks then reach its own pay-off
// top; Kings kept; and how the discard sits on the side stacks.
type hard struct {
	rng     *engine.RNG
	samples int
	plan    []planned
}

// planned is one step of the turn's plan with the view it expects: when the
// view differs (a card turned up), the plan is dropped and made again.
type planned struct {
	key uint64
	a   Action
}

const (
	hardSamples = 24
	maxNodes    = 20000

	valuePayoff = 100.0 // playing the own pay-off top
	valueRefill = 10.0  // emptying the hand: five new cards
	wDanger     = 70.0  // times the chance the opponent plays its pay-off top
	wKing       = 5.0   // each King kept in hand
	wOwn        = 15.0  // the own hand and side stacks reach the pay-off top
	wHandPlay   = 1.0   // each hand card played: one more drawn next turn
	wSidePlay   = 2.0   // each side card played: what lies under comes free
)

func newHard(rng *engine.RNG, samples int) *hard { return &hard{rng: rng, samples: samples} }

func (p *hard) Choose(v View) Action {
	if v.Over || v.Seat < 0 || v.Seat != v.Turn {
		return Action{}
	}
	if len(p.plan) == 0 || p.plan[0].key != viewKey(v) {
		p.plan = p.think(v)
	}
	a := p.plan[0].a
	p.plan = p.plan[1:]
	return a
}

// viewKey sums up what a plan's step expects to see of its own cards and
// the centre.
func viewKey(v View) uint64 {
	me := v.Players[v.Seat]
	hand := slices.Clone(v.Hand)
	slices.Sort(hand)
	var h uint64 = 14695981039346656037
	mix := func(x int) { h = (h ^ uint64(x)) * 1099511628211 }
	for _, c := range hand {
		mix(int(c))
	}
	mix(255)
	for _, st := range me.Sides {
		mix(len(st))
	}
	for _, st := range v.Stacks {
		mix(len(st))
	}
	mix(me.PayoffLeft)
	mix(v.Stock)
	mix(len(v.Recycle))
	return h
}

// node is a position reached within the turn.
type node struct {
	used      uint8 // hand cards played, by index
	h         [SideStacks]int8
	need      [4]int8
	completed int8
	handPlays int8
	sidePlays int8
}

type search struct {
	v        View
	hand     []engine.Card
	sides    [SideStacks][]engine.Card
	oppSides [SideStacks][]engine.Card
	top      engine.Card
	oppTop   engine.Card
	nc       int
	kingAce  bool
	drawable bool
	samples  []rankCount
	danger   map[uint32]float64
	seen     map[uint64]bool
	nodes    int

	path     []Action
	best     float64
	bestPath []Action
	found    bool
}

func (p *hard) think(v View) []planned {
	me, opp := v.Players[v.Seat], v.Players[1-v.Seat]
	s := &search{
		v: v, hand: v.Hand, sides: me.Sides, oppSides: opp.Sides,
		top: me.PayoffTop, oppTop: opp.PayoffTop, nc: v.Centres, kingAce: v.KingAce,
		drawable: v.Stock+len(v.Recycle) > 0,
		danger:   map[uint32]float64{}, seen: map[uint64]bool{},
	}
	// The opponent's next hand, as far as this seat can tell: its cards and
	// what it draws are some of the unseen cards.
	pool := unseen(v)
	m := min(HandSize, opp.HandCount+v.Stock+len(v.Recycle), len(pool))
	for range p.samples {
		for i := range m {
			j := i + p.rng.Intn(len(pool)-i)
			pool[i], pool[j] = pool[j], pool[i]
		}
		s.samples = append(s.samples, countRanks(pool[:m]))
	}
	var root node
	for i := range SideStacks {
		root.h[i] = int8(len(me.Sides[i]))
	}
	for i := range v.Centres {
		root.need[i] = int8(len(v.Stacks[i]) + 1)
	}
	s.dfs(root)
	// Replay the chosen line on the root to know the view before each step.
	out := make([]planned, 0, len(s.bestPath))
	n := root
	for _, a := range s.bestPath {
		out = append(out, planned{key: s.key(n), a: a})
		n = s.step(n, a)
	}
	return out
}

// key is viewKey of the view the seat will have at n.
func (s *search) key(n node) uint64 {
	var hand []engine.Card
	for i, c := range s.hand {
		if n.used&(1<<i) == 0 {
			hand = append(hand, c)
		}
	}
	v := View{Seat: s.v.Seat, Hand: hand, Stock: s.v.Stock, Recycle: make([]engine.Card, len(s.v.Recycle)+12*int(n.completed))}
	v.Players[s.v.Seat].PayoffLeft = s.v.Players[s.v.Seat].PayoffLeft
	for i := range SideStacks {
		v.Players[s.v.Seat].Sides[i] = make([]engine.Card, n.h[i])
	}
	v.Stacks = make([][]engine.Card, s.nc)
	for i := range s.nc {
		v.Stacks[i] = make([]engine.Card, n.need[i]-1)
	}
	return viewKey(v)
}

func (s *search) sideTop(n node, i int) engine.Card {
	if n.h[i] == 0 {
		return engine.NoCard
	}
	return s.sides[i][n.h[i]-1]
}

// step applies a play to n.
func (s *search) step(n node, a Action) node {
	if a.Do != Play {
		return n
	}
	switch a.From {
	case FromHand:
		for i, c := range s.hand {
			if n.used&(1<<i) == 0 && c == a.Card {
				n.used |= 1 << i
				break
			}
		}
		n.handPlays++
	case FromSide:
		n.h[a.Side]--
		n.sidePlays++
	}
	n.need[a.To]++
	if n.need[a.To] > stackTop {
		n.need[a.To] = 1
		n.completed++
	}
	return n
}

func (s *search) encode(n node) uint64 {
	need := n.need
	slices.Sort(need[:s.nc])
	k := uint64(n.used)
	for _, h := range n.h {
		k = k<<7 | uint64(h)
	}
	for _, x := range need[:s.nc] {
		k = k<<4 | uint64(x)
	}
	return k
}

func (s *search) consider(value float64, last Action) {
	if !s.found || value > s.best {
		s.found, s.best = true, value
		s.bestPath = append(append(s.bestPath[:0], s.path...), last)
	}
}

func (s *search) dfs(n node) {
	k := s.encode(n)
	if s.seen[k] || s.nodes >= maxNodes {
		return
	}
	s.seen[k] = true
	s.nodes++
	if s.top != engine.NoCard {
		for j := range s.nc {
			if canGo(s.top, engine.Rank(n.need[j]), s.kingAce) {
				s.consider(valuePayoff+s.eval(n, -1, -1), PlayPayoff(j))
				return
			}
		}
	}
	left := 0
	for i := range s.hand {
		if n.used&(1<<i) == 0 {
			left++
		}
	}
	// A completed stack fills the recycle pile, so a draw finds cards.
	if left == 0 && (s.drawable || n.completed > 0) && len(s.path) > 0 {
		// The last play emptied the hand: five new cards come, and the
		// plan stops here to be made again with them.
		last := s.path[len(s.path)-1]
		s.path = s.path[:len(s.path)-1]
		s.consider(valueRefill+s.eval(n, -1, -1), last)
		s.path = append(s.path, last)
		return
	}
	if left == 0 {
		s.consider(s.eval(n, -1, -1), Action{Do: Pass})
	}
	for i, c := range s.hand {
		if n.used&(1<<i) != 0 || s.dupBefore(n, i) {
			continue
		}
		for sd := range SideStacks {
			s.consider(s.eval(n, i, sd), DiscardTo(c, sd))
		}
	}
	try := func(c engine.Card, a func(to int) Action) {
		for j := range s.nc {
			if !canGo(c, engine.Rank(n.need[j]), s.kingAce) || s.sameNeedBefore(n, j) {
				continue
			}
			act := a(j)
			s.path = append(s.path, act)
			s.dfs(s.step(n, act))
			s.path = s.path[:len(s.path)-1]
		}
	}
	for i, c := range s.hand {
		if n.used&(1<<i) != 0 || s.dupBefore(n, i) {
			continue
		}
		try(c, func(to int) Action { return PlayHand(c, to) })
	}
	for sd := range SideStacks {
		if c := s.sideTop(n, sd); c != engine.NoCard {
			try(c, func(to int) Action { return PlaySide(sd, to) })
		}
	}
}

// dupBefore: an unplayed hand card of the same rank comes earlier, so
// this one would only repeat a line already searched (suits never matter).
func (s *search) dupBefore(n node, i int) bool {
	for j := range i {
		if n.used&(1<<j) == 0 && s.hand[j].Rank() == s.hand[i].Rank() {
			return true
		}
	}
	return false
}

func (s *search) sameNeedBefore(n node, j int) bool {
	for i := range j {
		if n.need[i] == n.need[j] {
			return true
		}
	}
	return false
}

// eval scores the turn ending at n, with hand card d discarded onto side
// stack sd (d < 0: no discard, the hand is empty or the plan goes on).
func (s *search) eval(n node, d, sd int) float64 {
	v := -wDanger * s.dangerAt(n)
	var hand rankCount
	for i, c := range s.hand {
		if n.used&(1<<i) == 0 && i != d {
			hand[c.Rank()]++
		}
	}
	v += wKing * float64(hand[engine.King])
	v += wHandPlay*float64(n.handPlays) + wSidePlay*float64(n.sidePlays)
	extra := engine.NoCard
	if d >= 0 {
		extra = s.hand[d]
		v -= s.discardCost(n, extra, sd)
	}
	if s.top != engine.NoCard {
		sides := sideSet{base: &s.sides, h: n.h, extra: extra, xs: sd}
		if extra != engine.NoCard {
			sides.h[sd]++
		}
		for j := range s.nc {
			if s.sameNeedBefore(n, j) {
				continue
			}
			sc := sides
			if reach(engine.Rank(n.need[j]), s.top.Rank(), hand, &sc, s.kingAce) {
				v += wOwn
				break
			}
		}
	}
	return v
}

// discardCost: build side stacks downward (or on the same rank), keep an
// empty stack for high cards, don't bury a King or a card soon needed,
// and keep Kings in hand where they can go anywhere.
func (s *search) discardCost(n node, d engine.Card, sd int) float64 {
	cost := 0.0
	if d.Rank() == engine.King {
		cost += 6
	}
	t := s.sideTop(n, sd)
	dr := float64(d.Rank())
	switch {
	case t == engine.NoCard:
		cost += 3 - 0.2*(dr-6)
	case t.Rank() == d.Rank()+1:
	case t.Rank() == d.Rank():
		cost += 0.5
	case t.Rank() == engine.King:
		cost += 5
	case d.Rank() < t.Rank():
		cost += 1 + 0.25*(float64(t.Rank())-dr-1)
	default:
		cost += 3 + 0.25*(dr-float64(t.Rank()))
	}
	if t != engine.NoCard && t.Rank() != d.Rank()+1 {
		for j := range s.nc {
			if gap := int(t.Rank()) - int(n.need[j]); gap >= 0 && gap <= 2 {
				cost += 2
				break
			}
		}
	}
	return cost
}

// dangerAt is the share of sampled opponent hands with which the opponent
// could play its pay-off top next turn on the centre stacks of n.
func (s *search) dangerAt(n node) float64 {
	if s.oppTop == engine.NoCard {
		return 0
	}
	need := n.need
	slices.Sort(need[:s.nc])
	var k uint32
	for _, x := range need[:s.nc] {
		k = k<<4 | uint32(x)
	}
	if d, ok := s.danger[k]; ok {
		return d
	}
	hits := 0
	for _, hand := range s.samples {
		sides := sideSet{base: &s.oppSides, xs: -1}
		for i := range SideStacks {
			sides.h[i] = int8(len(s.oppSides[i]))
		}
		for j := range s.nc {
			if j > 0 && need[j] == need[j-1] {
				continue
			}
			sc := sides
			if reach(engine.Rank(need[j]), s.oppTop.Rank(), hand, &sc, s.kingAce) {
				hits++
				break
			}
		}
	}
	d := 0.0
	if len(s.samples) > 0 {
		d = float64(hits) / float64(len(s.samples))
	}
	s.danger[k] = d
	return d
}

// sideSet is a player's side stacks at some heights, with one extra card
// on stack xs (a discard being weighed) when extra is set.
type sideSet struct {
	base  *[SideStacks][]engine.Card
	h     [SideStacks]int8
	extra engine.Card
	xs    int
}

func (ss *sideSet) top(i int) engine.Card {
	h := int(ss.h[i])
	if h == 0 {
		return engine.NoCard
	}
	if i == ss.xs && ss.extra != engine.NoCard && h == len(ss.base[i])+1 {
		return ss.extra
	}
	return ss.base[i][h-1]
}

// takeTop plays a side top of rank r, if there is one.
func (ss *sideSet) takeTop(r engine.Rank) bool {
	for i := range SideStacks {
		if c := ss.top(i); c != engine.NoCard && c.Rank() == r {
			ss.h[i]--
			return true
		}
	}
	return false
}

// reach says whether a stack needing rank n can be built up to where a
// pay-off top of rank r goes on it, with the hand and side tops given:
// each rank from the card of that rank if there is one, else a King.
func reach(n, r engine.Rank, hand rankCount, sides *sideSet, kingAce bool) bool {
	k := n
	for range stackTop + 1 {
		if k == r || (r == engine.King && (k > engine.Ace || kingAce)) {
			return true
		}
		switch {
		case hand[k] > 0:
			hand[k]--
		case sides.takeTop(k):
		case k == engine.Ace && !kingAce:
			return false
		case hand[engine.King] > 0:
			hand[engine.King]--
		case sides.takeTop(engine.King):
		default:
			return false
		}
		k++
		if k > stackTop {
			k = engine.Ace
		}
	}
	return false
}
