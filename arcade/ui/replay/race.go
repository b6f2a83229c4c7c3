package replay

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/board"
	"sshuffle/internal/format"
	"sshuffle/store"
)

// raceTape replays a race: the chosen racer's board (tab goes round the
// racers) beside the race's panel, each racer's cards home and moves as
// the race went. Both come from the racers' stored results: the timeline
// (one point a move, at its time) for the panel, the moves for the
// board. A board at a moment is the racer's final moves up to the count
// they had made then, so a move they undid later is not shown; a ghost
// (an earlier run, with no moves kept in the race) and a game finished
// before history was kept show their deal only, and a ghost's line only
// its end.
type raceTape struct {
	e      *ui.Env
	race   store.RaceRecord
	racers []racerLine
	times  []time.Duration // the moments that change the panel, in order
	me     string
	chosen int
}

// panelWidth is the race panel's width at the right of the board.
const panelWidth = 26

type racerLine struct {
	x     store.RaceRacer
	steps []store.Step
	board *solitaireTape // nil: no moves kept
}

func newRaceTape(e *ui.Env, g store.HistoryEntry) *raceTape {
	t := &raceTape{e: e, race: *g.Race, me: e.Player.ID, chosen: -1}
	for i, x := range g.Race.Racers {
		l := racerLine{x: x}
		for _, r := range g.Racers {
			if r.Account == x.Account && !x.Ghost {
				l.steps = r.Timeline
				if len(r.Actions) > 0 {
					if b, err := newSolitaireTape(e, r); err == nil {
						l.board = b
					}
				}
			}
		}
		for _, st := range l.steps {
			t.times = append(t.times, st.At)
		}
		if l.board != nil && (t.chosen < 0 || x.Account == t.me) {
			t.chosen = i
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

// state is a racer's cards home and moves at position i.
func (t *raceTape) state(l racerLine, i int) (home, moves int, status string) {
	if i > len(t.times) || len(l.steps) == 0 {
		status = l.x.Status
		if l.x.Place > 0 {
			status = format.Ordinal(l.x.Place) + " " + format.Duration(l.x.Time)
		}
		if i > len(t.times) || l.x.Ghost {
			return l.x.Home, l.x.Moves, status
		}
		return 0, 0, ""
	}
	var now time.Duration
	if i >= 1 {
		now = t.times[i-1]
	}
	for _, st := range l.steps {
		if st.At <= now {
			home, moves = st.Home, st.Moves
		}
	}
	return home, moves, ""
}

func (t *raceTape) panel(i int) []string {
	e := t.e
	clock := "end"
	if d, ok := t.at(i); ok && i > 0 && i <= len(t.times) {
		clock = format.Duration(d)
	} else if i == 0 {
		clock = "0:00"
	}
	lines := []string{ui.TitleStyle.Render(fitWidth("Race "+t.race.Code+"  "+clock, panelWidth)), ""}
	barW := 8
	for n, l := range t.racers {
		home, moves, status := t.state(l, i)
		name := format.Clean(l.x.Name, 12)
		switch {
		case l.x.Ghost:
			name += " (ghost)"
		case l.x.Account == t.me:
			name += " (you)"
		}
		mark := " "
		if n == t.chosen {
			mark = ">"
		}
		lines = append(lines, fitWidth(fmt.Sprintf("%s%d %s", mark, n+1, name), panelWidth))
		total := max(l.x.Total, 1)
		fill := min(home*barW/total, barW)
		bar := strings.Repeat("#", fill) + strings.Repeat(".", barW-fill)
		if e.Unicode {
			bar = strings.Repeat("█", fill) + strings.Repeat("·", barW-fill)
		}
		line := fmt.Sprintf("  %s %d/%d", bar, home, l.x.Total)
		if status != "" {
			line += " " + status
		} else {
			line += fmt.Sprintf(" %dmv", moves)
		}
		lines = append(lines, fitWidth(line, panelWidth))
	}
	return lines
}

func (t *raceTape) body(i int) []string {
	e := t.e
	left := e.Width - panelWidth - 1
	rows := e.Height - 3
	var boardLines []string
	note := "A race keeps progress and moves, not what was undone: a board shows a racer's kept moves."
	if t.chosen >= 0 {
		l := t.racers[t.chosen]
		_, moves, _ := t.state(l, i)
		n := len(l.board.acts)
		if i <= len(t.times) {
			n = min(moves, n)
		}
		l.board.seek(n)
		piles := l.board.g.Piles()
		bw, _ := board.Size(piles)
		bv := board.View{Unicode: e.Unicode, Color: e.Color, OffsetX: max((left-bw)/2, 0)}
		c := bv.Render(piles, left, rows-1, nil)
		boardLines = splitLines(c.String(bv.Palette()))
		note = format.Clean(l.x.Name, 16) + "'s board"
		if l.board.bad > 0 && n >= l.board.bad {
			note += fmt.Sprintf(": move %d does not replay", l.board.bad)
		}
	} else {
		note = "No racer's moves were kept for this race: its panel only."
	}
	panel := t.panel(i)
	out := make([]string, 0, rows)
	for y := 0; y < rows-1; y++ {
		var l string
		if y < len(boardLines) {
			l = boardLines[y]
		}
		if y < len(panel) {
			l += strings.Repeat(" ", max(left-lipgloss.Width(l), 0)) + " " + panel[y]
		}
		out = append(out, l)
	}
	return append(out, ui.FaintStyle.Render(fitWidth(note, e.Width)))
}

func (t *raceTape) keys() []string {
	if t.choices() > 1 {
		return []string{"tab", "another racer"}
	}
	return nil
}

func (t *raceTape) choices() int {
	n := 0
	for _, l := range t.racers {
		if l.board != nil {
			n++
		}
	}
	return n
}

func (t *raceTape) key(k string) bool {
	if k != "tab" || t.choices() < 2 {
		return false
	}
	for d := 1; d < len(t.racers); d++ {
		j := (t.chosen + d) % len(t.racers)
		if t.racers[j].board != nil {
			t.chosen = j
			return true
		}
	}
	return false
}
