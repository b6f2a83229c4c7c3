package race

import (
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
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
