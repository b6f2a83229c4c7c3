package freecell

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"sshuffle/engine"
)

// decompose plans moving the top n cards of column src onto column dst
// one card at a time through the empty cells and the empty columns other
// than dst: the classic recursion that the capacity formula counts. It
// returns (from, to) pile pairs.
func decompose(b *board, src, n, dst int) [][2]int {
	var cells []int
	for i, c := range b.cells {
		if c == engine.NoCard {
			cells = append(cells, i)
		}
	}
	var empties []int
	for i := range numCols {
		if b.n[i] == 0 && i != dst {
			empties = append(empties, i)
		}
	}
	var out [][2]int
	var rec func(n, src, dst int, empties []int)
	rec = func(n, src, dst int, empties []int) {
		if n <= len(cells)+1 {
			for k := 0; k < n-1; k++ {
				out = append(out, [2]int{colPile(src), cellPile(cells[k])})
			}
			out = append(out, [2]int{colPile(src), colPile(dst)})
			for k := n - 2; k >= 0; k-- {
				out = append(out, [2]int{cellPile(cells[k]), colPile(dst)})
			}
			return
		}
		e, rest := empties[0], empties[1:]
		k := capacity(len(cells), len(rest))
		rec(k, src, e, rest)
		rec(n-k, src, dst, rest)
		rec(k, e, dst, rest)
	}
	rec(n, src, dst, empties)
	return out
}

// run makes n cards descending from rank top in alternating colours.
func run(top engine.Rank, red bool, n int) string {
	s := ""
	for i := range n {
		r := top - engine.Rank(i)
		suit := engine.Spades
		if red != (i%2 == 1) {
			suit = engine.Hearts
		}
		s += engine.NewCard(r, suit).ASCII() + " "
	}
	return s
}

// 004's table: "Empty free cells / No empty columns / 1 / 2", worked out
// for a run going onto a column that already has cards. Each entry is
// checked three ways: the formula, a run of exactly that many cards that
// Do accepts and that decomposes into legal one-card moves ending in the
// same position, and one card more that Do rejects.
func TestSupermoveTable(t *testing.T) {
	table := [5][3]int{
		{1, 2, 4},
		{2, 4, 8},
		{3, 6, 12},
		{4, 8, 16},
		{5, 10, 20},
	}
	for cells := 0; cells <= 4; cells++ {
		for empty := 0; empty <= 2; empty++ {
			want := table[cells][empty]
			require.Equal(t, want, capacity(cells, empty))
			for _, toEmpty := range []bool{false, true} {
				checkCapacity(t, cells, empty, toEmpty, want)
			}
		}
	}
}

func checkCapacity(t *testing.T, cells, empty int, toEmpty bool, want int) {
	name := fmt.Sprintf("cells=%d empty=%d toEmpty=%v", cells, empty, toEmpty)
	// The longest run onto a card is Queen to Ace on a King (12); into an
	// empty column, King to Ace (13).
	longest := 12
	if toEmpty {
		longest = 13
	}
	build := func(n int) *Game {
		cols := make([]string, numCols)
		cols[0] = "QD " + run(engine.Rank(n), false, n)
		if !toEmpty {
			cols[1] = engine.NewCard(engine.Rank(n+1), engine.Diamonds).ASCII()
		}
		// Columns 2..7: empty ones first, the rest hold a Jack each.
		for i := 2; i < numCols; i++ {
			if i-2 >= empty {
				cols[i] = "JD"
			}
		}
		full := []string{"2C", "2D", "2H", "2S"}
		return layout(t, manual(), cols, full[:4-cells], [4]int{})
	}
	for _, n := range []int{min(want, longest), want + 1} {
		if n > longest {
			continue
		}
		g := build(n)
		err := g.Do(mv(colPile(0), 1, colPile(1)))
		if n > want {
			require.Error(t, err, name)
			continue
		}
		require.NoError(t, err, name)
		after := g.b
		// Now one card at a time.
		g = build(n)
		steps := decompose(&g.b, 0, n, 1)
		for i, s := range steps {
			a := topMove(g, s[0], s[1])
			if s[0] >= firstCol {
				require.Equal(t, int(g.b.n[s[0]-firstCol])-1, a.Index)
			}
			require.NoError(t, g.Do(a), "%s step %d", name, i)
			// Every step is a single card.
			if s[0] >= firstCol && s[1] >= firstCol {
				require.NotZero(t, g.b.n[s[1]-firstCol])
			}
		}
		require.Equal(t, after, g.b, name)
	}
}

