package arcade

import (
	"sync"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/uitest"
)

// hintCounter counts the hint searches the games really run, and the
// most that ran at once.
type hintCounter struct {
	calls, running, peak atomic.Int64
}

type countedGame struct {
	engine.Solitaire
	c *hintCounter
}

func (g countedGame) Hint() (engine.Action, string, bool) {
	g.c.calls.Add(1)
	n := g.c.running.Add(1)
	defer g.c.running.Add(-1)
	for p := g.c.peak.Load(); n > p && !g.c.peak.CompareAndSwap(p, n); p = g.c.peak.Load() {
	}
	return g.Solitaire.Hint()
}

func countedFreeCell(t *testing.T, c *hintCounter) games.Entry {
	t.Helper()
	info, ok := games.Default().Entry("freecell")
	require.True(t, ok)
	g, inner := *info.Game, info.Game.New
	g.New = func(sp engine.Spec, o games.Options) (engine.Solitaire, error) {
		game, err := inner(sp, o)
		if err != nil {
			return nil, err
		}
		return countedGame{Solitaire: game, c: c}, nil
	}
	info.Game = &g
	return info
}

// deal is the game screen the router would build for a deal.
func deal(t *testing.T, e *ui.Env, info games.Entry, spec engine.Spec) ui.Screen {
	t.Helper()
	s, err := (&Server{}).build(e, ui.Route{Page: ui.Play, Game: info, Spec: spec})
	require.NoError(t, err)
	return s
}

var hintKey = uitest.Key("t")

// runAll runs the commands at once, as Bubble Tea would, and returns
// their messages.
func runAll(cmds []tea.Cmd) []tea.Msg {
	msgs := make([]tea.Msg, len(cmds))
	var wg sync.WaitGroup
	for i, c := range cmds {
		wg.Add(1)
		go func() { defer wg.Done(); msgs[i] = c() }()
	}
	wg.Wait()
	return msgs
}

// 60 hint presses on deal 11982 (no hint exists, so each one is
// free) start one search, and its answer is kept for the position.
func TestHintFloodRunsOneSearch(t *testing.T) {
	var c hintCounter
	e, _ := uitest.Env(t)
	e.Searches, e.Done = newSearches(1, newMetrics()), make(chan struct{})
	s := deal(t, e, countedFreeCell(t, &c), engine.Spec{Game: "freecell", Seed: 11982})
	var cmds []tea.Cmd
	for range 60 {
		if cmd := s.Update(hintKey); cmd != nil {
			cmds = append(cmds, cmd)
		}
	}
	for _, m := range runAll(cmds) {
		s.Update(m)
	}
	require.Contains(t, s.View(), "No hint found")
	for range 60 {
		cmd := s.Update(hintKey)
		require.Nil(t, cmd, "the answer for this position is kept")
	}
	require.Contains(t, s.View(), "No hint found")
	require.Equal(t, int64(1), c.calls.Load(), "one search for one position")
}

// Hints of several sessions never run more searches at once than
// the server-wide cap.
func TestSearchesAreCappedServerWide(t *testing.T) {
	var c hintCounter
	bg := newSearches(1, newMetrics())
	info := countedFreeCell(t, &c)
	var cmds []tea.Cmd
	for i := range 4 {
		e, _ := uitest.Env(t)
		e.Searches, e.Done = bg, make(chan struct{})
		s := deal(t, e, info, engine.Spec{Game: "freecell", Seed: uint64(617 + i)})
		cmd := s.Update(hintKey)
		require.NotNil(t, cmd)
		cmds = append(cmds, cmd)
	}
	runAll(cmds)
	require.Equal(t, int64(4), c.calls.Load())
	require.Equal(t, int64(1), c.peak.Load(), "at most one search at a time with a cap of one")
}

// A session that ends while its search waits for a slot gives up without
// searching.
func TestWaitingSearchEndsWithItsSession(t *testing.T) {
	bg := newSearches(1, newMetrics())
	bg.slots <- struct{}{} // the one slot is taken
	e, _ := uitest.Env(t)
	e.Searches, e.Done = bg, make(chan struct{})
	close(e.Done)
	ran := false
	require.False(t, e.Search("hint", nil, func() { ran = true }))
	require.False(t, ran)
}
