package hub

import (
	"strings"
	"time"
)

// Speed is a table's setting for its computer players' pace: how long each
// computer action (and each action a computer makes for a person whose
// clock ran out) stays on screen before the next. The table's Pace is the
// steady gap; the others follow from it, so a server that sets a shorter
// Pace for its tests or its players shortens them all alike.
type Speed string

const (
	// Steady: about a second an action, for a person to follow each card.
	Steady Speed = "steady"
	// Quick: about a third of a second, for people who know the game.
	Quick Speed = "quick"
	// Instant: no pause between a computer's actions. Each action is still
	// its own state, so every screen sees the cards move one at a time as
	// fast as it draws.
	Instant Speed = "instant"
)

// Speeds are the paces a table may have, the default first.
var Speeds = []Speed{Steady, Quick, Instant}

// ParseSpeed reads a pace's word; "" is the default.
func ParseSpeed(s string) (Speed, error) {
	if s == "" {
		return Steady, nil
	}
	for _, sp := range Speeds {
		if strings.EqualFold(s, string(sp)) {
			return sp, nil
		}
	}
	words := make([]string, len(Speeds))
	for i, sp := range Speeds {
		words[i] = string(sp)
	}
	return "", refuse(ErrBadTable, "A table's pace is %s, not %q.", strings.Join(words, ", "), clip(s, 20))
}

// gap is the pause before a computer's next action, for a table whose
// steady pace is steady.
func (s Speed) gap(steady time.Duration) time.Duration {
	switch s {
	case Quick:
		return steady * 3 / 10
	case Instant:
		return 0
	}
	return steady
}

// clip keeps a word from a client short enough for a sentence.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
