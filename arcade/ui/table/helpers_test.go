package table

import (
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func testEnv(color bool) (*ui.Env, *fakeClock) {
	clk := &fakeClock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	return &ui.Env{
		Log: slog.New(slog.DiscardHandler), Now: clk.now,
		Player: &ui.Player{ID: "SHA256:k", Name: "ann"}, Unicode: true, Color: color,
		Width: 80, Height: 24, Idle: 30 * time.Minute,
	}, clk
}

// page stands for a screen of another package, which this one may not
// build: it keeps the route it was asked for.
type page struct{ r ui.Route }

func (p *page) Update(tea.Msg) tea.Cmd               { return nil }
func (p *page) View() string                         { return fmt.Sprintf("page %d", p.r.Page) }
func (p *page) MinSize() (int, int)                  { return 1, 1 }
func build(_ *ui.Env, r ui.Route) (ui.Screen, error) { return &page{r: r}, nil }

var ansiRE = regexp.MustCompile("\x1b\\[[0-9;:?]*[a-zA-Z]")

// plainView is the router's frame without its escape codes.
func plainView(r *ui.Router) string { return ansiRE.ReplaceAllString(r.View().Content, "") }

// fits checks a frame is at most w x h cells.
func fits(t *testing.T, frame string, w, h int) {
	t.Helper()
	lines := strings.Split(frame, "\n")
	require.LessOrEqual(t, len(lines), h, frame)
	for i, l := range lines {
		require.LessOrEqual(t, lipgloss.Width(l), w, "line %d too wide: %q", i, l)
	}
}

func key(s string) tea.KeyPressMsg {
	switch s {
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	}
	r := []rune(s)
	return tea.KeyPressMsg{Code: r[0], Text: s}
}

func press(r *ui.Router, keys ...string) {
	for _, k := range keys {
		r.Update(key(k))
	}
}

func kingsGame(t *testing.T, seed uint64, players int) *kings.Game {
	t.Helper()
	g, err := kings.New(engine.Spec{Game: kings.Name, Seed: seed}, players)
	require.NoError(t, err)
	return g
}

func spiteGame(t *testing.T, seed uint64) *spite.Game {
	t.Helper()
	g, err := spite.New(engine.Spec{Game: spite.Name, Seed: seed}, 2)
	require.NoError(t, err)
	return g
}
