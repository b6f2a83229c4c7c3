package table

import (
	"image/color"
	"strings"
	"sync"
	"unicode/utf8"

	"charm.land/lipgloss/v2"

	"sshuffle/arcade/ui"
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
	return styleEndsFor(keyOf(st), st).wrap(s)
}

func keyOf(st lipgloss.Style) styleKey {
	return styleKey{fg: st.GetForeground(), bg: st.GetBackground(), bold: st.GetBold(), faint: st.GetFaint(),
		italic: st.GetItalic(), underline: st.GetUnderline(), reverse: st.GetReverse(), blink: st.GetBlink(),
		strike: st.GetStrikethrough()}
}

// styleEndsFor is the sequences of st, whose key is k.
func styleEndsFor(k styleKey, st lipgloss.Style) styleEnds {
	e, ok := styleEndsOf.Load(k)
	if !ok {
		r := st.Render("x")
		i := strings.IndexByte(r, 'x')
		e = styleEnds{open: r[:i], close: r[i+1:]}
		styleEndsOf.Store(k, e)
	}
	return e.(styleEnds)
}

func (e styleEnds) wrap(s string) string {
	if e.open == "" && e.close == "" {
		return s
	}
	return e.open + s + e.close
}

// pen is a style with its key, read once: reading a style's key takes a
// copy of the whole style for each attribute, which for the few styles a
// table uses everywhere is done once here, not for every piece.
type pen struct {
	key styleKey
	st  lipgloss.Style
}

func penOf(st lipgloss.Style) pen { return pen{key: keyOf(st), st: st} }

var (
	faintPen = penOf(ui.FaintStyle)
	plainPen = penOf(plain)
	turnPen  = penOf(turnStyle)
	titlePen = penOf(ui.TitleStyle)
	keyPen   = penOf(ui.KeyStyle)
)

// styleCache is one screen's styles as last used, looked up by comparing
// keys: a frame styles its pieces with a handful of styles, and finding
// one among them is cheaper than hashing it into styleEndsOf.
type styleCache struct {
	keys []styleKey
	ends []styleEnds
}

func (c *styleCache) styled(p pen, s string) string { return c.endsOf(p).wrap(s) }

// endsOf is p's sequences.
func (c *styleCache) endsOf(p pen) styleEnds {
	k := p.key
	for i := range c.keys {
		if c.keys[i] == k {
			return c.ends[i]
		}
	}
	e := styleEndsFor(k, p.st)
	if len(c.keys) < 16 {
		c.keys, c.ends = append(c.keys, k), append(c.ends, e)
	}
	return e
}

// cells is lipgloss.Width(s) for one line, at once for text of ASCII and
// the few other characters a table draws most (suits, arrows, marks),
// each one cell wide, and the colour and attribute sequences around them
// (CSI sequences, no cells): a pile drawn by the board package is such.
func cells(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			n++
			i++
			continue
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			j := skipEscape(s, i)
			if j <= i+2 || s[j-1] < 0x40 || s[j-1] > 0x7e {
				return lipgloss.Width(s) // not a whole sequence
			}
			i = j
			continue
		case c < 0x80:
			return lipgloss.Width(s)
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '·', '…', '→', '▸', '♣', '♦', '♥', '♠':
			n++
			i += size
		default:
			return lipgloss.Width(s)
		}
	}
	return n
}

// clean reports whether format.Clean(s, max) is s itself: no control
// character, no invalid UTF-8 (which Clean writes as U+FFFD), at most max
// runes. Most of what a table writes is so, and is then not copied.
func clean(s string, max int) bool {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			if (r == utf8.RuneError && size == 1) || (r >= 0x80 && r < 0xa0) {
				return false
			}
			i += size
		}
		if n++; n > max {
			return false
		}
	}
	return true
}

// fitLines is ui.FitLines with widths counted by cells: the same lines,
// without lipgloss's grapheme walk for each word of the log, the notes
// and the rules.
func fitLines(text string, width, n int) []string { return ui.FitLinesBy(text, width, n, cells) }
