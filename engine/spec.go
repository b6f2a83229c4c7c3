package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Spec names a deal everywhere: daily deals, races, tables, saves, replays,
// leaderboards and the command line. Its text form is
// "game[/variant][/settings][/w]/seed", for example "klondike/draw3/w/1234",
// "freecell/617", "spider/2suit/w/99", "spite/centres=3,payoff=13/42".
type Spec struct {
	Game     string // klondike, freecell, spider, tripeaks, pyramid, spite, kings
	Variant  string // draw1 | draw3 ; 1suit | 2suit | 4suit ; "" where the game has none
	Winnable bool   // the seed came from the pool of solver-won deals
	// Settings is the canonical settings part: key=value pairs sorted by key,
	// joined by commas, defaults left out (see CanonicalSettings). It is a
	// string, not a map, so that a Spec stays comparable with == and one
	// deal has exactly one text form.
	Settings string
	Seed     uint64 // a shuffle seed, or the deal number for FreeCell
}

func (s Spec) String() string {
	parts := []string{s.Key()}
	if s.Winnable {
		parts = append(parts, "w")
	}
	parts = append(parts, strconv.FormatUint(s.Seed, 10))
	return strings.Join(parts, "/")
}

// Key is the spec without its seed: the "game and settings" that a daily
// deal, a leaderboard or a stats line is kept for.
func (s Spec) Key() string {
	k := s.Game
	if s.Variant != "" {
		k += "/" + s.Variant
	}
	if s.Settings != "" {
		k += "/" + s.Settings
	}
	return k
}

// Setting returns the value of one setting, or def when the spec leaves it
// at its default (or the settings part is malformed, which ParseSpec and
// CanonicalSettings never produce).
func (s Spec) Setting(key, def string) string {
	m, err := ParseSettings(s.Settings)
	if err != nil {
		return def
	}
	if v, ok := m[key]; ok {
		return v
	}
	return def
}

// ParseSpec reads the form String writes. Specs written before settings
// existed have no part with "=" and read as before.
func ParseSpec(text string) (Spec, error) {
	parts := strings.Split(strings.TrimSpace(text), "/")
	if len(parts) < 2 || len(parts) > 5 {
		return Spec{}, fmt.Errorf("deal %q: want game[/variant][/settings][/w]/seed", text)
	}
	var s Spec
	s.Game = parts[0]
	if !validWord(s.Game) {
		return Spec{}, fmt.Errorf("deal %q: %q is not a game name", text, s.Game)
	}
	seed, err := strconv.ParseUint(parts[len(parts)-1], 10, 64)
	if err != nil {
		return Spec{}, fmt.Errorf("deal %q: the seed must be a whole number", text)
	}
	s.Seed = seed
	for _, p := range parts[1 : len(parts)-1] {
		switch {
		case p == "w" && !s.Winnable:
			s.Winnable = true
		case strings.Contains(p, "="):
			if s.Settings != "" {
				return Spec{}, fmt.Errorf("deal %q: two settings parts", text)
			}
			m, err := ParseSettings(p)
			if err != nil {
				return Spec{}, fmt.Errorf("deal %q: %v", text, err)
			}
			s.Settings = CanonicalSettings(m, nil)
		case s.Variant == "" && s.Settings == "" && !s.Winnable && validWord(p):
			s.Variant = p
		default:
			return Spec{}, fmt.Errorf("deal %q: %q is out of place (want game[/variant][/settings][/w]/seed)", text, p)
		}
	}
	return s, nil
}

// ParseSettings reads "k=v,k=v". Keys and values are short words of
// letters, digits, '-', '_' and '.', so a settings part can never carry
// a separator of the spec or bytes a terminal would act on.
func ParseSettings(text string) (map[string]string, error) {
	m := map[string]string{}
	if text == "" {
		return m, nil
	}
	for _, kv := range strings.Split(text, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !validWord(k) || !validWord(v) {
			return nil, fmt.Errorf("setting %q: want key=value with letters, digits, '-', '_' or '.'", kv)
		}
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("setting %q is given twice", k)
		}
		m[k] = v
	}
	return m, nil
}

// CanonicalSettings writes settings in the one form a Spec holds: sorted by
// key, and without any pair whose value equals its default in defaults
// (nil defaults keep every pair).
func CanonicalSettings(m map[string]string, defaults map[string]string) string {
	keys := make([]string, 0, len(m))
	for k, v := range m {
		if d, ok := defaults[k]; ok && d == v {
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(m[k])
	}
	return b.String()
}

func validWord(w string) bool {
	if w == "" || len(w) > 32 {
		return false
	}
	for _, r := range w {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
		default:
			return false
		}
	}
	return true
}
