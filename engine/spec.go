package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Spec names a deal everywhere: daily deals, races, saves, replays,
// leaderboards and the command line. Its text form is
// "game[/variant][/w]/seed", for example "klondike/draw3/w/1234",
// "freecell/617", "spider/2suit/w/99".
type Spec struct {
	Game     string // klondike, freecell, spider, tripeaks, pyramid
	Variant  string // draw1 | draw3 ; 1suit | 2suit | 4suit ; "" where the game has none
	Winnable bool   // the seed came from the pool of solver-won deals
	Seed     uint64 // a shuffle seed, or the deal number for FreeCell
}

func (s Spec) String() string {
	parts := []string{s.Game}
	if s.Variant != "" {
		parts = append(parts, s.Variant)
	}
	if s.Winnable {
		parts = append(parts, "w")
	}
	parts = append(parts, strconv.FormatUint(s.Seed, 10))
	return strings.Join(parts, "/")
}

// Key is the spec without its seed: the "game and settings" that a daily
// deal, a leaderboard or a stats line is kept for.
func (s Spec) Key() string {
	if s.Variant == "" {
		return s.Game
	}
	return s.Game + "/" + s.Variant
}

// ParseSpec reads the form String writes.
func ParseSpec(text string) (Spec, error) {
	parts := strings.Split(strings.TrimSpace(text), "/")
	if len(parts) < 2 || len(parts) > 4 {
		return Spec{}, fmt.Errorf("deal %q: want game[/variant][/w]/seed", text)
	}
	var s Spec
	s.Game = parts[0]
	seed, err := strconv.ParseUint(parts[len(parts)-1], 10, 64)
	if err != nil {
		return Spec{}, fmt.Errorf("deal %q: the seed must be a whole number", text)
	}
	s.Seed = seed
	for _, p := range parts[1 : len(parts)-1] {
		if p == "w" {
			s.Winnable = true
		} else if s.Variant == "" {
			s.Variant = p
		} else {
			return Spec{}, fmt.Errorf("deal %q: two variants", text)
		}
	}
	return s, nil
}
