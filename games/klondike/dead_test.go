package klondike

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// TestDeadNeverOnWinningLine: dead is a proof, so no position on a line
// the search found to a win may be dead.
func TestDeadNeverOnWinningLine(t *testing.T) {
	wins := 0
	for _, v := range []string{"draw3", "draw1"} {
		for seed := uint64(1); seed <= 40; seed++ {
			g, err := New(engine.Spec{Game: "klondike", Variant: v, Seed: seed})
			require.NoError(t, err)
			sv := &solver{draw: g.draw}
			s := fromGame(g)
			sv.auto(&s, nil)
			out, moves, _ := sv.search(s, 200000)
			if out != engine.Solved {
				continue
			}
			wins++
			require.False(t, sv.dead(&s), "%s %d start", v, seed)
			for i, m := range moves {
				sv.apply(&s, m, nil)
				require.False(t, sv.dead(&s), "%s %d move %d", v, seed, i)
			}
			require.True(t, s.won())
		}
	}
	require.Greater(t, wins, 40)
}

// TestDeadCases: dead follows the talon as well as the blockers.
func TestDeadCases(t *testing.T) {
	sv := &solver{draw: 3}
	// A chain of blockers: each 2 waits for cards under the other.
	l := Layout{Variant: "draw3", Columns: [7][]engine.Card{cards("AS AC 3H 2S"), cards("3D 2C")},
		FaceDown: [7]int{3, 1}}
	s := fromGame(mustLayout(t, l))
	require.True(t, sv.dead(&s))
	// The same with the 3♦ in the stock: the 2♣ could go on it, and
	// then the 2♠ on the 3♥... so nothing is proved.
	l = Layout{Variant: "draw3", Columns: [7][]engine.Card{cards("AS AC 3H 2S"), cards("2C")},
		Stock: cards("3D"), FaceDown: [7]int{3}}
	s = fromGame(mustLayout(t, l))
	require.False(t, sv.dead(&s))
	// A talon card that nothing can take: the 4♠ waits for the 5♦ in the
	// stock (the A♠ and 5♥ lie under it), and the 5♦ for the A♦ or a
	// black 6, all under the 4♠. Taking the talon for free would miss it.
	l = Layout{Variant: "draw3", Columns: [7][]engine.Card{cards("AD 2D 6S 6C AS 5H 4S")},
		Stock: cards("5D"), FaceDown: [7]int{6}}
	s = fromGame(mustLayout(t, l))
	require.True(t, sv.dead(&s))
}

// TestDeadReach: in Draw 3 a talon card the stock never brings up, with
// nothing before it or over it ever played, stays.
func TestDeadReach(t *testing.T) {
	sv := &solver{draw: 3}
	// Stock from the top: 2♠, K♥, Q♥: only the Q♥ comes up... the
	// K♥ goes to an empty column, so all can be played.
	l := Layout{Variant: "draw3", Columns: [7][]engine.Card{cards("AS 3H")}, FaceDown: [7]int{1},
		Stock: cards("QH KH 2S")}
	s := fromGame(mustLayout(t, l))
	require.False(t, sv.dead(&s))
	// Stock 4♠, 9♦, 9♥, with the cards the 9s and the 4♠ could go on
	// (black 10s, red 5s, the A♠) under the 3♥, and the 3♥ wanting the
	// 4♠: the stock only ever brings up the 9♥, which stays, so the 4♠
	// never comes up and the 3♥ never leaves.
	l = Layout{Variant: "draw3", Columns: [7][]engine.Card{cards("AH 2H AS 4C 5H 5D TS TC 8D 8H 3H")},
		FaceDown: [7]int{10}, Stock: cards("9H 9D 4S")}
	s = fromGame(mustLayout(t, l))
	require.True(t, sv.dead(&s))
}
