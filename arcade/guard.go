package arcade

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/internal/latch"
)

// Limits on what a client may ask of one session channel before its shell.
// charm.land/ssh keeps every env request and trusts every size; these are
// enforced by the channel guard below, before the library sees a request.
const (
	maxEnvVars     = 16  // accepted env requests per channel
	maxEnvKeyLen   = 32  // bytes
	maxEnvValueLen = 256 // bytes
	maxTermLen     = 64  // the TERM of a pty-req
	maxModesLen    = 1024
	// MaxCommandLen is the longest exec command accepted. The library's
	// shell-word splitter is quadratic, so longer ones are refused unsplit.
	MaxCommandLen = 4096
	// guardEnv names the env entry through which the handler finds its
	// channel's guard; clients cannot set it (it is not on the allow list).
	guardEnv = "SSHUFFLE_GUARD"
)

// envAllowed is what sshuffle reads from a client's environment: the locale
// and what the colour profile is guessed from. Everything else is refused.
func envAllowed(k string) bool {
	switch k {
	case "LANG", "TERM", "NO_COLOR", "COLORTERM", "CLICOLOR", "CLICOLOR_FORCE", "TERM_PROGRAM":
		return true
	}
	return strings.HasPrefix(k, "LC_")
}

// clampWindow keeps a size the client reports within what the server is
// willing to draw: Bubble Tea allocates its cell buffers for the size it
// is given, so an unchecked 65535x65535 is an out-of-memory crash. Zero
// stays zero: the program middleware tells such a client what is wrong.
func (c *Config) clampWindow(w, h int) (int, int) {
	if w > 0 {
		w = min(max(w, 1), c.MaxWidth)
	}
	if h > 0 {
		h = min(max(h, 1), c.MaxHeight)
	}
	return w, h
}

// guard is one session channel as the server tracks it: the newest window
// size, whether the client's input has been seen, and when it closed.
type guard struct {
	id      uint64
	conn    *connState
	resize  chan ssh.Window // newest size wins; read by the program
	done    chan struct{}   // closed when the channel's requests end
	started atomic.Bool     // a shell or exec was handed to the library
	keyAt   atomic.Int64    // unix ns of the oldest input not yet answered by a write
	ch      *guardedChannel // the channel, once accepted (before its handler runs)
	ended   latch.Latch     // the channel's requests ended
	rest    func()          // answers the requests after the shell's, until they end; nil: none left

	mu       sync.Mutex
	sendSize func(ssh.Window) // set once the program takes sizes
	draining bool             // a goroutine is sending the waiting size
}

// latest replaces whatever size is waiting with w: only the newest matters.
func (g *guard) latest(w ssh.Window) {
	for {
		select {
		case g.resize <- w:
			g.kick()
			return
		default:
		}
		select {
		case <-g.resize:
		default:
		}
	}
}

// takeSizes hands the waiting size and every later one to send, from a
// goroutine that runs only while a size waits: a session's sizes need no
// goroutine of their own for its whole life (a goroutine a session is
// stack memory and wake-ups at thousands of sessions), and the request loop
// never waits on the program.
func (g *guard) takeSizes(send func(ssh.Window)) {
	g.mu.Lock()
	g.sendSize = send
	g.mu.Unlock()
	g.kick()
}

func (g *guard) kick() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.sendSize == nil || g.draining || len(g.resize) == 0 {
		return
	}
	g.draining = true
	go g.drain(g.sendSize)
}

func (g *guard) drain(send func(ssh.Window)) {
	for {
		select {
		case w := <-g.resize:
			send(w)
			continue
		default:
		}
		g.mu.Lock()
		if len(g.resize) == 0 {
			g.draining = false
			g.mu.Unlock()
			return
		}
		g.mu.Unlock()
	}
}

// whenEnded has f run once the channel's requests end (at once if they
// have), on the request loop's goroutine.
func (g *guard) whenEnded(f func()) { g.ended.Do(f) }

func (g *guard) end() {
	close(g.done)
	g.ended.Happen()
}

