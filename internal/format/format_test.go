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

func TestAppendDuration(t *testing.T) {
	for _, d := range []time.Duration{0, 400 * time.Millisecond, 500 * time.Millisecond, time.Second, 59 * time.Second,
		95 * time.Second, 10 * time.Minute, 59*time.Minute + 59*time.Second + 600*time.Millisecond, time.Hour,
		time.Hour + 61*time.Second + 400*time.Millisecond, 25*time.Hour + 7*time.Second, 1000 * time.Hour,
		-time.Second, -95 * time.Second, -2 * time.Hour, -400 * time.Millisecond} {
		require.Equal(t, Duration(d), string(AppendDuration([]byte("x"), d))[1:], "%v", d)
	}
	for d := time.Duration(0); d < 3*time.Hour; d += 997 * time.Millisecond {
		if got := string(AppendDuration(nil, d)); got != Duration(d) {
			t.Fatalf("%v: %q, want %q", d, got, Duration(d))
		}
	}
}

func TestOrdinal(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 101: "101st", 111: "111th", 0: "0th"} {
		if got := Ordinal(n); got != want {
			t.Errorf("Ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}
