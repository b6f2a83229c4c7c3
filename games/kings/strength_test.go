package kings

import (
	"os"
	"strconv"
	"testing"
)

// TestStrength measures a strength against three of another over
// KINGS_HANDS hands (KINGS_HANDS=10000 for the figures in the notes); it
// is skipped unless KINGS_HANDS is set, being minutes of work.
func TestStrength(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("KINGS_HANDS"))
	if n == 0 {
		t.Skip("set KINGS_HANDS to measure the computer players")
	}
	tested, other := os.Getenv("KINGS_TESTED"), os.Getenv("KINGS_OTHER")
	if tested == "" {
		tested = "hard"
	}
	if other == "" {
		other = "easy"
	}
	seats := 4
	if s, _ := strconv.Atoi(os.Getenv("KINGS_SEATS")); s != 0 {
		seats = s
	}
	me, rest := duel(t, tested, other, seats, n, os.Getenv("KINGS_SETTINGS"))
	t.Logf("%s (one seat, rotating): %v", tested, me)
	t.Logf("%s (the other %d seats): %v", other, seats-1, rest)
	if n >= 10000 && tested == "hard" && other == "easy" && seats == 4 && os.Getenv("KINGS_SETTINGS") == "" {
		lo, _ := ci95(me.out, me.hands)
		if lo < 0.45 || me.penalty/float64(me.hands) >= rest.penalty/float64(rest.hands) {
			t.Errorf("hard misses its target: out first %v", me)
		}
	}
}