// 001 "One empty cell: a two-card example": 6♣–5♦ onto 7♥ through one
// cell, and "Two empty cells: a three-card example": 8♠–7♥–6♣ onto 9♦.
func TestSupermoveExamples(t *testing.T) {
	cases := []struct {
		src, dst string
		cells    []string
		steps    [][2]int
	}{
		{"KS 6C 5D", "7H", []string{"", "XX", "XX", "XX"}, [][2]int{
			{colPile(0), cellPile(0)}, // 1. Move 5♦ to the free cell.
			{colPile(0), colPile(1)},  // 2. Move 6♣ onto 7♥.
			{cellPile(0), colPile(1)}, // 3. Move 5♦ from the cell onto 6♣.
		}},
		{"KH 8S 7H 6C", "9D", []string{"", "", "XX", "XX"}, [][2]int{
			{colPile(0), cellPile(0)}, // 1. Park 6♣ in cell A.
			{colPile(0), cellPile(1)}, // 2. Park 7♥ in cell B.
			{colPile(0), colPile(1)},  // 3. Move 8♠ onto 9♦.
			{cellPile(1), colPile(1)}, // 4. Move 7♥ from cell B onto 8♠.
			{cellPile(0), colPile(1)}, // 5. Move 6♣ from cell A onto 7♥.
		}},
	}
	for _, c := range cases {
		cells := make([]string, 4)
		for i, s := range c.cells {
			if s == "XX" {
				cells[i] = "KC"
			}
		}
		cols := []string{c.src, c.dst, "JD", "JD", "JD", "JD", "JD", "JD"}
		g := layout(t, manual(), cols, cells, [4]int{})
		n := len(engine.MustCards(c.src)) - 1
		require.Equal(t, c.steps, decompose(&g.b, 0, n, 1))
		for _, s := range c.steps {
			require.NoError(t, g.Do(topMove(g, s[0], s[1])))
		}
		oneByOne := g.b
		g = layout(t, manual(), cols, cells, [4]int{})
		require.NoError(t, g.Do(mv(colPile(0), 1, colPile(1))))
		require.Equal(t, oneByOne, g.b)
		// With one cell fewer, the group move is rejected.
		g = layout(t, manual(), cols, cells, [4]int{})
		for i := range g.b.cells {
			if g.b.cells[i] == engine.NoCard {
				g.b.cells[i] = engine.MustCards("KD")[0]
				break
			}
		}
		require.Error(t, g.Do(mv(colPile(0), 1, colPile(1))))
	}
}

// 001 "Counting the destination as spare workspace": an empty destination
// column does not help; and moving into an empty column the player picks
// how many cards go (Move.Index picks the lead card).
func TestEmptyDestination(t *testing.T) {
	cols := []string{"KD 9C 8H 7S 6D", "", "JD", "JD", "JD", "JD", "JD", "JD"}
	full := []string{"2C", "2D", "2H", ""}
	g := layout(t, manual(), cols, full, [4]int{})
	require.EqualError(t, g.Do(mv(colPile(0), 1, colPile(1))),
		"Only 2 cards can move at once with 1 free cell and 0 spare empty columns")
	require.NoError(t, g.Do(mv(colPile(0), 3, colPile(1))))
	require.Equal(t, engine.MustCards("7S 6D"), g.b.col(1))
	require.True(t, g.Undo())
	require.NoError(t, g.Do(mv(colPile(0), 4, colPile(1))))
	require.Equal(t, engine.MustCards("6D"), g.b.col(1))
}

// 001 "A complete turn-by-turn example".
func TestTurnByTurn(t *testing.T) {
	g := layout(t, manual(), []string{"KS 7C 6D", "KC 8H", "KD AS", "QD", "QH", "QS", "QC", "JD"},
		[]string{"", "2C", "2D", "2H"}, [4]int{})
	steps := []engine.Action{
		mv(colPile(2), 1, firstFound+3), // 1. A♠ to the spade foundation.
		mv(colPile(0), 2, cellPile(0)),  // 2. 6♦ to the free cell.
		mv(colPile(0), 1, colPile(1)),   // 3. 7♣ onto 8♥.
		mv(cellPile(0), 0, colPile(1)),  // 4. 6♦ from the free cell onto 7♣.
	}
	for _, a := range steps {
		require.NoError(t, g.Do(a))
	}
	require.Equal(t, engine.MustCards("KC 8H 7C 6D"), g.b.col(1))
	require.Equal(t, engine.NoCard, g.b.cells[0])
	require.Equal(t, uint8(1), g.b.found[engine.Spades])
	require.Equal(t, 4, g.Moves())
	// "If you first park an unrelated card in the only free cell, the
	// two-card transfer may no longer be available."
	g = layout(t, manual(), []string{"KS 7C 6D", "KC 8H", "KD AS", "QD", "QH", "QS", "QC", "KH JD"},
		[]string{"", "2C", "2D", "2H"}, [4]int{})
	require.NoError(t, g.Do(mv(colPile(7), 1, cellPile(0))))
	require.Error(t, g.Do(mv(colPile(0), 1, colPile(1))))
}
