package render

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/stretchr/testify/require"
)

// A view in pieces is drawn byte for byte as the same content in one
// string, wherever the pieces are cut (mid-line, at a line's end, inside
// an escape sequence or a character, empty pieces) and whether a piece is
// last frame's string or a new one.
func TestPiecesDrawAsTheirContent(t *testing.T) {
	bold := lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#5fd7ff"))
	words := []string{"K♠", " 10♥ ", bold.Render("Moves 12"), "Time 1:05", "a", "  ", "漢字", "e\u0301", bold.Render("░")}
	rng := rand.New(rand.NewPCG(3, 4))
	line := func() string {
		var sb strings.Builder
		for range rng.IntN(7) {
			sb.WriteString(words[rng.IntN(len(words))])
		}
		return sb.String()
	}
	body := func(h int) string {
		var sb strings.Builder
		for range rng.IntN(h) {
			sb.WriteByte('\n')
			sb.WriteString(line())
		}
		return sb.String()
	}
	cut := func(content string) []string {
		var pieces []string
		for content != "" {
			n := rng.IntN(len(content) + 1)
			if rng.IntN(4) == 0 {
				n = 0 // an empty piece
			}
			pieces = append(pieces, content[:n])
			content = content[n:]
		}
		return pieces
	}
	var one, split bytes.Buffer
	w, h := 40, 12
	whole := NewScreen(&one, w, h, colorprofile.ANSI256)
	pieced := NewScreen(&split, w, h, colorprofile.ANSI256)
	rest := body(h)
	var last []string
	for i := range 400 {
		header := line()
		var pieces []string
		switch i % 4 {
		case 0: // a clock turn: a new header, the kept rest
			pieces = []string{header, rest}
		case 1: // the rest drawn anew
			rest = body(h)
			pieces = []string{header, rest}
		case 2: // nothing new: last frame's pieces again
			pieces = last
		default:
			pieces = cut(header + rest)
		}
		last = pieces
		content := strings.Join(pieces, "")
		v := tea.NewView(content)
		v.AltScreen = true
		require.NoError(t, whole.Draw(v))
		pv := v
		pv.Content = "not read"
		require.NoError(t, pieced.Send(pieced.FramePieces(pv, pieces)))
		require.Equal(t, one.String(), split.String(), "frame %d, pieces %q", i, pieces)
		one.Reset()
		split.Reset()
	}
}
