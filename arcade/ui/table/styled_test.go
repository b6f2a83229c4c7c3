package table

import (
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
)

// The styles a table draws its text in put it between the same sequences
// as lipgloss, for any one line of text; and widths are lipgloss's.
func TestStyledIsRender(t *testing.T) {
	styles := []lipgloss.Style{plain, turnStyle, ui.TitleStyle, ui.FaintStyle, ui.ErrStyle, ui.OkStyle, ui.WarnStyle,
		ui.KeyStyle, ui.SelStyle, lipgloss.NewStyle().Bold(true).Reverse(true)}
	texts := []string{"", "x", "ann played 7♣ on the 6 stack", "漢字 and 🂡", "  spaced  ", "…", "a~b", "▸ →A · 10♥ 9♦ K♠",
		"♥\ufe0f", "e\u0301", "\x1b[1mbold\x1b[m", "ö"}
	for i, st := range styles {
		for _, s := range texts {
			require.Equal(t, st.Render(s), styled(st, s), "style %d, %q", i, s)
			require.Equal(t, lipgloss.Width(s), cells(s), "%q", s)
		}
	}
}
