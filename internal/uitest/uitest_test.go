package uitest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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
