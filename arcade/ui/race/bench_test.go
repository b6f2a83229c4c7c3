package race

import (
	"testing"

	tea "charm.land/bubbletea/v2"

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
