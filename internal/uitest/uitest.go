// Package uitest is the rig screen tests share: a session's environment
// with a clock the test moves by hand, key and mouse messages, a router
// driven the way a session drives it, and plain frames to read. Only tests
// import it (the import rules check that), which is why it may open a
// Badger store the way a test does.
package uitest

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/store/badger"
)

// Start is the time every Env's clock starts at unless At says otherwise.
var Start = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// Clock is a clock a test sets by hand; Env.Now reads it.
type Clock struct{ T time.Time }

// Now is the clock's time.
func (c *Clock) Now() time.Time { return c.T }

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) { c.T = c.T.Add(d) }

type config struct {
	id, name string
	at       time.Time
	color    bool
	store    bool
}

// Option changes what Env makes.
type Option func(*config)

// Player makes the session's player id (a key fingerprint) and name.
func Player(id, name string) Option { return func(c *config) { c.id, c.name = id, name } }

// At starts the clock at t.
func At(t time.Time) Option { return func(c *config) { c.at = t } }

// Color says whether the terminal shows colour (it does by default).
func Color(on bool) Option { return func(c *config) { c.color = on } }

// NoStore leaves out the store and the games: for a screen that is handed
// everything it shows and must not reach for either.
func NoStore() Option { return func(c *config) { c.store = false } }

// Env is a session's environment as screen tests want it: an 80x24
// Unicode terminal in colour, a discarded log, idle after 30 minutes, the
// clock at Start, and the player tess (SHA256:testkey) with an account in
// a fresh store in memory that closes when the test ends, with the default
// games. t may be nil with NoStore.
func Env(t testing.TB, opts ...Option) (*ui.Env, *Clock) {
	c := config{id: "SHA256:testkey", name: "tess", at: Start, color: true, store: true}
	for _, o := range opts {
		o(&c)
	}
	clk := &Clock{T: c.at}
	e := &ui.Env{
		Log: slog.New(slog.DiscardHandler), Now: clk.Now,
		Player:  &ui.Player{ID: c.id, Name: c.name},
		Unicode: true, Color: c.color, Width: 80, Height: 24, Idle: 30 * time.Minute,
	}
	if c.store {
		t.Helper()
		st, err := badger.OpenInMemory()
		require.NoError(t, err)
		t.Cleanup(func() { _ = st.Close() })
		_, err = st.CreateAccount(context.Background(), c.id, c.name)
		require.NoError(t, err)
		e.Store, e.Games = st, games.Default()
	}
	return e, clk
}

// Key is the key press a terminal sends for s: a name ("enter", "space",
// "esc", "tab", "backspace", "left", "right", "up", "down") or the text of
// one key ("q", "?").
func Key(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	}
	r := []rune(s)
	return tea.KeyPressMsg{Code: r[0], Text: s}
}

// Press sends keys through the router, one message each, and returns the
// screen then shown.
func Press(r *ui.Router, keys ...string) ui.Screen {
	for _, k := range keys {
		r.Update(Key(k))
	}
	return r.Current()
}

// Send sends msg through the router and returns the screen then shown.
func Send(r *ui.Router, msg tea.Msg) ui.Screen {
	r.Update(msg)
	return r.Current()
}

// Click presses and releases the left button on cell (x, y) and returns
// the screen then shown.
func Click(r *ui.Router, x, y int) ui.Screen {
	r.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
	r.Update(tea.MouseReleaseMsg{X: x, Y: y, Button: tea.MouseLeft})
	return r.Current()
}

// Plain is s without its escape codes.
func Plain(s string) string { return ansi.Strip(s) }

// Frame is the router's frame without its escape codes.
func Frame(r *ui.Router) string { return Plain(r.View().Content) }

// Fits fails t unless frame is at most w x h cells.
func Fits(t testing.TB, frame string, w, h int) {
	t.Helper()
	lines := strings.Split(frame, "\n")
	require.LessOrEqual(t, len(lines), h, frame)
	for i, l := range lines {
		require.LessOrEqual(t, lipgloss.Width(l), w, "line %d too wide: %q", i, l)
	}
}

// Page stands for a screen of another package, which a screen package's
// tests may not build: it keeps the route it was asked for, shows it, and
// esc goes back (when it has an Env).
type Page struct {
	Env   *ui.Env
	Route ui.Route
}

func (p *Page) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "esc" && p.Env != nil {
		return p.Env.Back()
	}
	return nil
}

func (p *Page) View() string        { return fmt.Sprintf("page %d: %s", p.Route.Page, p.Route.Note) }
func (p *Page) MinSize() (int, int) { return 1, 1 }

// Pages builds a Page for every route: the build function of a router
// whose screens are all stand-ins.
func Pages(e *ui.Env, r ui.Route) (ui.Screen, error) { return &Page{Env: e, Route: r}, nil }

// PageOf is the route a stand-in was built for; it fails t if s is not one.
func PageOf(t testing.TB, s ui.Screen) ui.Route {
	t.Helper()
	p, ok := s.(*Page)
	require.True(t, ok, "want a page of another package, got %T", s)
	return p.Route
}

// KingsTable is a table of Kings in the Corner in play, seen by ann in
// seat 1, with a seat of each kind: ann here, bob away with a stand-in
// playing, a computer, cy gone, a seat kept for dee; wes watches.
func KingsTable() hub.TableState {
	ann, bob := hub.Person{ID: "a", Name: "ann"}, hub.Person{ID: "b", Name: "bob"}
	st := hub.TableState{Code: "ABCDE", Game: "kings", Host: "a", You: "a", Seat: 0, Turn: 1,
		Seats: []hub.SeatInfo{
			{Name: "ann", Person: ann, Here: true},
			{Name: "bob", Person: bob, StandIn: true},
			{Name: "Hopper", Computer: "hard"},
			{Name: "cy", Person: hub.Person{ID: "c", Name: "cy"}, Gone: true},
			{Reserved: hub.Person{ID: "d", Name: "dee"}},
		},
		Watchers: []hub.Person{{ID: "w", Name: "wes"}}, Phase: hub.TablePlaying}
	return st
}
