package solitaire

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/render"
	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/internal/uitest"
)

// BenchmarkGameFrame is one frame of each solitaire at 80x24 through the
// router, as a session has it: "cursor" a cursor key (right, then left),
// "clock" the game clock's turn a second later (only the clock changes),
// which the session draws with no message (ui.Ticking): the view alone;
// "notice" the same with a notice on the last line (it stays up until a
// key).
// It is the work each costs the server per session, before the renderer.
// The view is asked for in pieces, as arcade/render asks for it.
func BenchmarkGameFrame(b *testing.B) {
	for _, step := range []string{"cursor", "clock", "notice"} {
		for _, c := range []struct {
			name string
			key  string
		}{
			{"klondike", "klondike/draw1"}, {"freecell", "freecell"}, {"spider2", "spider/2suit"},
			{"tripeaks", "tripeaks"}, {"pyramid", "pyramid"},
		} {
			b.Run(step+"/"+c.name, func(b *testing.B) {
				e, clk := uitest.Env(b)
				info, ok := games.Default().Entry(c.key)
				if !ok {
					b.Fatalf("no game %s", c.key)
				}
				s, err := dealSpec(e, info, info.Spec(7))
				if err != nil {
					b.Fatal(err)
				}
				a := drive(s)
				a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
				if step == "notice" {
					a.Update(ui.NoticeMsg{Notice: hub.Notice{Text: "Ann is online."}})
				}
				// In pieces, as arcade/render asks the router for them.
				var pieces []string
				view := func() { _, pieces = a.ViewPieces(pieces[:0]) }
				view()
				uitest.FrameSteps(b, step != "cursor", clk, func(m tea.Msg) { a.Update(m) }, view)
			})
		}
	}
}

// BenchmarkMoveBytes plays legal card moves with the mouse (a click on the
// card, one where it goes; a card clicked twice goes home; the stock
// tapped) and reports what the terminal is sent, through arcade/render at
// 80x24 and 256 colours: for the frame that makes the move (the card leaves
// one pile for another, the move count turns), and for the whole move with
// its selection frame. The budget is 150 bytes a card move.
func BenchmarkMoveBytes(b *testing.B) {
	for _, key := range []string{"klondike/draw1", "freecell", "spider/2suit", "tripeaks", "pyramid"} {
		b.Run(strings.ReplaceAll(key, "/", "-"), func(b *testing.B) {
			e, _ := uitest.Env(b)
			info, ok := games.Default().Entry(key)
			if !ok {
				b.Fatalf("no game %s", key)
			}
			var last, whole []int
			for seed := 1; len(whole) < b.N; seed++ {
				s, err := dealSpec(e, info, info.Spec(uint64(seed)))
				if err != nil {
					b.Fatal(err)
				}
				r := drive(s)
				r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
				out := &countWriter{}
				scr := render.NewScreen(out, 80, 24, colorprofile.ANSI256)
				_ = scr.Draw(r.View())
				frame := 0
				draw := func() {
					before := out.n
					_ = scr.Draw(r.View())
					frame = out.n - before
				}
				rnd := rand.New(rand.NewPCG(uint64(seed), 1))
				for range 60 {
					out.n = 0
					what := playLegal(r, s, rnd, draw)
					if !strings.HasPrefix(what, "legal") || strings.Contains(what, "not on screen") {
						break
					}
					last, whole = append(last, frame), append(whole, out.n)
				}
			}
			for _, m := range []struct {
				name string
				v    []int
			}{{"move-frame", last}, {"whole-move", whole}} {
				slices.Sort(m.v)
				b.ReportMetric(float64(m.v[len(m.v)/2]), m.name+"-p50-bytes")
				b.ReportMetric(float64(m.v[len(m.v)*9/10]), m.name+"-p90-bytes")
			}
		})
	}
}

type countWriter struct{ n int }

func (w *countWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }
