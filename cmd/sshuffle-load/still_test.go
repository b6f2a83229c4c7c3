package main

import (
	"net/http"
	"net/http/httptest"
	"net/http/pprof"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// debugMem reads the heap, stacks and goroutines of a real pprof listener,
// and only on loopback.
func TestDebugMemReadsAProfileListener(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/debug/pprof/heap", pprof.Handler("heap"))
	mux.Handle("/debug/pprof/goroutine", pprof.Handler("goroutine"))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	m := debugMem(srv.URL)
	require.True(t, m.ok)
	require.Positive(t, m.heapInuse)
	require.Positive(t, m.stack)
	require.Positive(t, m.goroutines)
	require.False(t, debugMem("http://192.0.2.1:6060").ok, "only loopback")
	require.False(t, debugMem("").ok)
}

// The CPU of a process is read to the nanosecond, not in 10 ms ticks:
// a millisecond of work shows as about that, where a tick counter would
// show nothing or a jump of ten.
func TestSchedRunCountsSmallWork(t *testing.T) {
	before, ok := schedRun(os.Getpid())
	if !ok {
		t.Skip("the kernel keeps no schedstats")
	}
	deadline := time.Now().Add(5 * time.Second)
	x := 0
	for time.Now().Before(deadline) {
		for range 10000 {
			x++
		}
		now, _ := schedRun(os.Getpid())
		if d := now - before; d >= time.Millisecond {
			if d > 9*time.Millisecond {
				t.Fatalf("the first millisecond of work counted as %v", d)
			}
			return
		}
	}
	t.Fatalf("5 s of work never counted a millisecond (x=%d)", x)
}
