package arcade

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/throttle"
	"sshuffle/internal/sshtest"
)

// friend add of names nobody has is answered a few times, then held
// back with a sentence, for every name alike (a known one too), so that a
// loop of commands cannot list the names that exist.
func TestUnknownNamesAreRateLimited(t *testing.T) {
	frozen := time.Now()
	ts := startServerWith(t, Config{Now: func() time.Time { return frozen }})
	cb := sshtest.Dial(t, ts.addr, "bob", sshtest.NewClientKey(t))
	defer cb.Close()
	sshtest.OpenTerm(t, cb, nil).WaitFor("Playing as bob")
	ca := sshtest.Dial(t, ts.addr, "alice", sshtest.NewClientKey(t))
	defer ca.Close()
	sshtest.OpenTerm(t, ca, nil).WaitFor("Playing as alice")

	unknown, held := 0, 0
	for i := range 12 {
		out := say(t, ca, fmt.Sprintf("friend add ghost%d", i))
		switch {
		case strings.Contains(out, "Nobody here is called"):
			unknown++
		case strings.Contains(out, throttle.TooManyNames):
			held++
		default:
			t.Fatalf("friend add ghost%d said %q", i, out)
		}
	}
	require.Positive(t, unknown)
	require.Less(t, unknown, 12, "some unknown names held back")
	require.Equal(t, 12, unknown+held)
	require.Contains(t, say(t, ca, "friend add bob"), throttle.TooManyNames, "a known name is held back alike")
}
