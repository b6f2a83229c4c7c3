package replay

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"sshuffle/arcade/ui"
	"sshuffle/internal/format"
	"sshuffle/store"
)

// raceTape replays a race's panel: each racer's cards home and moves as
// the race went, from the timelines the racers' results keep (one point
// a move, at its time), and the places once it is over. Racers' boards
// are not kept with a race, so no board is drawn; a ghost's timeline is
// its own earlier result's, not kept with the race either, so a ghost
// shows only its end.
type raceTape struct {
	e      *ui.Env
	race   store.RaceRecord
	racers []racerLine
	times  []time.Duration // the moments that change the panel, in order
	me     string
}

type racerLine struct {
	x     store.RaceRacer
	steps []store.Step
}

func newRaceTape(e *ui.Env, g store.HistoryEntry) *raceTape {
	t := &raceTape{e: e, race: *g.Race, me: e.Player.ID}
	for _, x := range g.Race.Racers {
		l := racerLine{x: x}
		for _, r := range g.Racers {
			if r.Account == x.Account && !x.Ghost {
				l.steps = r.Timeline
			}
		}
		for _, st := range l.steps {
			t.times = append(t.times, st.At)
		}
		t.racers = append(t.racers, l)
	}
	slices.Sort(t.times)
	t.times = slices.Compact(t.times)
	return t
}

func (t *raceTape) steps() int { return len(t.times) + 1 }

// at: the last step is the race's end, at the race's length.
func (t *raceTape) at(i int) (time.Duration, bool) {
	switch {
	case i >= 1 && i <= len(t.times):
		return t.times[i-1], true
	case i == len(t.times)+1:
		return t.race.Finished.Sub(t.race.Started), true
	}
	return 0, false
}

func (t *raceTape) body(i int) []string {
	over := i > len(t.times)
	var now time.Duration
	if i >= 1 && !over {
		now = t.times[i-1]
	}
	lines := []string{"", fmt.Sprintf("  Race %s on %s", t.race.Code, t.race.Spec), ""}
	if over {
		lines = append(lines, "  Finished:")
	} else {
		lines = append(lines, "  At "+format.Duration(now)+":")
	}
	barW := 30
	for n, l := range t.racers {
		home, moves, total := 0, 0, max(l.x.Total, 1)
		for _, st := range l.steps {
			if st.At <= now {
				home, moves = st.Home, st.Moves
			}
		}
		status := ""
		if over || len(l.steps) == 0 {
			home, moves = l.x.Home, l.x.Moves
			status = l.x.Status
			if l.x.Place > 0 {
				status = format.Ordinal(l.x.Place) + ", " + format.Duration(l.x.Time)
			}
		}
		name := format.Clean(l.x.Name, 16)
		if l.x.Ghost {
			name += " (ghost)"
		}
		if l.x.Account == t.me && !l.x.Ghost {
			name += " (you)"
		}
		fill := min(home*barW/total, barW)
		bar := strings.Repeat("#", fill) + strings.Repeat(".", barW-fill)
		if t.e.Unicode {
			bar = strings.Repeat("█", fill) + strings.Repeat("·", barW-fill)
		}
		lines = append(lines, fitWidth(fmt.Sprintf("  %d %-24s %s %2d/%-2d %4d moves  %s", n+1, name, bar, home, l.x.Total, moves, status), t.e.Width))
	}
	lines = append(lines, "", ui.FaintStyle.Render(fitWidth("  A race keeps each racer's progress, not their boards: the bars are cards home.", t.e.Width)))
	return lines
}

func (t *raceTape) keys() []string  { return nil }
func (t *raceTape) key(string) bool { return false }
