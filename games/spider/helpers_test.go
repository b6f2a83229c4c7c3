package spider

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"sshuffle/engine"
)

// layout builds a game from columns written bottom to top, "5S 9H | 10S 9S"
// with the cards before "|" face down (no "|": all face up). stock holds
// the rows still to deal, next row first, ten cards each. Missing columns
// are empty. Card counts need not add up: these are rule examples.
func layout(t testing.TB, stock []string, cols ...string) *Game {
	t.Helper()
	g := &Game{spec: engine.Spec{Game: "spider", Variant: "4suit"}, score: startScore}
	j := 0
	for c, s := range cols {
		down := 0
		var cards []engine.Card
		for _, f := range strings.Fields(s) {
			if f == "|" {
				down = len(cards)
				continue
			}
			cd, err := engine.ParseCard(f)
			require.NoError(t, err)
			cards = append(cards, cd)
		}
		j += copy(g.p.cards[j:], cards)
		g.p.n[c] = uint8(len(cards))
		g.p.down[c] = uint8(down)
	}
	g.p.rows = uint8(len(stock))
	for r, row := range stock {
		cs := engine.MustCards(row)
		require.Len(t, cs, numCols)
		copy(g.stock[(numRows-len(stock)+r)*numCols:], cs)
	}
	return g
}

// colText shows column c as layout writes it, for comparing.
func colText(g *Game, c int) string {
	cs := g.p.col(c)
	var parts []string
	for i, x := range cs {
		if i == int(g.p.down[c]) && i > 0 {
			parts = append(parts, "|")
		}
		parts = append(parts, x.ASCII())
	}
	return strings.Join(parts, " ")
}

func mv(from, index, to int) engine.Action {
	return engine.Action{Kind: engine.Move, From: PileColumn + from, Index: index, To: PileColumn + to}
}

func auto(from, index int) engine.Action {
	return engine.Action{Kind: engine.Auto, From: PileColumn + from, Index: index}
}

var draw = engine.Action{Kind: engine.Draw}

// cardCount counts every card of the deal wherever it is.
func cardCount(g *Game) map[engine.Card]int {
	m := map[engine.Card]int{}
	for _, c := range g.p.cards[:g.p.tableCount()] {
		m[c]++
	}
	dealt := numRows - int(g.p.rows)
	for _, c := range g.stock[dealt*numCols:] {
		m[c]++
	}
	for k := 0; k < int(g.p.runs); k++ {
		for r := engine.Ace; r <= engine.King; r++ {
			m[engine.NewCard(r, g.p.done[k])]++
		}
	}
	return m
}

func fullDeck(t testing.TB, variant string) map[engine.Card]int {
	cs, err := deck(variant)
	require.NoError(t, err)
	m := map[engine.Card]int{}
	for _, c := range cs {
		m[c]++
	}
	return m
}
