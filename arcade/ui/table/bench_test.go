package table

import (
	"testing"
	"time"

	"sshuffle/engine"
)

// BenchmarkTableFrame is one seat's frame at a table at 80x24, a person
// to act: after a state pushed by the room (two states in turn, before
// and after a computer's action, as the room pushes them) and after a turn
// of the clock (the view alone, as ui.Ticking draws it).
func BenchmarkTableFrame(b *testing.B) {
	for _, game := range []string{"spite", "kings"} {
		for _, step := range []string{"move", "clock"} {
			b.Run(game+"/"+step, func(b *testing.B) {
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
				msgOf := func() any {
					view, err := s.kit.DecodeView(s.g.View(0))
					if err != nil {
						b.Fatal(err)
					}
					m, err := s.d.State(s.common(), view)
					if err != nil {
						b.Fatal(err)
					}
					return m
				}
				var m0, m1 any
				for m1 == nil {
					m0 = msgOf()
					seat := s.g.Turn()
					if !s.play() {
						b.Fatal("the game ended first")
					}
					if t := s.g.Turn(); t != seat && t != engine.NoSeat && s.people[t] {
						s.deadline = s.clk.T.Add(10 * time.Hour)
						m1 = msgOf()
					}
				}
				msgs := []any{m0, m1}
				var pieces []string
				v.r.Update(m1)
				pieces = v.s.(interface{ ViewPieces([]string) []string }).ViewPieces(pieces[:0])
				b.ReportAllocs()
				b.ResetTimer()
				for i := range b.N {
					if step == "clock" {
						s.clk.Advance(time.Second)
					} else {
						v.r.Update(msgs[i%2])
					}
					pieces = v.s.(interface{ ViewPieces([]string) []string }).ViewPieces(pieces[:0])
				}
			})
		}
	}
}
