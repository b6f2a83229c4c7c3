package spite

import (
	"errors"
	"fmt"

	"sshuffle/engine"
)

// Match plays games until the match setting's target: one game, or until a
// player's total reaches 50.
type Match struct {
	spec    engine.Spec
	r       rules
	n       int // the current game's number, 0 first
	game    *Game
	totals  []int
	counted bool // the current game's result is in totals
	done    bool
}

// NewMatch deals the match's first game: the spec's own deal, so a single
// game match is exactly New(spec, players).
func NewMatch(spec engine.Spec, players int) (*Match, error) {
	g, err := New(spec, players)
	if err != nil {
		return nil, err
	}
	return &Match{spec: g.spec, r: g.r, game: g, totals: make([]int, 2)}, nil
}

// Game is the game in play (or the last one, once the match is over).
func (m *Match) Game() *Game { return m.game }

// Next, once the current game is over, adds its points to the totals and
// deals the next game, or reports false when the match is over. While the
// current game is still in play it changes nothing and returns that game.
func (m *Match) Next() (*Game, bool) {
	if m.done {
		return m.game, false
	}
	res, over := m.game.Over()
	if !over {
		return m.game, true
	}
	if !m.counted {
		for i, p := range res.Points {
			m.totals[i] += p
		}
		m.counted = true
	}
	if m.r.target == 0 || max(m.totals[0], m.totals[1]) >= m.r.target {
		m.done = true
		return m.game, false
	}
	m.n++
	spec := m.spec
	spec.Seed = gameSeed(m.spec.Seed, m.n)
	g, _ := New(spec, 2) // the spec was checked when the match began
	m.game, m.counted = g, false
	return g, true
}

// gameSeed derives the seed of game n of a match from the match's seed.
func gameSeed(seed uint64, n int) uint64 {
	if n == 0 {
		return seed
	}
	return engine.NewRNG(seed ^ uint64(n)*0xd1b54a32d192ed03).Uint64()
}

// Totals are the points each seat has won so far, counted by Next.
func (m *Match) Totals() []int { return append([]int(nil), m.totals...) }

// Winner is the seat with the most points once the match is over, or
// engine.NoSeat while it runs or when the totals are level.
func (m *Match) Winner() int {
	if !m.done || m.totals[0] == m.totals[1] {
		return engine.NoSeat
	}
	if m.totals[0] > m.totals[1] {
		return 0
	}
	return 1
}

// ResumeMatch rebuilds a match in progress, for a table restored after a
// restart: spec is the match's own (its seed deals the games still to
// come), game the current game's number from 0, totals the points counted
// so far, and current the game in play (Resume rebuilds it from its
// record).
func ResumeMatch(spec engine.Spec, game int, totals []int, current *Game) (*Match, error) {
	if spec.Game != Name {
		return nil, fmt.Errorf("spite can't resume a %q match", spec.Game)
	}
	r, canon, err := parseRules(spec.Settings)
	if err != nil {
		return nil, err
	}
	if game < 0 || len(totals) != 2 || current == nil {
		return nil, errors.New("a match resumes from a game number, two totals and the game in play")
	}
	if r.target == 0 && game > 0 {
		return nil, errors.New("a single-game match has no second game")
	}
	if current.r != r {
		return nil, errors.New("the game in play has other settings than the match")
	}
	spec.Settings = canon
	return &Match{spec: spec, r: r, n: game, game: current, totals: append([]int(nil), totals...)}, nil
}
