package kings

import (
	"slices"
	"testing"
	"time"

	"sshuffle/engine"
)

// decisionViews collects the views at which a hard seat is to play, from
// hands of hard against three easy seats with the defaults (the target's
// table), every decision of the turn included.
func decisionViews(b *testing.B, hands int, settings string) []View {
	var vs []View
	for i := range hands {
		g := mustNew(b, uint64(i+1), 4, settings)
		strengths := []string{"easy", "easy", "easy", "easy"}
		strengths[i%4] = "hard"
		ps := newPlayers(b, strengths, uint64(i+1))
		for !g.st.over {
			s := g.Turn()
			v := g.View(s)
			if strengths[s] == "hard" {
				vs = append(vs, v)
			}
			if err := g.Do(s, ps[s].Choose(v)); err != nil {
				b.Fatal(err)
			}
		}
	}
	return vs
}

// BenchmarkHardDecision times hard's choice at positions of real hands, a
// fresh player each time, so that every decision plans the whole turn (a
// player in a game plans once a turn and then plays its plan out, which
// is faster). It reports the 50th and 99th percentiles and the slowest.
// Run on one core: go test -run XXX -bench HardDecision -cpu 1 ./games/kings/
func BenchmarkHardDecision(b *testing.B) {
	for _, settings := range []string{"", "draw=end,kingsAtOnce=true"} {
		b.Run("settings="+settings, func(b *testing.B) {
			vs := decisionViews(b, 300, settings)
			times := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				p, _ := NewPlayer("hard", uint64(i))
				v := vs[i%len(vs)]
				t0 := time.Now()
				p.Choose(v)
				times = append(times, time.Since(t0))
			}
			b.StopTimer()
			slices.Sort(times)
			q := func(f float64) float64 {
				return float64(times[min(len(times)-1, int(f*float64(len(times))))].Microseconds()) / 1000
			}
			b.ReportMetric(q(0.50), "p50-ms")
			b.ReportMetric(q(0.99), "p99-ms")
			b.ReportMetric(q(1), "max-ms")
			b.ReportMetric(float64(len(vs)), "positions")
		})
	}
}

var _ = engine.Spectator

// BenchmarkNormalDecision is normal's choice at the same positions, one
// player for them all as a table keeps it (its search's buffers reused):
// what a computer's decision allocates at a table.
func BenchmarkNormalDecision(b *testing.B) {
	vs := decisionViews(b, 100, "")
	p, err := NewPlayer("normal", 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p.Choose(vs[i%len(vs)])
	}
}
