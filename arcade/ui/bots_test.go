package ui

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/store"
)

// TestBotName: a bot's name carries the mark and, with it, takes no more
// room than the longest name; a person's is left alone.
func TestBotName(t *testing.T) {
	require.Equal(t, "robo [bot]", ShownName(hub.Person{ID: "x", Name: "robo", Bot: true}))
	require.Equal(t, "ann", ShownName(hub.Person{ID: "y", Name: "ann"}))
	require.Equal(t, "", ShownName(hub.Person{Bot: true}), "no name, nothing to mark")
	long := BotName("abcdefghijklmnopqrst")
	require.Equal(t, "abcdefghijklm~ [bot]", long)
	require.LessOrEqual(t, len(long), store.MaxNameLen)
	require.Equal(t, "abcdefghijklmn [bot]", BotName("abcdefghijklmn"))
}
