// Command sshuffle serves the card arcade over SSH, and prints deals, solves
// and replays from the command line.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"sshuffle/arcade"
	"sshuffle/games"
	"sshuffle/hostkeys"
	store "sshuffle/store/badger"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(args, stderr)
	case "deal":
		return deal(args, stdout, stderr)
	case "solve":
		return solve(args, stdout, stderr)
	case "replay":
		if len(args) > 0 {
			if kit, ok := games.Default().TableKit(args[0]); ok {
				return replayTable(kit.Replay, os.Stdin, stdout, stderr)
			}
		}
		return replay(args, os.Stdin, stdout, stderr)
	case "selfplay":
		return selfplay(args, games.Default(), stdout, stderr)
	case "strengths":
		return strengths(args, games.Default(), stdout, stderr)
	case "backup":
		return backup(args, stdout, stderr)
	case "restore":
		return restore(args, os.Stdin, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "sshuffle: unknown command %q\n\n%s", cmd, usage)
	return 2
}

const usage = `usage:
  sshuffle [serve] [--addr HOST:PORT] [--data DIR] [--idle 30m] [--max-sessions N] [--max-per-addr N]
        [--metrics-addr 127.0.0.1:9100] [--min-free-mb 256] [--accept-store] [--start-timeout 30s]
        [--max-channels-per-conn 4] [--max-window 400x200] [--max-searches N]
        serve the arcade (env SSHUFFLE_ADDR, SSHUFFLE_DATA); exit 3: the store is damaged, not the
        one last written, or the disk is below the free-space floor (the log says which)
  sshuffle backup --data DIR > FILE
        write a backup of the store (from the running server, or from the store when none runs)
  sshuffle restore --data DIR < FILE
        restore a backup into DIR, whose store must not exist yet
  sshuffle deal freecell N
  sshuffle deal klondike|spider|tripeaks|pyramid SEED [draw1|draw3|1suit|2suit|4suit]
        print a deal's opening layout
  sshuffle solve freecell|klondike|spider|tripeaks|pyramid [DEAL] [--deals A-B] [--draw 1|3] [--suits 1|2|4]
        [--nodes N] [--workers N] [--threads N] [--moves] [--list-won]
        solve deals with the game's solver and report solved / impossible / undecided and the time taken
  sshuffle replay freecell DEAL < moves.txt
        check a FreeCell solution in standard notation (3a a8 2h 86 ...)
  sshuffle selfplay spite|kings [--players N] --seats hard,easy,... --games N [--seed S] [--settings k=v,...]
        [--records FILE] [--json]
        computer players play each other; wins with 95% intervals, scores, decision times
  sshuffle strengths spite|kings [--players N] [--pairs hard:easy,...] [--games N] [--settings k=v,...] [--json]
        each strength against another, in every seat on the same deals: win rates with 95% intervals
  sshuffle replay spite|kings < records.jsonl
        check table-game records (one JSON line a game) with the rules; exit 1 on any failure
`

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func serve(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", envOr("SSHUFFLE_ADDR", ":2222"), "address to listen on")
	data := fs.String("data", envOr("SSHUFFLE_DATA", "./data"), "directory for the store and host key")
	idle := fs.Duration("idle", 30*time.Minute, "end a session after this long without a key press")
	maxSessions := fs.Int("max-sessions", 2000, "most sessions at once")
	maxPerAddr := fs.Int("max-per-addr", 10, "most sessions from one address")
	logJSON := fs.Bool("log-json", false, "log JSON lines instead of text")
	fps := fs.Int("fps", 60, "most frames a second per session answering input (keys arriving within a frame share one; a key is drawn at once otherwise)")
	fillPools := fs.Bool("fill-pools", true, "search for fresh winnable deals in the background (one core at most)")
	debugAddr := fs.String("debug-addr", "", "serve Go's profiles (net/http/pprof) here, e.g. 127.0.0.1:6060; off when empty")
	metricsAddr := fs.String("metrics-addr", "", "serve Prometheus metrics (/metrics) and /healthz here, e.g. 127.0.0.1:9100; off when empty")
	minFree := fs.Int64("min-free-mb", store.DefaultMinFree>>20, "refuse to start, and refuse writes, below this much free disk space (MB)")
	acceptStore := fs.Bool("accept-store", false, "open a store whose markers disagree (replaced, lost writes) as it is, and mark it as this server's")
	startTimeout := fs.Duration("start-timeout", 30*time.Second, "close a connection that runs no session for this long")
	maxChannels := fs.Int("max-channels-per-conn", 4, "most session channels open at once on one connection")
	maxWindow := fs.String("max-window", "400x200", "largest window drawn (columns x rows); bigger terminals are drawn at this size")
	inviteHost := fs.String("invite-host", envOr("SSHUFFLE_INVITE_HOST", ""), "the host name players reach this server by, for invite lines (ssh -t -p PORT HOST join CODE); default: this machine's name")
	invitePort := fs.Int("invite-port", 0, "the port players reach this server on, for invite lines; 0: the port listened on")
	maxSearches := fs.Int("max-searches", 0, "most background searches (hints, stuck checks, deal pools) at once; 0: one fewer than the cores, at least 1")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	maxW, maxH, err := parseSize(*maxWindow)
	if err != nil {
		fmt.Fprintln(stderr, "sshuffle: --max-window:", err)
		return 2
	}
	var h slog.Handler = slog.NewTextHandler(stderr, nil)
	if *logJSON {
		h = slog.NewJSONHandler(stderr, nil)
	}
	log := slog.New(h)
	slog.SetDefault(log)

	key, err := hostkeys.LoadOrCreate(*data)
	if err != nil {
		log.Error("host key", "error", err.Error())
		return 1
	}
	log.Info("host key", "path", key.Path, "fingerprint", key.Fingerprint, "created", key.Created)

	st, err := store.OpenWith(filepath.Join(*data, "store"), store.Options{Logger: log, MinFree: *minFree << 20, Accept: *acceptStore})
	if err != nil {
		log.Error("opening store", "error", err.Error())
		return storeExit(err)
	}
	srv, err := arcade.New(arcade.Config{
		Addr: *addr, HostKeyPEM: key.PEM, IdleTimeout: *idle,
		MaxSessions: *maxSessions, MaxPerAddr: *maxPerAddr, Logger: log, FillPools: *fillPools, FPS: *fps,
		StartTimeout: *startTimeout, MaxChannelsPerConn: *maxChannels, MaxWidth: maxW, MaxHeight: maxH,
		MaxSearches: *maxSearches, InviteHost: *inviteHost, InvitePort: *invitePort,
	}, st)
	if err != nil {
		log.Error("server", "error", err.Error())
		_ = st.Close()
		return 1
	}

	if *debugAddr != "" {
		if _, err := serveDebug(*debugAddr, log); err != nil {
			log.Error("debug listener", "error", err.Error())
			_ = st.Close()
			return 1
		}
	}
	if *metricsAddr != "" {
		_, stopMetrics, err := serveMetrics(*metricsAddr, srv, log)
		if err != nil {
			log.Error("metrics listener", "error", err.Error())
			_ = st.Close()
			return 1
		}
		defer stopMetrics()
	}
	stopAdmin, err := serveAdmin(*data, st, log)
	if err != nil {
		log.Error("admin socket", "error", err.Error())
		_ = st.Close()
		return 1
	}
	defer stopAdmin()
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
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
	// Sessions get 3 s to save and say goodbye; the whole exit stays under 5 s.
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
