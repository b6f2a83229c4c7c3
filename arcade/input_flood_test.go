package arcade

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	rtmetrics "runtime/metrics"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/require"

	"sshuffle/internal/sshtest"
)

// A player who types megabytes of random bytes into a game, as fast as the
// server reads them, costs the server a bounded amount of memory; the
// excess is dropped and counted, and the session still answers a key.
//
// It runs in a process of its own: the heap it measures is the process's,
// and goroutines that earlier tests of the package leave winding down
// (stores closing, rooms ending) would count in it.
func TestInputFloodIsDroppedNotQueued(t *testing.T) {
	if os.Getenv(floodChild) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestInputFloodIsDroppedNotQueued$", "-test.v")
		cmd.Env = append(os.Environ(), floodChild+"=1")
		out, err := cmd.CombinedOutput()
		t.Logf("%s", out)
		require.NoError(t, err, "the flood test in its own process")
		require.Contains(t, string(out), "--- PASS: TestInputFloodIsDroppedNotQueued")
		return
	}
	ts := startServer(t)
	c := sshtest.Dial(t, ts.addr, "flood", sshtest.NewClientKey(t))
	defer c.Close()
	tm := sshtest.OpenTerm(t, c, nil)
	tm.WaitFor("Playing as flood")
	tm.Send("\r")
	tm.WaitFor("Moves 0")

	// The heap the last collection found live: what the session holds
	// on to. HeapAlloc would also count what the flood's parsing
	// allocated while the collection ran, which a loaded machine
	// stretches to many megabytes of garbage.
	live := []rtmetrics.Sample{{Name: "/gc/heap/live:bytes"}}
	liveHeap := func() uint64 {
		runtime.GC()
		rtmetrics.Read(live)
		return live[0].Value.Uint64()
	}
	base := liveHeap()
	peak := base
	rng := rand.New(rand.NewPCG(9, 23))
	chunk := make([]byte, 64<<10)
	const size = 32 << 20
	for sent := 0; sent < size; sent += len(chunk) {
		for i := range chunk {
			b := byte(rng.Uint32())
			switch b {
			case 0x03, 'q', 'Q': // the keys that end a session
				b = ' '
			case 0x1b:
				// Escape sequences can spell q or ctrl+c too (CSI u);
				// render's own test floods them. Bytes that are no
				// key (broken UTF-8) still wait for more.
				b = 0xd1
			}
			chunk[i] = b
		}
		tm.Send(string(chunk))
		if sent%(1<<20) == 0 {
			peak = max(peak, liveHeap())
		}
	}
	// The writes above return once the server has taken the bytes
	// into its channel window; the session answering ctrl+c shows it
	// read to the end. The player presses it until it is answered, as
	// one would: a key right behind the flood may be dropped with it.
	ended := func() bool {
		ts.srv.mu.Lock()
		defer ts.srv.mu.Unlock()
		return len(ts.srv.sessions) == 0
	}
	for range 60 {
		if ended() {
			break
		}
		tm.Send("\x03")
		time.Sleep(500 * time.Millisecond)
	}
	require.True(t, ended(), "the session answers ctrl+c after the flood")
	t.Logf("live growth %d KB", (peak-min(peak, base))>>10)
	require.Less(t, peak-min(peak, base), uint64(20<<20), "live heap growth during the flood")
	var m dto.Metric
	require.NoError(t, ts.srv.metrics.inputDropped.WithLabelValues("events").Write(&m))
	require.Positive(t, m.GetCounter().GetValue(), "dropped events counted")
}

// floodChild marks the process the flood test runs itself in.
const floodChild = "SSHUFFLE_FLOOD_TEST_CHILD"
