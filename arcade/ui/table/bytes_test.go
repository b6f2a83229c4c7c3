package table

import (
	"fmt"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/render"
	"sshuffle/engine"
	"sshuffle/games/spite"
)

// wire is what each screen of a sim writes to its terminal: a render.Screen
// per view, drawn from the router's pieces as a session draws them.
type wire struct {
	s    *sim
	scrs []*render.Screen
}

func newWire(s *sim) *wire {
	w := &wire{s: s}
	for range s.views {
		w.scrs = append(w.scrs, render.NewScreen(io.Discard, 80, 24, colorprofile.ANSI256))
	}
	w.draw()
	return w
}

// draw draws every view's frame and returns the bytes each wrote.
func (w *wire) draw() []int {
	out := make([]int, len(w.scrs))
	for i, v := range w.s.views {
		view, pieces := v.r.ViewPieces(nil)
		b := w.scrs[i].FramePieces(view, pieces)
		out[i] = len(b)
		require.NoError(w.s.t, w.scrs[i].Send(b))
	}
	return out
}

// tableBytes plays games to their ends at a table, every seat and a
// watcher on a screen, and returns the bytes each action wrote to the
// screens of the seats that did not act and the watcher's, for every
// action and for the actions that ended a turn, and the bytes of each
// screen's clock turns.
func tableBytes(t testing.TB, game, settings string, names []string, people []bool, games int, act func(s *sim) bool) (moves, ends, ticks []int) {
	t.Helper()
	for n := range games {
		viewers := []int{engine.Spectator}
		for i := range names {
			viewers = append(viewers, i)
		}
		s := newSim(t, game, settings, uint64(100+n), names, people, viewers)
		w := newWire(s)
		for range 600 {
			seat := s.g.Turn()
			if !act(s) {
				break
			}
			s.push()
			got := w.draw()
			for i, v := range s.views {
				if v.seat == seat {
					continue
				}
				moves = append(moves, got[i])
				if s.g.Turn() != seat {
					ends = append(ends, got[i])
				}
			}
			if s.people[max(s.g.Turn(), 0)] && len(ticks) < 600 {
				s.clk.Advance(time.Second)
				for i, b := range w.draw() {
					if s.views[i].seat == s.g.Turn() || b > 0 {
						ticks = append(ticks, b)
					}
				}
			}
		}
	}
	return moves, ends, ticks
}

func pct(xs []int, p int) int {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

func stats(xs []int) string {
	return fmt.Sprintf("n=%d p50=%d p90=%d max=%d", len(xs), pct(xs, 50), pct(xs, 90), pct(xs, 100))
}

// TestTableBytes: a card played at a table reaches each other screen in
// few bytes (300 at p90), and a turn of the clock in fewer (40).
func TestTableBytes(t *testing.T) {
	play := func(s *sim) bool { return s.play() }
	for _, c := range []struct {
		name, game, settings string
		names                []string
		people               []bool
		act                  func(s *sim) bool
	}{
		{"spite", "spite", "", []string{"ann", "bob"}, []bool{true, true}, play},
		// As the load generator plays: each person discards the first
		// card of the hand on the first side stack, turn after turn.
		{"spite_discards", "spite", "", []string{"lg3f9a0007t0", "lg3f9a0007t1"}, []bool{true, true}, spiteDiscard},
		{"kings", "kings", "", []string{"ann", "Hopper", "bob", "Turing"}, []bool{true, false, true, false}, play},
	} {
		t.Run(c.name, func(t *testing.T) {
			moves, ends, ticks := tableBytes(t, c.game, c.settings, c.names, c.people, 1, c.act)
			t.Logf("%s: action to another screen %s; turn's end %s; clock turn %s", c.name, stats(moves), stats(ends), stats(ticks))
			require.LessOrEqual(t, pct(moves, 90), 300, "an action's bytes to another screen at p90")
			require.LessOrEqual(t, pct(ticks, 90), 40, "a clock turn's bytes at p90")
		})
	}
}

// spiteDiscard has the seat to act discard its first hand card on its
// first side stack; false once the game is over.
func spiteDiscard(s *sim) bool {
	seat := s.g.Turn()
	if seat == engine.NoSeat {
		return false
	}
	v := s.g.View(seat)
	view, err := spite.DecodeView(v)
	require.NoError(s.t, err)
	b, err := spite.EncodeAction(spite.DiscardTo(view.Hand[0], 0))
	require.NoError(s.t, err)
	require.NoError(s.t, s.g.Do(seat, b))
	s.acted()
	return true
}
