package render

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
	"github.com/stretchr/testify/require"
)

// The input is decoded as Ultraviolet's own reader decodes it.
func TestInputMatchesUltraviolet(t *testing.T) {
	require.NotNil(t, keyTable, "Ultraviolet's key table is read")
	inputs := []string{
		"a", "1", "q", " ", "\r", "\x7f", "\t", "\x03",
		"\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", "\x1bOA", "\x1b[1;5C", "\x1b[3~", "\x1b[H", "\x1b[F",
		"\x1b[<0;10;5M", "\x1b[<0;10;5m", "\x1b[<64;3;3M", "\x1b[<32;4;4M",
		"\x1b[200~hello\nworld\x1b[201~", "\x1b[27u", "\x1b[97;5u",
		"lhjk", "é", "♠", "\x1b[?2026;2$y", "\x1b[?1u",
	}
	for _, in := range inputs {
		want := uvEvents(t, in)
		got := ourEvents(t, in)
		require.Equal(t, fmt.Sprintf("%#v", want), fmt.Sprintf("%#v", got), "%q", in)
	}
}

func uvEvents(t *testing.T, in string) []uv.Event {
	t.Helper()
	tr := uv.NewTerminalReader(strings.NewReader(in), "xterm-256color")
	ch := make(chan uv.Event, 64)
	done := make(chan struct{})
	go func() { _ = tr.StreamEvents(context.Background(), ch); close(done) }()
	var out []uv.Event
	timeout := time.After(time.Second)
	for {
		select {
		case ev := <-ch:
			out = append(out, ev)
		case <-done:
			for {
				select {
				case ev := <-ch:
					out = append(out, ev)
				default:
					return out
				}
			}
		case <-timeout:
			return out
		}
	}
}

func ourEvents(t *testing.T, in string) []uv.Event {
	t.Helper()
	var mu sync.Mutex
	var out []uv.Event
	require.NoError(t, ReadInput(strings.NewReader(in), func(m tea.Msg) {
		mu.Lock()
		out = append(out, m)
		mu.Unlock()
	}, nil))
	mu.Lock()
	defer mu.Unlock()
	return out
}

// A lone escape is a key once nothing follows it for a moment.
func TestLoneEscapeIsAKey(t *testing.T) {
	r, w := io.Pipe()
	got := make(chan tea.Msg, 4)
	go func() { _ = ReadInput(r, func(m tea.Msg) { got <- m }, nil) }()
	_, _ = w.Write([]byte("\x1b"))
	select {
	case m := <-got:
		require.Equal(t, "esc", m.(uv.KeyPressEvent).String())
	case <-time.After(2 * time.Second):
		t.Fatal("no key for a lone escape")
	}
	_ = w.Close()
}

// Whatever sequence of views is drawn, the terminal ends up showing the
// last one: every cell's text and style, at each colour profile.
func TestScreenShowsTheLastView(t *testing.T) {
	styles := []lipgloss.Style{
		lipgloss.NewStyle(),
		lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#5fd7ff")),
		lipgloss.NewStyle().Background(lipgloss.Color("#eeeeee")).Foreground(lipgloss.Color("#d70000")),
		lipgloss.NewStyle().Background(lipgloss.Color("#ffd700")).Foreground(lipgloss.Color("#000000")).Bold(true),
		lipgloss.NewStyle().Faint(true),
		lipgloss.NewStyle().Reverse(true),
		lipgloss.NewStyle().Underline(true),
	}
	words := []string{"K♠", " 10♥ ", "░░░░░", "[   ]", "Moves 12", "Time 1:05", "a", "  ", "←↓↑→", "漢字", "e\u0301"}
	rng := rand.New(rand.NewPCG(1, 2))
	view := func(w, h int) string {
		lines := make([]string, 0, h)
		for range rng.IntN(h + 1) {
			var sb strings.Builder
			for range rng.IntN(8) {
				sb.WriteString(styles[rng.IntN(len(styles))].Render(words[rng.IntN(len(words))]))
			}
			lines = append(lines, sb.String())
		}
		return strings.Join(lines, "\n")
	}
	for _, profile := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI, colorprofile.Ascii} {
		t.Run(profile.String(), func(t *testing.T) {
			w, h := 40, 10
			emu := vt.NewEmulator(w, h)
			go func() { _, _ = io.Copy(io.Discard, emu) }() // its replies to queries
			scr := NewScreen(emu, w, h, profile)
			for i := range 200 {
				if i%50 == 49 {
					w, h = 30+rng.IntN(30), 5+rng.IntN(10)
					emu.Resize(w, h)
					scr.Resize(w, h)
				}
				content := view(w, h)
				v := tea.NewView(content)
				v.AltScreen = true
				require.NoError(t, scr.Draw(v))
				want := uv.NewScreenBuffer(w, h)
				uv.NewStyledString(content).Draw(want, want.Bounds())
				for y := range h {
					for x := range w {
						wc, gc := want.CellAt(x, y), emu.CellAt(x, y)
						wantText, gotText := " ", " "
						var wantSt, gotSt uv.Style
						if wc != nil && wc.Content != "" {
							wantText, wantSt = wc.Content, uv.ConvertStyle(wc.Style, profile)
						}
						if gc != nil && gc.Content != "" {
							gotText, gotSt = gc.Content, gc.Style
						}
						if wc != nil && wc.Width == 0 {
							continue // the second half of a wide character
						}
						require.Equal(t, wantText, gotText, "frame %d cell %d,%d\n%s", i, x, y, content)
						if wantText != " " || !wantSt.IsZero() {
							require.True(t, wantSt.Equal(&gotSt), "frame %d cell %d,%d: style %v, want %v", i, x, y, gotSt, wantSt)
						}
					}
				}
			}
		})
	}
}
