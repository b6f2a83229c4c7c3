package main

import (
	"net/http"
	"net/http/httptest"
	"net/http/pprof"
	"testing"

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
