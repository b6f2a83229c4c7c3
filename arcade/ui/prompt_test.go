package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"
)

func TestEditLine(t *testing.T) {
	empty := ""
	line := &empty
	for _, k := range []tea.KeyPressMsg{{Code: 'b', Text: "b"}, {Code: '!', Text: "!"}, {Code: 'o', Text: "o"}, {Code: 'x', Text: "x"},
		{Code: tea.KeyBackspace}, {Code: 'b', Text: "b"}} {
		_, done := EditLine(&line, k, NameKey)
		require.False(t, done)
	}
	require.Equal(t, "bob", *line, "a name's characters only, backspace takes one back")
	text, done := EditLine(&line, tea.KeyPressMsg{Code: tea.KeyEnter}, NameKey)
	require.True(t, done)
	require.Equal(t, "bob", text)
	require.Nil(t, line, "enter closes the prompt")

	line = &empty
	_, done = EditLine(&line, tea.KeyPressMsg{Code: tea.KeyEscape}, NameKey)
	require.False(t, done)
	require.Nil(t, line, "esc drops the prompt")
}
