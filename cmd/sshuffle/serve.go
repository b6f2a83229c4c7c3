package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"syscall"
	"time"

	"sshuffle/arcade"
	"sshuffle/arcade/hub"
	"sshuffle/arcade/hub/natsrelay"
	"sshuffle/hostkeys"
	store "sshuffle/store/badger"
)

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// serveFlags are serve's flags as given.
type serveFlags struct {
	addr, data          *string
	idle                *time.Duration
	maxSessions         *int
	maxPerAddr          *int
	logJSON             *bool
	fps                 *int
	fillPools           *bool
	debugAddr           *string
	metricsAddr         *string
	minFree             *int64
	acceptStore         *bool
	startTimeout        *time.Duration
	maxChannels         *int
	maxWindow           *string
	inviteHost          *string
	invitePort          *int
	maxSearches         *int
	maxStartups         *string
	playNowWait         *time.Duration
	storeFlag           *string
	node                *string
	natsPrefix          *string
	hostKey             *string
	trustProxy          *string
	roomLease           *time.Duration
	maxWidth, maxHeight int             // maxWindow, read
	startups            arcade.Startups // maxStartups, read
	store               storeChoice     // storeFlag, read
	trusted             []netip.Prefix  // trustProxy, read
}

// parseServeFlags reads serve's flags; false: they were wrong (said on
// stderr).
func parseServeFlags(args []string, stderr io.Writer) (serveFlags, bool) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := serveFlags{
		addr:         fs.String("addr", envOr("SSHUFFLE_ADDR", ":2222"), "address to listen on"),
		data:         fs.String("data", envOr("SSHUFFLE_DATA", "./data"), "directory for the store and host key"),
		idle:         fs.Duration("idle", 30*time.Minute, "end a session after this long without a key press"),
		maxSessions:  fs.Int("max-sessions", 2000, "most sessions at once"),
		maxPerAddr:   fs.Int("max-per-addr", 10, "most sessions from one address"),
		logJSON:      fs.Bool("log-json", false, "log JSON lines instead of text"),
		fps:          fs.Int("fps", 60, "most frames a second per session answering input (keys arriving within a frame share one; a key is drawn at once otherwise)"),
		fillPools:    fs.Bool("fill-pools", true, "search for fresh winnable deals in the background (one core at most)"),
		debugAddr:    fs.String("debug-addr", "", "serve Go's profiles (net/http/pprof) here, e.g. 127.0.0.1:6060; off when empty"),
		metricsAddr:  fs.String("metrics-addr", "", "serve Prometheus metrics (/metrics) and /healthz here, e.g. 127.0.0.1:9100; off when empty"),
		minFree:      fs.Int64("min-free-mb", store.DefaultMinFree>>20, "refuse to start, and refuse writes, below this much free disk space (MB)"),
		acceptStore:  fs.Bool("accept-store", false, "open a store whose markers disagree (replaced, lost writes) as it is, and mark it as this server's"),
		startTimeout: fs.Duration("start-timeout", 30*time.Second, "close a connection that runs no session for this long"),
		maxChannels:  fs.Int("max-channels-per-conn", 4, "most session channels open at once on one connection"),
		maxWindow:    fs.String("max-window", "400x200", "largest window drawn (columns x rows); bigger terminals are drawn at this size"),
		inviteHost:   fs.String("invite-host", envOr("SSHUFFLE_INVITE_HOST", ""), "the host name players reach this server by, for invite lines (ssh -t -p PORT HOST join CODE); default: the address the inviting player reached"),
		invitePort:   fs.Int("invite-port", 0, "the port players reach this server on, for invite lines; 0: the port the inviting player reached"),
		maxSearches:  fs.Int("max-searches", 0, "most background searches (hints, stuck checks, deal pools) at once; 0: one fewer than the cores, at least 1"),
		maxStartups:  fs.String("max-startups", arcade.DefaultStartups.String(), "start:rate:full, as OpenSSH's MaxStartups: past start connections still in their login, refuse a new one with probability rate% rising to 100% at full"),
		playNowWait:  fs.Duration("play-now-wait", 20*time.Second, "how long a player waits in the play-now pool for a person before a computer player is offered"),
		storeFlag:    fs.String("store", envOr("SSHUFFLE_STORE", ""), "where the arcade keeps its records: badger:DIR (default: DIR/store under --data) or nats://HOST:PORT,... (a NATS JetStream cluster several nodes share)"),
		node:         fs.String("node", envOr("SSHUFFLE_NODE", ""), "this node's name among the nodes sharing a NATS store (default: the host name)"),
		natsPrefix:   fs.String("nats-prefix", "sshuffle", "the NATS buckets' name prefix; arcades sharing one NATS cluster need one each"),
		hostKey:      fs.String("host-key", envOr("SSHUFFLE_HOST_KEY", ""), "the SSH host key file (made if missing); nodes behind one balancer share one (default: host_ed25519 under --data)"),
		trustProxy:   fs.String("trust-proxy", "", "addresses or CIDR prefixes of TCP balancers whose PROXY protocol header (v1 or v2) gives the client's address; a header from anywhere else is refused"),
		roomLease:    fs.Duration("room-lease", natsrelay.DefaultLease, "on a NATS store: how long a node may fail to renew its rooms before another node takes its tables over (it renews every quarter of this)"),
	}
	if err := fs.Parse(args); err != nil {
		return f, false
	}
	var err error
	f.maxWidth, f.maxHeight, err = parseSize(*f.maxWindow)
	if err != nil {
		fmt.Fprintln(stderr, "sshuffle: --max-window:", err)
		return f, false
	}
	if f.startups, err = arcade.ParseStartups(*f.maxStartups); err != nil {
		fmt.Fprintln(stderr, "sshuffle:", err)
		return f, false
	}
	if f.store, err = parseStore(*f.storeFlag, *f.data, *f.node); err != nil {
		fmt.Fprintln(stderr, "sshuffle:", err)
		return f, false
	}
	if f.trusted, err = parseTrusted(*f.trustProxy); err != nil {
		fmt.Fprintln(stderr, "sshuffle:", err)
		return f, false
	}
	return f, true
}

