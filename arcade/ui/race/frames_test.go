package race

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
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
			compareFrames(t, filepath.Join("testdata", "frames", name+".txt.gz"), got)
		})
	}
}

var updateFrames = flag.Bool("update-frames", false, "rewrite testdata/frames/*.txt.gz from the code as it is")

var sameBytes = flag.Bool("same-bytes", false, "frames must also be the same bytes as testdata/frames, not only show the same")

// compareFrames compares frames with the golden file at path (or, with
// -update-frames, writes them there): they must show the same screens
// (and with -same-bytes be the same views, byte for byte).
func compareFrames(t *testing.T, path, got string) {
	t.Helper()
	if *updateFrames {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write([]byte(got))
		_ = zw.Close()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	want, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	// What a terminal shows, whether or not the views are the same bytes:
	// this also checks arcade/render's frames against the views drawn whole.
	sameScreens(t, string(want), got)
	if got == string(want) || !*sameBytes {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	step := ""
	for i := range max(len(g), len(w)) {
		gl, wl := "", ""
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if strings.HasPrefix(wl, "=== ") {
			step = wl
		}
		if gl != wl {
			t.Fatalf("frames differ at line %d (after %q):\n got %q\nwant %q", i+1, step, gl, wl)
		}
	}
}
