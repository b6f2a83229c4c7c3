package arcade

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
)

var (
	titleStyle = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#5fd7ff"))
	faintStyle = lipgloss.NewStyle().Faint(true)
	errStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("#ff5f5f")).Bold(true)
	okStyle    = lipgloss.NewStyle().Foreground(lipgloss.Color("#87d787"))
	warnStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("#ffd75f"))
	keyStyle   = lipgloss.NewStyle().Bold(true)
	selStyle   = lipgloss.NewStyle().Reverse(true)
)

// The styles drawn on every frame, as escape codes (see codes).
var keyCodes, faintCodes = codesOf(keyStyle), codesOf(faintStyle)

// codes is a style reduced to the escape codes it puts around a text.
// lipgloss's Render works out borders, margins and widths again on every
// call; for the few dozen styled runs of every frame of every session that
// was most of a frame's time (BenchmarkGameFrame: 246 µs and 730
// allocations a Klondike frame before, 76 µs and 203 after). A style whose
// output is more than codes around the text keeps going through Render.
type codes struct {
	style     lipgloss.Style
	pre, post string
	exact     bool
}

func codesOf(style lipgloss.Style) codes {
	c := codes{style: style}
	const mark = "\x00"
	pre, post, ok := strings.Cut(style.Render(mark), mark)
	if !ok {
		return c
	}
	c.pre, c.post, c.exact = pre, post, true
	for _, text := range []string{"K♠", " 10♥ ", "░░░░░", "[   ]", "a b", "esc drop"} {
		if style.Render(text) != pre+text+post {
			c.exact = false
		}
	}
	return c
}

func (c codes) render(text string) string {
	if !c.exact {
		return c.style.Render(text)
	}
	return c.pre + text + c.post
}

func (c codes) write(sb *strings.Builder, text string) {
	if !c.exact {
		sb.WriteString(c.style.Render(text))
		return
	}
	sb.WriteString(c.pre)
	sb.WriteString(text)
	sb.WriteString(c.post)
}

func fmtDuration(d time.Duration) string {
	d = d.Round(time.Second)
	h := int(d / time.Hour)
	m := int(d % time.Hour / time.Minute)
	s := int(d % time.Minute / time.Second)
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}

// helpBar renders "key action" pairs, dropping pairs from the end until the
// bar fits the width.
func helpBar(width int, pairs ...string) string {
	for n := len(pairs); n >= 2; n -= 2 {
		s := ""
		w := 0
		for i := 0; i+1 < n; i += 2 {
			part := pairs[i] + " " + pairs[i+1]
			if i > 0 {
				s += "  "
				w += 2
			}
			s += keyCodes.render(pairs[i]) + " " + faintCodes.render(pairs[i+1])
			w += lipgloss.Width(part)
		}
		if w <= width {
			return s
		}
	}
	return ""
}