// serve runs the arcade until a signal or its listener stops it: the
// flags, the log, the host key and the store, the server, the listeners
// beside it (profiles, metrics, the admin socket), then a shutdown that
// lets sessions save.
func serve(args []string, stderr io.Writer) int {
	f, ok := parseServeFlags(args, stderr)
	if !ok {
		return 2
	}
	log := newLogger(stderr, *f.logJSON)
	slog.SetDefault(log)

	srv, st, code := openServer(f, log)
	if srv == nil {
		return code
	}
	stop, ok := startListeners(f, srv, st, log)
	defer stop()
	if !ok {
		_ = st.Close()
		return 1
	}
	code = runUntilStopped(srv, f, log)
	return shutdown(srv, st, log, code)
}

func newLogger(stderr io.Writer, asJSON bool) *slog.Logger {
	var h slog.Handler = slog.NewTextHandler(stderr, nil)
	if asJSON {
		h = slog.NewJSONHandler(stderr, nil)
	}
	return slog.New(h)
}

// openServer loads (or makes) the host key, opens the store and builds
// the server on them; a nil server comes with the exit code.
func openServer(f serveFlags, log *slog.Logger) (*arcade.Server, opened, int) {
	var key hostkeys.Key
	var err error
	if *f.hostKey != "" {
		key, err = hostkeys.LoadOrCreateFile(*f.hostKey)
	} else {
		key, err = hostkeys.LoadOrCreate(*f.data)
	}
	if err != nil {
		log.Error("host key", "error", err.Error())
		return nil, opened{}, 1
	}
	log.Info("host key", "path", key.Path, "fingerprint", key.Fingerprint, "created", key.Created)

	st, err := openStore(f.store, f, log)
	if err != nil {
		log.Error("opening store", "store", f.store.String(), "error", err.Error())
		return nil, opened{}, storeExit(err)
	}
	log.Info("store", "store", f.store.String())
	if st.relay, err = openRelay(st, f.store.node, *f.roomLease, log); err != nil {
		log.Error("rooms across nodes", "error", err.Error())
		_ = st.Close()
		return nil, opened{}, 1
	}
	if st.relay != nil {
		log.Info("rooms across nodes", "node", f.store.node, "lease", f.roomLease.String())
	}
	srv, err := arcade.New(arcade.Config{
		Addr: *f.addr, HostKeyPEM: key.PEM, IdleTimeout: *f.idle,
		MaxSessions: *f.maxSessions, MaxPerAddr: *f.maxPerAddr, Logger: log, FillPools: *f.fillPools, FPS: *f.fps,
		StartTimeout: *f.startTimeout, MaxChannelsPerConn: *f.maxChannels, MaxWidth: f.maxWidth, MaxHeight: f.maxHeight,
		MaxSearches: *f.maxSearches, InviteHost: *f.inviteHost, InvitePort: *f.invitePort, MaxStartups: f.startups,
		PlayNowWait: *f.playNowWait, Relay: relayOf(st),
	}, st)
	if err != nil {
		log.Error("server", "error", err.Error())
		_ = st.Close()
		return nil, opened{}, 1
	}
	return srv, st, 0
}

