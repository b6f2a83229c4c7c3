package ui

import "charm.land/lipgloss/v2"

// HelpBars is the key help of pairs ("q", "leave", ...) in as many bars
// of width as it takes, in order: a screen with more keys than one bar
// holds names them all on a second line rather than leave the last out.
func HelpBars(width int, pairs ...string) []string {
	var bars []string
	for start := 0; start+1 < len(pairs); {
		end := start + 2
		for end+1 < len(pairs) && barWidth(pairs[start:end+2]) <= width {
			end += 2
		}
		bars = append(bars, HelpBar(width, pairs[start:end]...))
		start = end
	}
	return bars
}

// barWidth is the cells HelpBar takes for pairs.
func barWidth(pairs []string) int {
	w := 0
	for i := 0; i+1 < len(pairs); i += 2 {
		if i > 0 {
			w += 2
		}
		w += lipgloss.Width(pairs[i]) + 1 + lipgloss.Width(pairs[i+1])
	}
	return w
}
