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