// guardedNewChannel hands the library a channel whose requests have been
// checked by the guard.
type guardedNewChannel struct {
	gossh.NewChannel
	s *Server
	g *guard
}

func (n *guardedNewChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := n.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	go n.s.filterRequests(n.g, reqs, out)
	n.g.ch = &guardedChannel{Channel: ch, g: n.g, m: n.s.metrics}
	return n.g.ch, out, nil
}

// guardedChannel notes each read of client input: it is what the
// connection's idle timeout counts from (the server's own writes do not),
// and the start of the key-to-frame time the next write ends.
type guardedChannel struct {
	gossh.Channel
	g *guard
	m *metrics
}

func (c *guardedChannel) Read(p []byte) (int, error) {
	n, err := c.Channel.Read(p)
	if n > 0 {
		now := c.g.conn.now()
		c.g.conn.touch(now)
		c.g.keyAt.CompareAndSwap(0, now.UnixNano())
	}
	return n, err
}

func (c *guardedChannel) Write(p []byte) (int, error) {
	if t := c.g.keyAt.Swap(0); t != 0 {
		c.m.keyToFrame.Observe(c.g.conn.now().Sub(time.Unix(0, t)).Seconds())
	}
	return c.Channel.Write(p)
}

// frameWriter writes a session's frames to its channel past the SSH
// library's pty writer, which copies every write twice (bytes.ReplaceAll
// of "\n" with "\r\n", then of "\r\r\n" with "\r\n") even when nothing
// changes: a tenth of the bytes the server allocated in game. The frames
// of arcade/render end their lines with "\r\n", so the pty writer would
// send them unchanged; a write with a bare "\n" goes through the session
// as before.
//
// A frame longer than maxChannelWrite goes to the channel in pieces of at
// most that: the SSH library keeps a packet buffer (and its cipher keeps
// another) as large as the largest write its channel was given, for as
// long as the connection lasts, and a session's first frame (a whole
// screen) would otherwise leave every session holding buffers of a whole
// screen's bytes, tens of KiB at a large window. Only whole-screen frames
// are that long: a move or a clock turn is one write as before.
type frameWriter struct {
	ch   io.Writer // the session's channel
	sess io.Writer // the session, through the pty writer
}

// maxChannelWrite is the most bytes a frame hands the channel at once.
const maxChannelWrite = 1024

func (w frameWriter) Write(p []byte) (int, error) {
	if bareLF(p) {
		return w.sess.Write(p)
	}
	n := 0
	for len(p) > 0 {
		k := min(len(p), maxChannelWrite)
		m, err := w.ch.Write(p[:k])
		n += m
		if err != nil {
			return n, err
		}
		p = p[k:]
	}
	return n, nil
}

// frames is where a session's frames are written: its channel past the
// pty writer, or the session if the channel is not known.
func (g *guard) frames(sess io.Writer) io.Writer {
	if g.ch == nil {
		return sess
	}
	return frameWriter{ch: g.ch, sess: sess}
}

// bareLF is whether p holds a "\n" with no "\r" before it: the one thing
// the pty writer changes.
func bareLF(p []byte) bool {
	for i := 0; ; i++ {
		j := bytes.IndexByte(p[i:], '\n')
		if j < 0 {
			return false
		}
		i += j
		if i == 0 || p[i-1] != '\r' {
			return true
		}
	}
}

// copyReq is a request the guard has already answered: the library's
// Reply on it does nothing (WantReply is false), so every reply on the
// channel comes from the guard, in the order the client sent them.
func copyReq(typ string, payload []byte) *gossh.Request {
	return &gossh.Request{Type: typ, WantReply: false, Payload: payload}
}

