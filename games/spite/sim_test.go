package spite

import (
	"testing"

	"sshuffle/engine"
)

// maxActions bounds a game between computer players: the rules let a game
// go round for ever in theory (cards cycle through the recycle pile), and a
// test must end.
const maxActions = 5000

// playOut plays g to its end with one computer player a seat, checking
// that every choice is legal. It reports false if the game hit maxActions.
func playOut(tb testing.TB, g *Game, players [2]engine.Player[Action, View]) bool {
	tb.Helper()
	for range maxActions {
		seat := g.Turn()
		if seat == engine.NoSeat {
			return true
		}
		a := players[seat].Choose(g.View(seat))
		if err := g.Do(seat, a); err != nil {
			tb.Fatalf("%s: the computer player chose %v: %v", g.Spec(), a, err)
		}
	}
	return false
}

func newPlayers(tb testing.TB, a, b string, seed uint64) [2]engine.Player[Action, View] {
	tb.Helper()
	pa, err := NewPlayer(a, seed)
	if err != nil {
		tb.Fatal(err)
	}
	pb, err := NewPlayer(b, seed^0x5bd1e995)
	if err != nil {
		tb.Fatal(err)
	}
	return [2]engine.Player[Action, View]{pa, pb}
}

func specOf(settings string, seed uint64) engine.Spec {
	return engine.Spec{Game: Name, Settings: settings, Seed: seed}
}
