package ui

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/stretchr/testify/require"
)

// fitLinesJoined is FitLinesBy as it was written first, each line joined
// word by word: the lines it gives are the lines FitLinesBy must give.
func fitLinesJoined(text string, width, n int, cells func(string) int) []string {
	if text == "" || width <= 0 {
		return nil
	}
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && cells(line)+1+cells(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	lines = append(lines, line)
	if len(lines) > n {
		lines = lines[:n]
		last := []rune(lines[n-1])
		for cells(string(last))+1 > width && len(last) > 0 {
			last = last[:len(last)-1]
		}
		lines[n-1] = string(last) + "…"
	}
	for i, l := range lines {
		if cells(l) <= width {
			continue
		}
		r := []rune(l)
		for cells(string(r)) > width {
			r = r[:len(r)-1]
		}
		lines[i] = string(r)
	}
	return lines
}

// FitLines wraps as joining the words one by one does, whatever the
// spaces between them: runs of them, tabs, newlines, Unicode spaces, and
// none at either end.
func TestFitLinesAsJoined(t *testing.T) {
	texts := []string{
		"", " ", "   ", "word", "ann played 7♥ on the centre stack and drew two cards",
		"  two  spaces   between\tand a tab\nand a newline ", "no\u00a0break\u2003em space\u0085next",
		"averyveryverylongwordthatdoesnotfitanywhere at all", "a b c d e f g h i j k l m n o p q r s t u v w x y z",
		"日本語 の 文字 は 二つ 分 の 幅", "bad \xff byte \xfe here", "tail space ", " head space",
	}
	for _, text := range texts {
		for _, width := range []int{0, 1, 3, 8, 12, 20, 80} {
			for _, n := range []int{1, 2, 3, 6} {
				want := fitLinesJoined(text, width, n, lipgloss.Width)
				require.Equal(t, want, FitLines(text, width, n), "%q in %d cells, %d lines", text, width, n)
			}
		}
	}
}
