package gametest

import (
	"slices"
	"testing"
	"time"
)

// HintTimes times a fresh hint from each of n positions (hint(i) says
// whether position i has one) and reports how many there were, the 99th
// percentile and the worst in ms, and how many had no hint: a hint's time
// is reported by its benchmark, never asserted in a test.
func HintTimes(b *testing.B, n int, hint func(i int) bool) {
	b.Helper()
	took := make([]time.Duration, 0, n)
	empty := 0
	for b.Loop() {
		took, empty = took[:0], 0
		for i := range n {
			t := time.Now()
			ok := hint(i)
			took = append(took, time.Since(t))
			if !ok {
				empty++
			}
		}
	}
	if len(took) == 0 {
		b.Fatal("no position to take a hint from")
	}
	slices.Sort(took)
	ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
	b.ReportMetric(float64(n), "positions")
	b.ReportMetric(ms(took[len(took)*99/100]), "p99-ms")
	b.ReportMetric(ms(took[len(took)-1]), "max-ms")
	b.ReportMetric(float64(empty), "empty")
}
