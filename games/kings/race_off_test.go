//go:build !race

package kings

const raceEnabled = false
