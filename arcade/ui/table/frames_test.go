package table

import (
	"path/filepath"
	"testing"

	"sshuffle/engine"
	"sshuffle/internal/uitest"
)

// tableScript is one recorded script: a game, its seats, and whose screen
// is recorded.
type tableScript struct {
	name     string
	game     string
	settings string
	seed     uint64
	names    []string
	people   []bool
	viewer   int // a seat, or engine.Spectator
}

var tableScripts = []tableScript{
	{"spite_seat1", "spite", "payoff=13", 5, []string{"ann", "bob"}, []bool{true, true}, 0},
	{"spite_seat2", "spite", "payoff=13", 6, []string{"ann", "bob"}, []bool{true, true}, 1},
	{"spite_watcher", "spite", "payoff=13", 7, []string{"ann", "bob"}, []bool{true, true}, engine.Spectator},
	{"kings_seat1", "kings", "", 5, []string{"ann", "Hopper", "bob", "Turing"}, []bool{true, false, true, false}, 0},
	{"kings_watcher", "kings", "match=25", 6, []string{"ann", "Hopper", "bob", "Turing"}, []bool{true, false, true, false}, engine.Spectator},
}

// playTableFrames plays sc and returns its viewer's frames.
func playTableFrames(t testing.TB, sc tableScript, check func(v *simView)) string {
	t.Helper()
	s := newSim(t, sc.game, sc.settings, sc.seed, sc.names, sc.people, []int{sc.viewer})
	s.check = check
	return s.frames(0, sc.seed, 220)
}

// TestTableFramesAsBefore is TestFramesAsBefore for the table screens: a
// Spite table from each seat and a watcher's place, a Kings table of two
// people and two computers from a seat and a watcher's place, through
// moves, keys, clock turns, notes, phrases, resizes and the match's end.
func TestTableFramesAsBefore(t *testing.T) {
	for _, sc := range tableScripts {
		t.Run(sc.name, func(t *testing.T) {
			got := playTableFrames(t, sc, nil)
			uitest.CompareFrames(t, filepath.Join("testdata", "frames", sc.name+".txt.gz"), got)
		})
	}
}
