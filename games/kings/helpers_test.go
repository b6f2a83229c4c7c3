package kings

import (
	"fmt"
	"math"
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

// tally is what a strength run measures for one seat position.
type tally struct {
	hands, out int
	penalty    float64
	penSq      float64
}

// ci95 is the Wilson score interval of k successes in n.
func ci95(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	z := 1.959963984540054
	p := float64(k) / float64(n)
	den := 1 + z*z/float64(n)
	mid := (p + z*z/(2*float64(n))) / den
	half := z * math.Sqrt(p*(1-p)/float64(n)+z*z/(4*float64(n)*float64(n))) / den
	return mid - half, mid + half
}

func (t tally) String() string {
	lo, hi := ci95(t.out, t.hands)
	mean := t.penalty / float64(t.hands)
	sd := math.Sqrt(t.penSq/float64(t.hands) - mean*mean)
	half := 1.96 * sd / math.Sqrt(float64(t.hands))
	return fmt.Sprintf("out first %d/%d = %.1f%% [%.1f, %.1f]; mean penalty %.2f ± %.2f",
		t.out, t.hands, 100*float64(t.out)/float64(t.hands), 100*lo, 100*hi, mean, half)
}

// duel plays hands of one strength against others: seat k of hand i
// holds the tested strength when k == i % seats, so it sits in every seat
// equally often. It returns the tested strength's tally and the others'.
func duel(t testing.TB, tested, other string, seats, hands int, settings string) (me, rest tally) {
	for i := range hands {
		g := mustNew(t, uint64(i+1), seats, settings)
		strengths := make([]string, seats)
		for s := range strengths {
			strengths[s] = other
		}
		mine := i % seats
		strengths[mine] = tested
		playOut(t, g, newPlayers(t, strengths, uint64(i+1)), nil)
		res, _ := g.Over()
		for s := range seats {
			tl := &rest
			if s == mine {
				tl = &me
			}
			tl.hands++
			if res.Winner == s {
				tl.out++
			}
			p := float64(res.Points[s])
			tl.penalty += p
			tl.penSq += p * p
		}
	}
	return me, rest
}
