package table

import (
	"image/color"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// A table's frame styles some fifty pieces of text, each with one of a
// few styles of colour and attributes alone. lipgloss works out such a
// style for every piece anew (some microseconds each); here each style's
// opening and closing sequences are worked out once, and a piece is put
// between them. The text is one line of cleaned text (fitCut), which
// lipgloss would not change.

// styleKey is a style of colour and attributes, as lipgloss reads them.
type styleKey struct {
	fg, bg                                                 color.Color
	bold, faint, italic, underline, reverse, blink, strike bool
}

// styleEnds are a style's sequences before and after its text.
type styleEnds struct{ open, close string }

var styleEndsOf sync.Map // styleKey → styleEnds

// styled is st.Render(s) for one line of plain text s, st a style of
// colour and attributes alone (no width, padding, margin or border: the
// table's styles are all such).
func styled(st lipgloss.Style, s string) string {
	k := styleKey{fg: st.GetForeground(), bg: st.GetBackground(), bold: st.GetBold(), faint: st.GetFaint(),
		italic: st.GetItalic(), underline: st.GetUnderline(), reverse: st.GetReverse(), blink: st.GetBlink(),
		strike: st.GetStrikethrough()}
	e, ok := styleEndsOf.Load(k)
	if !ok {
		r := st.Render("x")
		i := strings.IndexByte(r, 'x')
		e = styleEnds{open: r[:i], close: r[i+1:]}
		styleEndsOf.Store(k, e)
	}
	ends := e.(styleEnds)
	if ends.open == "" && ends.close == "" {
		return s
	}
	return ends.open + s + ends.close
}

// cells is lipgloss.Width(s) for one line, at once for text of ASCII and
// the few other characters a table draws most (suits, arrows, marks),
// each one cell wide.
func cells(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r >= 0x20 && r < 0x7f, r == '·', r == '…', r == '→', r == '▸', r == '♣', r == '♦', r == '♥', r == '♠':
			n++
		default:
			return ansi.StringWidth(s)
		}
	}
	return n
}
