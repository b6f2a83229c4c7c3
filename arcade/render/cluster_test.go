package render

import (
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// firstCluster is ansi.FirstGraphemeCluster for every rune of its table
// alone, or followed by ASCII bytes, marks, joiners and the like, or by
// one rune in 251 of the table; and for the runes of the ranges screens
// draw with (Latin-1, punctuation, arrows, box drawing, blocks, shapes,
// suits) followed by every other one of them; and for bytes that are not
// UTF-8.
func TestFirstClusterIsTheLibrarys(t *testing.T) {
	var b []byte
	check := func() {
		t.Helper()
		got, gw := firstCluster(string(b), runeTable())
		want, ww := ansi.FirstGraphemeCluster(string(b), ansi.WcWidth)
		if got != want || gw != ww {
			t.Fatalf("%q: got %q width %d, want %q width %d", b, got, gw, want, ww)
		}
	}
	next := []rune{0, '\t', '\n', '\r', 0x1b, ' ', 'a', '0', '~', 0x7f,
		0x301, 0x200d, 0xfe0f, 0x93f, 0x94d, 0x915, 0x1f1e6, 0x1100, 0x1161, 0x11a8, 0xac00, 0x1f600}
	var drawn []rune
	for r := rune(utf8.RuneSelf); r < tableRunes+16; r++ {
		if r%251 == 0 {
			next = append(next, r)
		}
		if r < 0x100 || r >= 0x2010 && r < 0x2030 || r >= 0x2190 && r < 0x2200 || r >= 0x2500 && r < 0x2700 {
			drawn = append(drawn, r)
		}
	}
	pairs := func(r rune, with []rune) {
		b = utf8.AppendRune(b[:0], r)
		n := len(b)
		for _, r2 := range with {
			b = utf8.AppendRune(b[:n], r2)
			check()
		}
	}
	for r := rune(utf8.RuneSelf); r < tableRunes+16; r++ {
		b = utf8.AppendRune(b[:0], r)
		check()
		pairs(r, next)
	}
	var every2 []rune
	for i := 0; i < len(drawn); i += 2 {
		every2 = append(every2, drawn[i])
	}
	for _, r := range drawn {
		pairs(r, every2)
	}
	for _, bad := range []string{"\xe0\x80\x80a", "\xe0\x82\xa9a", "\xe0\x9f\xbfa", "\xc1\xbfa", "\xc2", "\xe2\x94", "\xe2\x94a", "\xe2a\x94", "\xed\xa0\x80a", "\x80a", "\xe2\x94\x80\xe2\x94"} {
		b = append(b[:0], bad...)
		check()
	}
}
