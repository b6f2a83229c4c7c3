package arcade

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui/solitaire"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/sshtest"
)

// columnPiles lists the tableau piles of a game in on-screen order, which
// is the order the digit keys jump to.
func columnPiles(g engine.Solitaire) []int {
	var cols []int
	for i, p := range g.Piles() {
		if p.Kind == engine.Tableau {
			cols = append(cols, i)
		}
	}
	return cols
}

// findColumnMove finds columns a, b (1-based) where moving a's top card
// onto b is legal (want nil) or illegal (want an error), on a copy.
func findColumnMove(t *testing.T, info games.Entry, spec engine.Spec, history []engine.Action, legal bool) (int, int, string) {
	t.Helper()
	fresh := func() engine.Solitaire {
		g, err := info.Game.New(spec, info.Defaults())
		require.NoError(t, err)
		for _, a := range history {
			require.NoError(t, g.Do(a))
		}
		return g
	}
	g := fresh()
	cols := columnPiles(g)
	for ai, a := range cols {
		for bi, b := range cols {
			if a == b {
				continue
			}
			p := g.Piles()[a]
			if len(p.Cards) == 0 {
				continue
			}
			try := fresh()
			err := try.Do(engine.Action{Kind: engine.Move, From: a, Index: len(p.Cards) - 1, To: b})
			if legal == (err == nil) {
				msg := ""
				if err != nil {
					msg = err.Error()
				}
				return ai + 1, bi + 1, msg
			}
		}
	}
	t.Fatalf("no %v column move in %v", legal, spec)
	return 0, 0, ""
}

func digit(n int) string { return fmt.Sprint(n % 10) }

// firstWords is the start of a sentence, short enough not to wrap.
func firstWords(s string) string {
	w := strings.Fields(s)
	return strings.Join(w[:min(4, len(w))], " ")
}

func TestEndToEndEveryGame(t *testing.T) {
	ts := startServer(t)
	key := sshtest.NewClientKey(t)
	for i, info := range games.Default().Entries() {
		if info.Game.New == nil {
			continue
		}
		t.Run(info.Key(), func(t *testing.T) {
			c := sshtest.Dial(t, ts.addr, "gina", key)
			defer c.Close()
			tm := sshtest.OpenTerm(t, c, nil)
			tm.WaitFor("Playing as gina")
			tm.Send(digit(i + 1))
			tm.WaitFor(info.Title())
			seed := uint64(7)
			spec := engine.Spec{Game: info.Game.Name, Variant: info.Variant.Name, Seed: seed}
			if info.Game.Name == "tripeaks" || info.Game.Name == "pyramid" {
				spec = layoutIllegalSeed(t, info)
			}
			tm.Send(fmt.Sprintf("#%d\r", spec.Seed))
			tm.WaitFor(fmt.Sprintf("Deal #%d", spec.Seed))

			var history []engine.Action
			switch info.Game.Name {
			case "freecell":
				// Legal: column 1's top card into a free cell.
				tm.Send("1 k ")
				tm.WaitFor("Moves 1")
				a, b, why := findColumnMove(t, info, spec, replayFreeCell(t, info, spec), false)
				tm.Send(digit(a) + " " + digit(b) + " ")
				tm.WaitFor(firstWords(why))
			case "tripeaks", "pyramid":
				tm.Send("d")
				tm.WaitFor("Moves 1")
				tm.Send("f") // the cursor's card does not fit the waste
				g := mustNew(t, info, spec)
				require.NoError(t, g.Do(engine.Action{Kind: engine.Draw}))
				err := g.Do(engine.Action{Kind: engine.Auto, From: solitaire.FirstCursor(g.Piles()).Pile})
				require.Error(t, err)
				tm.WaitFor(firstWords(err.Error()))
			default:
				tm.Send("d")
				tm.WaitFor("Moves 1")
				history = append(history, engine.Action{Kind: engine.Draw})
				a, b, why := findColumnMove(t, info, spec, history, false)
				tm.Send(digit(a) + " " + digit(b) + " ")
				s := tm.WaitFor(firstWords(why))
				require.Contains(t, s, "Moves 1", "an illegal move changes nothing")
			}
			tm.Send("q")
			tm.WaitFor("Playing as gina")
			tm.Send("q") // the menu asks once before quitting
			tm.WaitFor("q again to quit")
			tm.Send("q")
			tm.WaitExit()
		})
	}
}

func mustNew(t *testing.T, info games.Entry, spec engine.Spec) engine.Solitaire {
	t.Helper()
	g, err := info.Game.New(spec, info.Defaults())
	require.NoError(t, err)
	return g
}

// replayFreeCell is the position after "column 1's top card to a cell", as
// the keys above made it, so the illegal move is looked for there.
func replayFreeCell(t *testing.T, info games.Entry, spec engine.Spec) []engine.Action {
	g := mustNew(t, info, spec)
	col := columnPiles(g)[0]
	p := g.Piles()[col]
	cell := -1
	for i, q := range g.Piles() {
		if q.Kind == engine.Cell {
			cell = i
			break
		}
	}
	return []engine.Action{{Kind: engine.Move, From: col, Index: len(p.Cards) - 1, To: cell}}
}

// layoutIllegalSeed finds a TriPeaks or Pyramid deal where, after one
// stock turn, the card the cursor starts on can't be played on its own.
func layoutIllegalSeed(t *testing.T, info games.Entry) engine.Spec {
	for seed := uint64(1); seed < 500; seed++ {
		spec := engine.Spec{Game: info.Game.Name, Seed: seed}
		g := mustNew(t, info, spec)
		if g.Do(engine.Action{Kind: engine.Draw}) != nil {
			continue
		}
		if g.Do(engine.Action{Kind: engine.Auto, From: solitaire.FirstCursor(g.Piles()).Pile}) != nil {
			return spec
		}
	}
	t.Fatal("no deal found")
	return engine.Spec{}
}
