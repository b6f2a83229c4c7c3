package arcade

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/internal/sshtest"
)

// createdBy counts the goroutines started from a function whose name
// contains fn.
func createdBy(fn string) int {
	return countStacks(func(g []byte) bool {
		i := bytes.LastIndex(g, []byte("\ncreated by "))
		return i >= 0 && bytes.Contains(g[i:], []byte(fn))
	})
}

// An idle session in a game holds one goroutine of the program middleware
// (the input reader), not a window watcher beside it for its whole life,
// and one request loop, not the guard's beside the library's:
// goroutines a session are memory at thousands of sessions; a resize starts
// a sender that ends once the size is taken.
func TestIdleSessionHoldsNoWindowWatcher(t *testing.T) {
	ts := startServerWith(t, Config{MaxPerAddr: 10})
	const n = 3
	var terms []*sshtest.Term
	for i := range n {
		c := sshtest.Dial(t, ts.addr, fmt.Sprintf("still%d", i), sshtest.NewClientKey(t))
		defer c.Close()
		tm := sshtest.OpenTerm(t, c, nil)
		tm.WaitFor("Playing as")
		tm.Send("1")
		tm.WaitFor("Deal #")
		terms = append(terms, tm)
	}
	const mw = "arcade.New.(*Server).programMiddleware"
	settled := func(want int) int {
		got := 0
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if got = createdBy(mw); got <= want {
				break
			}
		}
		return got
	}
	require.Equal(t, n, settled(n), "goroutines of the program middleware for %d sessions", n)
	// Once the shell is handed over, the channel's requests are answered
	// on the goroutine that ran the library's request loop: no second
	// loop beside it for the session's life.
	require.Zero(t, createdBy("arcade.(*guardedNewChannel).Accept"), "a request filter beside the library's request loop")

	require.NoError(t, terms[0].Sess.WindowChange(30, 100))
	require.Eventually(t, func() bool {
		for _, wh := range ts.srv.windowSizes() {
			if wh == [2]int{100, 30} {
				return true
			}
		}
		return false
	}, 10*time.Second, 10*time.Millisecond, "the resize never reached the program")
	require.Equal(t, n, settled(n), "after a resize")
	require.Zero(t, createdBy("arcade.(*guard)"), "a size sender outlived its size")
}
