// Package arcade is what a connected person sees and does: the SSH server,
// the session middleware, and one Bubble Tea model per screen.
package arcade

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/arcade/deals"
	"sshuffle/arcade/hub"
	"sshuffle/arcade/throttle"
	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/internal/format"
	"sshuffle/store"
)

// Config is what an operator can set.
type Config struct {
	Addr        string
	HostKeyPEM  []byte
	IdleTimeout time.Duration // no key pressed for this long ends the session
	MaxTimeout  time.Duration // hard cap on one connection's life
	MaxSessions int           // session channels in total
	MaxPerAddr  int           // session channels from one remote address (IPv6: one /64)
	// MaxStartups drops new unauthenticated connections at random past a
	// start (startups.go); zero means DefaultStartups.
	MaxStartups Startups
	// StartupDraw is MaxStartups' random draw in [0, 1); nil means an
	// unpredictable one. Tests fix it.
	StartupDraw func() float64
	// MaxChannelsPerConn caps session channels open at once on one
	// connection; each can buffer up to the SSH window (2 MB) before its shell.
	MaxChannelsPerConn int
	// StartTimeout closes a connection that runs no session for this long:
	// after its login, or after its last session ended.
	StartTimeout time.Duration
	// MaxWidth and MaxHeight bound every window size the server draws for.
	MaxWidth, MaxHeight int
	// MaxSearches caps background searches (hints, stuck checks, deal
	// pools) running at once over the whole server. 0 means one fewer than
	// the cores, at least one.
	MaxSearches int
	Logger      *slog.Logger
	// Now is the clock; tests replace it. Nil means time.Now.
	Now func() time.Time
	// FPS caps the frames a second that answer input (keys that arrive
	// within a frame share one); a key is drawn as soon as its Update
	// returns otherwise. Other changes (clock ticks) are paced the same way
	// on their own. 0 means 60.
	FPS int
	// Games are the games on offer; nil means games.Default().
	Games *games.Catalogue
	// FillPools runs the solver in the background to find fresh winnable
	// deals; off, winnable deals come from the kept solver reports only.
	FillPools bool
	// InviteHost and InvitePort are where players reach the server, for
	// invite lines; empty and 0 mean the address and port the inviting
	// client reached, as help prints them (this machine's own name may
	// not resolve for a friend). Set them behind NAT or a balancer.
	InviteHost string
	InvitePort int
	// HubClock is the live rooms' clock; nil means the wall clock.
	HubClock hub.Clock
	// HubRand draws the live rooms' codes and table deals; nil means an
	// unpredictable source. Tests fix it so a table's deal is known.
	HubRand hub.Rand
	// Tables opened on this server: the turn clock (0: the hub's minute;
	// a table's own choice overrides it), the computers' pace, how long a
	// dropped person's seat is held and the break between a match's
	// games; 0: the hub's defaults (1 s, 3 min, 5 s). Tests make them small.
	TableClock, TablePace, TableHold, TableBreak time.Duration
	// PlayNowWait is how long a player waits in the play-now pool for a
	// person before a computer player is offered; 0: the hub's 20 s.
	PlayNowWait time.Duration
	// Relay puts this server's rooms in a directory shared with the other
	// nodes of a cluster and lets its players join rooms they own
	// (hub.Relay); nil, the default, keeps every room in this process.
	// The nodes must share one store too: a node that takes a table over
	// from one that stopped restores it from the snapshot stored there.
	Relay hub.Relay
}

