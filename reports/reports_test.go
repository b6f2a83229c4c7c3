package reports

import (
	"os"
	"path/filepath"
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
