package table

import (
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"sshuffle/arcade/render"
	"sshuffle/engine"
)

// BenchmarkTableFrame is one seat's frame at a table at 80x24, a person
// to act: after a state pushed by the room (two states in turn, before
// and after an action, as the room pushes them) and after a turn of the
// clock (the view alone, as ui.Ticking draws it); take is move with the
// state's view decoded and turned into the screen's message each time, as
// the table page takes a state from the room; the view in pieces as
// the session's router hands it over (view), and with the bytes
// arcade/render makes of it for the terminal (wire).
func BenchmarkTableFrame(b *testing.B) {
	for _, game := range []string{"spite", "kings"} {
		for _, step := range []string{"move", "take", "clock"} {
			for _, wire := range []bool{false, true} {
				name := game + "/" + step + "/view"
				if wire {
					name = game + "/" + step + "/wire"
				}
				b.Run(name, func(b *testing.B) {
					names, people := []string{"ann", "bob"}, []bool{true, true}
					if game == "kings" {
						names, people = []string{"ann", "Hopper", "bob", "Turing"}, []bool{true, false, true, false}
					}
					s := newSim(b, game, "", 3, names, people, []int{0})
					// Some history first, then the states before and after an
					// action that hands the turn to a person, whose clock runs
					// (for hours: it must not run out in the loop).
					for range 12 {
						s.play()
					}
					v := s.views[0]
					// A state as the room hands it: the view's bytes and
					// the rest, which take turns into the screen's message.
					type state struct {
						view   []byte
						common Common
					}
					msgOf := func(st state) any {
						view, err := s.kit.DecodeView(st.view)
						if err != nil {
							b.Fatal(err)
						}
						m, err := s.d.State(st.common, view)
						if err != nil {
							b.Fatal(err)
						}
						return m
					}
					var st0, st1 state
					for st1.view == nil {
						st0 = state{s.g.View(0), s.common()}
						seat := s.g.Turn()
						if !s.play() {
							b.Fatal("the game ended first")
						}
						if t := s.g.Turn(); t != seat && t != engine.NoSeat && s.people[t] {
							s.deadline = s.clk.T.Add(10 * time.Hour)
							st1 = state{s.g.View(0), s.common()}
						}
					}
					states := []state{st0, st1}
					msgs := []any{msgOf(st0), msgOf(st1)}
					m1 := msgs[1]
					scr := render.NewScreen(io.Discard, 80, 24, colorprofile.ANSI256)
					var pieces []string
					frame := func() {
						var view tea.View
						view, pieces = v.r.ViewPieces(pieces[:0])
						if wire {
							_ = scr.Send(scr.FramePieces(view, pieces))
						}
					}
					v.r.Update(m1)
					frame()
					b.ReportAllocs()
					b.ResetTimer()
					for i := range b.N {
						switch step {
						case "clock":
							s.clk.Advance(time.Second)
						case "take":
							v.r.Update(msgOf(states[i%2]))
						default:
							v.r.Update(msgs[i%2])
						}
						frame()
					}
				})
			}
		}
	}
}
