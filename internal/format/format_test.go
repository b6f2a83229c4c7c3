package format

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestClean(t *testing.T) {
	require.Equal(t, "evil[31mname", Clean("evil\x1b[31mname\r\n\x07", 40))
	require.Equal(t, "abc", Clean("abcdef", 3))
}

func TestDuration(t *testing.T) {
	require.Equal(t, "1:35", Duration(95*time.Second))
	require.Equal(t, "0:00", Duration(0))
	require.Equal(t, "1:01:01", Duration(time.Hour+61*time.Second+400*time.Millisecond))
}
