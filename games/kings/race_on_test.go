//go:build race

package kings

// The race detector slows the random-play tests about tenfold; they run
// fewer games under it.
const raceEnabled = true