// filterRequests answers every request of one session channel and passes
// to the library only what it may see: bounded env, clamped sizes, one
// shell or exec. Window changes never reach the library: its resize
// channel holds one value, so a resize before the shell blocked the
// shell's reply forever. They go to the guard's own newest-wins slot.
//
// Once the shell or exec is handed over, nothing more ever is (every later
// request is answered here and refused or kept by the guard), so the
// library's request loop is let go and this loop stops too: the rest of
// the channel's requests are answered by the goroutine that ran the
// library's loop, which has nothing else to do until the channel ends
// (sessionChannel). A session holds one goroutine for its requests, not
// two.
func (s *Server) filterRequests(g *guard, in <-chan *gossh.Request, out chan<- *gossh.Request) {
	f := &reqFilter{s: s, g: g}
	if !f.run(in, out) {
		g.rest = func() {
			f.run(in, nil)
			f.finish()
		}
		close(out)
		return
	}
	f.finish()
	close(out)
}

// reqFilter is what the guard knows of one channel's requests so far.
type reqFilter struct {
	s       *Server
	g       *guard
	envs    int
	pty     bool
	handled bool // a shell or exec was handed over
	pending []*gossh.Request
}

// run answers the requests from in until it ends (true) or, when out is
// not nil, until a shell or exec has been handed to out (false).
func (f *reqFilter) run(in <-chan *gossh.Request, out chan<- *gossh.Request) bool {
	s, g := f.s, f.g
	// The reply goes first: once a shell or exec is handed over, its
	// handler may finish and close the channel before a later reply.
	forward := func(r *gossh.Request) { f.pending = append(f.pending, r) }
	for req := range in {
		ok := false
		f.pending = f.pending[:0]
		switch req.Type {
		case "env":
			var kv struct{ Key, Value string }
			if f.handled || f.envs >= maxEnvVars || gossh.Unmarshal(req.Payload, &kv) != nil ||
				len(kv.Key) > maxEnvKeyLen || len(kv.Value) > maxEnvValueLen || !envAllowed(kv.Key) {
				break
			}
			f.envs++
			ok = true
			forward(copyReq("env", req.Payload))
		case "pty-req":
			if f.handled || f.pty {
				break
			}
			payload, w, h, good := s.clampPtyReq(req.Payload)
			if !good {
				break
			}
			f.pty, ok = true, true
			g.latest(ssh.Window{Width: w, Height: h})
			forward(copyReq("pty-req", payload))
		case "window-change":
			if !f.pty || len(req.Payload) < 8 {
				break
			}
			w, h := s.cfg.clampWindow(int(binary.BigEndian.Uint32(req.Payload)), int(binary.BigEndian.Uint32(req.Payload[4:])))
			ok = true
			if w > 0 && h > 0 {
				g.latest(ssh.Window{Width: w, Height: h})
			}
		case "shell", "exec":
			if f.handled {
				break
			}
			f.handled, ok = true, true
			// The tag comes last, so no client env can follow it.
			forward(copyReq("env", gossh.Marshal(struct{ Key, Value string }{guardEnv, strconv.FormatUint(g.id, 10)})))
			s.mu.Lock()
			g.started.Store(true)
			g.conn.running++
			s.mu.Unlock()
			g.conn.touch(s.cfg.Now())
			forward(copyReq(req.Type, req.Payload))
		}
		// Everything else (subsystems, agent forwarding, signals, breaks)
		// is refused: sshuffle uses none of them.
		_ = req.Reply(ok, nil)
		if out == nil {
			continue
		}
		for _, r := range f.pending {
			out <- r
		}
		if f.handled {
			f.pending = nil
			return false
		}
	}
	return true
}

// finish ends the guard once the channel's requests have ended.
func (f *reqFilter) finish() {
	f.s.dropGuard(f.g)
	f.g.end()
}

// clampPtyReq parses a pty-req and rewrites its size within the server's
// bounds, so every later reader (Wish's options, the app) sees the clamp.
func (s *Server) clampPtyReq(p []byte) (payload []byte, w, h int, ok bool) {
	var req struct {
		Term          string
		Columns, Rows uint32
		Width, Height uint32
		Modes         string
	}
	if gossh.Unmarshal(p, &req) != nil || len(req.Term) > maxTermLen || len(req.Modes) > maxModesLen {
		return nil, 0, 0, false
	}
	w, h = s.cfg.clampWindow(int(min(req.Columns, 1<<20)), int(min(req.Rows, 1<<20)))
	req.Columns, req.Rows = uint32(w), uint32(h)
	return gossh.Marshal(&req), w, h, true
}

