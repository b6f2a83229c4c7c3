package deals

import (
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"sshuffle/engine"
	"sshuffle/games"
)

// BenchmarkBesideRating is what a deal's rating costs the screens beside
// it on a server of one core (GOMAXPROCS=1, as scripts/liveload.sh runs
// it): Klondike deals are rated one after another while, b.N times, a
// goroutine wakes from a short sleep and hands a message to another (a
// key reaching a screen) and back. wake-p99-µs is the 99th percentile of
// how late that round trip ends past the sleep: "paced" is Rate, whose
// search yields between short stretches, "whole" the same search left to
// run until the runtime preempts it, "none" the same with no rating (the
// machine's own lateness).
func BenchmarkBesideRating(b *testing.B) {
	g, ok := games.Default().Entry("klondike/draw1")
	if !ok {
		b.Fatal("no Klondike")
	}
	for _, kind := range []string{"none", "paced", "whole"} {
		b.Run(kind, func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
			var stop atomic.Bool
			var rated atomic.Int64
			finished := make(chan struct{})
			go func() {
				defer close(finished)
				for seed := uint64(1000); kind != "none" && !stop.Load(); seed++ {
					spec := engine.Spec{Game: "klondike", Variant: "draw1", Seed: seed}
					if kind == "paced" {
						Rate(g, spec)
					} else {
						g.Game.Solve(spec, g.Game.Nodes)
					}
					rated.Add(1)
				}
			}()
			ping, pong := make(chan struct{}), make(chan struct{})
			go func() {
				for range ping {
					pong <- struct{}{}
				}
			}()
			const nap = 200 * time.Microsecond
			late := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				t0 := time.Now()
				time.Sleep(nap)
				ping <- struct{}{}
				<-pong
				late = append(late, time.Since(t0)-nap)
			}
			b.StopTimer()
			close(ping)
			stop.Store(true)
			<-finished
			slices.Sort(late)
			b.ReportMetric(float64(late[len(late)*99/100].Microseconds()), "wake-p99-µs")
			b.ReportMetric(float64(late[len(late)/2].Microseconds()), "wake-p50-µs")
			b.ReportMetric(float64(rated.Load()), "deals-rated")
		})
	}
}
