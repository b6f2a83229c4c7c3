package solitaire

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/games"
)

// BenchmarkGameFrame is one frame of each solitaire at 80x24 through the
// router, as a session has it: "cursor" a cursor key (right, then left),
// "clock" the game clock's turn a second later (only the clock changes),
// which the session draws with no message (ui.Ticking): the view alone;
// "notice" the same with a notice on the last line (it stays up until a
// key).
// It is the work each costs the server per session, before the renderer.
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
				e, clk := testEnv(b)
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
				_ = a.View()
				right := tea.KeyPressMsg{Code: tea.KeyRight}
				left := tea.KeyPressMsg{Code: tea.KeyLeft}
				b.ReportAllocs()
				b.ResetTimer()
				for i := range b.N {
					switch {
					case step == "clock" || step == "notice":
						clk.t = clk.t.Add(time.Second) // a clock turn: the view alone (ui.Ticking)
					case i%2 == 0:
						a.Update(right)
					default:
						a.Update(left)
					}
					_ = a.View()
				}
			})
		}
	}
}

// BenchmarkRaceFrame is a racer's frame in a race of Klondike at 80x24
// (the panel beside the board): the race clock's turn a second later (the
// view alone, as for a game), and a cursor key.
func BenchmarkRaceFrame(b *testing.B) {
	for _, step := range []string{"cursor", "clock"} {
		b.Run(step, func(b *testing.B) {
			s, _ := startedRace(b, "klondike/draw1")
			clk := &fakeClock{t: s.env.Now()}
			s.env.Now = clk.now
			_ = s.View()
			right := tea.KeyPressMsg{Code: tea.KeyRight}
			left := tea.KeyPressMsg{Code: tea.KeyLeft}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				switch {
				case step == "clock":
					clk.t = clk.t.Add(time.Second) // a clock turn: the view alone (ui.Ticking)
				case i%2 == 0:
					s.Update(right)
				default:
					s.Update(left)
				}
				_ = s.View()
			}
		})
	}
}
