package ui

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// Pressed: a key or a click, either of which leaves a screen that is only
// there to be read.
func Pressed(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.MouseClickMsg:
		return true
	}
	return false
}

// Wrap word-wraps text to width, each line indented by two spaces.
func Wrap(text string, width int) string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			if len(line)+len(w)+1 > width && line != "" {
				out = append(out, "  "+line)
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		out = append(out, "  "+line)
	}
	return strings.Join(out, "\n")
}

// FitLines word-wraps text into at most n lines of width cells, ending
// with an ellipsis when it had to cut.
func FitLines(text string, width, n int) []string {
	return FitLinesBy(text, width, n, lipgloss.Width)
}

// FitLinesBy is FitLines with widths counted by cells, which must count as
// lipgloss.Width does for the text given: a screen that knows its text
// (no escapes, no wide graphemes to walk) counts faster.
func FitLinesBy(text string, width, n int, cells func(string) int) []string {
	if text == "" || width <= 0 {
		return nil
	}
	var lines []string
	// The words are strings.Fields's. A line whose words stand one space
	// apart in text, as most text's do, is text[start:end] itself, not a
	// new string; start < 0: line was joined.
	line, start, end := "", -1, -1
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if unicode.IsSpace(r) {
			i += size
			continue
		}
		j := i + size
		for j < len(text) {
			r, size = utf8.DecodeRuneInString(text[j:])
			if unicode.IsSpace(r) {
				break
			}
			j += size
		}
		w := text[i:j]
		if line != "" && cells(line)+1+cells(w) > width {
			lines = append(lines, line)
			line = ""
		}
		switch {
		case line == "":
			line, start, end = w, i, j
		case start >= 0 && i == end+1 && text[end] == ' ':
			line, end = text[start:j], j
		default:
			line, start = line+" "+w, -1
		}
		i = j
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

// KeepLines cuts text into lines, each with the "\n" before it (but the
// first, if text does not start with one), into lines: where the line at
// the same place was the same, its string is kept and no new one is made.
func KeepLines(lines []string, text []byte) []string {
	n := 0
	for len(text) > 0 {
		end := bytes.IndexByte(text[1:], '\n') + 1
		if end == 0 {
			end = len(text)
		}
		line := text[:end]
		text = text[end:]
		if n < len(lines) {
			if lines[n] != string(line) {
				lines[n] = string(line)
			}
		} else {
			lines = append(lines, string(line))
		}
		n++
	}
	clear(lines[n:])
	return lines[:n]
}

// WriteSpaces writes n spaces.
func WriteSpaces(b *bytes.Buffer, n int) {
	const blanks = "                                                                "
	for n > len(blanks) {
		b.WriteString(blanks)
		n -= len(blanks)
	}
	b.WriteString(blanks[:n])
}