func (c *Config) defaults() {
	if c.Addr == "" {
		c.Addr = ":2222"
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = 30 * time.Minute
	}
	if c.MaxTimeout <= 0 {
		c.MaxTimeout = 12 * time.Hour
	}
	if c.MaxSessions <= 0 {
		c.MaxSessions = 2000
	}
	if c.MaxPerAddr <= 0 {
		c.MaxPerAddr = 10
	}
	if c.MaxStartups == (Startups{}) {
		c.MaxStartups = DefaultStartups
	}
	if c.StartupDraw == nil {
		c.StartupDraw = randFloat
	}
	if c.MaxChannelsPerConn <= 0 {
		c.MaxChannelsPerConn = 4
	}
	if c.StartTimeout <= 0 {
		c.StartTimeout = 30 * time.Second
	}
	if c.MaxWidth <= 0 {
		c.MaxWidth = 400
	}
	if c.MaxHeight <= 0 {
		c.MaxHeight = 200
	}
	if c.MaxSearches <= 0 {
		c.MaxSearches = max(1, runtime.NumCPU()-1)
	}
	if c.FPS <= 0 {
		c.FPS = 60
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Games == nil {
		c.Games = games.Default()
	}
}

// Server is the arcade's SSH server.
type Server struct {
	cfg       Config
	store     store.Store
	games     *games.Catalogue
	ssh       *ssh.Server
	log       *slog.Logger
	pools     *deals.Pools
	stopPools context.CancelFunc

	metrics  *metrics
	searches *searches
	holds    *ui.Holds // which session holds each game in progress
	hub      *hub.Hub
	// races keeps the running races' records; lostRaces are the codes of
	// races lost at the last stop, by when they stop answering as ended.
	races     *raceKeeper
	lostRaces map[string]time.Time
	lostMu    sync.Mutex
	lostNotes map[string]string // by account: the menu's note, once
	// invitePort is the port invite lines name: the configured one, else
	// the one Serve listens on.
	invitePort atomic.Int64
	stopSweep  chan struct{}

	mu        sync.Mutex
	sessions  map[*tea.Program]*ui.Router
	perAddr   map[string]int // open session channels by address key
	channels  int            // open session channels in total
	conns     map[string]int // admitted connections by address key
	total     int
	startups  int // of them, those not yet past their login (MaxStartups)
	live      map[*connState]struct{}
	guards    map[uint64]*guard
	nextGuard uint64
	closing   bool
	wg        sync.WaitGroup // running programs

	refMu    sync.Mutex
	refusals map[string]*refusal

	bots       botSessions     // the bot protocol's sessions (bots.go)
	tableRevs  tableRevisions  // where this node's table snapshots stand (tablestore.go)
	names      *throttle.Names // name lookups that find nobody, server-wide
	inputLog   onceAMinute     // the "input dropped" log line
	startupLog onceAMinute     // the MaxStartups refusal line
}

var errClosing = errors.New("the server is shutting down")

// writeObserver is a store that reports each write's time and error, for
// the metrics (the Badger backend does).
type writeObserver interface {
	ObserveWrites(fn func(time.Duration, error))
}

// New builds the server; call Serve or ListenAndServe to run it.
func New(cfg Config, st store.Store) (*Server, error) {
	cfg.defaults()
	s := &Server{
		cfg:       cfg,
		store:     st,
		games:     cfg.Games,
		log:       cfg.Logger,
		sessions:  map[*tea.Program]*ui.Router{},
		perAddr:   map[string]int{},
		conns:     map[string]int{},
		live:      map[*connState]struct{}{},
		guards:    map[uint64]*guard{},
		refusals:  map[string]*refusal{},
		metrics:   newMetrics(),
		stopSweep: make(chan struct{}),
	}
	s.searches = newSearches(cfg.MaxSearches, s.metrics)
	s.names = throttle.NewNames(cfg.Now, cfg.Logger)
	s.holds = ui.NewHolds()
	s.invitePort.Store(int64(cfg.InvitePort))
	s.settleLostRaces()
	s.races = newRaceKeeper(st, cfg.Logger, keepEvery)
	s.hub = hub.New(hub.Config{Clock: cfg.HubClock, Rand: cfg.HubRand, OnResult: s.raceFinished, MayInvite: s.mayInvite,
		OnTableResult: s.tableFinished, Rating: s.ratingLabel, SaveTable: s.saveTable, TableKit: cfg.Games.TableKit, Ended: s.raceEnded,
		GameName: s.gameName, CodeEnded: s.codeEnded, Log: s.log, Pool: s.poolConfig(),
		Relay: cfg.Relay, LoadTable: s.loadTable})
	s.restoreTables()
	if o, ok := st.(writeObserver); ok {
		o.ObserveWrites(s.metrics.observeWrite)
	}
	s.pools = deals.NewPools(cfg.Games, cfg.Logger)
	s.pools.Share(s.searches)
	go s.sweeper(s.stopSweep)
	ctx, cancel := context.WithCancel(context.Background())
	s.stopPools = cancel
	if cfg.FillPools {
		go s.pools.Run(ctx)
		go s.rateDailies(ctx)
	}
	opts := []ssh.Option{
		wish.WithAddress(cfg.Addr),
		wish.WithVersion("sshuffle"),
		// Any key is an account; refusing none is the product.
		wish.WithPublicKeyAuth(func(ssh.Context, ssh.PublicKey) bool { return true }),
		// A client with no key at all comes in as a guest.
		wish.WithKeyboardInteractiveAuth(func(ssh.Context, gossh.KeyboardInteractiveChallenge) bool { return true }),
		wish.WithMaxTimeout(cfg.MaxTimeout),
		func(srv *ssh.Server) error {
			srv.HandshakeTimeout = 20 * time.Second
			srv.ConnCallback = s.admitConn
			srv.ServerConfigCallback = s.serverConfig
			// Every session channel goes through the guard (guard.go).
			srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.sessionChannel}
			// Port forwarding stays refused (nil callbacks); no subsystems
			// (sftp) are registered; only "session" channels exist.
			return nil
		},
		wish.WithMiddleware(
			// Listed innermost first: the last one runs first.
			s.programMiddleware(),
			s.commandMiddleware(),
			s.identityMiddleware(),
			s.logMiddleware(),
			s.recoverMiddleware(),
		),
	}
	if len(cfg.HostKeyPEM) > 0 {
		opts = append(opts, wish.WithHostKeyPEM(cfg.HostKeyPEM))
	} else {
		return nil, errors.New("arcade: no host key")
	}
	srv, err := wish.NewServer(opts...)
	if err != nil {
		return nil, fmt.Errorf("arcade: %w", err)
	}
	s.ssh = srv
	return s, nil
}

