//go:build race

package spider

// The race detector slows play tenfold; fewer random games keep it short.
const raceOn = true