// guardOf finds the guard of a session's channel through the tag the
// guard added to its environment.
func (s *Server) guardOf(sess ssh.Session) *guard {
	env := sess.Environ()
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], guardEnv+"="); ok {
			id, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return nil
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.guards[id]
		}
	}
	return nil
}

func (s *Server) dropGuard(g *guard) {
	s.mu.Lock()
	delete(s.guards, g.id)
	s.mu.Unlock()
}

// clientEnv is a session's environment without the guard's tag.
func clientEnv(sess ssh.Session) []string {
	env := sess.Environ()
	out := env[:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, guardEnv+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// connState is what the server tracks of one admitted connection.
type connState struct {
	key   string // the remote address as limits count it (IPv6 by /64)
	close func() error
	now   func() time.Time

	lastInput atomic.Int64 // unix nanoseconds of the last client input

	// Guarded by Server.mu.
	channels int       // open session channels
	running  int       // of them, those running a shell or exec
	since    time.Time // when running last became 0 (or admission)
	closed   bool
	authed   bool // past its login: no longer counted in Server.startups
	admitted time.Time
}

func (c *connState) touch(t time.Time) { c.lastInput.Store(t.UnixNano()) }

// sessionChannel admits a session channel against the per-connection,
// per-address and total caps, then hands it, guarded, to the library.
func (s *Server) sessionChannel(srv *ssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	cs, _ := ctx.Value(connStateKey{}).(*connState)
	if cs == nil {
		_ = nc.Reject(gossh.Prohibited, "sshuffle: connection not admitted")
		return
	}
	s.mu.Lock()
	reason := ""
	switch {
	case s.closing:
		reason = "sshuffle is restarting; try again in a minute."
	case cs.channels >= s.cfg.MaxChannelsPerConn:
		reason = fmt.Sprintf("Too many sessions on one connection (at most %d).", s.cfg.MaxChannelsPerConn)
	case s.channels >= s.cfg.MaxSessions:
		reason = fmt.Sprintf("sshuffle is full (%d players); try again in a few minutes.", s.cfg.MaxSessions)
	case s.perAddr[cs.key] >= s.cfg.MaxPerAddr:
		reason = fmt.Sprintf("Too many sessions from your address (at most %d).", s.cfg.MaxPerAddr)
	}
	var g *guard
	if reason == "" {
		cs.channels++
		s.channels++
		s.perAddr[cs.key]++
		s.nextGuard++
		g = &guard{id: s.nextGuard, conn: cs, resize: make(chan ssh.Window, 1), done: make(chan struct{})}
		s.guards[g.id] = g
	}
	s.mu.Unlock()
	if reason != "" {
		s.refused(cs.key, reasonLabel(reason), reason)
		_ = nc.Reject(gossh.ResourceShortage, reason)
		return
	}
	defer func() {
		s.mu.Lock()
		cs.channels--
		s.channels--
		if s.perAddr[cs.key]--; s.perAddr[cs.key] <= 0 {
			delete(s.perAddr, cs.key)
		}
		if g.started.Load() {
			if cs.running--; cs.running == 0 {
				cs.since = s.cfg.Now()
			}
		}
		s.mu.Unlock()
		s.dropGuard(g)
	}()
	wrapped := &guardedNewChannel{NewChannel: nc, s: s, g: g}
	// The library's handler returns once the channel's requests end, or
	// once the guard has handed it the shell: the guard's own loop then
	// goes on here (filterRequests).
	ssh.DefaultSessionHandler(srv, conn, wrapped, ctx)
	if g.rest != nil {
		g.rest()
	}
}

func reasonLabel(reason string) string {
	switch {
	case strings.Contains(reason, "restarting"):
		return "closing"
	case strings.Contains(reason, "one connection"):
		return "per_conn"
	case strings.Contains(reason, "full"):
		return "full"
	case strings.Contains(reason, "your address"):
		return "per_addr"
	}
	return "other"
}

type connStateKey struct{}

// refusal counts refusals of one address within a minute, so a client
// hammering the server is logged once with a count, not once a try.
type refusal struct {
	first  time.Time
	reason string
	n      int // refusals after the logged one
}

// refused logs a refusal the first time in a minute an address is refused
// and counts the rest; sweep logs the count when the minute is over.
func (s *Server) refused(key, label, reason string) {
	s.metrics.refused(label)
	now := s.cfg.Now()
	s.refMu.Lock()
	r := s.refusals[key]
	if r != nil && now.Sub(r.first) < time.Minute {
		r.n++
		s.refMu.Unlock()
		return
	}
	if r != nil && r.n > 0 {
		s.log.Warn("refused again", "remote", key, "times", r.n, "reason", r.reason, "since", r.first.Format(time.TimeOnly))
	}
	s.refusals[key] = &refusal{first: now, reason: reason}
	s.refMu.Unlock()
	s.log.Warn("refused", "remote", key, "reason", reason)
}

// sweep closes connections that hold a slot without using it, and flushes
// the refusal counts. It runs every tick of the sweeper.
func (s *Server) sweep(now time.Time) {
	var closeNow []*connState
	var why []string
	idleCap := s.cfg.IdleTimeout + min(s.cfg.IdleTimeout/2, time.Minute)
	s.mu.Lock()
	for cs := range s.live {
		switch {
		case cs.closed:
		case cs.running == 0 && now.Sub(cs.since) >= s.cfg.StartTimeout:
			closeNow, why = append(closeNow, cs), append(why, "no session started")
		case now.Sub(time.Unix(0, cs.lastInput.Load())) >= idleCap:
			// The app says goodbye itself at IdleTimeout; this is the
			// backstop for a connection the app does not hold.
			closeNow, why = append(closeNow, cs), append(why, "idle")
		default:
			continue
		}
		cs.closed = true
	}
	s.mu.Unlock()
	for i, cs := range closeNow {
		s.log.Info("closing connection", "remote", cs.key, "reason", why[i])
		s.metrics.closedIdle(why[i])
		_ = cs.close()
	}
	s.refMu.Lock()
	for k, r := range s.refusals {
		if now.Sub(r.first) >= time.Minute {
			if r.n > 0 {
				s.log.Warn("refused again", "remote", k, "times", r.n, "reason", r.reason, "since", r.first.Format(time.TimeOnly))
			}
			delete(s.refusals, k)
		}
	}
	s.refMu.Unlock()
}

func (s *Server) sweeper(stop <-chan struct{}) {
	every := min(time.Second, max(s.cfg.StartTimeout/4, 10*time.Millisecond))
	t := time.NewTicker(every)
	defer t.Stop()
	var b burst
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			s.sweep(s.cfg.Now())
			s.mu.Lock()
			n := s.channels
			s.mu.Unlock()
			if b.over(n, time.Now()) {
				debug.FreeOSMemory()
				s.log.Info("memory handed back after a crowd left", "sessions", n)
			}
		}
	}
}

// burst notices when most of a crowd has left. The Go runtime keeps freed
// pages for reuse and hands them back slowly, so after a burst of sessions
// (each ~0.75 MB of screen buffers, a big window far more) the process
// would stay near its peak size for many minutes. Once the sessions have
// stayed at a quarter of a peak of 32 or more for 45 s (long enough for
// ended programs' last timers to let go of them), one forced collection
// returns the memory; it costs a few milliseconds, nothing a player sees.
type burst struct {
	peak int
	low  time.Time // when the count first fell to a quarter of peak
}

func (b *burst) over(n int, now time.Time) bool {
	switch {
	case n > b.peak:
		b.peak, b.low = n, time.Time{}
	case b.peak < 32 || n > b.peak/4:
		b.low = time.Time{}
	case b.low.IsZero():
		b.low = now
	case now.Sub(b.low) >= 45*time.Second:
		b.peak, b.low = n, time.Time{}
		return true
	}
	return false
}
