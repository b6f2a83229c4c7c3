package playnow

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/uitest"
)

// rig is the play-now page on a real hub with a manual clock: what the
// hub sends the session is read off a channel and handed to the router by
// the test, as the session's program would.
type rig struct {
	t     *testing.T
	e     *ui.Env
	clock *hub.ManualClock
	h     *hub.Hub
	r     *ui.Router
	msgs  chan tea.Msg
}

func newRig(t *testing.T, color bool, route ui.Route, name string) *rig {
	t.Helper()
	clock := hub.NewManualClock()
	h := hub.New(hub.Config{Clock: clock, Rand: engine.NewRNG(1), TableKit: games.Default().TableKit,
		Pool: hub.PoolConfig{Table: hub.TableConfig{TurnClock: -1},
			Computers: func(string) map[string]float64 { return map[string]float64{"easy": 1200, "normal": 1500, "hard": 1800} }}})
	t.Cleanup(h.Close)
	e, _ := uitest.Env(t, uitest.Color(color), uitest.Player("SHA256:"+name, name))
	e.Hub = h
	g := &rig{t: t, e: e, clock: clock, h: h, msgs: make(chan tea.Msg, 1024)}
	e.Done = make(chan struct{})
	t.Cleanup(func() { close(e.Done) })
	e.Prepare()
	e.SetSend(func(m tea.Msg) { g.msgs <- m })
	pg, err := Open(e, route)
	require.NoError(t, err)
	g.r = ui.NewRouter(e, uitest.Pages, pg, "")
	return g
}

func (g *rig) frame() string { return uitest.Frame(g.r) }

// until hands the router what the hub sends until the frame (or the
// screen) is as asked.
func (g *rig) until(what string, ok func(frame string) bool) string {
	g.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		if f := g.frame(); ok(f) {
			return f
		}
		select {
		case m := <-g.msgs:
			g.r.Update(m)
		case <-deadline:
			g.t.Fatalf("waited for %s; the frame is\n%s", what, g.frame())
		}
	}
}

func (g *rig) shows(text string) string {
	g.t.Helper()
	return g.until(strings.TrimSpace(text), func(f string) bool { return strings.Contains(f, text) })
}

func (g *rig) fit(state string, f uitest.Fit) {
	g.t.Helper()
	frame := g.frame()
	f.W, f.H = 80, 24
	f.Ellipses = append(f.Ellipses, "Opening the table…", "Joining the pool…", "Dealing…")
	if p := uitest.FitProblems(frame, f); len(p) > 0 {
		g.t.Errorf("%s:\n  %s\n%s", state, strings.Join(p, "\n  "), frame)
	}
}

func spite(t *testing.T) ui.Route {
	e, ok := games.Default().Entry("spite")
	require.True(t, ok)
	return ui.Route{Page: ui.PlayNow, Game: e}
}

func kings(t *testing.T, n int) ui.Route {
	e, ok := games.Default().Entry("kings")
	require.True(t, ok)
	return ui.Route{Page: ui.PlayNow, Game: e, Players: n}
}

// The page shows the wait ticking and the pool's size, offers the computer
// once the wait is over, and y takes the player to the table it opened,
// dealt, holding their seat.
func TestPlayNowWaitOfferAndTable(t *testing.T) {
	for _, color := range []bool{true, false} {
		g := newRig(t, color, spite(t), "Bartholomew_Fairfax1")
		g.shows("In the pool: 1 for this table, 1 in all.")
		g.fit("waiting", uitest.Fit{Whole: []string{"Spite and Malice", "1500?", "Waiting 0:00."}, Keys: []string{"esc"}})
		g.clock.Advance(7 * time.Second)
		g.shows("Waiting 0:07.")
		require.Contains(t, g.frame(), "within 170.")
		uitest.Press(g.r, "y")
		g.shows("No computer player is offered yet: one is after 20 seconds of waiting.")
		g.clock.Advance(13 * time.Second)
		g.shows("Nobody near yet. Play the computer player normal (rated 1500) now?")
		g.fit("offered", uitest.Fit{Keys: []string{"y", "n", "esc"}})
		uitest.Press(g.r, "y")
		g.until("the table", func(string) bool { _, ok := g.r.Current().(*uitest.Page); return ok })
		rt := uitest.PageOf(t, g.r.Current())
		require.Equal(t, ui.Table, rt.Page)
		require.NotNil(t, rt.Member)
		require.NotNil(t, rt.State.View, "the game is dealt")
		require.Equal(t, "Bartholomew_Fairfax1", rt.State.Seats[0].Person.Name)
		require.Equal(t, "normal", rt.State.Seats[1].Computer)
		require.Equal(t, rt.State.Code, rt.Member.Member().Table().Code())
		require.Zero(t, g.h.PoolWaiting())
	}
}

