package spider

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// macros lists the macro moves expand yields from g's position.
func macros(g *Game) map[smove]pos {
	out := map[smove]pos{}
	expand(&g.p, nil, weights{macros: true}, nil, &spos{}, func(m smove, q *spos) {
		if m&macroMove != 0 {
			out[m] = q.p
		}
	})
	return out
}

// A run of four one-suit groups (9H, 8S-7S, 6D, 5C-4C) goes onto the 10S
// with two empty columns to carry it; it is written out as single moves
// that the rules accept, ending where the macro move does.
func TestMacroCarriesRunThroughEmptyColumns(t *testing.T) {
	g := layout(t, nil, "KS | 9H 8S 7S 6D 5C 4C", "10S", "", "", "QH", "QD", "JC", "JD", "2H", "3H")
	ms := macros(g)
	m := macroMove | smove(0|1<<4|1<<12)
	want, ok := ms[m]
	require.True(t, ok, "the whole run onto 10S is a macro move: %v", ms)
	acts := g.actions([]smove{m})
	require.Greater(t, len(acts), 4, "four groups take more than one move each way")
	h := g.Clone()
	for i, a := range acts {
		require.NoError(t, h.Do(a), "move %d", i)
	}
	require.Equal(t, want, h.p)
	require.Equal(t, "TS 9H 8S 7S 6D 5C 4C", colText(h, 1))
	require.Equal(t, "KS", colText(h, 0), "the face-down King is turned up")
	require.Empty(t, colText(h, 2))
	require.Empty(t, colText(h, 3))
}

func hasMacro(g *Game, from, i, to int) bool {
	_, ok := macros(g)[macroMove|smove(from|i<<4|to<<12)]
	return ok
}

// With m empty columns free, at most 2^m groups are carried; a group that
// sits on a card one higher inside the run only goes onto its own suit.
func TestMacroCountsEmptyColumns(t *testing.T) {
	// 10C | 9H | 8S-7S | 6D | 5C-4C, two empty columns.
	g := layout(t, nil, "KS | 10C 9H 8S 7S 6D 5C 4C", "JD", "", "", "QH", "QD", "JC", "2D", "2H", "3H")
	require.False(t, hasMacro(g, 0, 1, 1), "five groups need three empty columns")
	require.True(t, hasMacro(g, 0, 5, 2), "two groups into an empty column, the other to help")
	require.False(t, hasMacro(g, 0, 2, 2), "four groups into an empty column with one to help")

	// One empty column: two groups at most.
	g = layout(t, nil, "KS | 9H 8S 7S 6D 5C 4C", "10S", "", "7D", "7H", "QD", "JC", "JD", "2H", "3H")
	require.False(t, hasMacro(g, 0, 1, 1), "four groups with one empty column")
	require.True(t, hasMacro(g, 0, 4, 3), "6D-5C-4C onto its own suit")
	require.False(t, hasMacro(g, 0, 4, 4), "6D sits on 7S: onto another suit it only trades one link for another")
}
