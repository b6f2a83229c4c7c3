package ui

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"sshuffle/arcade/hub"
	"sshuffle/internal/latch"
)

// Builder makes the screen a route names. The router holds no list of
// screens itself: the arcade hands it the builder, which is the one place
// that knows every screen package.
type Builder func(e *Env, r Route) (Screen, error)

// Messages the router takes from outside the screens.
type (
	// ShutdownMsg: the server is closing; save and say goodbye.
	ShutdownMsg  struct{}
	idleCheckMsg struct{}
)

// Router is a session's Bubble Tea model: it holds the current screen
// (and the ones under it, for Back), builds the next one from a route, and
// guards the session against a screen that panics.
type Router struct {
	env       *Env
	build     Builder
	stack     []Screen // the current screen last
	lastInput time.Time
	notice    string
	invite    *hub.Invitation // shown on the last line until answered
	quitting  bool
	closed    bool
	idle      *time.Timer   // the idle check's
	drawn     atomic.Int64  // width<<32 | height, readable from other goroutines
	firstSize chan struct{} // closed by the first size message
	sizeOnce  sync.Once
	sized     latch.Latch // the first size message arrived
	ascii     asciiLines  // the last frame's lines in plain text
	noticed   noticeLines
}

// noticeLines are the notice's lines as last wrapped and styled.
type noticeLines struct {
	text     string
	width, n int
	lines    []string
	after    []string // the same, each with the "\n" before it
}

// NewRouter starts a session on first, with a one-line notice at the
// bottom (or none).
func NewRouter(e *Env, build Builder, first Screen, notice string) *Router {
	r := &Router{env: e, build: build, stack: []Screen{first}, lastInput: e.Now(), notice: notice, firstSize: make(chan struct{})}
	r.drawn.Store(int64(e.Width)<<32 | int64(e.Height))
	return r
}

// Current is the screen on top.
func (r *Router) Current() Screen { return r.stack[len(r.stack)-1] }

// Drawn is the window size the session draws for.
func (r *Router) Drawn() (w, h int) {
	wh := r.drawn.Load()
	return int(wh >> 32), int(wh & 0xffffffff)
}

// FirstSize is closed once the first window size has arrived: Bubble Tea
// sends its own from a goroutine of its own, and a resize forwarded before
// it lands would be undone.
func (r *Router) FirstSize() <-chan struct{} { return r.firstSize }

// AtFirstSize has f run once the first window size has arrived: at once if
// it has, else on the program's goroutine as the size message is handled,
// so f must not wait on the program.
func (r *Router) AtFirstSize(f func()) { r.sized.Do(f) }

func (r *Router) firstSizeArrived() {
	close(r.firstSize)
	r.sized.Happen()
}

// Env is the session's environment.
func (r *Router) Env() *Env { return r.env }

// armIdle sets the idle check. A timer, not a tea.Tick: a waiting tick
// held three goroutines per session for its whole life (the command's,
// detach's and Init's batch), and the timer holds none.
func (r *Router) armIdle() {
	if r.closed {
		return
	}
	every := min(30*time.Second, max(r.env.Idle/4, 100*time.Millisecond))
	if r.idle == nil {
		e := r.env
		r.idle = time.AfterFunc(every, func() { e.Send(idleCheckMsg{}) })
		return
	}
	r.idle.Reset(every)
}

// NextChange is the current screen's (see Ticking), for arcade/render.
func (r *Router) NextChange() time.Duration {
	if t, ok := r.Current().(Ticking); ok && !r.quitting {
		return t.NextChange()
	}
	return 0
}

func (r *Router) Init() tea.Cmd {
	r.tellActivity()
	r.armIdle()
	if i, ok := r.Current().(Initer); ok {
		return i.Init()
	}
	return nil
}

