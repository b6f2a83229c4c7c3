package klondike

import (
	"strings"
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

// foundation lists the cards of a suit from the Ace up to rank n.
func foundation(su string, n int) []engine.Card {
	var out []engine.Card
	for _, r := range strings.Fields("A 2 3 4 5 6 7 8 9 T J Q K")[:n] {
		out = append(out, engine.MustCards(r+su)...)
	}
	return out
}

// TestDeadFoundationCardComesDown: a card on its foundation is a possible
// column top only once it can come down. Draw 1 deal 3650 reaches this
// position; the 7♣ can only go on the 8♥ (the 8♦ lies under the 7♠, which
// waits for the 8♥ too), and the 8♥ can go up from the talon but come back
// down only onto a black 9: the 9♣ is face down under the J♣'s run and the
// 9♠ under the 8♦.
func TestDeadFoundationCardComesDown(t *testing.T) {
	l := Layout{Variant: "draw1",
		Foundations: [4][]engine.Card{foundation("C", 3), foundation("D", 1), foundation("H", 5), foundation("S", 5)},
		Columns: [7][]engine.Card{cards("KH QS JH"), cards("KD QC JD TS 9D 8C 7H 6C"), nil, cards("KC QD JS"),
			cards("8S TH 6H 5C 4D"), cards("9C 4C JC TD 9S 8D 7S"), cards("QH KS 2D 6S 7C")},
		FaceDown: [7]int{0, 0, 0, 0, 2, 2, 4},
		Waste:    cards("3D TC"), Stock: cards("8H 7D 9H 5D 6D")}
	g := mustLayout(t, l)
	sv := &solver{draw: 1}
	s := fromGame(g)
	var f fixpoint
	require.False(t, f.run(sv, &s), "the 7♣ never leaves")
	require.Zero(t, f.left&(1<<engine.MustCards("7C")[0]))
	require.True(t, sv.dead(&s))
	require.Equal(t, engine.Impossible, SolveGame(g, 2000).Outcome)
	// The same with the 8♥ on its foundation already: the 7♣ could go on
	// it only once it came down, onto a black 9, both under the 7♣.
	l = Layout{Variant: "draw1", Foundations: [4][]engine.Card{foundation("H", 8)},
		Columns: [7][]engine.Card{cards("AC 8D 9S 9C 7C")}, FaceDown: [7]int{4}}
	s = fromGame(mustLayout(t, l))
	f = fixpoint{}
	require.False(t, f.run(sv, &s), "the 7♣ never leaves")
	require.True(t, sv.dead(&s))
}

// TestDeadTwins: positions every card of which can leave its place, taken
// alone, but where two twins both need the same column top.
func TestDeadTwins(t *testing.T) {
	// Draw 1 deal 3650 again. The J♣ and the J♠ can only go on the Q♦:
	// the Q♥ lies under the J♠. Whichever goes first stays there, since
	// the J♣ goes up only after the 7♣ under the J♠, and the J♠ only
	// after the 6♠ under itself.
	l := Layout{Variant: "draw1",
		Foundations: [4][]engine.Card{foundation("C", 3), foundation("D", 1), foundation("H", 5), foundation("S", 5)},
		Columns: [7][]engine.Card{cards("KH QS JH TS 9D 8C 7H 6C"), cards("QC JD TC 9H 8S"), cards("KC"), nil, nil,
			cards("9C 4C JC TD 9S 8H 7S 6H 5C 4D"), cards("QH KS 2D 6S 7C JS TH")},
		FaceDown: [7]int{0, 0, 0, 0, 0, 2, 5},
		Waste:    cards("3D 8D QD 6D 5D KD"), Stock: cards("7D")}
	// Draw 3 deal 59: the 10♦ (in the stock) and the 10♥ (face down) can
	// only go on the J♣, the J♠ lying face down under the J♦.
	l3 := Layout{Variant: "draw3",
		Foundations: [4][]engine.Card{foundation("C", 2), nil, foundation("H", 4), foundation("S", 2)},
		Columns: [7][]engine.Card{cards("KD QS JH"), cards("5C 9D 8S 7D 6C 5D 4C 3D"), cards("3C"), cards("KS QH JC"),
			cards("AD 6S 7H"), cards("JS JD TS"), cards("KH 3S 6D TH 4S TC 8D 7C 6H 5S 4D")},
		FaceDown: [7]int{0, 1, 0, 0, 2, 1, 6},
		Waste:    cards("QC"), Stock: cards("9S 8C 7S 5H 8H TD KC QD 9H 2D 9C")}
	for _, l := range []Layout{l, l3} {
		g := mustLayout(t, l)
		sv := &solver{draw: g.draw}
		s := fromGame(g)
		var f fixpoint
		require.True(t, f.run(sv, &s), "%s: every card can leave, taken alone", l.Variant)
		require.True(t, sv.dead(&s), l.Variant)
		require.Equal(t, engine.Impossible, SolveGame(g, 2000).Outcome, l.Variant)
	}
}

// TestDeadFoundationOrder: a foundation card comes down only after the
// cards on it there. Draw 1 deal 1585 reaches this position: the 3♣ can
// go on the 4♦ once it comes down, onto the 5♠, but the 5♦ to 8♦ have to
// come down first, and the 8♦ can only go on the 9♠ (under the 8♥) or the
// 9♣, which waits for the 10♥, which waits for a black Jack: the J♣ lies
// under the 3♣, the J♠ under the 10♦.
func TestDeadFoundationOrder(t *testing.T) {
	l := Layout{Variant: "draw1",
		Foundations: [4][]engine.Card{foundation("C", 1), foundation("D", 8), foundation("H", 3), foundation("S", 4)},
		Columns: [7][]engine.Card{cards("KD QC JD TS 9D 8C 7H 6C"), cards("KS"), cards("KC QD JS TD 9S 8H 7S 6H"),
			cards("KH QS JH TC 9H 8S"), nil, cards("5S"), cards("4H 2C 7C 6S JC 3C")},
		FaceDown: [7]int{0, 0, 0, 0, 0, 0, 5},
		Waste:    cards("QH 4C 5C 9C TH 5H")}
	g := mustLayout(t, l)
	sv := &solver{draw: 1}
	s := fromGame(g)
	var f fixpoint
	require.False(t, f.run(sv, &s))
	require.Zero(t, f.left&(1<<engine.MustCards("3C")[0]), "the 3♣ never leaves")
	require.True(t, sv.dead(&s))
	require.Equal(t, engine.Impossible, SolveGame(g, 2000).Outcome)
}

// TestTwinsLeftOutWhileIdle: a search whose twins proved nothing over a
// stretch of checks leaves it out of the next ones, then tries it again.
func TestTwinsLeftOutWhileIdle(t *testing.T) {
	defer func(s, r int) { twinStretch, twinRest = s, r }(twinStretch, twinRest)
	twinStretch, twinRest = 4, 1
	// Draw 3 deal 59's position from TestDeadTwins, lost by twins alone.
	lost := fromGame(mustLayout(t, Layout{Variant: "draw3",
		Foundations: [4][]engine.Card{foundation("C", 2), nil, foundation("H", 4), foundation("S", 2)},
		Columns: [7][]engine.Card{cards("KD QS JH"), cards("5C 9D 8S 7D 6C 5D 4C 3D"), cards("3C"), cards("KS QH JC"),
			cards("AD 6S 7H"), cards("JS JD TS"), cards("KH 3S 6D TH 4S TC 8D 7C 6H 5S 4D")},
		FaceDown: [7]int{0, 1, 0, 0, 2, 1, 6},
		Waste:    cards("QC"), Stock: cards("9S 8C 7S 5H 8H TD KC QD 9H 2D 9C")}))
	g, err := New(engine.Spec{Game: "klondike", Variant: "draw3", Seed: 1})
	require.NoError(t, err)
	alive := fromGame(g)
	sv := &solver{draw: 3}
	sv.auto(&alive, nil)
	d := newDFS(sv, alive)
	require.True(t, d.dead(&lost, 0), "twins is on at first")
	for range 3 {
		require.False(t, d.dead(&alive, 0))
	}
	// One proof in a stretch of four is plenty: still on.
	require.True(t, d.dead(&lost, 0))
	for range 3 {
		require.False(t, d.dead(&alive, 0))
	}
	for range 4 {
		require.False(t, d.dead(&alive, 0))
	}
	// Four checks without a proof: the next stretch goes without twins.
	for range 4 {
		require.False(t, d.dead(&lost, 0), "twins left out")
	}
	require.True(t, d.dead(&lost, 0), "twins back after its rest")
}
