package engine

import (
	"strconv"
	"strings"
)

// The names of the computer players at the tables. A computer is named from
// its strength and its seat alone, so the same table names it the same way
// on every screen, in its log and records, after a restart (a snapshot
// keeps seats and strengths) and in a rematch (the seats stay), with no
// random source to carry along. Each strength has its own family of names,
// so a name also tells a player what they are up against, and a family has
// a name for every seat of the largest table: two computers of one strength
// at a table are never named alike. Every name is a valid account name in
// form, short enough for a seat line with its strength beside it; the store
// refuses them to people (IsComputerName), so a person and a computer are
// never named alike on screen.

// computerNames are the families, one per strength the table games' computer
// players come in, a name for each of seats 1 to 4. No two names anywhere
// share a first letter, so a glance at a log line tells them apart.
var computerNames = map[string][]string{
	"easy":   {"Pip", "Dot", "Bit", "Zip"},
	"normal": {"Chip", "Gizmo", "Widget", "Robo"},
	"hard":   {"Ada", "Turing", "Hopper", "Knuth"},
}

// ComputerName is the name of the computer player of strength in seat (from
// 0). A strength without a family, or a seat past its family's names, is
// called "computer N" (seat N, from 1): a name no person can hold, since an
// account name has no space.
func ComputerName(strength string, seat int) string {
	if names := computerNames[strength]; seat >= 0 && seat < len(names) {
		return names[seat]
	}
	return "computer " + strconv.Itoa(seat+1)
}

// ComputerLabel is a computer's name with its strength beside it, for a
// line with room for both: "Ada (hard)".
func ComputerLabel(strength string, seat int) string {
	return ComputerName(strength, seat) + " (" + strength + ")"
}

// IsComputerName reports whether name, in any case, is one ComputerName
// gives.
func IsComputerName(name string) bool {
	for _, names := range computerNames {
		for _, n := range names {
			if strings.EqualFold(n, name) {
				return true
			}
		}
	}
	return false
}