// relayOf is the server's Relay: nil (no interface holding a nil
// pointer) when the store is Badger.
func relayOf(st opened) hub.Relay {
	if st.relay == nil {
		return nil
	}
	return st.relay
}

// startListeners starts what listens beside the server: profiles and
// metrics when asked for, and the admin socket. stop stops what started,
// whether or not all did; false: one failed (logged).
func startListeners(f serveFlags, srv *arcade.Server, st opened, log *slog.Logger) (stop func(), ok bool) {
	var stops []func()
	stop = func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	if *f.debugAddr != "" {
		if _, err := serveDebug(*f.debugAddr, log); err != nil {
			log.Error("debug listener", "error", err.Error())
			return stop, false
		}
	}
	if *f.metricsAddr != "" {
		_, stopMetrics, err := serveMetrics(*f.metricsAddr, srv, log)
		if err != nil {
			log.Error("metrics listener", "error", err.Error())
			return stop, false
		}
		stops = append(stops, stopMetrics)
	}
	if st.badger == nil {
		// No local store to back up: NATS streams are backed up with
		// NATS's own tools (see docs/operating.md).
		return stop, true
	}
	stopAdmin, err := serveAdmin(*f.data, st.badger, log)
	if err != nil {
		log.Error("admin socket", "error", err.Error())
		return stop, false
	}
	stops = append(stops, stopAdmin)
	return stop, true
}

// runUntilStopped serves until SIGINT or SIGTERM, or until the listener
// fails (exit code 1). Behind trusted balancers the listener reads their
// PROXY protocol headers.
func runUntilStopped(srv *arcade.Server, f serveFlags, log *slog.Logger) int {
	errc := make(chan error, 1)
	l, err := net.Listen("tcp", *f.addr)
	if err != nil {
		log.Error("server stopped", "error", fmt.Sprintf("listen %s: %v", *f.addr, err))
		return 1
	}
	if len(f.trusted) > 0 {
		l = proxyListener(l, f.trusted)
		log.Info("PROXY protocol", "trusted", *f.trustProxy)
	}
	log.Info("listening", "addr", l.Addr().String())
	go func() { errc <- srv.Serve(l) }()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	code := 0
	select {
	case s := <-sig:
		log.Info("shutting down", "signal", s.String(), "sessions", srv.Sessions())
	case err := <-errc:
		if err != nil {
			log.Error("server stopped", "error", err.Error())
			code = 1
		}
	}
	return code
}

// shutdown gives sessions 3 s to save and say goodbye (the whole exit
// stays under 5 s), then closes the store.
func shutdown(srv *arcade.Server, st opened, log *slog.Logger, code int) int {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		log.Warn("shutdown", "error", err.Error())
	}
	if err := st.Close(); err != nil {
		log.Error("closing store", "error", err.Error())
		code = 1
	}
	log.Info("stopped")
	return code
}
