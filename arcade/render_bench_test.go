package arcade

import (
	"bytes"
	"io"
	"log/slog"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"

	"sshuffle/arcade/deals"
	"sshuffle/arcade/render"
	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/store/badger"
)

// benchClock is a clock the benchmarks move by hand.
type benchClock struct{ t time.Time }

func (c *benchClock) now() time.Time { return c.t }

// nothingMsg reaches every screen and changes nothing: with the clock
// moved a second it stands for the game's clock tick (whose message is the
// screen's own), without it for a tick that changes nothing.
type nothingMsg struct{}

// klondikeRouter is a session's router inside a Klondike game at 80x24.
func klondikeRouter(b testing.TB) (*ui.Router, *benchClock) {
	st, err := badger.OpenInMemory()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = st.Close() })
	clk := &benchClock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	log := slog.New(slog.DiscardHandler)
	e := &ui.Env{
		Games: games.Default(), Store: st, Pools: deals.NewPools(games.Default(), log), Log: log, Now: clk.now,
		Player: &ui.Player{Name: "guest", Guest: true}, Unicode: true, Color: true, Width: 80, Height: 24,
		Idle: 30 * time.Minute,
	}
	// The menu and a solitaire need nothing of the server but its builder.
	srv := &Server{}
	first, err := srv.build(e, ui.Route{Page: ui.Menu})
	if err != nil {
		b.Fatal(err)
	}
	r := ui.NewRouter(e, srv.build, first, "")
	r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.Update(tea.ColorProfileMsg{Profile: colorprofile.ANSI256})
	r.Update(tea.KeyPressMsg{Code: '1', Text: "1"}) // Klondike Draw 1
	if v := r.View(); !bytes.Contains([]byte(v.Content), []byte("Klondike")) {
		b.Fatalf("not in the game:\n%s", v.Content)
	}
	return r, clk
}

// bubbleTea does per frame what Bubble Tea v2.1.1's renderer does
// (cursed_renderer.go, flush): the view string parsed into a cell buffer
// cleared for it, diffed against the last frame by Ultraviolet and written
// out; an unchanged view stops at the comparison. It runs on Bubble Tea's
// 60 Hz ticker, so an idle session pays for the unchanged case 60 times a
// second.
type bubbleTea struct {
	out  bytes.Buffer
	scr  *uv.TerminalRenderer
	buf  uv.ScreenBuffer
	last *tea.View
}

func newBubbleTea(w, h int) *bubbleTea {
	t := &bubbleTea{buf: uv.NewScreenBuffer(w, h)}
	t.scr = uv.NewTerminalRenderer(&t.out, []string{"TERM=xterm-256color"})
	t.scr.SetColorProfile(colorprofile.ANSI256)
	t.scr.SetFullscreen(true)
	t.scr.SetRelativeCursor(false)
	t.scr.SetTabStops(-1)
	t.scr.SetMapNewline(true)
	t.scr.Erase()
	return t
}

func (t *bubbleTea) flush(v tea.View) int {
	content := uv.NewStyledString(v.Content)
	if t.last != nil && t.last.Content == v.Content && t.last.AltScreen == v.AltScreen && t.last.MouseMode == v.MouseMode {
		return 0
	}
	t.buf.Clear()
	content.Draw(t.buf, t.buf.Bounds())
	t.scr.Render(t.buf.RenderBuffer)
	_ = t.scr.Flush()
	n := t.out.Len()
	t.out.Reset()
	t.last = &v
	return n
}

type counter struct{ n int64 }

func (c *counter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// BenchmarkFrame is one frame of a Klondike session at 80x24 (256
// colours): the router's Update and View, then the renderer. "clock" is
// the game clock's tick (one cell changes), "cursor" a cursor key (two
// cards and nothing else), "unchanged" a tick that changes nothing (for
// Bubble Tea, also each of the 59 other frame ticks of an idle second).
// bytes/op is what the terminal is sent. A clock turn through Bubble Tea
// is a tick message's Update and the view; arcade/render draws the view
// with no Update (render.Clocked), so its clock case has none.
func BenchmarkFrame(b *testing.B) {
	right, left := tea.KeyPressMsg{Code: tea.KeyRight}, tea.KeyPressMsg{Code: tea.KeyLeft}
	cases := []struct {
		name string
		step func(r *ui.Router, clk *benchClock, i int)
	}{
		{"clock", func(_ *ui.Router, clk *benchClock, _ int) { clk.t = clk.t.Add(time.Second) }},
		{"cursor", func(r *ui.Router, _ *benchClock, i int) {
			if i%2 == 0 {
				r.Update(right)
			} else {
				r.Update(left)
			}
		}},
		{"unchanged", func(r *ui.Router, _ *benchClock, _ int) { r.Update(nothingMsg{}) }},
		// An idle frame tick: no Update, the last view drawn again. Bubble
		// Tea pays it 60 times a second per session; arcade/render has no
		// ticker (this is what a redundant Draw would cost).
		{"tick", nil},
	}
	for _, c := range cases {
		b.Run(c.name+"/bubbletea", func(b *testing.B) {
			r, clk := klondikeRouter(b)
			bt := newBubbleTea(80, 24)
			v := r.View()
			bt.flush(v)
			var sent int
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if c.step == nil {
					sent += bt.flush(v)
					continue
				}
				c.step(r, clk, i)
				if c.name == "clock" {
					r.Update(nothingMsg{}) // the tick message
				}
				sent += bt.flush(r.View())
			}
			b.ReportMetric(float64(sent)/float64(b.N), "bytes/op")
		})
		b.Run(c.name+"/render", func(b *testing.B) {
			r, clk := klondikeRouter(b)
			out := &counter{}
			scr := render.NewScreen(out, 80, 24, colorprofile.ANSI256)
			// As render.Model draws the router: in pieces.
			var pieces []string
			draw := func() {
				var v tea.View
				v, pieces = r.ViewPieces(pieces[:0])
				_ = scr.Send(scr.FramePieces(v, pieces))
			}
			draw()
			out.n = 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if c.step == nil {
					draw()
					continue
				}
				c.step(r, clk, i)
				draw()
			}
			b.ReportMetric(float64(out.n)/float64(b.N), "bytes/op")
		})
	}
}

var _ io.Writer = (*counter)(nil)
