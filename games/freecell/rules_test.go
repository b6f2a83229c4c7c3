package freecell

import (
	"testing"

	"github.com/stretchr/testify/require"
	"sshuffle/engine"
)

// 004: "our tests check all 52 cards of two deals printed there" (Rosetta
// Code, "Deal cards for FreeCell", deals #1 and #617).
func TestDealsMatchRosettaCode(t *testing.T) {
	want := map[uint64]string{
		1: `JD 2D 9H JC 5D 7H 7C 5H
KD KC 9S 5S AD QC KH 3H
2S KS 9D QD JS AS AH 3C
4C 5C TS QH 4H AC 4D 7S
3S TD 4S TH 8H 2C JH 7D
6D 8S 8D QS 6C 3D 8C TC
6S 9C 2H 6H
`,
		617: `7D AD 5C 3S 5S 8C 2D AH
TD 7S QD AC 6D 8H AS KH
TH QC 3H 9D 6S 8D 3D TC
KD 5H 9S 3C 8S 7H 4D JS
4C QS 9C 9H 7C 6H 2C 2S
4S TS 2H 5D JC 6C JH QH
JD KS KC 4H
`,
	}
	for n, w := range want {
		got, err := Text(spec(n))
		require.NoError(t, err)
		require.Equal(t, w, got, "deal %d", n)
	}
	// 001: "four columns contain seven cards and four contain six".
	b := deal(617)
	require.Equal(t, [8]uint8{7, 7, 7, 7, 6, 6, 6, 6}, b.n)
	requireAllCards(t, &b)
}

func TestBadSpecs(t *testing.T) {
	for _, s := range []engine.Spec{
		{Game: "klondike", Seed: 1},
		{Game: "freecell", Variant: "draw3", Seed: 1},
		{Game: "freecell", Seed: 0},
		{Game: "freecell", Seed: 1_000_001},
		{Game: "freecell", Winnable: true, Seed: 11982},
	} {
		_, err := New(s)
		require.Error(t, err, s.String())
		_, err = Text(s)
		require.Error(t, err)
	}
	_, err := New(engine.Spec{Game: "freecell", Seed: 1_000_000})
	require.NoError(t, err)
}

// The building examples of 001 ("How tableau building works") and 000
// ("FreeCell rules as a system").
func TestTableauBuilding(t *testing.T) {
	cases := []struct {
		card, on string
		ok       bool
		why      string
	}{
		{"QC", "KH", true, ""}, // 001: Q♣ onto K♥
		{"TD", "JS", true, ""}, // 001: 10♦ onto J♠
		{"7S", "8D", true, ""}, // 001: 7♠ onto 8♦
		{"2H", "3C", true, ""}, // 001: 2♥ onto 3♣
		{"TC", "JH", true, ""}, // 001: 10♣ can go on J♥
		{"TC", "JD", true, ""}, // 001: ... or J♦
		{"JD", "QC", true, ""}, // 001 example 1: J♦ onto Q♣
		{"6H", "7C", true, ""}, // 000: 6♥ onto 7♣
		{"8H", "9S", true, ""}, // 000: a red 8 onto a black 9
		{"QS", "KC", false, "Q♠ can't go on K♣: both are black"},  // 001: both black
		{"9H", "JC", false, "9♥ can't go on J♣: only a 10 can"},   // 001: rank gap two
		{"8C", "8D", false, "8♣ can't go on 8♦: only a 7 can"},    // 001: equal ranks
		{"KD", "QC", false, "K♦ can't go on Q♣: only a Jack can"}, // 001: goes down, not up
		{"TC", "JS", false, "10♣ can't go on J♠: both are black"}, // 001: not J♠
		{"TC", "JC", false, "10♣ can't go on J♣: both are black"}, // 001: nor J♣
		{"JS", "QC", false, "J♠ can't go on Q♣: both are black"},  // 001 example 2
		{"6D", "7H", false, "6♦ can't go on 7♥: both are red"},    // 000: both red
		{"2C", "AH", false, "2♣ can't go on A♥: nothing goes on an Ace"},
	}
	for _, c := range cases {
		// From a column and from a cell.
		g := layout(t, manual(), []string{c.card, c.on, "KS"}, []string{c.card}, [4]int{})
		for _, from := range []int{colPile(0), cellPile(0)} {
			before := g.b
			err := g.Do(mv(from, 0, colPile(1)))
			if c.ok {
				require.NoError(t, err, c.card+" on "+c.on)
				require.Equal(t, engine.MustCards(c.card)[0], g.b.top(1))
				require.True(t, g.Undo())
			} else {
				require.EqualError(t, err, c.why)
				require.Equal(t, before, g.b)
			}
		}
	}
}

