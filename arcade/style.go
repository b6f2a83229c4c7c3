package arcade

import (
	"fmt"
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
			s += keyStyle.Render(pairs[i]) + " " + faintStyle.Render(pairs[i+1])
			w += lipgloss.Width(part)
		}
		if w <= width {
			return s
		}
	}
	return ""
}
