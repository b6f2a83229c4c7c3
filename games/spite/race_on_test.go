//go:build race

package spite

// raceOn: the race detector makes play about ten times slower, so the long
// random runs play fewer games under it.
const raceOn = true