// inviteAddr is the host and port an invite line names for a client that
// reached the server at local.
func (s *Server) inviteAddr(local net.Addr) (string, int) {
	host, port := s.cfg.InviteHost, s.cfg.InvitePort
	if a, ok := local.(*net.TCPAddr); ok {
		if host == "" && !a.IP.IsUnspecified() {
			host = a.IP.String()
		}
		if port == 0 {
			port = a.Port
		}
	}
	if host == "" {
		host = "localhost"
	}
	if port == 0 {
		port = int(s.invitePort.Load())
	}
	return host, port
}

// Serve accepts connections on l until Shutdown.
func (s *Server) Serve(l net.Listener) error {
	if a, ok := l.Addr().(*net.TCPAddr); ok {
		s.invitePort.CompareAndSwap(0, int64(a.Port))
	}
	err := s.ssh.Serve(l)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// ListenAndServe listens on the configured address.
func (s *Server) ListenAndServe() error {
	l, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", s.cfg.Addr, err)
	}
	s.log.Info("listening", "addr", l.Addr().String())
	return s.Serve(l)
}

// Shutdown tells every session the server is closing (each saves its game
// and says goodbye), waits for them, then closes the listener and any
// connection left. Wish's own Shutdown waits for connections, not programs,
// so the programs are quit first.
func (s *Server) Shutdown(ctx context.Context) error {
	// Before the sessions end: the tables keep their seats as they are
	// for the next start.
	s.hub.Stopping()
	s.stopPools()
	s.mu.Lock()
	if !s.closing {
		close(s.stopSweep)
	}
	s.closing = true
	progs := make([]*tea.Program, 0, len(s.sessions))
	apps := make([]*ui.Router, 0, len(s.sessions))
	for p, app := range s.sessions {
		progs, apps = append(progs, p), append(apps, app)
	}
	s.mu.Unlock()
	for _, p := range progs {
		go p.Send(ui.ShutdownMsg{})
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		for i, p := range progs {
			// Kill reads what Run sets up before its first frame, unguarded
			// (the race detector catches it in Bubble Tea v2.1.1): a
			// program still starting is killed once it has drawn, or after
			// a second.
			select {
			case <-apps[i].FirstSize():
				p.Kill()
			default:
				go func(app *ui.Router) {
					select {
					case <-app.FirstSize():
					case <-time.After(time.Second):
					}
					p.Kill()
				}(apps[i])
			}
		}
	}
	s.bots.stop()
	// The sessions have dropped out of their rooms; close what is left
	// (a race's result is stored on the way out).
	s.hub.Close()
	// A race the hub closed under its racers is one the server lost: its
	// record stays, with each racer's latest game, for the next start.
	s.races.close()
	sctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := s.ssh.Shutdown(sctx); err != nil {
		return s.ssh.Close()
	}
	return nil
}

