package main

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestServeDebug(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	addr, err := serveDebug("127.0.0.1:0", log)
	require.NoError(t, err)
	resp, err := http.Get("http://" + addr.String() + "/debug/pprof/heap?debug=1")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Contains(t, string(body), "heap profile")

	// A port already taken stops the start with an error.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	_, err = serveDebug(ln.Addr().String(), log)
	require.Error(t, err)
}
