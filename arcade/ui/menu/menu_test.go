package menu

import (
	"log/slog"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/games"
)

func key(k string) tea.KeyPressMsg {
	if k == "esc" {
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	return tea.KeyPressMsg{Code: rune(k[0]), Text: k}
}

// Esc never leaves the arcade, and q asks once before it does.
func TestQuitAsksOnceAndEscNeverQuits(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	e := &ui.Env{Games: games.Default(), Log: slog.New(slog.DiscardHandler), Now: func() time.Time { return now },
		Player: &ui.Player{Name: "guest", Guest: true}, Width: 80, Height: 24, Idle: time.Hour}
	build := func(e *ui.Env, r ui.Route) (ui.Screen, error) { return New(e, ""), nil }
	rt := ui.NewRouter(e, build, New(e, ""), "")
	isQuit := func(cmd tea.Cmd) bool {
		if cmd == nil {
			return false
		}
		switch m := cmd().(type) {
		case tea.QuitMsg:
			return true
		case tea.BatchMsg:
			for _, c := range m {
				if c != nil {
					if _, ok := c().(tea.QuitMsg); ok {
						return true
					}
				}
			}
		}
		return false
	}
	for range 3 {
		_, cmd := rt.Update(key("esc"))
		require.False(t, isQuit(cmd), "esc never quits")
	}
	require.Contains(t, rt.View().Content, "q twice quits")
	_, cmd := rt.Update(key("q"))
	require.False(t, isQuit(cmd), "the first q asks")
	require.Contains(t, rt.View().Content, "Press q again to quit")
	_, cmd = rt.Update(key("j"))
	require.False(t, isQuit(cmd))
	_, cmd = rt.Update(key("q"))
	require.False(t, isQuit(cmd), "another key in between asks again")
	_, cmd = rt.Update(key("q"))
	require.True(t, isQuit(cmd), "q again quits")
}

// The table games open their lobby; racing, today's deal and boards are
// the solitaires' and say so.
func TestTableGamesOpenTheLobby(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	e := &ui.Env{Games: games.Default(), Log: slog.New(slog.DiscardHandler), Now: func() time.Time { return now },
		Player: &ui.Player{Name: "ann", ID: "a"}, Width: 80, Height: 24, Idle: time.Hour}
	var asked []ui.Route
	build := func(e *ui.Env, r ui.Route) (ui.Screen, error) {
		asked = append(asked, r)
		return New(e, ""), nil
	}
	rt := ui.NewRouter(e, build, New(e, ""), "")
	require.NotContains(t, rt.View().Content, "coming soon")
	rt.Update(key("9")) // Spite and Malice
	require.Len(t, asked, 1)
	require.Equal(t, ui.Lobby, asked[0].Page)
	require.Equal(t, "spite", asked[0].Game.Game.Name)
	rt.Update(key("G")) // Kings in the Corner, the last line
	// Only what works on a table game is offered.
	require.Contains(t, rt.View().Content, "the tables")
	require.NotContains(t, rt.View().Content, "today's deal")
	require.NotContains(t, rt.View().Content, "boards")
	for _, k := range []string{"r", "t", "b"} {
		rt.Update(key(k))
		require.Len(t, asked, 1, "%s on a table game opens nothing", k)
	}
	rt.Update(key("r"))
	require.Contains(t, rt.View().Content, "Kings in the Corner is played at a table: enter opens its lobby.")
	rt.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	require.Len(t, asked, 2)
	require.Equal(t, ui.Lobby, asked[1].Page)
	require.Equal(t, "kings", asked[1].Game.Game.Name)
}

// t and b on a table game, which has neither a deal of the day nor
// boards, say so and where to go instead, rather than doing nothing.
func TestTableGameKeysSayWhy(t *testing.T) {
	e := &ui.Env{Games: games.Default(), Log: slog.New(slog.DiscardHandler), Now: time.Now,
		Player: &ui.Player{Name: "ann", ID: "a"}, Width: 80, Height: 24, Idle: time.Hour}
	var asked []ui.Route
	build := func(e *ui.Env, r ui.Route) (ui.Screen, error) {
		asked = append(asked, r)
		return New(e, ""), nil
	}
	rt := ui.NewRouter(e, build, New(e, ""), "")
	rt.Update(key("G")) // Kings in the Corner, the last line
	rt.Update(key("t"))
	require.Contains(t, rt.View().Content, "Kings in the Corner has no deal of the day: enter opens its lobby.")
	rt.Update(key("b"))
	require.Contains(t, rt.View().Content, "Kings in the Corner has no boards: p shows your games and matches.")
	require.Empty(t, asked, "neither opens a screen")
}
