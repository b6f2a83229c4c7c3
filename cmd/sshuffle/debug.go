package main

import (
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// serveDebug serves Go's runtime profiles for an operator looking into
// memory or CPU per session. The handlers are registered on a mux of our
// own, not http.DefaultServeMux, so nothing else can expose them by
// accident; the listener is opened before returning so that a taken port
// stops the start instead of failing quietly later.
func serveDebug(addr string, log *slog.Logger) (net.Addr, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Info("debug profiles", "addr", ln.Addr().String())
	go func() {
		if err := srv.Serve(ln); err != nil {
			log.Warn("debug listener stopped", "error", err.Error())
		}
	}()
	return ln.Addr(), nil
}
