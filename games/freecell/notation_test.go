package freecell

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"sshuffle/engine"
)

func TestNotationRoundTrip(t *testing.T) {
	for n := uint64(1); n <= 30; n++ {
		r := Solve(spec(n), testBudget)
		require.Equal(t, engine.Solved, r.Outcome)
		text, err := FormatMoves(r.Moves, spec(n))
		require.NoError(t, err)
		won, at, err := Replay(spec(n), text)
		require.NoError(t, err, "deal %d: %v", n, text)
		require.True(t, won)
		require.Equal(t, -1, at)
	}
}

// Random play, including Auto actions and partial runs into empty
// columns, written out and read back with automatic moves off, gives the
// same board.
func TestNotationOfAnyPlay(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		g, err := New(spec(seed))
		require.NoError(t, err)
		r := engine.NewRNG(seed)
		for range 200 {
			_ = g.Do(randomAction(r, g))
		}
		text, err := FormatMoves(g.History(), spec(seed))
		require.NoError(t, err)
		re, err := NewWithSettings(spec(seed), Settings{})
		require.NoError(t, err)
		for i, s := range text {
			a, err := parseMove(&re.b, s)
			require.NoError(t, err)
			require.NoError(t, re.Do(a), "deal %d move %d %s", seed, i, s)
		}
		require.Equal(t, g.b, re.b, "deal %d", seed)
	}
}

func TestReplayErrors(t *testing.T) {
	// Deal 1's first row ends ... 5H on column 8; column 8 is 5H 3H 3C 7S 7D TC.
	_, at, err := Replay(spec(1), []string{"8a", "zz"})
	require.Equal(t, 1, at)
	require.ErrorContains(t, err, "places are columns")
	_, at, err = Replay(spec(1), []string{"8a", "8a"})
	require.Equal(t, 1, at)
	require.ErrorContains(t, err, "A cell holds one card")
	_, at, err = Replay(spec(1), []string{"8h"})
	require.Equal(t, 0, at)
	require.ErrorContains(t, err, "foundation")
	won, at, err := Replay(spec(1), []string{"8a"})
	require.False(t, won)
	require.Equal(t, 1, at)
	require.Error(t, err)
	_, _, err = Replay(engine.Spec{Game: "freecell"}, nil)
	require.Error(t, err)
	for _, bad := range []string{"", "1", "123", "a1:2", "1h:3", "19", "h1"} {
		_, _, err := Replay(spec(1), []string{bad})
		require.Error(t, err, bad)
	}
}

func TestHint(t *testing.T) {
	for _, n := range []uint64{1, 617} {
		g, err := New(spec(n))
		require.NoError(t, err)
		for step := 0; !g.Won(); step++ {
			require.Less(t, step, 400)
			a, why, ok := g.Hint()
			require.True(t, ok)
			require.True(t, strings.HasPrefix(why, "Move "), why)
			require.NoError(t, g.Do(a), why)
		}
		_, _, ok := g.Hint()
		require.False(t, ok)
	}
	// A sentence for each kind of place.
	g := layout(t, manual(), []string{"KS 6C 5D", "7H", "", "KD AS"}, nil, [4]int{})
	for a, want := range map[engine.Action]string{
		mv(colPile(0), 1, colPile(1)):  "Move 6♣ and the 1 card on it onto 7♥",
		mv(colPile(0), 2, cellPile(2)): "Move 5♦ to a free cell",
		mv(colPile(3), 1, firstFound):  "Move A♠ to the foundation",
		mv(colPile(0), 2, colPile(2)):  "Move 5♦ to an empty column",
	} {
		why, ok := describe(&g.b, a, g.set)
		require.True(t, ok)
		require.Equal(t, want, why)
	}
}

// Solutions as fc-solve 5.0 prints them (make-microsoft-freecell-board -t
// N | fc-solve -m -snx), whole: its separator, its "v" counts (1391's
// "vb" is eleven cards), bare moves into empty columns as one card.
func TestReplayFcSolveOutput(t *testing.T) {
	for _, n := range []uint64{22, 100, 1391} {
		text, err := os.ReadFile(fmt.Sprintf("testdata/fcsolve-%d.txt", n))
		require.NoError(t, err)
		moves := MovesOf(string(text))
		require.NotEmpty(t, moves)
		won, _, err := Replay(spec(n), moves)
		require.NoError(t, err, "deal %d", n)
		require.True(t, won)
	}
	require.Equal(t, []string{"86v2", "1h", "zz"}, MovesOf("-=-=-\n\n86v2 1h\nThis game is solveable.\nzz\n"))
}

// A partial run into an empty column is written the way fc-solve writes
// it; a bare move there carries one card; the older "86:2" still reads.
func TestNotationPartialMove(t *testing.T) {
	g := layout(t, manual(), []string{"KS 6C 5D 4S", "", "9H", "9D", "9S", "9C", "8H", "8D"}, []string{"2H", "3H", "4H", ""}, [4]int{})
	for _, c := range []struct {
		text  string
		index int
	}{{"12v2", 2}, {"12:2", 2}, {"12", 3}, {"12v3", 1}} {
		a, err := parseMove(&g.b, c.text)
		require.NoError(t, err, c.text)
		require.Equal(t, mv(colPile(0), c.index, colPile(1)), a, c.text)
	}
	s, err := notate(&g.b, move{from: colPile(0), index: 2, count: 2, to: colPile(1)})
	require.NoError(t, err)
	require.Equal(t, "12v2", s)
	s, err = notate(&g.b, move{from: colPile(0), index: 3, count: 1, to: colPile(1)})
	require.NoError(t, err)
	require.Equal(t, "12", s)
	require.Equal(t, "1a 2b \n", FcsLayout([]string{"1a", "2b"}))
	require.Equal(t, strings.Repeat("1a ", 10)+"\n2b \n", FcsLayout(append(strings.Split(strings.Repeat("1a,", 10), ",")[:10], "2b")))
}
