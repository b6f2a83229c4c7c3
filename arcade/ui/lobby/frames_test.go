package lobby

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
	"sshuffle/internal/uitest"
)

// lobbyScript is a lobby shown through a router for a fixed sequence of
// steps drawn from seed: tables opened, filled, started and closed under
// the list (as a busy server relists them), the cursor moved, the detail
// of a table, the form to open one, the bots to challenge, prompts,
// seats taken and given up, refusals, clicks, resizes and colour and
// charset changes.
type lobbyScript struct {
	t      *testing.T
	s      *Screen
	r      *ui.Router
	e      *ui.Env
	rnd    *rand.Rand
	tables []Table
	serial int
}

func newLobbyScript(t *testing.T, seed uint64) *lobbyScript {
	e := &ui.Env{
		Log: slog.New(slog.DiscardHandler), Now: (&uitest.Clock{T: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}).Now,
		Player: &ui.Player{ID: "k", Name: "ann"}, Unicode: true, Color: true, Width: 80, Height: 24, Idle: time.Hour,
	}
	req := &botsAsked{bots: []Bot{{ID: "b1", Name: "alpha"}, {ID: "b2", Name: "beta"}, {ID: "b3", Name: "gamma-the-long-named"}}}
	s := New(e, req, GamesOf(games.Default()), nil)
	ls := &lobbyScript{t: t, s: s, e: e, rnd: rand.New(rand.NewPCG(seed, 29))}
	ls.r = ui.NewRouter(e, build, s, "")
	ls.r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	return ls
}

