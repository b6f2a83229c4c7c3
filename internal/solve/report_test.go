package solve

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"sshuffle/engine"
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
