//go:build !race

package klondike

const raceEnabled = false
