package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"sshuffle/arcade"
	store "sshuffle/store/badger"
)

// Exit codes of serve beyond 0 (clean stop), 1 (other failure) and 2 (usage).
const (
	exitStoreRefused = 3 // the store is damaged, replaced, or the disk is too full
)

// storeExit is the exit code for an error opening the store.
func storeExit(err error) int {
	if errors.Is(err, store.ErrWrongStore) || errors.Is(err, store.ErrDamaged) || errors.Is(err, store.ErrNoSpace) {
		return exitStoreRefused
	}
	return 1
}

func storeDir(data string) string { return filepath.Join(data, "store") }

// adminSock is where a running server answers the operator's backup: a
// Unix socket in the data directory, mode 0600, so only the account that
// runs the server (or root) can reach it. Badger holds an exclusive lock
// on its directory, so a second process cannot read the store; the
// running server takes the backup itself, from a snapshot.
func adminSock(data string) string { return filepath.Join(data, "admin.sock") }

func serveAdmin(data string, st *store.Store, log *slog.Logger) (func(), error) {
	path := adminSock(data)
	_ = os.Remove(path) // a socket left by a killed server
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("admin socket %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		_ = ln.Close()
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /backup", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		start := time.Now()
		if err := st.Backup(w); err != nil {
			log.Error("backup", "error", err.Error())
			return
		}
		log.Info("backup sent", "took", time.Since(start).Round(time.Millisecond).String())
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return func() { _ = srv.Close(); _ = os.Remove(path) }, nil
}

// serveMetrics serves Prometheus metrics and /healthz. Off unless asked
// for; it should listen on loopback (or behind a firewall): it tells
// anyone who asks how busy the server is.
func serveMetrics(addr string, srv *arcade.Server, log *slog.Logger) (net.Addr, func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", srv.MetricsHandler())
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		if err := srv.Health(); err != nil {
			http.Error(w, "not ok: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		_, _ = io.WriteString(w, "ok\n")
	})
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Info("metrics", "addr", ln.Addr().String())
	go func() { _ = hs.Serve(ln) }()
	return ln.Addr(), func() { _ = hs.Close() }, nil
}

// backup writes the store under --data to stdout: from the running
// server through its admin socket, or, with no server running, from the
// store opened directly.
func backup(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", envOr("SSHUFFLE_DATA", "./data"), "the server's data directory")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if f, ok := stdout.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			fmt.Fprintln(stderr, "sshuffle backup: stdout is a terminal; redirect it to a file: sshuffle backup --data DIR > FILE")
			return 2
		}
	}
	n, err := backupFromServer(*data, stdout)
	if err == nil {
		fmt.Fprintf(stderr, "sshuffle backup: %d bytes from the running server\n", n)
		return 0
	}
	if !errors.Is(err, errNoServer) {
		fmt.Fprintln(stderr, "sshuffle backup:", err)
		return 1
	}
	st, err := store.OpenWith(storeDir(*data), store.Options{MinFree: -1})
	if err != nil {
		fmt.Fprintln(stderr, "sshuffle backup:", err)
		return storeExit(err)
	}
	cw := &countWriter{w: stdout}
	err = st.Backup(cw)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintln(stderr, "sshuffle backup:", err)
		return 1
	}
	fmt.Fprintf(stderr, "sshuffle backup: %d bytes (no server running; read the store directly)\n", cw.n)
	return 0
}

var errNoServer = errors.New("no server answers on the admin socket")

func backupFromServer(data string, w io.Writer) (int64, error) {
	path := adminSock(data)
	if _, err := os.Stat(path); err != nil {
		return 0, errNoServer
	}
	client := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", path)
		},
	}}
	resp, err := client.Get("http://sshuffle/backup")
	if err != nil {
		var op *net.OpError
		if errors.As(err, &op) {
			return 0, errNoServer // a socket left by a killed server
		}
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("the server answered %s", resp.Status)
	}
	return io.Copy(w, resp.Body)
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// restore loads a backup from stdin into a new store under --data.
func restore(args []string, stdin io.Reader, stderr io.Writer) int {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", envOr("SSHUFFLE_DATA", "./data"), "the data directory to restore into (its store must not exist yet)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := os.MkdirAll(*data, 0o700); err != nil {
		fmt.Fprintln(stderr, "sshuffle restore:", err)
		return 1
	}
	if err := store.Restore(storeDir(*data), stdin, store.Options{}); err != nil {
		fmt.Fprintln(stderr, "sshuffle restore:", err)
		return storeExit(err)
	}
	fmt.Fprintf(stderr, "sshuffle restore: restored into %s\n", storeDir(*data))
	return 0
}

// parseSize reads "400x200".
func parseSize(s string) (w, h int, err error) {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	if ok {
		w, err = strconv.Atoi(a)
		if err == nil {
			h, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || w < 20 || h < 10 {
		return 0, 0, fmt.Errorf("%q is not a size like 400x200 (at least 20x10)", s)
	}
	return w, h, nil
}
