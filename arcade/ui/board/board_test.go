package arcade

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/games"
)

// A Spider column after several deals can hold more cards than the screen
// has lines: it must fold, keep its top card visible, and stay clickable.
func TestLongColumnFolds(t *testing.T) {
	var cards []engine.Card
	for range 5 {
		cards = append(cards, engine.NoCard)
	}
	for i := range 25 {
		cards = append(cards, engine.NewCard(engine.Rank(13-i%13), engine.Spades))
	}
	piles := []engine.Pile{
		{Kind: engine.Stock, X: 0, Y: 0, Label: "5"},
		{Kind: engine.Tableau, Cards: cards, FaceDown: 5, X: 0, Y: 2, Fan: engine.FanDown},
		{Kind: engine.Tableau, X: 2, Y: 2, Fan: engine.FanDown},
	}
	bv := boardView{unicode: true, color: true}
	const h = 20
	c := bv.render(piles, 80, h, nil)
	text := c.String(bv.palette())
	lines := strings.Split(text, "\n")
	require.Len(t, lines, h)
	require.Contains(t, text, "5", "the face-down run shows its count")
	require.Contains(t, text, " +", "the middle of the face-up run folds")
	// The top card (index 29) is on the last line and clickable.
	last := c.hits[h-1]
	require.True(t, last[0].ok)
	require.Equal(t, 1, last[0].pile)
	require.Equal(t, 29, last[0].index)
	require.Contains(t, lines[h-1], engine.NewCard(engine.Rank(13-24%13), engine.Spades).String())
	// The card just under the lead of the folded part stays reachable too.
	var idx []int
	for y := 2; y < h; y++ {
		if hh := c.hits[y][0]; hh.ok {
			idx = append(idx, hh.index)
		}
	}
	require.Equal(t, 4, idx[0], "one line for the five face-down cards")
	require.Equal(t, 5, idx[1], "then the first face-up card")
}

// Every game's opening layout fits 80x24 without folding.
func TestEveryGameFits80x24(t *testing.T) {
	for _, info := range games.Default().Entries() {
		if info.Game.New == nil {
			continue
		}
		g, err := info.Game.New(engine.Spec{Game: info.Game.Name, Variant: info.Variant.Name, Seed: 3}, games.Options{})
		require.NoError(t, err)
		w, h := boardSize(g.Piles())
		require.LessOrEqual(t, w, 80, info.Key())
		require.LessOrEqual(t, h, 24-4, info.Key())
		e, _ := testEnv(t)
		s := newGameScreen(e, info, g, nil)
		mw, mh := s.minSize()
		require.LessOrEqual(t, mw, 80, info.Key())
		require.LessOrEqual(t, mh, 24, info.Key())
		require.LessOrEqual(t, len(strings.Split(s.view(), "\n")), 24, info.Key())
	}
}

// The styles the board and the help bars paint write exactly what lipgloss
// would; the colour ones go the short way (codes around the text). The
// underlined selection of the plain palette does not: lipgloss underlines
// word by word, so it keeps going through Render.
func TestCodesMatchRender(t *testing.T) {
	texts := []string{"", "x", "K♠", "10♥", "  [   ]  ", "░░░░░", "+3", "esc drop", "A♦ 2♦ 3♦"}
	check := func(c codes, short bool) {
		require.Equal(t, short, c.exact)
		for _, text := range texts {
			require.Equal(t, c.style.Render(text), c.render(text), "%q", text)
			var sb strings.Builder
			c.write(&sb, text)
			require.Equal(t, c.style.Render(text), sb.String(), "%q", text)
		}
	}
	for i, p := range palettes {
		for st := range numStyles {
			check(p[st], i == 1 || (st != stSelBlack && st != stSelRed))
		}
	}
	check(keyCodes, true)
	check(faintCodes, true)
	// A style that is more than codes around the text takes the long way.
	padded := codesOf(lipgloss.NewStyle().Bold(true).Width(8))
	require.False(t, padded.exact)
	require.Equal(t, padded.style.Render("x"), padded.render("x"))
}
