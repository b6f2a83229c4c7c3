package solve

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"sshuffle/engine"
	"sshuffle/games/freecell"
)

// What solve prints: the report of a range of deals, a single deal's
// moves, and the check of FreeCell solutions in the notation.

// report is the outcome of a range of deals: how many were solved, found
// impossible or left undecided, and how long they took.
func report(w io.Writer, spec engine.Spec, lo, hi uint64, rs []dealOutcome, total time.Duration, nodes, workers, threads int, cpuMeasure string) {
	var counts [3]int
	var times []time.Duration
	within2 := 0
	var slowest dealOutcome
	var impossible, undecided, slow []uint64
	for _, r := range rs {
		counts[r.outcome]++
		times = append(times, r.took)
		if r.outcome != engine.Undecided && r.took <= 2*time.Second {
			within2++
		}
		if r.outcome != engine.Undecided && r.took > 2*time.Second {
			slow = append(slow, r.seed)
		}
		if r.took > slowest.took {
			slowest = r
		}
		if r.outcome == engine.Impossible && len(impossible) < 20 {
			impossible = append(impossible, r.seed)
		}
		// Every undecided deal, as they are few and are what the next
		// solver change is tried on.
		if r.outcome == engine.Undecided {
			undecided = append(undecided, r.seed)
		}
	}
	slices.Sort(times)
	n := len(rs)
	pct := func(k int) float64 { return 100 * float64(k) / float64(n) }
	q := func(p float64) time.Duration { return times[min(int(p*float64(n)), n-1)] }
	if threads > 1 {
		fmt.Fprintf(w, "%s deals %d-%d (%d), budget %d positions, %d workers of %d threads each\n", spec.Key(), lo, hi, n, nodes, workers, threads)
	} else {
		fmt.Fprintf(w, "%s deals %d-%d (%d), budget %d positions, %d workers\n", spec.Key(), lo, hi, n, nodes, workers)
	}
	fmt.Fprintf(w, "solved %d (%.3f%%)  impossible %d (%.3f%%)  undecided %d (%.3f%%)\n",
		counts[engine.Solved], pct(counts[engine.Solved]), counts[engine.Impossible], pct(counts[engine.Impossible]),
		counts[engine.Undecided], pct(counts[engine.Undecided]))
	decided := counts[engine.Solved] + counts[engine.Impossible]
	if decided > 0 {
		fmt.Fprintf(w, "won share of decided deals %.3f%%\n", 100*float64(counts[engine.Solved])/float64(decided))
	}
	fmt.Fprintf(w, "decided within 2 s each: %d (%.3f%%)\n", within2, pct(within2))
	fmt.Fprintf(w, "time per deal: p50 %s  p99 %s  max %s (deal %d)\n", q(0.5).Round(time.Microsecond),
		q(0.99).Round(time.Microsecond), slowest.took.Round(time.Microsecond), slowest.seed)
	if cpuMeasure != "" {
		cpuReport(w, rs, cpuMeasure)
	}
	fmt.Fprintf(w, "total %s\n", total.Round(time.Millisecond))
	if len(impossible) > 0 {
		fmt.Fprintf(w, "impossible deals (first %d): %v\n", len(impossible), impossible)
	}
	if len(undecided) > 0 {
		slices.Sort(undecided)
		fmt.Fprintf(w, "undecided deals: %v\n", undecided)
	}
	// The deals decided over 2 s, when few: with the undecided, they are
	// what the 2 s share misses.
	if len(slow) > 0 && len(slow) <= maxSlowListed {
		slices.Sort(slow)
		fmt.Fprintf(w, "decided over 2 s: %v\n", slow)
	}
}

const maxSlowListed = 50

// cpuReport gives each deal's CPU time: what the deal costs on one core,
// whatever else the machine runs (the clock time is that plus waiting).
func cpuReport(w io.Writer, rs []dealOutcome, measure string) {
	var cpus []time.Duration
	var within2, within10 int
	var slowest dealOutcome
	for _, r := range rs {
		cpus = append(cpus, r.cpu)
		if r.outcome != engine.Undecided && r.cpu <= 2*time.Second {
			within2++
		}
		if r.outcome != engine.Undecided && r.cpu <= 10*time.Second {
			within10++
		}
		if r.cpu > slowest.cpu {
			slowest = r
		}
	}
	slices.Sort(cpus)
	n := len(rs)
	q := func(p float64) time.Duration { return cpus[min(int(p*float64(n)), n-1)].Round(time.Millisecond) }
	fmt.Fprintf(w, "CPU per deal (%s): p50 %s  p99 %s  max %s (deal %d)\n", measure, q(0.5), q(0.99),
		slowest.cpu.Round(time.Millisecond), slowest.seed)
	fmt.Fprintf(w, "decided within 2 s of CPU each: %d (%.3f%%); within 10 s: %d (%.3f%%)\n",
		within2, 100*float64(within2)/float64(n), within10, 100*float64(within10)/float64(n))
}

// printMoves prints a solution: FreeCell in standard notation, the others
// as the actions the game replays.
func printMoves(stdout, stderr io.Writer, spec engine.Spec, moves []engine.Action, fcs bool) int {
	if spec.Game == "freecell" {
		lines, err := freecell.FormatMoves(moves, spec)
		if err != nil {
			fmt.Fprintln(stderr, "sshuffle solve:", err)
			return 1
		}
		if fcs {
			fmt.Fprint(stdout, freecell.FcsLayout(lines))
			return 0
		}
		fmt.Fprintln(stdout, strings.Join(lines, "\n"))
		return 0
	}
	for _, m := range moves {
		switch m.Kind {
		case engine.Draw:
			fmt.Fprintln(stdout, "draw")
		case engine.Auto:
			fmt.Fprintf(stdout, "auto %d %d\n", m.From, m.Index)
		default:
			fmt.Fprintf(stdout, "move %d %d %d\n", m.From, m.Index, m.To)
		}
	}
	return 0
}

func checkReport(w io.Writer, rs []dealOutcome, unit string) {
	checked, length, failed := 0, 0, 0
	for _, r := range rs {
		if r.outcome != engine.Solved {
			continue
		}
		checked++
		length += r.length
		if r.replayErr != nil {
			failed++
			if failed <= 20 {
				fmt.Fprintf(w, "deal %d: the solution does not replay: %v\n", r.seed, r.replayErr)
			}
		}
	}
	if checked == 0 {
		return
	}
	fmt.Fprintf(w, "checked %d solutions: %d replay as wins, %d fail; mean length %.1f %s\n",
		checked, checked-failed, failed, float64(length)/float64(checked), unit)
}
