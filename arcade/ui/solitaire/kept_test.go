package solitaire

import (
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/board"
	"sshuffle/internal/uitest"
)

// TestKeptFramesAreFresh plays the games of TestFramesAsBefore and after
// every frame draws it again with nothing kept: the two must be equal.
func TestKeptFramesAreFresh(t *testing.T) {
	for _, c := range frameGames {
		t.Run(strings.ReplaceAll(c.key, "/", "_"), func(t *testing.T) {
			playFrames(t, c.key, c.seed, c.daily, func(r *ui.Router, g *gameScreen, view string) {
				t.Helper()
				g.forget()
				require.Equal(t, view, r.View().Content, "the frame drawn from what was kept differs from one drawn afresh")
			})
		})
	}
}

// TestKeptFrameFollowsEveryInput changes each thing the lines under the
// header are drawn from, one at a time, and checks each frame against
// one drawn afresh: a part kept past a change would show the old one.
func TestKeptFrameFollowsEveryInput(t *testing.T) {
	e, clk := uitest.Env(t)
	s, err := dealSpec(e, klondikeInfo(), klondikeInfo().Spec(5))
	require.NoError(t, err)
	fresh := func(what string) {
		t.Helper()
		got := s.View()
		s.forget()
		require.Equal(t, s.View(), got, what)
	}
	fresh("start")
	steps := []struct {
		what   string
		change func()
	}{
		{"a message", func() { s.setMsg(ui.ToneWarn, "Same words") }},
		{"the same words, another kind", func() { s.setMsg(ui.ToneErr, "Same words") }},
		{"no colour", func() { e.Color = false }},
		{"the words gone, the error's kind kept", func() { s.msg = "" }},
		{"colour again", func() { e.Color = true }},
		{"a long message", func() {
			s.setMsg(ui.ToneOK, "A rather long message that takes more than one line at eighty columns, and a third at sixty four or so.")
		}},
		{"narrower", func() { e.Width = 64 }},
		{"shorter", func() { e.Height = 16 }},
		{"back", func() { e.Width, e.Height = 80, 24 }},
		{"a held card", func() { s.msg = ""; s.sel = s.cursor }},
		{"cursor moved", func() { s.cursor = board.Hit{Pile: s.cursor.Pile + 1, Index: 0, OK: true} }},
		{"no cursor", func() { s.cursor = board.Hit{} }},
		{"put back", func() { s.sel = board.Hit{} }},
		{"ASCII", func() { e.Unicode = false }},
		{"Unicode", func() { e.Unicode = true }},
		{"a race's panel", func() { s.reserve = 25 }},
		{"no panel", func() { s.reserve = 0 }},
		{"a prompt", func() { p := ""; s.prompt = &p }},
		{"a digit in it", func() { *s.prompt = "4" }},
		{"another", func() { *s.prompt = "42" }},
		{"prompt gone", func() { s.prompt = nil }},
		{"a hint used", func() { s.hints++ }},
		{"9:59 on the clock", func() { clk.T = clk.T.Add(9*time.Minute + 59*time.Second) }},
		{"just wide enough for the header", func() { e.Width = headerEdge(s) }},
		{"10:00: the header's keys go to the bottom bar", func() { clk.T = clk.T.Add(time.Second) }},
		{"wider again", func() { e.Width = headerEdge(s) }},
		{"an hour on", func() { clk.T = clk.T.Add(time.Hour) }},
	}
	for _, st := range steps {
		st.change()
		fresh(st.what)
	}
}

// A clock turn hands arcade/render the lines it kept, the same strings,
// and a new header; a cursor key makes only the lines it changed. No
// string of the whole screen is made for one cell.
func TestFramePiecesKeepUnchangedLines(t *testing.T) {
	e, clk := uitest.Env(t)
	s, err := dealSpec(e, klondikeInfo(), klondikeInfo().Spec(5))
	require.NoError(t, err)
	joined := func(p []string) string { return strings.Join(p, "") }
	fresh := func(p []string, what string) {
		t.Helper()
		s.forget()
		require.Equal(t, s.View(), joined(p), "%s: the pieces differ from a frame drawn afresh", what)
	}
	before := s.ViewPieces(nil)
	require.Equal(t, e.Height, len(before), "a header and a piece for each line under it")
	for _, p := range before[1:] {
		require.True(t, strings.HasPrefix(p, "\n") && strings.Count(p, "\n") == 1, "one line a piece: %q", p)
	}
	require.Equal(t, s.View(), joined(before))

	clk.T = clk.T.Add(time.Second)
	after := s.ViewPieces(nil)
	require.NotEqual(t, before[0], after[0], "the header shows the clock")
	require.Len(t, after, len(before))
	for i := 1; i < len(after); i++ {
		require.Equal(t, unsafe.StringData(before[i]), unsafe.StringData(after[i]), "line %d was made again for a clock turn", i)
	}
	fresh(after, "a clock turn")

	before = s.ViewPieces(nil)
	s.Update(uitest.Key("right"))
	after = s.ViewPieces(nil)
	kept, changed := 0, 0
	for i := 1; i < len(after); i++ {
		if unsafe.StringData(before[i]) == unsafe.StringData(after[i]) {
			kept++
		} else if before[i] != after[i] {
			changed++
		} else {
			t.Errorf("line %d is unchanged but was made again", i)
		}
	}
	require.Positive(t, changed, "the cursor moved")
	require.Greater(t, kept, changed, "most lines are kept")
	fresh(after, "a cursor key")
}
