package race

import (
	"fmt"
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/render"
	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/internal/uitest"
)

// BenchmarkRaceFrame is a racer's frame in a race of Klondike at 80x24
// (the panel beside the board): the race clock's turn a second later (the
// view alone, as for a game), and a cursor key.
func BenchmarkRaceFrame(b *testing.B) {
	for _, step := range []string{"cursor", "clock"} {
		b.Run(step, func(b *testing.B) {
			s, _ := startedRace(b, "klondike/draw1")
			clk := &uitest.Clock{T: s.env.Now()}
			s.env.Now = clk.Now
			var pieces []string
			view := func() { pieces = s.ViewPieces(pieces[:0]) }
			view()
			uitest.FrameSteps(b, step == "clock", clk, func(m tea.Msg) { s.Update(m) }, view)
		})
	}
}

// BenchmarkOtherRacerMoved is what another racer's move costs a racer's
// screen in a race of Klondike at 80x24: the room's new state taken and
// the frame drawn (the panel beside the board changes). The room's fan-out
// is hub's BenchmarkFanout.
func BenchmarkOtherRacerMoved(b *testing.B) {
	for _, width := range []int{80, 40} {
		name := "beside"
		if width < 80 {
			name = "folded"
		}
		b.Run(name, func(b *testing.B) {
			e, clk, msgs := raceEnv(b)
			e.Width = width
			info, _ := games.Default().Entry("klondike/draw1")
			sc, err := Open(e, ui.Route{Page: ui.Race, Game: info, Spec: info.Spec(7)}, boards)
			if err != nil {
				b.Fatal(err)
			}
			s := sc.(*raceScreen)
			other, err := s.m.Race().Join(hub.Person{ID: "id-ann", Name: "ann"}, hub.Racer, func(hub.RaceState) {})
			if err != nil {
				b.Fatal(err)
			}
			until(b, s, msgs, func() bool { return s.have && len(s.st.Racers) == 2 })
			s.Update(tea.KeyPressMsg{Code: 's', Text: "s"})
			until(b, s, msgs, func() bool { return s.st.Phase == hub.Countdown })
			clk.Advance(3 * time.Second)
			until(b, s, msgs, func() bool { return s.st.Phase == hub.Running && s.game != nil })
			var pieces []string
			pieces = s.ViewPieces(pieces[:0])
			p := hub.Progress{Home: 0, Total: 52, Status: hub.Playing}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				p.Moves = i + 1
				if err := other.Report(p); err != nil {
					b.Fatal(err)
				}
				for v := s.st.Version; s.st.Version == v; {
					s.Update(<-msgs)
				}
				pieces = s.ViewPieces(pieces[:0])
			}
		})
	}
}

// BenchmarkRaceMove is what one move's frames cost the screens of a race
// of four at 80x24 (Klondike, the panel beside the board): racer 0 draws
// from the stock and its screen draws the key's frame, then the room's new
// state reaches all four screens and each draws its frame through
// arcade/render (the mover's panel, the others' panel). The frames alone
// are timed: the move, its report (a save that grows with every move
// here) and the room's fan-out are not. The frames' bytes go nowhere.
func BenchmarkRaceMove(b *testing.B) {
	e, clk, msgs := raceEnv(b)
	info, _ := games.Default().Entry("klondike/draw1")
	sc, err := Open(e, ui.Route{Page: ui.Race, Game: info, Spec: info.Spec(7)}, boards)
	if err != nil {
		b.Fatal(err)
	}
	type racer struct {
		s    *raceScreen
		msgs chan tea.Msg
		scr  *render.Screen
	}
	mover := &racer{s: sc.(*raceScreen), msgs: msgs}
	until(b, mover.s, msgs, func() bool { return mover.s.have })
	racers := []*racer{mover}
	for i := 1; i < 4; i++ {
		oe, _ := uitest.Env(b, uitest.Player(fmt.Sprintf("SHA256:racer%d", i), fmt.Sprintf("racer%d", i)))
		oe.Hub, oe.Done = e.Hub, e.Done
		om := make(chan tea.Msg, 64)
		oe.Prepare()
		oe.SetSend(func(m tea.Msg) { om <- m })
		osc, err := Open(oe, ui.Route{Page: ui.Race, Code: mover.s.st.Code}, boards)
		if err != nil {
			b.Fatal(err)
		}
		racers = append(racers, &racer{s: osc.(*raceScreen), msgs: om})
	}
	for _, r := range racers {
		until(b, r.s, r.msgs, func() bool { return r.s.have && len(r.s.st.Racers) == 4 })
	}
	mover.s.Update(tea.KeyPressMsg{Code: 's', Text: "s"})
	for _, r := range racers {
		until(b, r.s, r.msgs, func() bool { return r.s.st.Phase == hub.Countdown })
	}
	clk.Advance(3 * time.Second)
	for _, r := range racers {
		until(b, r.s, r.msgs, func() bool { return r.s.st.Phase == hub.Running && r.s.game != nil })
	}
	view := tea.View{AltScreen: true}
	var pieces []string
	draw := func(r *racer) {
		pieces = r.s.ViewPieces(pieces[:0])
		if err := r.scr.Send(r.scr.FramePieces(view, pieces)); err != nil {
			b.Fatal(err)
		}
		clear(pieces)
	}
	for _, r := range racers {
		r.scr = render.NewScreen(io.Discard, 80, 24, colorprofile.TrueColor)
		draw(r)
	}
	// settle takes the room's states until each screen shows the mover's
	// moves as the game has them.
	settle := func() {
		moves := mover.s.game.Game().Moves()
		for _, r := range racers {
			for {
				x := r.s.st.Racers[0]
				if x.ID == mover.s.st.You && x.Moves == moves {
					break
				}
				r.s.Update(<-r.msgs)
			}
		}
	}
	settle()
	for _, r := range racers {
		draw(r)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		mover.s.Update(tea.KeyPressMsg{Code: 'd', Text: "d"})
		b.StartTimer()
		draw(mover)
		b.StopTimer()
		settle()
		b.StartTimer()
		for _, r := range racers {
			draw(r)
		}
	}
}