func TestGroupAndCells(t *testing.T) {
	// 001: "A sequence such as 9♣–8♠–7♥ is not valid: the first two cards
	// are both black" (it can't move as one group onto a red 10).
	g := layout(t, manual(), []string{"KD 9C 8S 7H", "TH", "KS"}, nil, [4]int{})
	require.EqualError(t, g.Do(mv(colPile(0), 1, colPile(1))),
		"9♣ can't move with the cards on it: 8♠ can't go on 9♣: both are black")
	// 001 example 7: an A♦ three cards above the exposed bottom can't move.
	g = layout(t, manual(), []string{"AD 9S 4C JH", "", "KS"}, nil, [4]int{})
	require.Error(t, g.Do(mv(colPile(0), 0, firstFound)))
	require.Error(t, g.Do(mv(colPile(0), 0, colPile(1))))
	// 001 example 3: an exposed 3♥ can enter an empty column; 000: so can a
	// red 8, as one card.
	g = layout(t, manual(), []string{"KS 3H", "", "KC 8D"}, nil, [4]int{})
	require.NoError(t, g.Do(mv(colPile(0), 1, colPile(1))))
	require.True(t, g.Undo())
	require.NoError(t, g.Do(mv(colPile(2), 1, colPile(1))))
	// 001 example 4: 7♣ in a free cell, then 6♦ on it is illegal.
	g = layout(t, manual(), []string{"KH 7C", "KS 6D"}, nil, [4]int{})
	require.NoError(t, g.Do(mv(colPile(0), 1, cellPile(0))))
	require.EqualError(t, g.Do(mv(colPile(1), 1, cellPile(0))), "A cell holds one card, and free cell 1 has 7♣")
	// Two cards at once into a cell.
	g = layout(t, manual(), []string{"KH 7C 6D", "KS"}, nil, [4]int{})
	require.EqualError(t, g.Do(mv(colPile(0), 1, cellPile(0))), "A cell holds one card")
	// 001 example 5: 4♠ to an empty spade foundation is illegal.
	g = layout(t, manual(), []string{"KH 4S"}, nil, [4]int{})
	require.EqualError(t, g.Do(mv(colPile(0), 1, firstFound+3)), "4♠ can't go to the foundation before 3♠")
	// 001 "How foundations work": A♣ starts clubs, 2♣ follows only after
	// A♣, 5♥ only on 4♥; any foundation pile means the card's own one.
	g = layout(t, manual(), []string{"KH 2C AC", "KS 5H"}, nil, [4]int{0, 0, 4, 0})
	require.EqualError(t, g.Do(mv(colPile(0), 0, firstFound)), "K♥ can't move with the cards on it: 2♣ can't go on K♥: only a Queen can")
	require.NoError(t, g.Do(mv(colPile(0), 2, firstFound+2)))
	require.Equal(t, uint8(1), g.b.found[engine.Clubs])
	require.NoError(t, g.Do(mv(colPile(0), 1, firstFound)))
	require.NoError(t, g.Do(mv(colPile(1), 1, firstFound)))
	require.Equal(t, [4]uint8{2, 0, 5, 0}, g.b.found)
	// 004: "Foundations go up by suit ... Cards on them stay there."
	require.EqualError(t, g.Do(mv(firstFound+2, 4, colPile(2))), "Cards on the foundations stay there")
}

// 001 example 6: 10♣–9♦–8♠–7♥ fits on J♥ but all cells are occupied and
// no column is empty, so it is rejected.
func TestInsufficientWorkspace(t *testing.T) {
	g := layout(t, manual(), []string{"KS TC 9D 8S 7H", "JH", "KC", "KD", "QS", "QC", "QH", "QD"},
		[]string{"2C", "2D", "2H", "2S"}, [4]int{})
	before := g.b
	require.EqualError(t, g.Do(mv(colPile(0), 1, colPile(1))),
		"Only 1 card can move at once with 0 free cells and 0 spare empty columns")
	require.Equal(t, before, g.b)
	// Freeing one cell raises the limit to two cards: still too few.
	g.b.cells[0] = engine.NoCard
	require.EqualError(t, g.Do(mv(colPile(0), 1, colPile(1))),
		"Only 2 cards can move at once with 1 free cell and 0 spare empty columns")
}
