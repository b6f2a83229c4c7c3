package kings

import (
	"fmt"

	"sshuffle/engine"
)

// Match plays hands until the match setting's end: one hand, or until a
// total reaches 25 (the lowest total then wins).
type Match struct {
	spec    engine.Spec
	players int
	toTotal bool
	first   int // the first player of hand 0
	hand    int
	game    *Game
	totals  []int
	done    bool
}

// NewMatch deals the first hand of a match from spec, exactly as New does.
func NewMatch(spec engine.Spec, players int) (*Match, error) {
	g, err := New(spec, players)
	if err != nil {
		return nil, err
	}
	_, r, _ := parseRules(g.spec.Settings)
	return &Match{spec: g.spec, players: players, toTotal: r.match, first: g.First(), game: g, totals: make([]int, players)}, nil
}

// handSeed derives hand n's shuffle from the match seed; hand 0 is the
// spec's own deal, so a one-hand match is New(spec).
func handSeed(seed uint64, n int) uint64 {
	if n == 0 {
		return seed
	}
	return engine.NewRNG(seed ^ uint64(n)*0x9e3779b97f4a7c15).Uint64()
}

func (m *Match) Game() *Game { return m.game }

// Next adds the finished hand to the totals and deals the next one, its
// first seat one round on from the last; false when the match is over.
func (m *Match) Next() (*Game, bool) {
	res, over := m.game.Over()
	if !over || m.done {
		return m.game, false
	}
	for s, p := range res.Points {
		m.totals[s] += p
	}
	m.done = !m.toTotal
	for _, t := range m.totals {
		if t >= MatchTarget {
			m.done = true
		}
	}
	if m.done {
		return m.game, false
	}
	m.hand++
	deck := engine.Deck()
	engine.NewRNG(handSeed(m.spec.Seed, m.hand)).Shuffle(deck)
	g, err := FromStart(m.spec.Settings, m.players, dealStart(deck, m.players, (m.first+m.hand)%m.players))
	if err != nil {
		panic(fmt.Sprintf("kings: dealing hand %d of a valid match: %v", m.hand, err))
	}
	g.spec.Seed = handSeed(m.spec.Seed, m.hand)
	m.game = g
	return g, true
}

// Hand is the number of the current hand, from 0.
func (m *Match) Hand() int { return m.hand }

func (m *Match) Totals() []int { return append([]int(nil), m.totals...) }

// Winner is the seat with the lowest total once the match is over;
// engine.NoSeat while it runs or when the lowest total is shared.
func (m *Match) Winner() int {
	if !m.done {
		return engine.NoSeat
	}
	low := m.totals[0]
	for _, t := range m.totals {
		low = min(low, t)
	}
	who := engine.NoSeat
	for s, t := range m.totals {
		if t == low {
			if who != engine.NoSeat {
				return engine.NoSeat
			}
			who = s
		}
	}
	return who
}

// ResumeMatch rebuilds a match in progress, for a table restored after a
// restart: spec is the match's own (its seed deals the hands still to
// come), hand the current hand's number from 0, totals the penalties
// counted so far, and current the hand in play (Resume rebuilds it from
// its record). The first seat of later hands keeps rotating from the
// current hand's.
func ResumeMatch(spec engine.Spec, hand int, totals []int, current *Game) (*Match, error) {
	if spec.Game != Name {
		return nil, fmt.Errorf("kings can't resume a %q match", spec.Game)
	}
	canon, r, err := parseRules(spec.Settings)
	if err != nil {
		return nil, err
	}
	if current == nil || hand < 0 || len(totals) != current.Seats() {
		return nil, fmt.Errorf("a match resumes from a hand number, a total per seat and the hand in play")
	}
	if !r.match && hand > 0 {
		return nil, fmt.Errorf("a one-hand match has no second hand")
	}
	if current.drawEnd != r.drawEnd || current.kingsAtOnce != r.kingsAtOnce {
		return nil, fmt.Errorf("the hand in play has other settings than the match")
	}
	spec.Settings = canon
	n := current.Seats()
	first := ((current.First()-hand)%n + n) % n
	return &Match{spec: spec, players: n, toTotal: r.match, first: first, hand: hand, game: current, totals: append([]int(nil), totals...)}, nil
}
