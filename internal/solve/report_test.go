package solve

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"sshuffle/engine"
	"sshuffle/games"
)

// The CPU lines count a deal as decided within a limit only if it was
// decided, and name the deal that took the most CPU.
func TestCPUReport(t *testing.T) {
	rs := []dealOutcome{
		{seed: 1, outcome: engine.Solved, cpu: 500 * time.Millisecond},
		{seed: 2, outcome: engine.Solved, cpu: 3 * time.Second},
		{seed: 3, outcome: engine.Undecided, cpu: 9 * time.Second},
		{seed: 4, outcome: engine.Impossible, cpu: 11 * time.Second},
	}
	var b bytes.Buffer
	cpuReport(&b, rs, "test")
	require.Equal(t, "CPU per deal (test): p50 9s  p99 11s  max 11s (deal 4)\n"+
		"decided within 2 s of CPU each: 1 (25.000%); within 10 s: 2 (50.000%)\n", b.String())
}

// --check replays a win through the game's rules: the solver's moves win,
// the same moves less the last do not, and an illegal action is named.
func TestCheckWin(t *testing.T) {
	entry, ok := games.Default().Game("spider")
	require.True(t, ok)
	spec := engine.Spec{Game: "spider", Variant: "1suit", Seed: 1}
	res := entry.Solve(spec, 50_000)
	require.Equal(t, engine.Solved, res.Outcome)
	n, err := checkWin(entry.New, spec, res.Moves)
	require.NoError(t, err)
	require.Equal(t, len(res.Moves), n)
	_, err = checkWin(entry.New, spec, res.Moves[:len(res.Moves)-1])
	require.ErrorContains(t, err, "does not win")
	bad := append([]engine.Action{{Kind: engine.Move, From: 0, Index: 0, To: 0}}, res.Moves...)
	_, err = checkWin(entry.New, spec, bad)
	require.ErrorContains(t, err, "action 1")
}

// The report names the deals decided over 2 s, which with the undecided
// are what its 2 s share misses; an undecided deal is not among them.
func TestReportListsSlowDeals(t *testing.T) {
	rs := []dealOutcome{
		{seed: 7, outcome: engine.Solved, took: 2500 * time.Millisecond},
		{seed: 3, outcome: engine.Impossible, took: 2001 * time.Millisecond},
		{seed: 5, outcome: engine.Solved, took: 2 * time.Second},
		{seed: 9, outcome: engine.Undecided, took: 4 * time.Second},
	}
	var b bytes.Buffer
	report(&b, engine.Spec{Game: "klondike", Variant: "draw3"}, 1, 4, rs, time.Second, 100, 1, 1, "")
	require.Contains(t, b.String(), "decided within 2 s each: 1 (25.000%)\n")
	require.Contains(t, b.String(), "undecided deals: [9]\n")
	require.Contains(t, b.String(), "decided over 2 s: [3 7]\n")
}

// --cpuprofile writes a profile pprof reads (gzipped protobuf); a file that
// cannot be made stops the command before any search, with the reason.
func TestCPUProfileFlag(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	var out, errb bytes.Buffer
	require.Equal(t, 0, Run([]string{"klondike", "--deals", "1-3", "--cpuprofile", path}, &out, &errb), errb.String())
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Greater(t, len(b), 2)
	require.Equal(t, []byte{0x1f, 0x8b}, b[:2])

	out.Reset()
	errb.Reset()
	bad := filepath.Join(t.TempDir(), "no", "such", "dir", "cpu.prof")
	require.Equal(t, 2, Run([]string{"klondike", "--deals", "1-3", "--cpuprofile", bad}, &out, &errb))
	require.Contains(t, errb.String(), "--cpuprofile")
	require.Empty(t, out.String())
}
