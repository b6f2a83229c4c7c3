package race

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"sshuffle/arcade/ui"
	"sshuffle/internal/uitest"
)

// playRaceFrames races a game alone with a fixed sequence of keys, legal
// moves, clock ticks, resizes and colour and charset changes, and returns
// every frame, each after a line naming its step. The room's code (drawn
// at random) is written CODE.
func playRaceFrames(t *testing.T, key string, seed uint64, check func(s *raceScreen, view string)) string {
	t.Helper()
	s, msgs := startedRace(t, key)
	clk := &uitest.Clock{T: s.env.Now()}
	s.env.Now = clk.Now
	e := s.env
	r := ui.NewRouter(e, build, s, "")
	r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	// settle takes what the room sends until it shows the player's own
	// progress as the game has it.
	settle := func() {
		until(t, s, msgs, func() bool {
			me, ok := s.me()
			return ok && s.game != nil && me.Moves == s.game.Game().Moves() && me.Home == s.game.Home()
		})
	}
	settle()
	rnd := rand.New(rand.NewPCG(seed, 7))
	var out strings.Builder
	frame := func(i int, what string) {
		fmt.Fprintf(&out, "=== %d %s\n", i, what)
		v := r.View().Content
		out.WriteString(strings.ReplaceAll(v, s.st.Code, "CODE"))
		out.WriteString("\n")
		if check != nil {
			check(s, v)
		}
	}
	frame(0, "start")
	keys := []string{"left", "right", "up", "down", "space", "f", "d", "u", "w", "a", "2", "5", "t", "n", "q", "r"}
	sizes := [][2]int{{80, 24}, {100, 30}, {120, 40}, {72, 24}, {81, 20}}
	for i := 1; i <= 250; i++ {
		var what string
		switch n := rnd.IntN(100); {
		case n < 25:
			clk.T = clk.T.Add(time.Duration(1+rnd.IntN(2)) * time.Second)
			what = "race clock" // drawn with no message (ui.Ticking)
		case n < 27:
			clk.T = clk.T.Add(9 * time.Minute)
			what = "race clock minutes on"
		case n < 31:
			sz := sizes[rnd.IntN(len(sizes))]
			r.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			what = fmt.Sprintf("size %dx%d", sz[0], sz[1])
		case n < 33:
			p := []colorprofile.Profile{colorprofile.Ascii, colorprofile.ANSI256, colorprofile.TrueColor}[rnd.IntN(3)]
			r.Update(tea.ColorProfileMsg{Profile: p})
			what = fmt.Sprintf("profile %v", p)
		case n < 34:
			e.Unicode = !e.Unicode
			what = fmt.Sprintf("unicode %v", e.Unicode)
		case n < 60:
			what = playLegal(r, s.game, rnd)
		default:
			k := keys[rnd.IntN(len(keys))]
			if k == "q" && s.confirm == "q" {
				k = "left" // a second q gives up the race
			}
			r.Update(uitest.Key(k))
			what = "key " + k
		}
		settle()
		frame(i, what)
	}
	return out.String()
}

// TestRaceFramesAsBefore is TestFramesAsBefore for a racer's screen: the
// board with the panel beside it (Klondike) or folded under it (Spider).
func TestRaceFramesAsBefore(t *testing.T) {
	for _, c := range []struct {
		key  string
		seed uint64
	}{{"klondike/draw1", 21}, {"spider/2suit", 22}} {
		name := "race_" + strings.ReplaceAll(c.key, "/", "_")
		t.Run(name, func(t *testing.T) {
			got := playRaceFrames(t, c.key, c.seed, nil)
			uitest.CompareFrames(t, filepath.Join("testdata", "frames", name+".txt.gz"), got)
		})
	}
}