// Sessions is the number of live interactive sessions.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

func hostOf(addr net.Addr) string {
	if addr == nil {
		return "?"
	}
	h, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}
	return h
}

// addrKey is the address as the limits count it: an IPv4 address, or an
// IPv6 /64, since one host or home commonly gets a whole /64 and could
// otherwise take a fresh address for every connection.
func addrKey(addr net.Addr) string {
	h := hostOf(addr)
	ip := net.ParseIP(h)
	if ip == nil {
		return h
	}
	if v4 := ip.To4(); v4 != nil {
		return v4.String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// admitConn caps raw connections before any SSH work is spent on them:
// a flood of handshakes from one address must not starve everyone else.
func (s *Server) admitConn(ctx ssh.Context, c net.Conn) net.Conn {
	h := addrKey(c.RemoteAddr())
	s.mu.Lock()
	reason := ""
	switch {
	case s.closing:
		reason = "closing"
	case s.total >= s.cfg.MaxSessions+64:
		reason = "full"
	case s.conns[h] >= s.cfg.MaxPerAddr*2:
		reason = "per_addr_conns"
	case s.startups < s.cfg.MaxStartups.Start:
	default:
		// Many are in their login. One that has sat there past
		// staleLogin gives way to the new one; so, when the draw says
		// drop, does the oldest of any age: a wave of half-open
		// connections then neither grows past Full nor keeps an honest
		// login (a few round trips) out, since what is dropped is what
		// has waited longest, not what just came. Only with every one of
		// them already on its way out is the newcomer refused.
		victim := s.oldestInLogin(staleLogin)
		if victim == nil && s.cfg.MaxStartups.refuse(s.startups, s.cfg.StartupDraw) {
			if victim = s.oldestInLogin(0); victim == nil {
				reason = "startups"
			}
		}
		if victim != nil {
			n := s.startups
			defer func() {
				_ = victim.close()
				s.metrics.refused("startups_evicted")
				if s.startupLog.due(s.cfg.Now()) {
					s.log.Warn("many connections in their login: the oldest give way to new ones", "unauthenticated", n, "max_startups", s.cfg.MaxStartups.String())
				}
			}()
		}
	}
	if reason == "startups" {
		// One line a minute for the server, not one an address: a
		// flood of half-open connections comes from hundreds.
		n := s.startups
		s.mu.Unlock()
		s.metrics.refused(reason)
		if s.startupLog.due(s.cfg.Now()) {
			s.log.Warn("refusing new connections: many are still in their login", "unauthenticated", n, "max_startups", s.cfg.MaxStartups.String())
		}
		return nil
	}
	if reason != "" {
		s.mu.Unlock()
		s.refused(h, reason, "connection refused: "+reason)
		return nil
	}
	s.total++
	s.startups++
	s.conns[h]++
	cc := &countedConn{Conn: c, write: directWriter(c)}
	cs := &connState{key: h, close: cc.Close, now: s.cfg.Now, since: s.cfg.Now(), admitted: s.cfg.Now()}
	cs.touch(cs.since)
	s.live[cs] = struct{}{}
	cc.release = func() {
		s.mu.Lock()
		s.total--
		if !cs.authed {
			s.startups--
		}
		if s.conns[h]--; s.conns[h] <= 0 {
			delete(s.conns, h)
		}
		delete(s.live, cs)
		s.mu.Unlock()
	}
	s.mu.Unlock()
	ctx.SetValue(connStateKey{}, cs)
	return cc
}

// oldestInLogin picks, under s.mu, the connection longest in its login if it
// has been there longer than age, and marks it closed: the caller closes
// it once s.mu is released. nil when none is that old.
func (s *Server) oldestInLogin(age time.Duration) *connState {
	now := s.cfg.Now()
	var oldest *connState
	for cs := range s.live {
		if cs.authed || cs.closed || now.Sub(cs.admitted) < age {
			continue
		}
		if oldest == nil || cs.admitted.Before(oldest.admitted) {
			oldest = cs
		}
	}
	if oldest != nil {
		oldest.closed = true
	}
	return oldest
}

// serverConfig marks a connection authenticated when a login method
// succeeds (a key only offered, not signed, is no login): from then on it
// no longer counts against MaxStartups.
func (s *Server) serverConfig(ctx ssh.Context) *gossh.ServerConfig {
	return &gossh.ServerConfig{AuthLogCallback: func(_ gossh.ConnMetadata, _ string, err error) {
		if err != nil {
			return
		}
		if cs, _ := ctx.Value(connStateKey{}).(*connState); cs != nil {
			s.authenticated(cs)
		}
	}}
}

func (s *Server) authenticated(cs *connState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, live := s.live[cs]; live && !cs.authed {
		cs.authed = true
		s.startups--
	}
}

type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
	write   func([]byte) (int, error) // nil: the Conn's own
}

func (c *countedConn) Write(p []byte) (int, error) {
	if c.write != nil {
		return c.write(p)
	}
	return c.Conn.Write(p)
}

func (c *countedConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}

func (s *Server) recoverMiddleware() wish.Middleware {
	return func(next ssh.Handler) ssh.Handler {
		return func(sess ssh.Session) {
			defer func() {
				if r := recover(); r != nil {
					s.log.Error("session panic", "user", sess.User(), "remote", hostOf(sess.RemoteAddr()),
						"panic", fmt.Sprint(r), "stack", string(debug.Stack()))
					_, _ = fmt.Fprint(sess.Stderr(), "\r\nSorry: sshuffle hit an internal error. Your finished games are saved.\r\n")
					_ = sess.Exit(1)
				}
			}()
			next(sess)
		}
	}
}

func (s *Server) logMiddleware() wish.Middleware {
	return func(next ssh.Handler) ssh.Handler {
		return func(sess ssh.Session) {
			start := time.Now()
			_, _, pty := sess.Pty()
			id := "guest"
			if k := sess.PublicKey(); k != nil {
				id = gossh.FingerprintSHA256(k)
			}
			raw := sess.RawCommand()
			s.log.Info("connect", "user", format.Clean(sess.User(), 40), "remote", hostOf(sess.RemoteAddr()), "key", id,
				"pty", pty, "command", format.Clean(raw, 80), "command_bytes", len(raw))
			s.metrics.starts.Inc()
			defer s.metrics.ends.Inc()
			next(sess)
			s.log.Info("disconnect", "user", format.Clean(sess.User(), 40), "remote", hostOf(sess.RemoteAddr()), "key", id,
				"duration", time.Since(start).Round(time.Millisecond).String())
		}
	}
}

// windowSizes is the size each live program draws for, for tests.
func (s *Server) windowSizes() [][2]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out [][2]int
	for _, a := range s.sessions {
		w, h := a.Drawn()
		out = append(out, [2]int{w, h})
	}
	return out
}

// rateDailies has today's deals rated by the solver, at start and then
// each hour (a new day brings new deals), for the menu and daily.
func (s *Server) rateDailies(ctx context.Context) {
	for {
		s.pools.RateToday(ctx, s.store, s.games, s.cfg.Now())
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Hour):
		}
	}
}
