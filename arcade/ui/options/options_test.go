package options

import (
	"context"
	"log/slog"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/store/badger"
)

// Toggling an option keeps it for the player; the next deal reads it.
func TestToggleKeepsTheOption(t *testing.T) {
	st, err := badger.OpenInMemory()
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	id := "SHA256:testkey"
	_, err = st.CreateAccount(context.Background(), id, "tess")
	require.NoError(t, err)
	e := &ui.Env{Games: games.Default(), Store: st, Log: slog.New(slog.DiscardHandler), Now: time.Now,
		Player: &ui.Player{ID: id, Name: "tess"}, Width: 80, Height: 24}
	fc, _ := games.Default().Entry("freecell")
	require.True(t, ui.LoadOptions(e, fc).On("auto"), "safe auto-moves are on by default")
	s := New(e, fc)
	require.Contains(t, s.View(), "[x] Send safe cards")
	s.Update(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	require.Contains(t, s.View(), "[ ] Send safe cards")
	require.Contains(t, s.View(), "applies from your next deal")
	v, err := st.Setting(context.Background(), id, "freecell.auto")
	require.NoError(t, err)
	require.Equal(t, games.Off, v)
	require.False(t, ui.LoadOptions(e, fc).On("auto"))

	// A guest's toggle lasts the screen only.
	e.Player = &ui.Player{Name: "guest", Guest: true}
	g := New(e, fc)
	g.Update(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	require.Contains(t, g.View(), "Guests' options last until they leave")
	require.True(t, ui.LoadOptions(e, fc).On("auto"))
}
