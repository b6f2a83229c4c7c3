package reports

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	r := parse("klondike/draw1", `$ sshuffle solve klondike --draw 1 --deals 1-4 --list-won
klondike/draw1 deals 1-4 (4), budget 100 positions, 2 workers
solved 3 (75.000%)  impossible 1 (25.000%)  undecided 0 (0.000%)
1
2
4
`)
	require.Equal(t, "sshuffle solve klondike --draw 1 --deals 1-4 --list-won", r.Command)
	require.Equal(t, 4, r.Deals)
	require.Equal(t, 3, r.Solved)
	require.InDelta(t, 75.0, r.WinPct, 1e-9)
	require.Equal(t, []uint64{1, 2, 4}, r.Won)
	require.NotContains(t, r.Summary, "\n4")
}

// Every kept report must parse, name its command, and list as many won
// deals as it says it solved.
func TestKeptReports(t *testing.T) {
	entries, err := files.ReadDir(".")
	require.NoError(t, err)
	require.NotEmpty(t, entries)
	for _, e := range entries {
		data, err := files.ReadFile(e.Name())
		require.NoError(t, err)
		r := parse(e.Name(), string(data))
		require.NotEmpty(t, r.Command, e.Name())
		require.Positive(t, r.Deals, e.Name())
		if r.Won != nil {
			require.Len(t, r.Won, r.Solved, e.Name())
		}
	}
}

// A Markdown report, like a solver report, starts with the command that
// remakes it, so a reader can check a figure instead of trusting it.
func TestMarkdownReportsNameTheirCommand(t *testing.T) {
	names, err := filepath.Glob("*.md")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for _, name := range names {
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		first, _, _ := strings.Cut(string(data), "\n")
		require.True(t, strings.HasPrefix(first, "$ ") && len(first) > 2, "%s: first line %q is no command", name, first)
	}
}

// solvers.md quotes each kept report's win rate; a report remade by `make
// bench-solve` must not leave the page quoting the old one.
func TestSolversPageQuotesTheReports(t *testing.T) {
	data, err := os.ReadFile("solvers.md")
	require.NoError(t, err)
	checked := quotedWinRatesMatch(t, string(data))
	require.GreaterOrEqual(t, checked, 8, "solvers.md should quote every solitaire report's win rate")
}

func TestQuotedWinRatesCatchADrift(t *testing.T) {
	page := "| Game | Deals | Won | Report |\n|---|---|---|---|\n| TriPeaks | 1-1000 | 96.7% | [tripeaks.txt](tripeaks.txt) |\n"
	ft := &fakeT{}
	quotedWinRatesMatch(ft, page)
	require.True(t, ft.failed, "a quoted 96.7% against the report's 96.800% must fail")
}

type fakeT struct {
	require.TestingT
	failed bool
}

func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) FailNow()              { f.failed = true }
func (f *fakeT) Helper()               {}

// quotedWinRatesMatch checks each table row of page that links a report and
// quotes a win rate in the column before the others: the rate, to the
// decimals written, is the report's. It returns how many rows it checked.
func quotedWinRatesMatch(t interface {
	require.TestingT
	Helper()
}, page string) int {
	t.Helper()
	n := 0
	for _, m := range wonColumn(page) {
		data, err := files.ReadFile(m.file)
		require.NoError(t, err, m.file)
		r := parse(m.file, string(data))
		decimals := 0
		if _, frac, ok := strings.Cut(m.won, "."); ok {
			decimals = len(frac)
		}
		require.Equal(t, m.won, strconv.FormatFloat(r.WinPct, 'f', decimals, 64), "%s: solvers.md quotes %s%%", m.file, m.won)
		n++
	}
	return n
}

type quote struct{ file, won string }

// wonColumn reads the "Won" column of every table in page, with the report
// the row links.
func wonColumn(page string) []quote {
	var out []quote
	col := -1
	for _, line := range strings.Split(page, "\n") {
		if !strings.HasPrefix(line, "|") {
			col = -1
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if col < 0 {
			col = slices.Index(cells, "Won")
			continue
		}
		file := reportLinkRe.FindStringSubmatch(line)
		if col >= len(cells) || file == nil || !strings.HasSuffix(cells[col], "%") {
			continue
		}
		out = append(out, quote{file: file[1], won: strings.TrimSuffix(cells[col], "%")})
	}
	return out
}

var reportLinkRe = regexp.MustCompile(`\]\(([a-z0-9-]+\.txt)\)`)
