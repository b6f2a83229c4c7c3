package solitaire

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/format"
	"sshuffle/internal/uitest"
)

// frameGames are the games TestFramesAsBefore plays, with the deal each
// plays.
var frameGames = []struct {
	key   string
	seed  uint64
	daily bool
}{
	{"klondike/draw1", 11, false},
	{"klondike/draw3", 12, true},
	{"freecell", 13, false},
	{"spider/2suit", 14, false},
	{"spider/4suit", 15, false},
	{"tripeaks", 16, false},
	{"pyramid", 17, false},
}

// playFrames plays a game with a fixed sequence of keys, clicks, clock
// ticks, resizes, colour and charset changes and notices (drawn from a
// seeded source), and returns every frame the router draws, each after a
// line naming the step that led to it.
//
// check, if not nil, is called after each frame.
func playFrames(t *testing.T, key string, seed uint64, daily bool, check func(r *ui.Router, g *gameScreen, view string)) string {
	t.Helper()
	e, clk := uitest.Env(t)
	info, ok := games.Default().Entry(key)
	if !ok {
		t.Fatalf("no game %s", key)
	}
	s, err := dealSpec(e, info, info.Spec(seed))
	if err != nil {
		t.Fatal(err)
	}
	s.daily, s.day = daily, "2026-11-30"
	r := drive(s)
	r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	rnd := rand.New(rand.NewPCG(seed, 99))
	var out strings.Builder
	cur := func() *gameScreen {
		g, _ := r.Current().(*gameScreen)
		return g
	}
	frame := func(i int, what string) {
		fmt.Fprintf(&out, "=== %d %s\n", i, what)
		v := r.View().Content
		out.WriteString(v)
		out.WriteString("\n")
		if g := cur(); check != nil && g != nil {
			check(r, g, v)
		}
	}
	frame(0, "start")
	keys := []string{"left", "right", "up", "down", "h", "j", "k", "l", "space", "space", "enter", "f", ".", "d", "s", "u", "z",
		"w", "c", "a", "1", "2", "3", "4", "5", "0", "9", "t", "r", "n", "?"}
	sizes := [][2]int{{80, 24}, {100, 30}, {64, 16}, {120, 40}, {50, 12}, {81, 24}, {80, 25}, {200, 60}, {70, 20}}
	last := ""
	for i := 1; i <= 400; i++ {
		g := cur()
		if g == nil {
			t.Fatalf("step %d left the game for %T", i, r.Current())
		}
		var what string
		switch n := rnd.IntN(100); {
		case n < 18:
			clk.T = clk.T.Add(time.Duration(1+rnd.IntN(3)) * time.Second)
			what = "clock" // a clock turn is drawn with no message (ui.Ticking)
		case n < 20:
			clk.T = clk.T.Add(time.Duration(8+rnd.IntN(5)) * time.Minute)
			what = "clock minutes on"
		case n < 23:
			clk.T = clk.T.Add(time.Second)
			what = "clock moved, no tick"
		case n < 25:
			sz := sizes[rnd.IntN(len(sizes))]
			r.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			what = fmt.Sprintf("size %dx%d", sz[0], sz[1])
			if w, h := g.MinSize(); sz[0] < w || sz[1] < h {
				frame(i, what)
				r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
				what = "size 80x24"
			}
		case n < 26:
			w, _ := g.MinSize()
			sz := [2]int{max(w, headerEdge(g)+rnd.IntN(3)-1), 24}
			r.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			what = fmt.Sprintf("size %dx%d (the header's edge)", sz[0], sz[1])
		case n < 28:
			p := []colorprofile.Profile{colorprofile.Ascii, colorprofile.ANSI256, colorprofile.TrueColor, colorprofile.NoTTY}[rnd.IntN(4)]
			r.Update(tea.ColorProfileMsg{Profile: p})
			what = fmt.Sprintf("profile %v", p)
		case n < 29:
			e.Unicode = !e.Unicode
			what = fmt.Sprintf("unicode %v", e.Unicode)
		case n < 31:
			text := []string{"A friend is online.", "Ann invited you to a race of Klondike · Draw 1 with a rather long sentence that wraps onto a second line at eighty columns and more."}[rnd.IntN(2)]
			r.Update(ui.NoticeMsg{Notice: hub.Notice{Text: text}})
			what = "notice"
		case n < 38:
			x, y := rnd.IntN(e.Width), rnd.IntN(e.Height)
			r.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
			if rnd.IntN(2) == 0 {
				x, y = rnd.IntN(e.Width), rnd.IntN(e.Height)
			}
			r.Update(tea.MouseReleaseMsg{X: x, Y: y, Button: tea.MouseLeft})
			what = fmt.Sprintf("click %d,%d", x, y)
		case n < 40 && g.prompt == nil:
			r.Update(uitest.Key("#"))
			frame(i, "prompt")
			for range rnd.IntN(4) {
				r.Update(uitest.Key(fmt.Sprint(rnd.IntN(10))))
				frame(i, "prompt digit")
			}
			if rnd.IntN(2) == 0 {
				r.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
				frame(i, "prompt backspace")
			}
			r.Update(uitest.Key("esc"))
			what = "prompt esc"
		case n < 42 && g.sel.OK:
			r.Update(uitest.Key("esc"))
			what = "esc"
		case n < 60:
			what = playLegal(r, g, rnd)
		default:
			k := keys[rnd.IntN(len(keys))]
			// Keys that would leave this deal for another or the game
			// for another screen are pressed once only.
			if (k == "n" || k == "?") && last == "n" || k == "n" && g.g.Moves() == 0 {
				k = "left"
			}
			if k == "t" && g.info.Game.HintAside {
				k = "right"
			}
			if k == "?" {
				r.Update(uitest.Key("?"))
				frame(i, "help")
				k = "esc"
			}
			r.Update(uitest.Key(k))
			what = "key " + k
			last = k
			if k == "r" && cur() == g && g.msg != "" && rnd.IntN(2) == 0 {
				// A message at other widths: it wraps at 64.
				for _, w := range []int{64, 100, 64, 80} {
					frame(i, what)
					r.Update(tea.WindowSizeMsg{Width: w, Height: 24})
					what = fmt.Sprintf("size %dx24", w)
				}
			}
		}
		frame(i, what)
	}
	return out.String()
}

