package toygame

import (
	"fmt"
	"slices"
	"testing"

	"sshuffle/engine"
	"sshuffle/internal/gametest"
)

// state is a game's whole position as a comparable value.
type state struct {
	hands        [2]string
	trick        [2]engine.Card
	leader, turn int
	tricks       [2]int
	actions      int
}

// box is the 46 cards of the pack that High Card leaves out, which the
// shared suite, written for games that play whole packs, counts as a
// place nobody sees.
func box() []engine.Card {
	var out []engine.Card
	for _, c := range engine.Deck() {
		if !slices.Contains(Deck(), c) {
			out = append(out, c)
		}
	}
	return out
}

// suite runs the checks every table game shares (internal/gametest).
var suite = gametest.Table[Action, View, *Game, state]{
	Name: Name, MinSeats: 2, MaxSeats: 2, Settings: Settings, Strengths: Strengths, NewPlayer: NewPlayer,
	New: New,
	State: func(g *Game) state {
		return state{hands: [2]string{fmt.Sprint(g.hands[0]), fmt.Sprint(g.hands[1])}, trick: g.trick,
			leader: g.leader, turn: g.turn, tricks: g.tricks, actions: len(g.hist)}
	},
	Clone: func(g *Game) *Game {
		h := *g
		h.hands = [2][]engine.Card{slices.Clone(g.hands[0]), slices.Clone(g.hands[1])}
		h.hist = slices.Clone(g.hist)
		return &h
	},
	Places: func(g *Game, seat int) (seen, hidden [][]engine.Card) {
		var trick []engine.Card
		for _, c := range g.trick {
			if c != engine.NoCard {
				trick = append(trick, c)
			}
		}
		// Cards played in finished tricks are face up for everyone.
		var played []engine.Card
		for _, h := range g.hist {
			if !slices.Contains(g.trick[:], h.Action.Card) {
				played = append(played, h.Action.Card)
			}
		}
		seen = [][]engine.Card{trick, played}
		hidden = [][]engine.Card{box()}
		for s := range 2 {
			if s == seat {
				seen = append(seen, g.hands[s])
			} else {
				hidden = append(hidden, g.hands[s])
			}
		}
		return seen, hidden
	},
	Packs: 1,
	Blind: func(g *Game, seat int, rng *engine.RNG) (*Game, bool) {
		if seat == engine.Spectator {
			return nil, false
		}
		h := *g
		h.hist = slices.Clone(g.hist)
		other := 1 - seat
		pool := append(slices.Clone(g.hands[other]), box()...)
		for i := len(pool) - 1; i > 0; i-- {
			j := rng.Intn(i + 1)
			pool[i], pool[j] = pool[j], pool[i]
		}
		h.hands[seat] = slices.Clone(g.hands[seat])
		h.hands[other] = pool[:len(g.hands[other])]
		return &h, true
	},
	Odd: func(g *Game, seat int, _ *engine.RNG) []Action {
		odd := []Action{{}, {Card: engine.MustCards("KD")[0]}}
		for _, c := range g.hands[1-seat] {
			odd = append(odd, Action{Card: c})
		}
		return odd
	},
	Record:     func(g *Game, seats []string) any { return g.Record(seats) },
	Replay:     Replay,
	MaxActions: 2 * HandSize,
}

func TestRandomPlay(t *testing.T)          { suite.RandomPlay(t, 300) }
func TestChoiceIgnoresUnseen(t *testing.T) { suite.ChoiceIgnoresUnseen(t, 60, 1) }
