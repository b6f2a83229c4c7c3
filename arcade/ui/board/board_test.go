package board

import (
	"strings"
	"testing"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/engine"
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
	bv := View{Unicode: true, Color: true}
	const h = 20
	c := bv.Render(piles, 80, h, nil)
	text := c.String(bv.Palette())
	lines := strings.Split(text, "\n")
	require.Len(t, lines, h)
	require.Contains(t, text, "5", "the face-down run shows its count")
	require.Contains(t, text, " +", "the middle of the face-up run folds")
	// The top card (index 29) is on the last line and clickable.
	last := []Hit{c.At(0, h-1)}
	require.True(t, last[0].OK)
	require.Equal(t, 1, last[0].Pile)
	require.Equal(t, 29, last[0].Index)
	require.Contains(t, lines[h-1], engine.NewCard(engine.Rank(13-24%13), engine.Spades).String())
	// The card just under the lead of the folded part stays reachable too.
	var idx []int
	for y := 2; y < h; y++ {
		if hh := c.At(0, y); hh.OK {
			idx = append(idx, hh.Index)
		}
	}
	require.Equal(t, 4, idx[0], "one line for the five face-down cards")
	require.Equal(t, 5, idx[1], "then the first face-up card")
}

// The styles the board and the help bars paint write exactly what lipgloss
// would; the colour ones go the short way (codes around the text). The
// underlined selection of the plain palette does not: lipgloss underlines
// word by word, so it keeps going through Render.
func TestCodesMatchRender(t *testing.T) {
	texts := []string{"", "x", "K♠", "10♥", "  [   ]  ", "░░░░░", "+3", "esc drop", "A♦ 2♦ 3♦"}
	check := func(c ui.Codes, short bool) {
		require.Equal(t, short, c.Exact)
		for _, text := range texts {
			require.Equal(t, c.Style.Render(text), c.Render(text), "%q", text)
			var sb strings.Builder
			c.Write(&sb, text)
			require.Equal(t, c.Style.Render(text), sb.String(), "%q", text)
		}
	}
	for i, p := range palettes {
		for st := range numStyles {
			check(p[st], i == 1 || (st != stSelBlack && st != stSelRed))
		}
	}
	check(ui.KeyCodes, true)
	check(ui.FaintCodes, true)
	// A style that is more than codes around the text takes the long way.
	padded := ui.CodesOf(lipgloss.NewStyle().Bold(true).Width(8))
	require.False(t, padded.Exact)
	require.Equal(t, padded.Style.Render("x"), padded.Render("x"))
}

// TestCellsKeepWhatWasDrawn: a cell keeps its rune and style, and a hit
// its pile, index and OK, exactly, over the ranges boards use and past
// them.
func TestCellsKeepWhatWasDrawn(t *testing.T) {
	for _, r := range []rune{' ', 'A', '♠', '♥', '…', '█', 0x10FFFF, utf8.RuneError} {
		for st := range numStyles {
			c := cellOf(r, st)
			if c.ch() != r || c.st() != st {
				t.Fatalf("cellOf(%q, %d) keeps %q, %d", r, st, c.ch(), c.st())
			}
		}
	}
	if blank.ch() != ' ' || blank.st() != stNone {
		t.Fatal("blank is not a plain space")
	}
	for _, pile := range []int{0, 1, 7, 31, 255, 32767} {
		for _, index := range []int{-1, 0, 1, 23, 103, 32767} {
			for _, ok := range []bool{false, true} {
				h := Hit{Pile: pile, Index: index, OK: ok}
				if got := hitOf(h).Hit(); got != h {
					t.Fatalf("hitOf(%+v) keeps %+v", h, got)
				}
			}
		}
	}
	if (hit(0)).Hit() != (Hit{}) {
		t.Fatal("the zero hit is not the zero Hit")
	}
}