// TestFramesAsBefore plays every solitaire through a fixed sequence of
// moves, ticks, resizes and changes of colour and charset and compares
// every frame, byte for byte, with the frames the screen drew before its
// drawing kept anything between frames (testdata/frames, written by
// -update-frames from the code at that time).
func TestFramesAsBefore(t *testing.T) {
	for _, c := range frameGames {
		t.Run(strings.ReplaceAll(c.key, "/", "_"), func(t *testing.T) {
			got := playFrames(t, c.key, c.seed, c.daily, nil)
			uitest.CompareFrames(t, filepath.Join("testdata", "frames", strings.ReplaceAll(c.key, "/", "_")+".txt.gz"), got)
		})
	}
}

// playLegal makes a legal move of the game with the mouse, the way a
// player would: a click on the card, then one on the pile it goes to (the
// same card twice sends it home; the stock is tapped). It says what it did.
// after, if set, runs after each click (to draw the frame it makes).
func playLegal(r *ui.Router, g *gameScreen, rnd *rand.Rand, after ...func()) string {
	piles := g.g.Piles()
	var legal []engine.Action
	c, ok := g.replayed()()
	try := func(a engine.Action) {
		if ok && c.Do(a) == nil {
			legal = append(legal, a)
			c, ok = g.replayed()() // Do leaves a game as it was only when it refuses
		}
	}
	for from, p := range piles {
		for i := max(p.FaceDown, 0); i < len(p.Cards); i++ {
			try(engine.Action{Kind: engine.Auto, From: from, Index: i})
			for to := range piles {
				if to != from {
					try(engine.Action{Kind: engine.Move, From: from, Index: i, To: to})
				}
			}
		}
	}
	if len(legal) == 0 || rnd.IntN(6) == 0 {
		try(engine.Action{Kind: engine.Draw})
	}
	if len(legal) == 0 {
		return "no legal move"
	}
	a := legal[rnd.IntN(len(legal))]
	cell := func(pile, index int) (int, int, bool) {
		if g.canvas == nil {
			return 0, 0, false
		}
		for y := range g.canvas.Height() {
			for x := range g.canvas.Width() {
				if h := g.canvas.At(x, y); h.OK && h.Pile == pile && (h.Index == index || index == -2) {
					return x, y + g.boardTop, true
				}
			}
		}
		return 0, 0, false
	}
	click := func(x, y int) {
		r.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
		r.Update(tea.MouseReleaseMsg{X: x, Y: y, Button: tea.MouseLeft})
		for _, f := range after {
			f()
		}
	}
	switch a.Kind {
	case engine.Draw:
		for i, p := range piles {
			if p.Kind == engine.Stock {
				if x, y, ok := cell(i, -2); ok {
					click(x, y)
					return "legal draw"
				}
			}
		}
	case engine.Auto:
		if x, y, ok := cell(a.From, a.Index); ok {
			click(x, y)
			click(x, y)
			return fmt.Sprintf("legal auto %d/%d", a.From, a.Index)
		}
	case engine.Move:
		x, y, ok := cell(a.From, a.Index)
		x2, y2, ok2 := cell(a.To, -2)
		if ok && ok2 {
			click(x, y)
			click(x2, y2)
			return fmt.Sprintf("legal move %d/%d to %d", a.From, a.Index, a.To)
		}
	}
	return "legal move not on screen"
}

// headerEdge is the narrowest window whose header has room for "? help q
// menu" now: in one just as wide a longer clock or move count moves them
// to the bottom bar.
func headerEdge(g *gameScreen) int {
	head := g.info.Title()
	if g.daily {
		head += " today"
	}
	stats := fmt.Sprintf("Moves %d  Time %s  Hints %d", g.g.Moves(), format.Duration(g.elapsed()), ui.HintsPerGame-g.hints)
	if g.info.Game.Points {
		stats = fmt.Sprintf("Score %d  ", g.g.Score()) + stats
	}
	return lipgloss.Width(head+"  "+stats) + 2 + lipgloss.Width(ui.HelpBar(200, "?", "help", "q", "menu"))
}
