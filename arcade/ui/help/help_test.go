package help

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/store/badger"
)

func testEnv(t testing.TB) *ui.Env {
	t.Helper()
	st, err := badger.OpenInMemory()
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	id := "SHA256:testkey"
	_, err = st.CreateAccount(context.Background(), id, "tess")
	require.NoError(t, err)
	return &ui.Env{
		Games: games.Default(), Store: st, Log: slog.New(slog.DiscardHandler),
		Now:    func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) },
		Player: &ui.Player{ID: id, Name: "tess"}, Unicode: true, Color: true, Width: 80, Height: 24,
	}
}

func TestStrategyScreen(t *testing.T) {
	e := testEnv(t)
	info, _ := games.Default().Entry("tripeaks")
	v := NewRules(e, info).View()
	require.Contains(t, v, "Our solver, seeing every card, won")
	require.Contains(t, v, "sshuffle solve tripeaks")
	require.Contains(t, v, "not finished a game")
	require.True(t, strings.Contains(v, "King and Ace connect"))
}

// Opened from a game, help says what that game's own keys do, and drops
// the ones it has not; from the menu it speaks of every game.
func TestHelpSaysWhatAGamesKeysDo(t *testing.T) {
	e := testEnv(t)
	general := New(e, games.Entry{}).View()
	require.Contains(t, general, "TriPeaks: to the waste")
	require.Contains(t, general, "d or s")
	fc, _ := games.Default().Entry("freecell")
	v := New(e, fc).View()
	require.NotContains(t, v, "d or s", "FreeCell has no stock")
	require.Contains(t, v, "send the card home at once")
	require.Contains(t, v, "All 52 cards are dealt face up", "and its rules")
	sp, _ := games.Default().Entry("spider/2suit")
	require.Contains(t, New(e, sp).View(), "deal a row")
}

// At 80x24 nothing is cut: the help pages and scrolls to its last line,
// and no line is wider than the window.
func TestHelpPagesAt80x24(t *testing.T) {
	e := testEnv(t)
	e.Color = false
	fc, _ := games.Default().Entry("freecell")
	back := 0
	rt := ui.NewRouter(e, func(e *ui.Env, r ui.Route) (ui.Screen, error) { back++; return New(e, fc), nil }, New(e, fc), "")
	h := rt.Current().(*helpScreen)
	all := h.lines()
	require.Greater(t, len(all), 23, "the text is longer than one page at 24 lines")
	seen := map[string]bool{}
	for range 10 {
		v := ansi.Strip(rt.View().Content)
		lines := strings.Split(v, "\n")
		require.LessOrEqual(t, len(lines), 24)
		for _, l := range lines {
			require.LessOrEqual(t, ansi.StringWidth(l), 80, l)
			seen[strings.TrimSpace(l)] = true
		}
		if h.top >= len(all)-h.page() {
			break
		}
		rt.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	}
	for _, l := range all {
		require.True(t, seen[strings.TrimSpace(ansi.Strip(l))], "line never shown: %q", l)
	}
	require.Contains(t, ansi.Strip(strings.Join(all, "\n")), "jump to a free cell", "FreeCell's cells have their key")
	require.NotContains(t, ansi.Strip(strings.Join(all, "\n")), "jump to the waste", "FreeCell has no waste")
	require.Equal(t, 0, back, "scrolling stays on the help screen")
}
