package ui

import (
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/stretchr/testify/require"
)

// text is a screen that shows a fixed text and asks for the routes it is
// told to on a key, for testing the router alone.
type text struct {
	env    *Env
	body   string
	w, h   int
	onKey  map[string]func(e *Env) tea.Cmd
	saved  int
	ticked int
}

func (s *text) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		if f := s.onKey[m.String()]; f != nil {
			return f(s.env)
		}
	case tickMsg:
		s.ticked++
	}
	return nil
}
func (s *text) View() string        { return s.body }
func (s *text) MinSize() (int, int) { return s.w, s.h }
func (s *text) Save()               { s.saved++ }

type tickMsg struct{}

type clock struct{ t time.Time }

func testRouter(t *testing.T, first *text, build Builder) (*Router, *clock) {
	t.Helper()
	clk := &clock{t: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	e := &Env{Log: slog.New(slog.DiscardHandler), Now: func() time.Time { return clk.t }, Player: &Player{Name: "tess"},
		Unicode: true, Color: true, Width: 80, Height: 24, Idle: 30 * time.Minute}
	first.env = e
	return NewRouter(e, build, first, ""), clk
}

func key(k string) tea.KeyPressMsg {
	if k == "esc" {
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	return tea.KeyPressMsg{Code: rune(k[0]), Text: k}
}

func TestTooSmallAndResize(t *testing.T) {
	game := &text{body: "Klondike · Draw 1  Moves 0", w: 64, h: 16}
	a, _ := testRouter(t, game, nil)
	a.Update(tea.WindowSizeMsg{Width: 40, Height: 10})
	require.Contains(t, a.View().Content, "Make the window at least")
	// Narrow: the message wraps, and the sizes stay whole.
	a.Update(tea.WindowSizeMsg{Width: 24, Height: 10})
	v := a.View().Content
	for _, l := range strings.Split(v, "\n") {
		require.LessOrEqual(t, lipgloss.Width(l), 24, "%q", l)
	}
	require.Contains(t, strings.ReplaceAll(v, "\n", " "), "(it is 24x10 now)")
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	v = a.View().Content
	require.Contains(t, v, "Klondike")
	require.LessOrEqual(t, len(strings.Split(v, "\n")), 24)
	// A zero size (a closing channel) is ignored, not obeyed.
	a.Update(tea.WindowSizeMsg{Width: 0, Height: 0})
	require.Equal(t, 80, a.Env().Width)
	w, h := a.Drawn()
	require.Equal(t, [2]int{80, 24}, [2]int{w, h})
}

func TestIdleTimeoutQuits(t *testing.T) {
	a, clk := testRouter(t, &text{body: "menu"}, nil)
	_, cmd := a.Update(idleCheckMsg{})
	require.Nil(t, cmd, "the next check is a timer, not a command")
	require.NotNil(t, a.idle)
	require.False(t, a.quitting)
	clk.t = clk.t.Add(31 * time.Minute)
	a.Update(idleCheckMsg{})
	require.True(t, a.quitting)
	require.Contains(t, a.View().Content, "without a key press")
}

// The idle check's timer stops with the session, so an ended session's
// router is not kept until it fires.
func TestIdleTimerStopsOnClose(t *testing.T) {
	a, _ := testRouter(t, &text{body: "menu"}, nil)
	a.Init()
	require.NotNil(t, a.idle)
	a.Close()
	require.False(t, a.idle.Stop(), "already stopped")
	a.Update(idleCheckMsg{})
	require.False(t, a.idle.Stop(), "not armed again after Close")
}

// A screen's request is taken up before the next key: the key after one
// that opens a page goes to the new page. Push keeps the screen under it
// as it was; Back returns to it; Go replaces them all; every screen in the
// stack is saved when the session ends; a message that is not input
// reaches the screens underneath too.
func TestRoutesPushBackGo(t *testing.T) {
	var built []Route
	var opened *text
	build := func(e *Env, r Route) (Screen, error) {
		built = append(built, r)
		opened = &text{env: e, body: "page", onKey: map[string]func(*Env) tea.Cmd{
			"b": func(e *Env) tea.Cmd { return e.Back() },
			"g": func(e *Env) tea.Cmd { return e.Go(Route{Page: Menu}) },
			"q": func(e *Env) tea.Cmd { return e.Quit() },
		}}
		return opened, nil
	}
	game := &text{body: "game", onKey: map[string]func(*Env) tea.Cmd{
		"o": func(e *Env) tea.Cmd { return e.Push(Route{Page: Options}) },
	}}
	a, _ := testRouter(t, game, build)
	a.Update(key("o"))
	require.Len(t, built, 1)
	require.Equal(t, Options, built[0].Page)
	over := opened
	require.Same(t, over, a.Current())
	a.Update(tickMsg{})
	require.Equal(t, 1, game.ticked, "a tick reaches the game under the page")
	a.Update(key("b"))
	require.Same(t, game, a.Current(), "back to the very same game")
	a.Update(key("o"))
	a.Update(key("g"))
	require.Len(t, built, 3)
	require.Equal(t, Menu, built[2].Page)
	require.NotSame(t, game, a.Current())
	a.Close()
	require.Zero(t, game.saved, "a screen replaced by Go is gone")
	// Back with nothing under it goes to the menu.
	a.Update(key("b"))
	require.Equal(t, Menu, built[len(built)-1].Page)
	a.Update(key("q"))
	require.True(t, a.quitting)
}

func TestCloseSavesEveryScreenInTheStack(t *testing.T) {
	build := func(e *Env, r Route) (Screen, error) { return &text{env: e}, nil }
	game := &text{onKey: map[string]func(*Env) tea.Cmd{
		"?": func(e *Env) tea.Cmd { return e.Push(Route{Page: Help}) },
	}}
	a, _ := testRouter(t, game, build)
	a.Update(key("?"))
	require.NotSame(t, game, a.Current())
	a.Close()
	require.Equal(t, 1, game.saved, "a game under the help screen is kept when the session drops")
}

// A route that cannot be built leaves the screen and says why.
func TestRouteThatFailsSaysWhy(t *testing.T) {
	build := func(*Env, Route) (Screen, error) {
		return nil, errString("today's deal is not available right now")
	}
	menu := &text{body: "menu", onKey: map[string]func(*Env) tea.Cmd{
		"t": func(e *Env) tea.Cmd { return e.Go(Route{Page: Daily}) },
	}}
	a, _ := testRouter(t, menu, build)
	a.Update(key("t"))
	require.Same(t, menu, a.Current())
	require.Contains(t, a.View().Content, "today's deal is not available right now")
}

type errString string

func (e errString) Error() string { return string(e) }

// The plain text of a frame made a line at a time from the last frame's is
// the replacer's of the whole frame, whichever lines change, and however
// many there are.
func TestASCIILinesAsTheReplacer(t *testing.T) {
	var a asciiLines
	lines := []string{"Klondike · Draw 1  Moves 0", "←↓↑→ move  ↑↓ up/down", "  K♠  10♥ ", "♠ sshuffle ♥", "plain", "", "…", "✗ · ·"}
	rnd := rand.New(rand.NewPCG(1, 2))
	frame := []string{}
	for range 2000 {
		switch n := rnd.IntN(10); {
		case n < 2 && len(frame) > 0:
			frame = frame[:rnd.IntN(len(frame))]
		case n < 4 || len(frame) == 0:
			frame = append(frame, lines[rnd.IntN(len(lines))])
		default:
			frame[rnd.IntN(len(frame))] = lines[rnd.IntN(len(lines))] + lines[rnd.IntN(len(lines))]
		}
		body := strings.Join(frame, "\n")
		if got, want := a.replace(body), asciiReplacer.Replace(body); got != want {
			t.Fatalf("%q:\n got %q\nwant %q", body, got, want)
		}
	}
}

// oldViewWithNotice is viewWithNotice as it was before it kept the
// notice's lines and stopped splitting the body: the reference.
func oldViewWithNotice(r *Router, cur Screen) string {
	e := r.env
	if r.notice == "" {
		return cur.View()
	}
	_, minH := cur.MinSize()
	notice := FitLines(r.notice, e.Width, max(min(3, e.Height-minH), 1))
	full := e.Height
	e.Height = max(full-len(notice), minH)
	body := cur.View()
	e.Height = full
	lines := strings.Split(body, "\n")
	keep := max(full-len(notice), 0)
	for len(lines) < keep {
		lines = append(lines, "")
	}
	lines = lines[:min(len(lines), keep)]
	for _, l := range notice {
		lines = append(lines, noticeStyle.Render(l))
	}
	return strings.Join(lines[:min(len(lines), full)], "\n")
}

// A screen drawn under a notice comes out as it did, for bodies of any
// number of lines, any height, width and minimum, and notices of one to
// more lines than there is room for, changing or not between frames.
func TestNoticeViewAsBefore(t *testing.T) {
	s := &text{}
	r, _ := testRouter(t, s, nil)
	e := r.env
	rnd := rand.New(rand.NewPCG(3, 4))
	notices := []string{"A friend is online.", "Ann invited you to a race of Klondike · Draw 1. Y join · N decline",
		strings.Repeat("a rather long notice ", 12), "x"}
	for i := range 5000 {
		if i%3 == 0 {
			r.notice = notices[rnd.IntN(len(notices))]
		}
		e.Width, e.Height = 1+rnd.IntN(100), 1+rnd.IntN(30)
		s.w, s.h = 1, rnd.IntN(e.Height+3)
		lines := make([]string, rnd.IntN(35))
		for j := range lines {
			lines[j] = strings.Repeat("ab", rnd.IntN(5))
		}
		s.body = strings.Join(lines, "\n")
		if rnd.IntN(8) == 0 {
			s.body += "\n"
		}
		want := oldViewWithNotice(r, s)
		if got := r.viewWithNotice(s); got != want {
			t.Fatalf("%dx%d, min height %d, notice %q, body %q:\n got %q\nwant %q", e.Width, e.Height, s.h, r.notice, s.body, got, want)
		}
	}
}

// piecedText is a text screen whose view comes in pieces cut anywhere (in
// a line, at its "\n", several lines in one), each kept while it is the
// same.
type piecedText struct {
	text
	cuts   []int
	pieces []string
}

func (s *piecedText) ViewPieces(dst []string) []string {
	s.pieces = s.pieces[:0]
	at := 0
	for _, c := range s.cuts {
		if c > at && c < len(s.body) {
			s.pieces = append(s.pieces, s.body[at:c])
			at = c
		}
	}
	return append(append(dst, s.pieces...), s.body[at:])
}

// A pieced screen drawn under a notice comes out as viewWithNotice draws
// it whole, however its pieces are cut; a frame whose body is the same
// keeps its pieces, the same strings.
func TestNoticePiecesAsWhole(t *testing.T) {
	s := &piecedText{}
	r, _ := testRouter(t, &s.text, nil)
	r.stack = []Screen{s}
	e := r.env
	e.Unicode = true
	rnd := rand.New(rand.NewPCG(5, 6))
	notices := []string{"A friend is online.", "Ann invited you to a race of Klondike · Draw 1. Y join · N decline",
		strings.Repeat("a rather long notice ", 12), "x"}
	for i := range 5000 {
		if i%3 == 0 {
			r.notice = notices[rnd.IntN(len(notices))]
		}
		e.Width, e.Height = 1+rnd.IntN(100), 1+rnd.IntN(30)
		s.w, s.h = 1, rnd.IntN(e.Height+3)
		lines := make([]string, rnd.IntN(35))
		for j := range lines {
			lines[j] = strings.Repeat("ab", rnd.IntN(5))
		}
		s.body = strings.Join(lines, "\n")
		if rnd.IntN(8) == 0 {
			s.body += "\n"
		}
		s.cuts = s.cuts[:0]
		for range rnd.IntN(12) {
			s.cuts = append(s.cuts, rnd.IntN(len(s.body)+1))
		}
		slices.Sort(s.cuts)
		want := oldViewWithNotice(r, s)
		got := r.piecesWithNotice(s, s, nil)
		if strings.Join(got, "") != want {
			t.Fatalf("%dx%d, min height %d, notice %q, body %q, cuts %v:\n got %q\nwant %q", e.Width, e.Height, s.h, r.notice, s.body, s.cuts, got, want)
		}
		again := r.piecesWithNotice(s, s, nil)
		require.Len(t, again, len(got))
		for j := range got {
			require.Same(t, unsafe.StringData(got[j]), unsafe.StringData(again[j]), "piece %d of a frame the same is made again", j)
		}
	}
	// The router draws it so.
	e.Width, e.Height, s.h = 40, 10, 1
	s.body, s.cuts = "one\ntwo\nthree", []int{4}
	r.notice = "Welcome, ann! Your key is your account."
	_, pieces := r.ViewPieces(nil)
	require.Equal(t, oldViewWithNotice(r, s), strings.Join(pieces, ""))
	require.Greater(t, len(pieces), 2, "in pieces")
}
