//go:build !race

package spite

const raceOn = false
