package lobby

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"sshuffle/games/kings"
	"sshuffle/games/spite"
	"sshuffle/internal/uitest"
)

// The longest names the lobby shows: 20 characters, the most a name may
// have.
const (
	longHost  = "Bartholomew_Fairfax1"
	longGuest = "Wilhelmina-Cavendish"
	longKept  = "Maximilian_Oberhaus9"
)

// manyTables are more tables than the list has lines, with the longest
// names and settings, watched.
func manyTables() []Table {
	var out []Table
	for i := range 14 {
		t := Table{Code: fmt.Sprintf("LONG%c", 'A'+i), Game: kings.Name, Settings: "draw=end,kingsAtOnce=true,match=25",
			Host: longHost, Watchers: 10 + i,
			Seats: []Seat{{Name: longHost}, {Computer: true, Strength: "normal"}, {Name: longGuest}, {Reserved: longKept}}}
		if i%2 == 1 {
			t.Game, t.Settings = spite.Name, "payoff=30,centres=3,kingAce=true,match=50"
			t.Seats, t.Playing = []Seat{{Name: longHost}, {Name: longGuest}}, true
		}
		out = append(out, t)
	}
	return out
}

func (g *rig) fit(state string, f uitest.Fit) {
	g.t.Helper()
	frame := g.frame()
	if os.Getenv("FIT_DUMP") != "" {
		fmt.Printf("=== %s\n%s\n", state, frame)
	}
	f.W, f.H = 80, 24
	f.Ellipses = append(f.Ellipses, "to watch…", "Opening the table…", "Starting…")
	if p := uitest.FitProblems(frame, f); len(p) > 0 {
		g.t.Errorf("%s:\n  %s\n%s", state, strings.Join(p, "\n  "), frame)
	}
}

// listKeys are the keys the list takes, as its bar names them.
var listKeys = []string{"↑↓", "enter", "w", "c", "n", "f", "q"}

func TestLobbyFits80x24(t *testing.T) {
	for _, color := range []bool{true, false} {
		g := newRig(t, color, manyTables())
		whole := []string{"LONGA", "Kings in the Corner", "seated 3/4", "host " + longHost}
		// The chosen table's detail: its settings and every seat.
		detail := []string{"Draw a card: end", "Kings must be played at once: yes", "Play: 25",
			"1 " + longHost, "2 computer (normal)", "3 " + longGuest, "4 kept for " + longKept, "10 watching."}
		g.fit("the list", uitest.Fit{Whole: whole, Wrapped: detail, Keys: listKeys})
		g.press("down")
		g.fit("a Spite table chosen", uitest.Fit{Whole: []string{"LONGB", "Spite and Malice", "playing", "host " + longHost},
			Wrapped: []string{"Pay-off pile: 30", "Centre stacks: 3", "A King may start a stack as an Ace: yes", "Match: 50",
				"1 " + longHost, "2 " + longGuest, "11 watching."}, Keys: listKeys})
		for range 20 {
			g.press("down")
		}
		g.fit("scrolled down the list", uitest.Fit{Keys: listKeys})
		g.press("up", "w")
		g.fit("joining to watch", uitest.Fit{Keys: listKeys})

		g.r.Update(Seated{Table: manyTables()[0], Seat: 0, Host: true})
		seatedKeys := append([]string{"s", "i", "x"}, listKeys...)
		g.fit("seated as the host", uitest.Fit{Wrapped: []string{"You sit in seat 1 at table LONGA (Kings in the Corner)."}, Keys: seatedKeys})
		g.press("i")
		for _, r := range longKept {
			g.press(string(r))
		}
		g.fit("typing an invitation", uitest.Fit{Whole: []string{longKept + "_"}, Keys: seatedKeys})
		g.press("esc", "s")
		g.fit("starting", uitest.Fit{Keys: seatedKeys})
		g.r.Update(Seated{Table: manyTables()[2], Seat: 2})
		g.fit("seated as a guest", uitest.Fit{Wrapped: []string{"Waiting for " + longHost + " to start;"}, Keys: append([]string{"i", "x"}, listKeys...)})
		g.r.Update(Refused{Text: "The table is full: " + longHost + " took the last seat while you were choosing it, so pick another table or open one."})
		g.fit("refused", uitest.Fit{Wrapped: []string{"so pick another table or open one."}})

		g.press("c", "l", "o", "n", "g", "a")
		g.fit("typing a code", uitest.Fit{Whole: []string{"LONGA_"}})
		g.press("esc")

		// The new-table form, for each game, with every seat a computer.
		formKeys := []string{"↑↓", "←→", "enter", "esc"}
		g.press("n")
		for range 4 {
			g.fit("the new-table form", uitest.Fit{Whole: []string{"Open a table"}, Keys: formKeys})
			g.press("right")
		}
		for range 12 {
			g.press("down", "right", "right")
		}
		g.fit("the new-table form, every line changed", uitest.Fit{Keys: formKeys})
		g.press("enter", "enter")
		g.fit("the new-table form, opening", uitest.Fit{Keys: formKeys})
		g.s.form = nil
		g.press("n", "right")
		for range g.s.form.lines() - 2 {
			g.press("down", "right", "right")
		}
		g.fit("the new-table form of Kings in the Corner, every line changed", uitest.Fit{Whole: []string{"Kings in the Corner"}, Keys: formKeys})
	}
}
