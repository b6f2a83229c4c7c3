package spite

import (
	"slices"
	"testing"
	"time"

	"sshuffle/engine"
)

// BenchmarkHardDecision times the hard player's decisions over positions
// from many games (hard against normal, every setting mix), each decision
// made afresh so that every one plans its turn. It reports the median and
// the 99th percentile in milliseconds.
func BenchmarkHardDecision(b *testing.B) {
	var views []View
	for seed := uint64(1); seed <= 200; seed++ {
		rng := engine.NewRNG(seed)
		g, _ := New(specOf(randomSettings(rng), seed), 2)
		ps := newPlayers(b, "hard", "normal", seed)
		for step := 0; step < maxActions && g.Turn() != engine.NoSeat; step++ {
			seat := g.Turn()
			v := g.View(seat)
			if seat == 0 {
				views = append(views, v)
			}
			if err := g.Do(seat, ps[seat].Choose(v)); err != nil {
				b.Fatal(err)
			}
		}
	}
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		v := views[i%len(views)]
		p := newHard(engine.NewRNG(uint64(i)), hardSamples)
		start := time.Now()
		p.Choose(v)
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	ms := func(q float64) float64 { return float64(times[int(q*float64(len(times)-1))]) / 1e6 }
	b.ReportMetric(ms(0.5), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
	b.ReportMetric(float64(times[len(times)-1])/1e6, "max-ms")
	b.ReportMetric(float64(len(views)), "positions")
}
