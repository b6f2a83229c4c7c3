package table

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/internal/format"
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

// A screen's own cache of styles styles as lipgloss does, whichever
// styles come in whatever order, more of them than it keeps too.
func TestStyleCacheIsRender(t *testing.T) {
	styles := []lipgloss.Style{plain, turnStyle, ui.TitleStyle, ui.FaintStyle, ui.ErrStyle, ui.OkStyle, ui.WarnStyle,
		ui.KeyStyle, ui.SelStyle, lipgloss.NewStyle().Bold(true).Reverse(true)}
	for i := range 20 {
		styles = append(styles, lipgloss.NewStyle().Foreground(lipgloss.Color(string(rune('0'+i%10)))).Bold(i >= 10))
	}
	var c styleCache
	for round := range 3 {
		for i, st := range styles {
			require.Equal(t, st.Render("ann 7♣"), c.styled(penOf(st), "ann 7♣"), "round %d, style %d", round, i)
		}
	}
}

// Widths of styled text (a pile as the board package draws it, pieces
// with their sequences) and of what is not only such: lipgloss's.
func TestCellsOfStyledText(t *testing.T) {
	texts := []string{"\x1b[38;5;196m[ 7♥]\x1b[m", "\x1b[1;7m( K♦)\x1b[m…\x1b[2m[ 9♠]\x1b[m", "\x1b[", "\x1b[1", "a\x1b[mb",
		"\x1b]8;;http://x\x07link\x1b]8;;\x07", "\x1bM", "two\nlines", "tab\there", "\x1b[38;5;21m漢字\x1b[m", "\x7f", "\u0085",
		ui.FaintStyle.Render("stock 12"), turnStyle.Render("▸ ann · 0:42")}
	for _, s := range texts {
		require.Equal(t, lipgloss.Width(s), cells(s), "%q", s)
	}
}

// clean says which texts format.Clean leaves as they are (fitCut skips
// those).
func TestCleanIsFormatClean(t *testing.T) {
	long := strings.Repeat("♥", 200)
	texts := []string{"", "ann played", "~!@#$%^&*()_+{}|:\"<>?`-=[]\\;',./ 0189 AZaz", "ann played 7♥ → ▸ · … 漢字 🂡",
		"a\x1bb", "\x7f", "tab\t", "line\n", "bad \xff utf-8", "c1 \u0085 control", "\u00a0 nbsp", long, long + "x",
		strings.Repeat("x", 201), "e\u0301"}
	for _, s := range texts {
		require.Equal(t, format.Clean(s, 200) == s, clean(s, 200), "%q", s)
	}
}

// fitLines makes ui.FitLines's lines.
func TestFitLinesIsUIs(t *testing.T) {
	texts := []string{"", "ann played 7♣ on the 6 stack and then drew three cards from the stock",
		"a verylongwordthatdoesnotfitanywhereatallinthepanel and more", "漢字 and 🂡 e\u0301 ♥\ufe0f words → ▸ · …",
		"  spaced   out\ttext\nover lines  ", "x"}
	for _, s := range texts {
		for _, w := range []int{0, 1, 3, 8, 20, 38, 80} {
			for _, n := range []int{1, 2, 3, 6} {
				require.Equal(t, ui.FitLines(s, w, n), fitLines(s, w, n), "%q in %d x %d", s, w, n)
			}
		}
	}
}