// n keeps waiting: the offer goes until the wait has passed again; esc
// leaves the pool at once.
func TestPlayNowKeepWaitingAndLeave(t *testing.T) {
	g := newRig(t, true, spite(t), "ann")
	g.shows("In the pool: 1")
	g.clock.Advance(20 * time.Second)
	g.shows("Nobody near yet")
	uitest.Press(g.r, "n")
	g.until("the offer put away", func(f string) bool {
		return !strings.Contains(f, "Nobody near yet") && strings.Contains(f, "Waiting 0:20.")
	})
	g.clock.Advance(19 * time.Second)
	g.shows("Waiting 0:39.")
	require.NotContains(t, g.frame(), "Nobody near yet")
	g.clock.Advance(time.Second)
	g.shows("Nobody near yet")
	require.Equal(t, 1, g.h.PoolWaiting())
	s := uitest.Press(g.r, "esc")
	require.Zero(t, g.h.PoolWaiting(), "esc leaves at once")
	require.Equal(t, ui.Menu, uitest.PageOf(t, s).Page)
}

// A Kings table's size is chosen with its number key: the player waits
// for the new size, and the offer says computers fill the empty seats.
func TestPlayNowKingsSizes(t *testing.T) {
	g := newRig(t, false, kings(t, 0), "Wilhelmina-Cavendish")
	g.shows("In the pool: 1")
	require.Contains(t, g.frame(), "Kings in the Corner for 2")
	g.fit("kings for 2", uitest.Fit{Keys: []string{"esc", "2", "3", "4"}})
	uitest.Press(g.r, "4")
	g.shows("Kings in the Corner for 4")
	g.shows("Looking for 3 players rated near you")
	require.Equal(t, 1, g.h.PoolWaiting(), "the old place is given up")
	g.clock.Advance(20 * time.Second)
	g.shows("empty seats?")
	g.fit("kings for 4, offered", uitest.Fit{Wrapped: []string{"Play now with the computer player normal (rated 1500) in the empty seats?"},
		Keys: []string{"y", "n", "esc", "2", "3", "4"}})
}

// The hub's refusal is shown as it says it, and enter tries again.
func TestPlayNowClosedAndAgain(t *testing.T) {
	g := newRig(t, true, spite(t), "ann")
	g.shows("In the pool: 1")
	// The same account from another session takes the place over.
	other, err := g.h.PlayNow(hub.Person{ID: "SHA256:ann", Name: "ann"}, hub.PoolWant{Game: "spite"},
		func(hub.PoolState) {}, func(hub.TableState) {})
	require.NoError(t, err)
	g.shows("You are waiting to play in another session now")
	g.fit("closed", uitest.Fit{Keys: []string{"enter", "esc"}})
	other.Leave()
	uitest.Press(g.r, "enter")
	g.shows("In the pool: 1")
}

// A guest, or a player with no name, gets a sentence instead of the page.
func TestPlayNowRefused(t *testing.T) {
	e, _ := uitest.Env(t, uitest.NoStore())
	e.Player.Guest = true
	_, err := Open(e, spite(t))
	require.ErrorIs(t, err, hub.ErrGuest)
}
