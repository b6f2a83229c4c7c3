//go:build !race

package spider

const raceOn = false
