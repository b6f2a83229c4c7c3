package render

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// lineReader reads the lines of pieces put end to end. A line within one
// piece is a slice of it; only one that runs across pieces is made anew
// (in join, then as a string).
type lineReader struct {
	cur  string
	rest []string
}

func (r *lineReader) next(join *[]byte) string {
	line, parts := "", 0
	add := func(seg string) {
		if seg == "" {
			return
		}
		switch parts {
		case 0:
			line = seg
		case 1:
			*join = append(append((*join)[:0], line...), seg...)
		default:
			*join = append(*join, seg...)
		}
		parts++
	}
	for {
		if i := strings.IndexByte(r.cur, '\n'); i >= 0 {
			add(r.cur[:i])
			r.cur = r.cur[i+1:]
			break
		}
		add(r.cur)
		r.cur = ""
		if len(r.rest) == 0 {
			break
		}
		r.cur, r.rest = r.rest[0], r.rest[1:]
	}
	if parts > 1 {
		line = string(*join)
	}
	return line
}

// parse reads one line of styled text into the frame's row (sc.row) and
// returns the pen at its end. Text past the width is cut; escape sequences
// other than SGR are dropped, as Bubble Tea's renderer drops them.
func (s *Screen) parse(line string, pen styleID) styleID {
	return s.parseInto(s.sc.row, line, pen)
}

func (s *Screen) parseInto(row []cell, line string, pen styleID) styleID {
	x, last := 0, -1
	var table *[tableRunes]uint8
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c >= 0x20 && c < 0x7f && (i+1 >= len(line) || line[i+1] < 0xc0):
			if x < len(row) {
				row[x] = cell{r: int32(c), st: pen, w: 1}
				last = x
			}
			x++
			i++
		case c == ansi.ESC:
			n := seqLen(line[i:])
			if n > 2 && line[i+1] == '[' && line[i+n-1] == 'm' {
				pen = s.applySGR(pen, line[i:i+n])
			}
			i += n
		case c == '\t':
			for next := (x/8 + 1) * 8; x < next; x++ {
				if x < len(row) {
					row[x] = cell{r: ' ', st: pen, w: 1}
				}
			}
			i++
		case c < 0x20 || c == 0x7f:
			i++
		default:
			if table == nil {
				table = runeTable()
			}
			cluster, width := firstCluster(line[i:], table)
			if len(cluster) == 0 {
				i++
				continue
			}
			i += len(cluster)
			if width == 0 {
				// A mark an escape sequence kept from its letter: it
				// belongs to the cell written last.
				if last >= 0 && last < len(row) {
					row[last].r = s.cluster(s.text(row[last].r) + cluster)
				}
				continue
			}
			if x+width > len(row) {
				x += width
				continue
			}
			r, size := utf8.DecodeRuneInString(cluster)
			if size != len(cluster) {
				r = s.cluster(cluster)
			}
			row[x] = cell{r: r, st: pen, w: uint8(min(width, 255))}
			last = x
			for k := 1; k < width; k++ {
				row[x+k] = cell{st: pen}
			}
			x += width
		}
	}
	for ; x < len(row); x++ {
		row[x] = blank
	}
	return pen
}

// firstCluster is ansi.FirstGraphemeCluster(b, ansi.WcWidth): the
// grapheme cluster b starts with and its width. A rune of the table
// (cards' suits and backs, box drawing, marks of punctuation) is a
// cluster of its own when an ASCII byte follows it, or nothing, or a
// plain rune of the table (one that no rule of UAX #29 joins to what
// comes before it or after it: not Extend, SpacingMark, ZWJ, Prepend or
// Hangul); its width is then the table's. Anything else is asked of
// FirstGraphemeCluster.
func firstCluster(b string, t *[tableRunes]uint8) (string, int) {
	if r, size := decodeTableRune(b); size > 0 {
		if e := t[r]; e != 0 {
			if size == len(b) || b[size] < utf8.RuneSelf {
				return b[:size], int(e&widthBits - 1)
			}
			if e&plainRune != 0 {
				if r2, n := decodeTableRune(b[size:]); n > 0 && t[r2]&plainRune != 0 {
					return b[:size], int(e&widthBits - 1)
				}
			}
		}
	}
	return ansi.FirstGraphemeCluster(b, ansi.WcWidth)
}

// decodeTableRune is the rune b starts with and its size, when it is a
// rune of two or three bytes below tableRunes; size 0 otherwise.
func decodeTableRune(b string) (rune, int) {
	switch c := b[0]; {
	case c >= 0xc2 && c < 0xe0 && len(b) >= 2 && b[1]&0xc0 == 0x80:
		return rune(c&0x1f)<<6 | rune(b[1]&0x3f), 2
	case c >= 0xe0 && c < 0xe3 && len(b) >= 3 && b[1]&0xc0 == 0x80 && b[2]&0xc0 == 0x80:
		r := rune(c&0x0f)<<12 | rune(b[1]&0x3f)<<6 | rune(b[2]&0x3f)
		if r >= 0x800 && r < tableRunes { // not overlong
			return r, 3
		}
	}
	return 0, 0
}

// tableRunes bounds the runes runeTable holds: past the scripts, symbols
// and shapes a screen draws with, before the wide scripts.
const tableRunes = 0x3000

// runeTable's entries: the width plus one, and whether the rune is plain.
const (
	widthBits = 0x7f
	plainRune = 0x80
)

// runeTable is, for each rune below tableRunes, its width plus one when
// it is a cluster of its own before an ASCII byte (0 when it is not, or
// is not a rune), and plainRune when it is also a cluster of its own
// after one, and not Hangul: made once, from FirstGraphemeCluster itself.
var runeTable = sync.OnceValue(func() *[tableRunes]uint8 {
	t := new([tableRunes]uint8)
	var b []byte
	for r := rune(utf8.RuneSelf); r < tableRunes; r++ {
		b = utf8.AppendRune(b[:0], r)
		n := len(b)
		cluster, w := ansi.FirstGraphemeCluster(string(append(b, 'a')), ansi.WcWidth)
		if len(cluster) != n || w < 0 || w >= widthBits || !utf8.ValidRune(r) {
			continue
		}
		t[r] = uint8(w + 1)
		if after, _ := ansi.FirstGraphemeCluster("a"+string(b), ansi.WcWidth); after == "a" && (r < 0x1100 || r > 0x11ff) {
			t[r] |= plainRune
		}
	}
	return t
})

// text is a cell's text.
func (s *Screen) text(r int32) string {
	if r < 0 {
		return s.clusters[-r-1]
	}
	return string(rune(r))
}

func (s *Screen) cluster(c string) int32 {
	for i, k := range s.clusters {
		if k == c {
			return int32(-i - 1)
		}
	}
	s.clusters = append(s.clusters, strings.Clone(c))
	return int32(-len(s.clusters))
}

// seqLen is the length of the escape sequence at the start of b.
func seqLen(b string) int {
	if len(b) < 2 {
		return len(b)
	}
	switch b[1] {
	case '[': // CSI: parameters and intermediates, then a final byte
		for i := 2; i < len(b); i++ {
			if b[i] >= 0x40 && b[i] <= 0x7e {
				return i + 1
			}
		}
		return len(b)
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: to BEL or ST
		for i := 2; i < len(b); i++ {
			if b[i] == 0x07 {
				return i + 1
			}
			if b[i] == ansi.ESC && i+1 < len(b) && b[i+1] == '\\' {
				return i + 2
			}
		}
		return len(b)
	}
	return 2
}
