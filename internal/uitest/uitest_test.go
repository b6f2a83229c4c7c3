package uitest

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
)

// Key's messages read back as the names screens match on.
func TestKeyNames(t *testing.T) {
	for _, k := range []string{"enter", "space", "esc", "tab", "backspace", "left", "right", "up", "down", "q", "?", "é"} {
		require.Equal(t, k, Key(k).String())
	}
}

func TestEnv(t *testing.T) {
	e, clk := Env(t)
	require.Equal(t, Start, e.Now())
	clk.Advance(time.Minute)
	require.Equal(t, Start.Add(time.Minute), e.Now(), "the env reads the clock")
	acc, err := e.Store.Account(t.Context(), e.Player.ID)
	require.NoError(t, err)
	require.Equal(t, "tess", acc.Name)
	require.NotNil(t, e.Games)

	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	e, _ = Env(nil, NoStore(), Player("SHA256:k", "ann"), At(at), Color(false))
	require.Nil(t, e.Store)
	require.Nil(t, e.Games)
	require.False(t, e.Color)
	require.Equal(t, at, e.Now())
	require.Equal(t, "ann", e.Player.Name)
}

// A router of stand-in pages: each keeps its route, shows it, and takes
// clicks and other messages without changing.
func TestPages(t *testing.T) {
	e, _ := Env(nil, NoStore())
	first, err := Pages(e, ui.Route{Page: ui.Options, Note: "first"})
	require.NoError(t, err)
	rt := ui.NewRouter(e, Pages, first, "")
	require.Contains(t, Frame(rt), "first")
	require.Equal(t, first, Click(rt, 1, 1))
	require.Equal(t, first, Send(rt, tea.WindowSizeMsg{Width: 80, Height: 24}))
	require.Equal(t, ui.Options, PageOf(t, Press(rt, "x")).Page)
	w, h := first.MinSize()
	Fits(t, Frame(rt), 80, 24)
	require.Equal(t, [2]int{1, 1}, [2]int{w, h})
	require.Equal(t, ui.Menu, PageOf(t, Press(rt, "esc")).Page, "esc goes back, to the menu when nothing is under")
}
