package freecell

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"sshuffle/engine"
)

func spec(n uint64) engine.Spec { return engine.Spec{Game: "freecell", Seed: n} }

// layout builds a game from columns written bottom card first ("9C 4D JS"),
// cells ("" for empty) and foundation heights by suit (C D H S).
func layout(t testing.TB, set Settings, cols []string, cells []string, found [4]int) *Game {
	t.Helper()
	g, err := NewWithSettings(spec(1), set)
	require.NoError(t, err)
	g.b = board{}
	for i, c := range cols {
		for _, card := range engine.MustCards(c) {
			g.b.push(i, card)
		}
	}
	for i, c := range cells {
		if strings.TrimSpace(c) != "" {
			g.b.cells[i] = engine.MustCards(c)[0]
		}
	}
	for s, r := range found {
		g.b.found[s] = uint8(r)
	}
	return g
}

func manual() Settings { return Settings{} }

func mv(from, index, to int) engine.Action {
	return engine.Action{Kind: engine.Move, From: from, Index: index, To: to}
}

func colPile(i int) int  { return firstCol + i }
func cellPile(i int) int { return i }

// topMove moves the top card (or the cell card) of a pile.
func topMove(g *Game, from, to int) engine.Action {
	idx := 0
	if from >= firstCol {
		idx = int(g.b.n[from-firstCol]) - 1
	}
	return mv(from, idx, to)
}

// requireAllCards checks that every card is in exactly one place.
func requireAllCards(t testing.TB, b *board) {
	t.Helper()
	var seen [64]int
	for i := range numCols {
		for _, c := range b.col(i) {
			seen[c]++
		}
	}
	for _, c := range b.cells {
		if c != engine.NoCard {
			seen[c]++
		}
	}
	for s := range 4 {
		for r := 1; r <= int(b.found[s]); r++ {
			seen[engine.NewCard(engine.Rank(r), engine.Suit(s))]++
		}
	}
	for _, c := range engine.Deck() {
		if seen[c] != 1 {
			require.Equal(t, 1, seen[c], "card %v", c)
		}
		seen[c] = 0
	}
	for c, n := range seen {
		if n != 0 {
			require.Zero(t, n, "stray card %d", c)
		}
	}
}
