package race

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/internal/uitest"
)

// TestKeptRaceFramesAreFresh is TestKeptFramesAreFresh for a racer's
// screen.
func TestKeptRaceFramesAreFresh(t *testing.T) {
	for _, key := range []string{"klondike/draw1", "spider/2suit"} {
		t.Run(strings.ReplaceAll(key, "/", "_"), func(t *testing.T) {
			playRaceFrames(t, key, 31, func(s *raceScreen, _ string) {
				t.Helper()
				view := s.View()
				s.frame = raceParts{}
				if s.game != nil {
					s.game.Forget()
				}
				require.Equal(t, view, s.View(), "the frame drawn from what was kept differs from one drawn afresh")
			})
		})
	}
}

// TestKeptRaceFrameFollowsEveryInput is TestKeptFrameFollowsEveryInput for
// a racer's screen: the message, its kind and the width one at a time.
func TestKeptRaceFrameFollowsEveryInput(t *testing.T) {
	s, _ := startedRace(t, "klondike/draw1")
	e := s.env
	fresh := func(what string) {
		t.Helper()
		got := s.View()
		s.frame = raceParts{}
		s.game.Forget()
		require.Equal(t, s.View(), got, what)
	}
	fresh("start")
	for _, st := range []struct {
		what   string
		change func()
	}{
		{"a message too long for the line", func() {
			s.setMsg(ui.ToneWarn, "A message from the room that is rather longer than the line it is given, so that it is cut.")
		}},
		{"the same words, another kind", func() { s.kind = ui.ToneErr }},
		{"narrower", func() { e.Width = 64 }},
		{"wider", func() { e.Width = 120 }},
		{"no message", func() { s.msg = "" }},
		{"narrow again", func() { e.Width = 64 }},
		{"80 columns", func() { e.Width = 80 }},
	} {
		st.change()
		fresh(st.what)
	}
}

// A race's clock turn makes the lines that show the clock and keeps the
// others, the same strings; the pieces are the frame drawn whole.
func TestRaceFramePiecesKeepUnchangedLines(t *testing.T) {
	s, _ := startedRace(t, "klondike/draw1")
	clk := &uitest.Clock{T: s.env.Now()}
	s.env.Now = clk.Now
	before := s.ViewPieces(nil)
	require.Equal(t, s.env.Height, len(before), "a piece a line")
	require.Equal(t, s.View(), strings.Join(before, ""))
	clk.T = clk.T.Add(time.Second)
	after := s.ViewPieces(nil)
	require.Len(t, after, len(before))
	kept, changed := 0, 0
	for i := range after {
		switch {
		case unsafe.StringData(before[i]) == unsafe.StringData(after[i]):
			kept++
		case before[i] != after[i]:
			changed++
		default:
			t.Errorf("line %d is unchanged but was made again", i)
		}
	}
	require.Positive(t, changed, "the clock turned")
	require.LessOrEqual(t, changed, 3, "only the lines with the clock change")
	s.frame = raceParts{}
	s.game.Forget()
	require.Equal(t, s.View(), strings.Join(after, ""), "the pieces differ from a frame drawn afresh")
}

// Before the start a countdown's count changes one line: the others are
// the strings of the frame before.
func TestRaceCountdownKeepsUnchangedLines(t *testing.T) {
	e, clk, msgs := raceEnv(t)
	info, ok := games.Default().Entry("klondike/draw1")
	require.True(t, ok)
	sc, err := Open(e, ui.Route{Page: ui.Race, Game: info, Spec: info.Spec(7)}, boards)
	require.NoError(t, err)
	s := sc.(*raceScreen)
	until(t, s, msgs, func() bool { return s.have && s.st.Phase == hub.Lobby })
	s.Update(tea.KeyPressMsg{Code: 's', Text: "s"})
	until(t, s, msgs, func() bool { return s.st.Phase == hub.Countdown && s.st.Count == 3 })
	before := slices.Clone(s.ViewPieces(nil))
	require.Greater(t, len(before), 5, "a piece a line")
	clk.Advance(time.Second)
	until(t, s, msgs, func() bool { return s.st.Count == 2 })
	after := s.ViewPieces(nil)
	require.Len(t, after, len(before))
	changed := 0
	for i := range after {
		switch {
		case unsafe.StringData(before[i]) == unsafe.StringData(after[i]):
		case before[i] != after[i]:
			changed++
			require.Contains(t, after[i], "Starting in 2")
		default:
			t.Errorf("line %d is unchanged but was made again", i)
		}
	}
	require.Equal(t, 1, changed, "the count's line")
	require.Equal(t, s.lobbyView(), strings.Join(after, ""))
}

// Another racer's move changes their lines of the panel and nothing else:
// the other lines are the strings of the frame before, and the board's
// lines without the panel beside them are the board's own strings.
func TestOtherRacerMoveKeepsUnchangedLines(t *testing.T) {
	e, clk, msgs := raceEnv(t)
	info, ok := games.Default().Entry("klondike/draw1")
	require.True(t, ok)
	sc, err := Open(e, ui.Route{Page: ui.Race, Game: info, Spec: info.Spec(7)}, boards)
	require.NoError(t, err)
	s := sc.(*raceScreen)
	other, err := s.m.Race().Join(hub.Person{ID: "id-ann", Name: "ann"}, hub.Racer, func(hub.RaceState) {})
	require.NoError(t, err)
	until(t, s, msgs, func() bool { return s.have && len(s.st.Racers) == 2 })
	s.Update(tea.KeyPressMsg{Code: 's', Text: "s"})
	until(t, s, msgs, func() bool { return s.st.Phase == hub.Countdown })
	clk.Advance(3 * time.Second)
	until(t, s, msgs, func() bool { return s.st.Phase == hub.Running && s.game != nil })
	until(t, s, msgs, func() bool { me, ok := s.me(); return ok && me.Total > 0 })
	p := hub.Progress{Home: 0, Total: 52, Status: hub.Playing}
	ann := func() hub.Standing {
		for _, x := range s.st.Racers {
			if x.ID == "id-ann" {
				return x
			}
		}
		return hub.Standing{}
	}
	require.NoError(t, other.Report(p))
	until(t, s, msgs, func() bool { return ann().Total == 52 })
	for moves := 1; moves <= 3; moves++ {
		before := slices.Clone(s.ViewPieces(nil))
		p.Moves = moves
		require.NoError(t, other.Report(p))
		until(t, s, msgs, func() bool { return ann().Moves == moves })
		after := s.ViewPieces(nil)
		require.Len(t, after, len(before))
		changed := 0
		for i := range after {
			switch {
			case unsafe.StringData(before[i]) == unsafe.StringData(after[i]):
			case before[i] != after[i]:
				changed++
				require.Contains(t, after[i], fmt.Sprintf("%dm", moves), "line %d", i)
			default:
				t.Errorf("line %d is unchanged but was made again", i)
			}
		}
		require.Equal(t, 1, changed, "ann's standing")
		rest := s.game.RestLines()
		for i := 1 + 2 + 2*len(s.st.Racers); i < len(rest)-2; i++ {
			require.Equal(t, unsafe.StringData(rest[i]), unsafe.StringData(after[1+i]), "board line %d is the board's own", i)
		}
		s.frame = raceParts{}
		s.game.Forget()
		require.Equal(t, s.View(), strings.Join(after, ""), "the pieces differ from a frame drawn afresh")
	}
}
