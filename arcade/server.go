// Package arcade is what a connected person sees and does: the SSH server,
// the session middleware, and one Bubble Tea model per screen.
package arcade

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"runtime/debug"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	wishtea "charm.land/wish/v2/bubbletea"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/games"
	"sshuffle/store"
)

// Config is what an operator can set.
type Config struct {
	Addr        string
	HostKeyPEM  []byte
	IdleTimeout time.Duration // no key pressed for this long ends the session
	MaxTimeout  time.Duration // hard cap on one connection's life
	MaxSessions int           // in total
	MaxPerAddr  int           // from one remote address
	Logger      *slog.Logger
	// Now is the clock; tests replace it. Nil means time.Now.
	Now func() time.Time
	// FPS caps screen updates a second; it also sets the floor on the
	// time from a key to its echo (about two frames). 0 means 60.
	FPS int
	// Games are the games on offer; nil means games.Default().
	Games *games.Catalogue
	// FillPools runs the solver in the background to find fresh winnable
	// deals; off, winnable deals come from the kept solver reports only.
	FillPools bool
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
	store     *store.Store
	games     *games.Catalogue
	ssh       *ssh.Server
	log       *slog.Logger
	pools     *Pools
	stopPools context.CancelFunc

	mu       sync.Mutex
	sessions map[*tea.Program]struct{}
	perAddr  map[string]int
	conns    map[string]int
	total    int
	closing  bool
	wg       sync.WaitGroup // running programs
}

// New builds the server; call Serve or ListenAndServe to run it.
func New(cfg Config, st *store.Store) (*Server, error) {
	cfg.defaults()
	s := &Server{
		cfg:      cfg,
		store:    st,
		games:    cfg.Games,
		log:      cfg.Logger,
		sessions: map[*tea.Program]struct{}{},
		perAddr:  map[string]int{},
		conns:    map[string]int{},
		pools:    NewPools(cfg.Games, cfg.Logger),
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.stopPools = cancel
	if cfg.FillPools {
		go s.pools.Run(ctx)
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
			// Port forwarding stays refused (nil callbacks); no subsystems
			// (sftp) are registered; only "session" channels exist.
			return nil
		},
		wish.WithMiddleware(
			// Listed innermost first: the last one runs first.
			s.programMiddleware(),
			s.commandMiddleware(),
			s.limitMiddleware(),
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

// Serve accepts connections on l until Shutdown.
func (s *Server) Serve(l net.Listener) error {
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
	s.stopPools()
	s.mu.Lock()
	s.closing = true
	progs := make([]*tea.Program, 0, len(s.sessions))
	for p := range s.sessions {
		progs = append(progs, p)
	}
	s.mu.Unlock()
	for _, p := range progs {
		go p.Send(shutdownMsg{})
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		for _, p := range progs {
			p.Kill()
		}
	}
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

// admitConn caps raw connections before any SSH work is spent on them:
// a flood of handshakes from one address must not starve everyone else.
func (s *Server) admitConn(_ ssh.Context, c net.Conn) net.Conn {
	h := hostOf(c.RemoteAddr())
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing || s.total >= s.cfg.MaxSessions+64 || s.conns[h] >= s.cfg.MaxPerAddr*2 {
		s.log.Warn("connection refused", "remote", h, "total", s.total)
		return nil
	}
	s.total++
	s.conns[h]++
	return &countedConn{Conn: c, release: func() {
		s.mu.Lock()
		s.total--
		if s.conns[h]--; s.conns[h] <= 0 {
			delete(s.conns, h)
		}
		s.mu.Unlock()
	}}
}

type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
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
			s.log.Info("connect", "user", sess.User(), "remote", hostOf(sess.RemoteAddr()), "key", id,
				"pty", pty, "command", sess.RawCommand())
			next(sess)
			s.log.Info("disconnect", "user", sess.User(), "remote", hostOf(sess.RemoteAddr()), "key", id,
				"duration", time.Since(start).Round(time.Millisecond).String())
		}
	}
}

func (s *Server) limitMiddleware() wish.Middleware {
	return func(next ssh.Handler) ssh.Handler {
		return func(sess ssh.Session) {
			h := hostOf(sess.RemoteAddr())
			s.mu.Lock()
			reason := ""
			switch {
			case s.closing:
				reason = "sshuffle is restarting; try again in a minute."
			case len(s.sessions) >= s.cfg.MaxSessions:
				reason = fmt.Sprintf("sshuffle is full (%d players); try again in a few minutes.", s.cfg.MaxSessions)
			case s.perAddr[h] >= s.cfg.MaxPerAddr:
				reason = fmt.Sprintf("Too many sessions from your address (at most %d).", s.cfg.MaxPerAddr)
			}
			if reason == "" {
				s.perAddr[h]++
			}
			s.mu.Unlock()
			if reason != "" {
				s.log.Warn("session refused", "remote", h, "reason", reason)
				_, _ = fmt.Fprintln(sess.Stderr(), reason)
				_ = sess.Exit(1)
				return
			}
			defer func() {
				s.mu.Lock()
				if s.perAddr[h]--; s.perAddr[h] <= 0 {
					delete(s.perAddr, h)
				}
				s.mu.Unlock()
			}()
			next(sess)
		}
	}
}

// programMiddleware runs the Bubble Tea program for a PTY session. It
// replaces Wish's bubbletea middleware because that one reads window changes
// without checking that the channel closed: a client that closes its session
// but keeps the connection makes it spin, sending zero-size resizes forever.
func (s *Server) programMiddleware() wish.Middleware {
	return func(next ssh.Handler) ssh.Handler {
		return func(sess ssh.Session) {
			pty, winCh, ok := sess.Pty()
			if !ok {
				next(sess)
				return
			}
			app := s.newApp(sess, pty)
			opts := append(wishtea.MakeOptions(sess), tea.WithFPS(s.cfg.FPS), tea.WithoutSignalHandler())
			p := tea.NewProgram(app, opts...)
			s.mu.Lock()
			if s.closing {
				s.mu.Unlock()
				_ = sess.Exit(1)
				return
			}
			s.sessions[p] = struct{}{}
			s.wg.Add(1)
			s.mu.Unlock()
			defer func() {
				s.mu.Lock()
				delete(s.sessions, p)
				s.mu.Unlock()
				s.wg.Done()
			}()
			ctx, cancel := context.WithCancel(sess.Context())
			defer cancel()
			go func() {
				defer func() {
					if r := recover(); r != nil {
						s.log.Error("panic in window watcher", "panic", fmt.Sprint(r))
						p.Quit()
					}
				}()
				for {
					select {
					case <-ctx.Done():
						p.Quit()
						return
					case w, ok := <-winCh:
						if !ok {
							p.Quit()
							return
						}
						if w.Width <= 0 || w.Height <= 0 {
							continue
						}
						p.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
					}
				}
			}()
			if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
				s.log.Error("session ended with error", "user", sess.User(), "error", err.Error())
			}
			p.Kill()
			app.close()
			_ = sess.Exit(0)
			next(sess)
		}
	}
}