// Update guards the screens: a panic in one is logged with its stack, the
// player is told, and the session ends; the server and everyone else go on.
func (r *Router) Update(msg tea.Msg) (model tea.Model, cmd tea.Cmd) {
	defer func() {
		if p := recover(); p != nil {
			r.env.Log.Error("session panic", "player", r.env.Player.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			r.quitting = true
			r.notice = "Sorry: sshuffle hit an internal error and closed this session. Your finished games are kept."
			model, cmd = r, tea.Quit
		}
	}()
	return r, r.update(msg)
}

func (r *Router) update(msg tea.Msg) tea.Cmd {
	input := false
	switch m := msg.(type) {
	case tea.WindowSizeMsg:
		r.sizeOnce.Do(r.firstSizeArrived)
		if m.Width > 0 && m.Height > 0 {
			r.env.Width, r.env.Height = m.Width, m.Height
			r.drawn.Store(int64(m.Width)<<32 | int64(m.Height))
		}
	case tea.ColorProfileMsg:
		r.env.Color = m.Profile > colorprofile.Ascii
	case tea.KeyPressMsg, tea.MouseClickMsg, tea.MouseReleaseMsg, tea.MouseMotionMsg, tea.MouseWheelMsg, tea.PasteMsg:
		input = true
		switch m.(type) {
		case tea.KeyPressMsg, tea.MouseClickMsg, tea.PasteMsg:
			r.lastInput = r.env.Now()
		}
		if k, ok := m.(tea.KeyPressMsg); ok && k.String() == "ctrl+c" {
			return r.quit("")
		}
	case idleCheckMsg:
		if r.env.Now().Sub(r.lastInput) >= r.env.Idle {
			return r.quit(fmt.Sprintf("Closed after %s without a key press. Your game is saved.", r.env.Idle))
		}
		r.armIdle()
		return nil
	case ShutdownMsg:
		return r.quit("The server is restarting. Your game is saved; connect again in a minute.")
	case NoticeMsg:
		r.takeNotice(m.Notice)
		return nil
	}
	if r.quitting {
		return nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && r.invite != nil {
		switch k.String() {
		case "Y":
			return r.answer(true)
		case "N":
			return r.answer(false)
		}
	}
	if _, isKey := msg.(tea.KeyPressMsg); isKey {
		if r.invite == nil {
			r.notice = "" // an invitation stays up until Y or N
		}
	}
	var kept [4]tea.Cmd // on the stack for the usual few screens
	cmds := kept[:0]
	if input {
		cmds = append(cmds, r.Current().Update(msg))
	} else {
		// Anything else (a clock tick, a hint found aside) may be for a
		// screen under the current one: each drops what is not its own.
		for _, s := range r.stack {
			cmds = append(cmds, s.Update(msg))
		}
	}
	if next := r.env.next; next != nil {
		r.env.next = nil
		cmds = append(cmds, r.follow(*next))
	}
	return batch(cmds)
}

// batch is tea.Batch without its allocations when at most one command is
// not nil (every clock tick and most keys): that one is returned as it is,
// as tea.Batch would return it.
func batch(cmds []tea.Cmd) tea.Cmd {
	var one tea.Cmd
	for _, c := range cmds {
		if c == nil {
			continue
		}
		if one != nil {
			return tea.Batch(cmds...)
		}
		one = c
	}
	return one
}

// follow takes up a screen's request.
func (r *Router) follow(rt Route) tea.Cmd {
	switch {
	case rt.quit:
		return r.quit("")
	case rt.back && len(r.stack) > 1:
		left(r.stack[len(r.stack)-1])
		r.stack = r.stack[:len(r.stack)-1]
		r.tellActivity()
		return nil
	case rt.back:
		return r.open(Route{Page: Menu})
	}
	return r.open(rt)
}

// open builds the screen a route names. A route that cannot be built (the
// store is down, a deal is refused) leaves the current screen and says why.
func (r *Router) open(rt Route) tea.Cmd {
	s, err := r.build(r.env, rt)
	if err != nil {
		r.notice = err.Error()
		return nil
	}
	if rt.over {
		r.stack = append(r.stack, s)
	} else {
		for _, old := range r.stack {
			left(old)
		}
		r.stack = []Screen{s}
	}
	r.tellActivity()
	if i, ok := s.(Initer); ok {
		return i.Init()
	}
	return nil
}

// left tells a screen that holds something while shown that it is gone.
func left(s Screen) {
	if l, ok := s.(Leaver); ok {
		l.Left()
	}
}

// tellActivity tells the hub what the screen on top shows.
func (r *Router) tellActivity() {
	a := hub.Activity{Doing: hub.AtMenu}
	for i := len(r.stack) - 1; i >= 0; i-- {
		if s, ok := r.stack[i].(Activitied); ok {
			a = s.Activity()
			break
		}
	}
	r.env.SetActivity(a)
}

// takeNotice shows a hub notice on the last line: an invitation waits for
// Y or N; an answer to the player's own invitation is a plain notice.
func (r *Router) takeNotice(n hub.Notice) {
	r.notice = n.Text
	if n.Kind == hub.Invited {
		inv := n.Invitation
		r.invite = &inv
		r.notice = n.Text + " Y join · N decline"
	}
}

// answer accepts or declines the invitation on the last line; accepting
// opens its room, leaving the screens as a lost connection would (a game
// is saved, a race can be rejoined).
func (r *Router) answer(accept bool) tea.Cmd {
	inv := *r.invite
	r.invite = nil
	r.notice = ""
	if r.env.Live == nil {
		return nil
	}
	code, err := r.env.Live.Answer(inv.ID, accept)
	if errors.Is(err, hub.ErrNoInvitation) && r.env.Hub != nil {
		// The room ended, taking its invitations with it: say so as its
		// code says it anywhere else.
		if _, gone := r.env.Hub.Room(inv.Code); errors.Is(gone, hub.ErrExpired) {
			err = gone
		}
	}
	if err != nil {
		r.notice = err.Error()
		return nil
	}
	if !accept {
		return nil
	}
	r.Close()
	page := Race
	if inv.Kind == hub.TableRoom {
		page = Table
	}
	return r.open(Route{Page: page, Code: code})
}

func (r *Router) quit(why string) tea.Cmd {
	r.Close()
	r.quitting = true
	r.notice = why
	return tea.Quit
}

// Close keeps whatever the screens hold. It runs on quit and again when
// the connection drops, so it must be safe to call twice.
func (r *Router) Close() {
	r.closed = true
	if r.idle != nil {
		r.idle.Stop() // an ended session's router must not wait for it
	}
	for _, s := range r.stack {
		if sv, ok := s.(Saver); ok {
			sv.Save()
		}
	}
}

var noticeStyle = lipgloss.NewStyle().Faint(true)

func (r *Router) View() tea.View {
	v, pieces := r.ViewPieces(nil)
	v.Content = strings.Join(pieces, "")
	return v
}

// ViewPieces is View with the content in pieces appended to dst, put end
// to end for the content (arcade/render's Pieced): a screen that keeps
// most of its view from frame to frame hands it over as it is.
func (r *Router) ViewPieces(dst []string) (v tea.View, pieces []string) {
	defer func() {
		if p := recover(); p != nil {
			r.env.Log.Error("view panic", "player", r.env.Player.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			const sorry = "Sorry: sshuffle hit an internal error drawing this screen. Press q to leave."
			v, pieces = tea.NewView(sorry), append(dst[:len(dst):len(dst)], sorry)
			if m, err := r.build(r.env, Route{Page: Menu}); err == nil {
				r.stack = []Screen{m}
			}
		}
	}()
	pieces = dst
	var body string
	cur := r.Current()
	w, h := cur.MinSize()
	e := r.env
	switch {
	case r.quitting:
		body = r.notice + "\n"
		if r.notice == "" {
			body = "Thanks for playing sshuffle.\n"
		}
	case e.Width < w || e.Height < h:
		// Wrapped to the window: a narrow one would cut the sizes off.
		msg := fmt.Sprintf("Make the window at least %dx%d (it is %dx%d now).", w, h, e.Width, e.Height)
		body = strings.Join(FitLines(msg, e.Width, max(e.Height, 1)), "\n")
	default:
		if p, ok := cur.(PiecedScreen); ok && e.Unicode {
			if r.notice == "" {
				pieces = p.ViewPieces(pieces)
			} else {
				// A welcome stays up until the first key: a watcher who
				// never presses one is drawn in pieces all the same.
				pieces = r.piecesWithNotice(cur, p, pieces)
			}
			break
		}
		body = r.viewWithNotice(cur)
	}
	if len(pieces) == len(dst) {
		if !e.Unicode {
			body = r.ascii.replace(body)
		}
		pieces = append(pieces, body)
	}
	if !r.quitting {
		v.AltScreen = true
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = "sshuffle"
	return v, pieces
}

// viewWithNotice draws the screen with the notice under it, wrapped whole:
// the screen is drawn for the lines the notice leaves, so the notice
// covers nothing (a game's key bar least of all).
func (r *Router) viewWithNotice(cur Screen) string {
	e := r.env
	if r.notice == "" {
		return cur.View()
	}
	_, minH := cur.MinSize()
	nl := r.noticeFor(minH)
	k := len(nl.lines)
	full := e.Height
	e.Height = max(full-k, minH)
	body := cur.View()
	e.Height = full
	// The first keep lines of the body (blank lines added if it has
	// fewer), then the notice's, at most full lines in all.
	keep := max(full-k, 0)
	var b strings.Builder
	b.Grow(len(body) + 256)
	if keep > 0 {
		at, lines := 0, 1
		for lines <= keep {
			i := strings.IndexByte(body[at:], '\n')
			if i < 0 {
				at = len(body)
				break
			}
			if lines == keep {
				at += i
				break
			}
			at += i + 1
			lines++
		}
		if at == len(body) {
			b.WriteString(body)
			for ; lines < keep; lines++ {
				b.WriteByte('\n')
			}
		} else {
			b.WriteString(body[:at])
		}
	}
	for i, l := range nl.lines[:min(k, full-keep)] {
		if keep > 0 || i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	return b.String()
}

// noticeFor is the notice's lines for the window, under a screen at least
// minH lines high: kept while the notice, the width and their number are
// the same.
func (r *Router) noticeFor(minH int) *noticeLines {
	e := r.env
	nl := &r.noticed
	if n := max(min(3, e.Height-minH), 1); nl.text != r.notice || nl.width != e.Width || nl.n != n || nl.lines == nil {
		notice := FitLines(r.notice, e.Width, n)
		nl.lines, nl.after = nl.lines[:0], nl.after[:0]
		for _, l := range notice {
			l = noticeStyle.Render(l)
			nl.lines, nl.after = append(nl.lines, l), append(nl.after, "\n"+l)
		}
		nl.text, nl.width, nl.n = r.notice, e.Width, n
	}
	return nl
}

// piecesWithNotice is viewWithNotice in pieces, appended to dst: the
// screen's pieces for the lines the notice leaves, cut after the last of
// them (a cut piece is a substring of the screen's, so a piece the same as
// in the last frame is still the same string), then the notice's lines.
func (r *Router) piecesWithNotice(cur Screen, p PiecedScreen, dst []string) []string {
	e := r.env
	_, minH := cur.MinSize()
	nl := r.noticeFor(minH)
	k := len(nl.lines)
	full := e.Height
	e.Height = max(full-k, minH)
	start := len(dst)
	dst = p.ViewPieces(dst)
	e.Height = full
	keep := max(full-k, 0)
	if keep == 0 {
		dst = dst[:start]
	} else {
		line, cut := 1, false
		for i := start; i < len(dst) && !cut; i++ {
			piece := dst[i]
			for at := 0; ; {
				j := strings.IndexByte(piece[at:], '\n')
				if j < 0 {
					break
				}
				if line == keep {
					// The body's line keep+1 starts here: the rest goes.
					dst[i] = piece[:at+j]
					dst = dst[:i+1]
					if at+j == 0 {
						dst = dst[:i]
					}
					cut = true
					break
				}
				line++
				at += j + 1
			}
		}
		for ; !cut && line < keep; line++ {
			dst = append(dst, "\n")
		}
	}
	for i := range nl.lines[:min(k, full-keep)] {
		if keep > 0 || i > 0 {
			dst = append(dst, nl.after[i])
		} else {
			dst = append(dst, nl.lines[i])
		}
	}
	return dst
}

// asciiLines keeps the last frame's lines and their plain text forms
// (asciiReplacer's): a frame differs from the last in a line or two (a
// clock tick in one), and only the lines that changed are replaced again.
// No key of the replacer holds a newline, so a frame's replacement is its
// lines' replacements joined. in holds substrings of the last frame and
// out of the last result, so no older frame is kept alive.
type asciiLines struct {
	in, out []string
	ends    []int // where each line of out ends in the result
	size    int   // the last result's length
}

func (a *asciiLines) replace(body string) string {
	var b strings.Builder
	b.Grow(a.size + 256)
	a.ends = a.ends[:0]
	i := 0
	for line := range strings.SplitSeq(body, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i < len(a.in) && a.in[i] == line {
			b.WriteString(a.out[i])
		} else {
			b.WriteString(asciiReplacer.Replace(line))
			if i < len(a.in) {
				a.in[i] = line
			} else {
				a.in = append(a.in, line)
			}
		}
		a.ends = append(a.ends, b.Len())
		i++
	}
	a.in = a.in[:i]
	res := b.String()
	a.out = a.out[:0]
	start := 0
	for _, end := range a.ends {
		a.out = append(a.out, res[start:end])
		start = end + 1
	}
	a.size = len(res)
	return res
}

// asciiReplacer turns the few non-ASCII marks of the UI into plain text for
// clients whose locale is not UTF-8 (cards already use letters there). The
// menu's title loses its suits; a card in a sentence ("K♠ as a Queen")
// keeps its letter and the space after it.
var asciiReplacer = strings.NewReplacer(
	"←↓↑→", "arrows", "↑↓", "up/down", "·", "-", "…", "...",
	"♠ sshuffle ♥", "sshuffle", "♠", "S", "♥", "H", "♦", "D", "♣", "C", "✗", "x",
)
