package help

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/internal/uitest"
)

func TestStrategyScreen(t *testing.T) {
	e, _ := uitest.Env(t)
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
	e, _ := uitest.Env(t)
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
	e, _ := uitest.Env(t, uitest.Color(false))
	fc, _ := games.Default().Entry("freecell")
	back := 0
	rt := ui.NewRouter(e, func(e *ui.Env, r ui.Route) (ui.Screen, error) { back++; return New(e, fc), nil }, New(e, fc), "")
	h := rt.Current().(*helpScreen)
	all := h.lines()
	require.Greater(t, len(all), 23, "the text is longer than one page at 24 lines")
	seen := map[string]bool{}
	for range 10 {
		v := uitest.Frame(rt)
		uitest.Fits(t, v, 80, 24)
		for _, l := range strings.Split(v, "\n") {
			seen[strings.TrimSpace(l)] = true
		}
		if h.top >= len(all)-h.page() {
			break
		}
		uitest.Press(rt, "down")
	}
	for _, l := range all {
		require.True(t, seen[strings.TrimSpace(ansi.Strip(l))], "line never shown: %q", l)
	}
	require.Contains(t, ansi.Strip(strings.Join(all, "\n")), "jump to a free cell", "FreeCell's cells have their key")
	require.NotContains(t, ansi.Strip(strings.Join(all, "\n")), "jump to the waste", "FreeCell has no waste")
	require.Equal(t, 0, back, "scrolling stays on the help screen")
}
