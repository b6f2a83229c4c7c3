package kings

import (
	"testing"

	"sshuffle/engine"
)

// maxActions bounds a hand: a turn is finite (each play empties the hand
// by one, each move leaves one pile fewer), so a hand that runs past this
// is a bug, not a long game.
const maxActions = 5000

func spec(seed uint64, settings string) engine.Spec {
	return engine.Spec{Game: Name, Settings: settings, Seed: seed}
}

func mustNew(t testing.TB, seed uint64, players int, settings string) *Game {
	t.Helper()
	g, err := New(spec(seed, settings), players)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func newPlayers(t testing.TB, strengths []string, seed uint64) []engine.Player[Action, View] {
	t.Helper()
	ps := make([]engine.Player[Action, View], len(strengths))
	for i, s := range strengths {
		p, err := NewPlayer(s, seed*31+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		ps[i] = p
	}
	return ps
}

// playOut lets the computer players finish g, calling each (if not nil)
// after every action.
func playOut(t testing.TB, g *Game, ps []engine.Player[Action, View], each func()) {
	t.Helper()
	for n := 0; ; n++ {
		if _, over := g.Over(); over {
			return
		}
		if n > maxActions {
			t.Fatalf("%v: no end after %d actions", g.Spec(), n)
		}
		s := g.Turn()
		a := ps[s].Choose(g.View(s))
		if err := g.Do(s, a); err != nil {
			t.Fatalf("%v: seat %d chose %v: %v", g.Spec(), s, a, err)
		}
		if each != nil {
			each()
		}
	}
}
