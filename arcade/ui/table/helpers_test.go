package table

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
	"sshuffle/internal/uitest"
)

func kingsGame(t *testing.T, seed uint64, players int) *kings.Game {
	t.Helper()
	g, err := kings.New(engine.Spec{Game: kings.Name, Seed: seed}, players)
	require.NoError(t, err)
	return g
}

func spiteGame(t *testing.T, seed uint64) *spite.Game {
	t.Helper()
	g, err := spite.New(engine.Spec{Game: spite.Name, Seed: seed}, 2)
	require.NoError(t, err)
	return g
}

// rig is a table screen in a router, as a session has it, with the
// actions it handed out and the leaves it reported.
type rig[A any] struct {
	t    *testing.T
	e    *ui.Env
	clk  *uitest.Clock
	r    *ui.Router
	c    *core
	sent []A
	left int
}

func (g *rig[A]) act(a A) { g.sent = append(g.sent, a) }

// take returns the actions handed out since the last call.
func (g *rig[A]) take() []A {
	s := g.sent
	g.sent = nil
	return s
}

func (g *rig[A]) frame() string { return uitest.Frame(g.r) }

// cell is a screen cell of place at on the current frame.
func (g *rig[A]) cell(at spot) (int, int) {
	g.t.Helper()
	_ = g.r.View()
	a, ok := g.c.sc.find(at)
	require.True(g.t, ok, "place %+v is not on the screen:\n%s", at, g.frame())
	return a.x + a.w/2, a.y
}

func (g *rig[A]) click(at spot) {
	x, y := g.cell(at)
	g.r.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
	g.r.Update(tea.MouseReleaseMsg{X: x, Y: y, Button: tea.MouseLeft})
}

func (g *rig[A]) dragTo(from, to spot) {
	x, y := g.cell(from)
	g.r.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
	x, y = g.cell(to)
	g.r.Update(tea.MouseReleaseMsg{X: x, Y: y, Button: tea.MouseLeft})
}

// walk presses arrow keys until the cursor is on at: the shortest way
// the screen's own moves allow, found on the current frame.
func (g *rig[A]) walk(at spot) {
	g.t.Helper()
	_ = g.r.View()
	dirs := []struct {
		key    string
		dx, dy int
	}{{"left", -1, 0}, {"right", 1, 0}, {"up", 0, -1}, {"down", 0, 1}}
	type step struct {
		from spot
		key  string
	}
	prev := map[spot]step{g.c.cursor: {}}
	queue := []spot{g.c.cursor}
	for len(queue) > 0 && !hasKey(prev, at) {
		s := queue[0]
		queue = queue[1:]
		for _, d := range dirs {
			n := g.c.sc.step(s, d.dx, d.dy)
			if _, seen := prev[n]; !seen {
				prev[n] = step{from: s, key: d.key}
				queue = append(queue, n)
			}
		}
	}
	require.True(g.t, hasKey(prev, at), "no keys lead to %+v", at)
	var keys []string
	for s := at; s != g.c.cursor; s = prev[s].from {
		keys = append([]string{prev[s].key}, keys...)
	}
	uitest.Press(g.r, keys...)
	require.Equal(g.t, at, g.c.cursor)
}

func hasKey[K comparable, V any](m map[K]V, k K) bool {
	_, ok := m[k]
	return ok
}

func fourSeats() []Seat {
	return []Seat{{Name: "ann"}, {Name: "bob", Computer: true, Strength: "hard"}, {Name: "cy"}, {Name: "dee", Away: true}}
}

func newKingsRig(t *testing.T, g *kings.Game, seat int, color bool) *rig[kings.Action] {
	e, clk := uitest.Env(nil, uitest.NoStore(), uitest.Player("SHA256:k", "ann"), uitest.At(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)), uitest.Color(color))
	rg := &rig[kings.Action]{t: t, e: e, clk: clk}
	cfg := Config[kings.Action]{Table: "KINGS", Act: rg.act, Leave: func() { rg.left++ }}
	if seat == engine.Spectator {
		cfg.Act = nil
	}
	s := NewKings(e, cfg, KingsState{Common: Common{Table: "KINGS", Seats: fourSeats()[:g.Seats()], Clock: 42 * time.Second}, View: g.View(seat)})
	rg.c = &s.core
	rg.r = ui.NewRouter(e, uitest.Pages, s, "")
	return rg
}

func newSpiteRig(t *testing.T, g *spite.Game, seat int, color bool) *rig[spite.Action] {
	e, clk := uitest.Env(nil, uitest.NoStore(), uitest.Player("SHA256:k", "ann"), uitest.At(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)), uitest.Color(color))
	rg := &rig[spite.Action]{t: t, e: e, clk: clk}
	cfg := Config[spite.Action]{Table: "SPITE", Act: rg.act, Leave: func() { rg.left++ }}
	if seat == engine.Spectator {
		cfg.Act = nil
	}
	s := NewSpite(e, cfg, SpiteState{Common: Common{Table: "SPITE", Seats: fourSeats()[:2], Clock: 42 * time.Second}, View: g.View(seat)})
	rg.c = &s.core
	rg.r = ui.NewRouter(e, uitest.Pages, s, "")
	return rg
}

// playSpiteUntil lets computer players play g until ok says stop; false
// when the game ended first.
func playSpiteUntil(t *testing.T, g *spite.Game, ok func() bool) bool {
	t.Helper()
	return playSpiteWith(t, g, "normal", ok)
}

func playSpiteWith(t *testing.T, g *spite.Game, strength string, ok func() bool) bool {
	t.Helper()
	var ps [2]engine.Player[spite.Action, spite.View]
	for i := range ps {
		p, err := spite.NewPlayer(strength, uint64(i+1))
		require.NoError(t, err)
		ps[i] = p
	}
	for n := 0; !ok(); n++ {
		require.Less(t, n, 2000, "the position never came")
		s := g.Turn()
		if s == engine.NoSeat {
			return false
		}
		require.NoError(t, g.Do(s, ps[s].Choose(g.View(s))))
	}
	return true
}

// playKingsUntil is false when the hand ended first.
func playKingsUntil(t *testing.T, g *kings.Game, ok func() bool) bool {
	t.Helper()
	ps := make([]engine.Player[kings.Action, kings.View], g.Seats())
	for i := range ps {
		p, err := kings.NewPlayer("easy", uint64(i+1))
		require.NoError(t, err)
		ps[i] = p
	}
	for n := 0; !ok(); n++ {
		require.Less(t, n, 2000, "the position never came")
		s := g.Turn()
		if s == engine.NoSeat {
			return false
		}
		require.NoError(t, g.Do(s, ps[s].Choose(g.View(s))))
	}
	return true
}
