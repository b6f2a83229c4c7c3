package arcade

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestWantsUnicode(t *testing.T) {
	require.False(t, wantsUnicode([]string{"LANG=C"}))
	require.False(t, wantsUnicode([]string{"LC_ALL=POSIX", "LANG=en_US.UTF-8"}))
	require.True(t, wantsUnicode([]string{"LANG=en_US.UTF-8"}))
	require.True(t, wantsUnicode(nil))
}

type fakeClock struct{ t time.Time }