var scriptNames = []string{"bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "a-rather-long-name20", "jo"}

// newTable is a table as a busy server would list it.
func (ls *lobbyScript) newTable() Table {
	rnd := ls.rnd
	ls.serial++
	code := fmt.Sprintf("T%04d", ls.serial)
	host := scriptNames[rnd.IntN(len(scriptNames))]
	t := Table{Code: code, Host: host}
	if rnd.IntN(2) == 0 {
		t.Game = kings.Name
		t.Seats = make([]Seat, 2+rnd.IntN(3))
		if rnd.IntN(3) == 0 {
			t.Settings = "draw=end"
		}
	} else {
		t.Game = spite.Name
		t.Seats = make([]Seat, 2)
		if rnd.IntN(3) == 0 {
			t.Settings = "payoff=13"
		}
	}
	t.Seats[0] = Seat{Name: host}
	if rnd.IntN(3) == 0 {
		t.Seats[0].Rating = fmt.Sprint(1400 + rnd.IntN(200))
		t.HostRating = t.Seats[0].Rating
	}
	for i := 1; i < len(t.Seats); i++ {
		switch rnd.IntN(4) {
		case 0:
			t.Seats[i] = Seat{Computer: true, Strength: []string{"easy", "normal", "hard"}[rnd.IntN(3)], Name: "Hopper"}
		case 1:
			t.Seats[i] = Seat{Reserved: scriptNames[rnd.IntN(len(scriptNames))]}
		}
	}
	t.Rated = rnd.IntN(4) == 0
	if rnd.IntN(4) == 0 {
		t.Pace = "quick"
	}
	return t
}

// relist changes the list as a server's relisting does, and pushes it.
func (ls *lobbyScript) relist() string {
	rnd := ls.rnd
	ts := slices.Clone(ls.tables)
	var what []string
	for range 1 + rnd.IntN(3) {
		switch n := rnd.IntN(10); {
		case n < 4 || len(ts) == 0:
			ts = append(ts, ls.newTable())
			what = append(what, "open")
		case n < 6:
			i := rnd.IntN(len(ts))
			ts = slices.Delete(ts, i, i+1)
			what = append(what, "close")
		case n < 8:
			i := rnd.IntN(len(ts))
			t := ts[i]
			t.Seats = slices.Clone(t.Seats)
			for j := range t.Seats {
				if t.Seats[j].Name == "" && !t.Seats[j].Computer {
					t.Seats[j] = Seat{Name: scriptNames[rnd.IntN(len(scriptNames))]}
					break
				}
			}
			ts[i] = t
			what = append(what, "sit")
		case n < 9:
			i := rnd.IntN(len(ts))
			ts[i].Playing = !ts[i].Playing
			what = append(what, "play")
		default:
			i := rnd.IntN(len(ts))
			ts[i].Watchers = rnd.IntN(4)
			what = append(what, "watch")
		}
	}
	ls.tables = ts
	ls.r.Update(Tables{List: slices.Clone(ts)})
	return "list " + strings.Join(what, ",")
}

// step does one thing of the script and says what.
func (ls *lobbyScript) step() string {
	rnd, r, s := ls.rnd, ls.r, ls.s
	switch n := rnd.IntN(100); {
	case n < 30:
		return ls.relist()
	case n < 34:
		sz := [][2]int{{80, 24}, {100, 30}, {120, 40}, {64, 20}, {81, 16}, {60, 16}, {72, 18}}[rnd.IntN(7)]
		r.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		return fmt.Sprintf("size %dx%d", sz[0], sz[1])
	case n < 36:
		p := []colorprofile.Profile{colorprofile.Ascii, colorprofile.ANSI256, colorprofile.TrueColor}[rnd.IntN(3)]
		r.Update(tea.ColorProfileMsg{Profile: p})
		return fmt.Sprintf("profile %v", p)
	case n < 37:
		ls.e.Unicode = !ls.e.Unicode
		return fmt.Sprintf("unicode %v", ls.e.Unicode)
	case n < 40:
		switch {
		case s.seated != nil && rnd.IntN(3) == 0:
			r.Update(Seated{})
			return "seated no more"
		case len(ls.tables) > 0:
			t := ls.tables[rnd.IntN(len(ls.tables))]
			host := rnd.IntN(2) == 0
			r.Update(Seated{Table: t, Seat: rnd.IntN(len(t.Seats)), Host: host})
			return fmt.Sprintf("seated at %s host %v", t.Code, host)
		}
		return "no table to sit at"
	case n < 42:
		r.Update(Refused{Text: []string{"That table is full.", "A table is on its way; wait for it.",
			"Nobody here is called someone-with-a-long-name; check the spelling and try again, or invite another."}[rnd.IntN(3)]})
		return "refused"
	case n < 43:
		r.Update(Invited{Name: "bob"})
		return "invited"
	case n < 48:
		y := rnd.IntN(ls.e.Height)
		r.Update(tea.MouseClickMsg{X: rnd.IntN(ls.e.Width), Y: y, Button: tea.MouseLeft})
		return fmt.Sprintf("click line %d", y)
	}
	var keys []string
	switch {
	case s.prompt != nil || s.invite != nil:
		keys = []string{"a", "b", "Q", "z", "1", "backspace", "backspace", "enter", "esc"}
	case s.form != nil:
		keys = []string{"up", "down", "down", "tab", "left", "right", "right", "space", "enter", "esc", "j", "k"}
	case s.pick != nil:
		keys = []string{"left", "right", "right", "enter", "esc"}
	default:
		keys = []string{"up", "down", "down", "j", "k", "enter", "w", "c", "#", "n", "o", "b", "s", "i", "x", "up", "down"}
	}
	k := keys[rnd.IntN(len(keys))]
	r.Update(uitest.Key(k))
	return "key " + k
}

// playLobbyFrames runs the script for steps and returns every frame, each
// after a line naming its step; check, when given, sees each.
func playLobbyFrames(t *testing.T, seed uint64, steps int, check func(ls *lobbyScript)) string {
	t.Helper()
	ls := newLobbyScript(t, seed)
	var out strings.Builder
	frame := func(i int, what string) {
		fmt.Fprintf(&out, "=== %d %s\n", i, what)
		out.WriteString(ls.r.View().Content)
		out.WriteString("\n")
		if check != nil {
			check(ls)
		}
	}
	frame(0, "start")
	for i := 1; i <= steps; i++ {
		frame(i, ls.step())
	}
	return out.String()
}

// TestLobbyFramesAsBefore: the lobby's frames as recorded, through tables
// coming and going, the detail, the form, the bots, prompts and resizes.
func TestLobbyFramesAsBefore(t *testing.T) {
	for _, seed := range []uint64{2} {
		name := fmt.Sprintf("lobby_%d", seed)
		t.Run(name, func(t *testing.T) {
			got := playLobbyFrames(t, seed, 300, nil)
			uitest.CompareFrames(t, filepath.Join("testdata", "frames", name+".txt.gz"), got)
		})
	}
}
