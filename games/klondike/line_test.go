package klondike

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// readLine reads a winning line in the form `sshuffle solve klondike SEED
// --moves` prints it ("draw", or "move FROM INDEX TO").
func readLine(t *testing.T, file string) []engine.Action {
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	var out []engine.Action
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if f[0] == "draw" {
			out = append(out, engine.Action{Kind: engine.Draw})
			continue
		}
		require.Len(t, f, 4, line)
		var n [3]int
		for i := range n {
			n[i], err = strconv.Atoi(f[i+1])
			require.NoError(t, err, line)
		}
		out = append(out, engine.Action{Kind: engine.Move, From: n[0], Index: n[1], To: n[2]})
	}
	return out
}

// TestNoLostPositionOnWinningLines walks winning lines found by the solver
// of an earlier session, whose search order and rules differed, and checks
// that no position on them is proved lost: not by dead, and not by a
// search. Each line once caught an unsound rule: draw3-172 the twin rule
// undoing a run moved off a card so that card could go up; draw3-1216 a
// card needed under another of its suit on a foundation; draw1-4204 and
// draw1-6693 the card to build on a Draw 1 talon card lying so; draw1-54 a
// twin run moved onto a card just laid down, which the rule then moved to
// the twin it had left instead of taking for the build it wanted.
func TestNoLostPositionOnWinningLines(t *testing.T) {
	for _, name := range []string{"draw3-172", "draw3-1216", "draw1-4204", "draw1-6693", "draw1-54"} {
		v, sd, _ := strings.Cut(name, "-")
		seed, err := strconv.Atoi(sd)
		require.NoError(t, err)
		g, err := New(engine.Spec{Game: "klondike", Variant: v, Seed: uint64(seed)})
		require.NoError(t, err)
		line := readLine(t, "testdata/"+name+".txt")
		sv := &solver{draw: g.draw}
		for i, a := range line {
			s := fromGame(g)
			sv.auto(&s, nil)
			require.False(t, sv.dead(&s), "%s: position %d is dead", name, i)
			out, _, _ := sv.search(s, 100_000)
			require.NotEqual(t, engine.Impossible, out, "%s: position %d proved lost", name, i)
			if !raceEnabled || i%8 == 0 {
				out, _, _ = sv.searchTeam(s, 30_000, 2)
				require.NotEqual(t, engine.Impossible, out, "%s: position %d proved lost by a team", name, i)
			}
			require.NoError(t, g.Do(a), "%s: move %d", name, i)
		}
		require.True(t, g.Won(), name)
	}
}

// twinOf pairs each card with the other card of its rank and colour, and
// kept picks one of each pair; both rest on the engine's suit order.
func TestTwinOf(t *testing.T) {
	for _, su := range engine.Suits {
		for r := engine.Ace; r <= engine.King; r++ {
			c := engine.NewCard(r, su)
			x := twinOf(c)
			require.NotEqual(t, c, x)
			require.Equal(t, c.Rank(), x.Rank())
			require.Equal(t, c.Red(), x.Red())
			require.Equal(t, c, twinOf(x))
			require.NotEqual(t, kept(c), kept(x))
		}
	}
}
