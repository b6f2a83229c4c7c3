package arcade

import (
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/engine"
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

func countedFreeCell(t *testing.T, c *hintCounter) gameInfo {
	t.Helper()
	info, ok := findGame("freecell")
	require.True(t, ok)
	newGame := info.New
	info.New = func(sp engine.Spec, o options) (engine.Solitaire, error) {
		g, err := newGame(sp, o)
		if err != nil {
			return nil, err
		}
		return countedGame{Solitaire: g, c: c}, nil
	}
	return info
}

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

// Item 7: 60 hint presses on deal 11982 (no hint exists, so each one is
// free) start one search, and its answer is kept for the position.
func TestHintFloodRunsOneSearch(t *testing.T) {
	var c hintCounter
	e, _ := testEnv(t)
	e.bg, e.done = newSearches(1, newMetrics()), make(chan struct{})
	s, err := dealSpec(e, countedFreeCell(t, &c), engine.Spec{Game: "freecell", Seed: 11982})
	require.NoError(t, err)
	var cmds []tea.Cmd
	for range 60 {
		if _, cmd := s.update(tea.KeyPressMsg{Code: 't', Text: "t"}); cmd != nil {
			cmds = append(cmds, cmd)
		}
	}
	for _, m := range runAll(cmds) {
		s.update(m)
	}
	require.Contains(t, s.msg, "No hint found")
	for range 60 {
		_, cmd := s.update(tea.KeyPressMsg{Code: 't', Text: "t"})
		require.Nil(t, cmd, "the answer for this position is kept")
	}
	require.Contains(t, s.msg, "No hint found")
	require.Equal(t, int64(1), c.calls.Load(), "one search for one position")
}

// Item 7: hints of several sessions never run more searches at once than
// the server-wide cap.
func TestSearchesAreCappedServerWide(t *testing.T) {
	var c hintCounter
	bg := newSearches(1, newMetrics())
	info := countedFreeCell(t, &c)
	var cmds []tea.Cmd
	for i := range 4 {
		e, _ := testEnv(t)
		e.bg, e.done = bg, make(chan struct{})
		s, err := dealSpec(e, info, engine.Spec{Game: "freecell", Seed: uint64(617 + i)})
		require.NoError(t, err)
		_, cmd := s.update(tea.KeyPressMsg{Code: 't', Text: "t"})
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
	e, _ := testEnv(t)
	e.bg, e.done = bg, make(chan struct{})
	close(e.done)
	ran := false
	require.False(t, e.search("hint", nil, func() { ran = true }))
	require.False(t, ran)
}

// Item 9: a write the store refuses reaches the player as "not saved"
// (the session goes on), and the log as an error.
func TestFailedWritesSayNotSaved(t *testing.T) {
	var logs syncBuffer
	e, _ := testEnv(t)
	e.log = slog.New(slog.NewTextHandler(&logs, nil))
	s, err := dealSpec(e, klondikeInfo(), engine.Spec{Game: "klondike", Variant: "draw1", Seed: 5})
	require.NoError(t, err)
	press(s, "d")
	require.NoError(t, e.store.Close()) // every write fails from here on
	m := press(s, "q")
	require.Contains(t, m.view(), "Not saved")
	require.Contains(t, logs.String(), "level=ERROR msg=\"saving game\"")

	g := nearWin(t)
	w := &gameScreen{env: e, info: klondikeInfo(), g: g, start: e.now()}
	r, _ := w.win()
	require.Contains(t, r.view(), "Not saved")
	require.Contains(t, logs.String(), "level=ERROR msg=\"recording result\"")
}
