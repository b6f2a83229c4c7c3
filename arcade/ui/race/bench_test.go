package race

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/internal/uitest"
)

// BenchmarkRaceFrame is a racer's frame in a race of Klondike at 80x24
// (the panel beside the board): the race clock's turn a second later (the
// view alone, as for a game), and a cursor key.
func BenchmarkRaceFrame(b *testing.B) {
	for _, step := range []string{"cursor", "clock"} {
		b.Run(step, func(b *testing.B) {
			s, _ := startedRace(b, "klondike/draw1")
			clk := &uitest.Clock{T: s.env.Now()}
			s.env.Now = clk.Now
			var pieces []string
			view := func() { pieces = s.ViewPieces(pieces[:0]) }
			view()
			uitest.FrameSteps(b, step == "clock", clk, func(m tea.Msg) { s.Update(m) }, view)
		})
	}
}

// BenchmarkOtherRacerMoved is what another racer's move costs a racer's
// screen in a race of Klondike at 80x24: the room's new state taken and
// the frame drawn (the panel beside the board changes). The room's fan-out
// is hub's BenchmarkFanout.
func BenchmarkOtherRacerMoved(b *testing.B) {
	for _, width := range []int{80, 40} {
		name := "beside"
		if width < 80 {
			name = "folded"
		}
		b.Run(name, func(b *testing.B) {
			e, clk, msgs := raceEnv(b)
			e.Width = width
			info, _ := games.Default().Entry("klondike/draw1")
			sc, err := Open(e, ui.Route{Page: ui.Race, Game: info, Spec: info.Spec(7)}, boards)
			if err != nil {
				b.Fatal(err)
			}
			s := sc.(*raceScreen)
			other, err := s.m.Race().Join(hub.Person{ID: "id-ann", Name: "ann"}, hub.Racer, func(hub.RaceState) {})
			if err != nil {
				b.Fatal(err)
			}
			until(b, s, msgs, func() bool { return s.have && len(s.st.Racers) == 2 })
			s.Update(tea.KeyPressMsg{Code: 's', Text: "s"})
			until(b, s, msgs, func() bool { return s.st.Phase == hub.Countdown })
			clk.Advance(3 * time.Second)
			until(b, s, msgs, func() bool { return s.st.Phase == hub.Running && s.game != nil })
			var pieces []string
			pieces = s.ViewPieces(pieces[:0])
			p := hub.Progress{Home: 0, Total: 52, Status: hub.Playing}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				p.Moves = i + 1
				if err := other.Report(p); err != nil {
					b.Fatal(err)
				}
				for v := s.st.Version; s.st.Version == v; {
					s.Update(<-msgs)
				}
				pieces = s.ViewPieces(pieces[:0])
			}
		})
	}
}
