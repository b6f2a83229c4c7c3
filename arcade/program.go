package arcade

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	wishtea "charm.land/wish/v2/bubbletea"
	"github.com/charmbracelet/colorprofile"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/render"
	"sshuffle/arcade/ui"
)

// programMiddleware runs the Bubble Tea program for a PTY session. It
// replaces Wish's bubbletea middleware because that one reads window changes
// without checking that the channel closed: a client that closes its session
// but keeps the connection makes it spin, sending zero-size resizes forever.
// Sizes come from the channel's guard, already clamped, newest first.
//
// A session's life, step by step: admit the terminal, build the program,
// count it among the server's sessions, tie its end to the connection's
// and its sizes to the guard's, run it, and close what it held.
func (s *Server) programMiddleware() wish.Middleware {
	return func(next ssh.Handler) ssh.Handler {
		return func(sess ssh.Session) {
			pty, _, ok := sess.Pty()
			if !ok {
				next(sess)
				return
			}
			g, ok := s.admitTerminal(sess, &pty)
			if !ok {
				return
			}
			ps := s.newProgram(sess, g, pty)
			go s.readInput(sess, ps.p)
			if !s.track(ps) {
				_ = sess.Exit(1)
				return
			}
			defer s.untrack(ps)
			stop := s.tieProgram(sess, g, ps, pty.Window)
			defer stop()
			s.runProgram(sess, ps)
			next(sess)
		}
	}
}

// programSession is one PTY session's program and what runs beside it.
type programSession struct {
	p    *tea.Program
	app  *ui.Router
	view *render.Model
}

// admitTerminal finds the session's guard and checks its terminal: one of
// no size is refused with a sentence. A resize sent before the shell is
// newer than the pty-req, so it replaces pty's window.
func (s *Server) admitTerminal(sess ssh.Session, pty *ssh.Pty) (*guard, bool) {
	g := s.guardOf(sess)
	if g == nil {
		s.log.Error("session without a guard", "remote", hostOf(sess.RemoteAddr()))
		_ = sess.Exit(1)
		return nil, false
	}
	if pty.Window.Width <= 0 || pty.Window.Height <= 0 {
		// ssh -tt from a script asks for a terminal of no size:
		// a blank screen would tell the person nothing.
		_, _ = fmt.Fprintf(sess.Stderr(), "sshuffle: your terminal reports a %dx%d window, so there is nothing to draw on; run ssh from a terminal window, or ask for a command: ssh HOST help\r\n",
			max(pty.Window.Width, 0), max(pty.Window.Height, 0))
		_ = sess.Exit(1)
		return nil, false
	}
	select {
	case w := <-g.resize:
		pty.Window = w
	default:
	}
	return g, true
}

// newProgram builds the session's screens and their program.
func (s *Server) newProgram(sess ssh.Session, g *guard, pty ssh.Pty) programSession {
	app := s.newApp(sess, pty)
	env := append(clientEnv(sess), "TERM="+pty.Term)
	profile := colorprofile.Env(env)
	// Bubble Tea reads the input and runs the model; the frames are
	// drawn by arcade/render, on demand. Bubble Tea's own frame ticker
	// only flushes its (empty) output buffer, so it runs at one tick a
	// second instead of 60.
	// Commands run detached (detach.go): one still waiting when the
	// session ends must not hold the ended program.
	view := render.New(detached{app: app, done: app.Env().Done}, render.NewScreen(g.frames(sess), pty.Window.Width, pty.Window.Height, profile), s.cfg.FPS)
	// The input is read by arcade/render too: one goroutine and a
	// key table shared by every session.
	opts := append(wishtea.MakeOptions(sess), tea.WithoutRenderer(), tea.WithFPS(1), tea.WithoutSignalHandler(),
		tea.WithInput(nil),
		tea.WithEnvironment(env), tea.WithColorProfile(profile),
		tea.WithWindowSize(pty.Window.Width, pty.Window.Height))
	p := tea.NewProgram(view, opts...)
	view.SetProgram(p)
	app.Env().SetSend(p.Send)
	return programSession{p: p, app: app, view: view}
}

// readInput reads the session's input into its program until it ends. The
// middleware starts it itself, so that each session's reader is counted
// as the middleware's goroutine.
func (s *Server) readInput(sess ssh.Session, p *tea.Program) {
	dropped := func(d render.InputDrop) {
		s.metrics.inputDropped.WithLabelValues("events").Add(float64(d.Events))
		s.metrics.inputDropped.WithLabelValues("bytes").Add(float64(d.Bytes))
		if s.inputLog.due(s.cfg.Now()) {
			s.log.Warn("input dropped", "user", sess.User(), "remote", hostOf(sess.RemoteAddr()), "events", d.Events, "bytes", d.Bytes)
		}
		p.Send(ui.NoticeMsg{Notice: hub.Notice{Text: inputDroppedNotice}})
	}
	if err := render.ReadInput(sess, p.Send, dropped); err != nil && !errors.Is(err, io.EOF) {
		s.log.Debug("input ended", "error", err.Error())
	}
}

// inputDroppedNotice is the line a player sees when their input came
// faster than the session takes it (render's bounds).
const inputDroppedNotice = "Keys arrived faster than anyone types, so some were dropped."

// onceAMinute says yes at most once a minute, for log lines that would
// otherwise come once an event.
type onceAMinute struct {
	mu   sync.Mutex
	last time.Time
}

func (o *onceAMinute) due(now time.Time) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.last.IsZero() && now.Sub(o.last) < time.Minute {
		return false
	}
	o.last = now
	return true
}

// track counts the program among the server's sessions, unless the
// server is closing.
func (s *Server) track(ps programSession) bool {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return false
	}
	s.sessions[ps.p] = ps.app
	s.wg.Add(1)
	s.mu.Unlock()
	s.metrics.sessions.WithLabelValues("playing").Inc()
	return true
}

func (s *Server) untrack(ps programSession) {
	s.mu.Lock()
	delete(s.sessions, ps.p)
	s.mu.Unlock()
	s.metrics.sessions.WithLabelValues("playing").Dec()
	s.wg.Done()
}

// tieProgram ends the program with its connection or its channel's
// requests, and sends it the guard's sizes once its own first size has
// landed (Bubble Tea sends that from a goroutine of its own, and a resize
// forwarded before it would be undone). No goroutine waits for either.
// The returned func unties the connection's end.
func (s *Server) tieProgram(sess ssh.Session, g *guard, ps programSession, win ssh.Window) (stop func() bool) {
	p := ps.p
	stop = context.AfterFunc(sess.Context(), p.Quit)
	g.whenEnded(func() { go p.Quit() })
	ps.app.AtFirstSize(func() {
		g.takeSizes(func(w ssh.Window) {
			defer func() {
				if r := recover(); r != nil {
					s.log.Error("panic sending a window size", "panic", fmt.Sprint(r))
					go p.Quit()
				}
			}()
			if w.Width != win.Width || w.Height != win.Height {
				win = w
				p.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
			}
		})
	})
	return stop
}

// runProgram runs the program until the session ends, then closes what
// its screens hold: a racer drops out of their race, a game is saved.
func (s *Server) runProgram(sess ssh.Session, ps programSession) {
	p, app, view := ps.p, ps.app, ps.view
	_, err := p.Run()
	// The view's timers draw on goroutines of their own: stopped
	// before the screens below are closed.
	view.Stop()
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		s.log.Error("session ended with error", "user", sess.User(), "error", err.Error())
	}
	p.Kill()
	if err == nil {
		_ = view.Finish()
	}
	close(app.Env().Done)
	app.Close()
	app.Env().Disconnect()
	_ = sess.Exit(0)
}
