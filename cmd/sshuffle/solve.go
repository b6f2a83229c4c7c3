package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/freecell"
)

// parseRange reads "1-32000" or "617".
func parseRange(s string) (lo, hi uint64, err error) {
	a, b, found := strings.Cut(s, "-")
	lo, err = strconv.ParseUint(a, 10, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("bad deal range %q", s)
	}
	hi = lo
	if found {
		hi, err = strconv.ParseUint(b, 10, 64)
		if err != nil || hi < lo {
			return 0, 0, fmt.Errorf("bad deal range %q", s)
		}
	}
	return lo, hi, nil
}

type dealOutcome struct {
	seed    uint64
	outcome engine.Outcome
	nodes   int
	took    time.Duration
	moves   []engine.Action
	// With --check: the solution's length in the notation, and why it
	// failed to replay as a win, if it did.
	length    int
	replayErr error
}

// checkFreecell writes a solution in the notation and replays it.
func checkFreecell(spec engine.Spec, moves []engine.Action) (int, error) {
	text, err := freecell.FormatMoves(moves, spec)
	if err != nil {
		return 0, err
	}
	won, _, err := freecell.Replay(spec, text)
	if err == nil && !won {
		err = fmt.Errorf("the replay does not win")
	}
	return len(text), err
}

func solve(args []string, stdout, stderr io.Writer) int {
	if len(args) < 1 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	game, args := args[0], args[1:]
	entry, ok := games.Default().Game(game)
	ok = ok && entry.Solve != nil
	if !ok {
		fmt.Fprintf(stderr, "sshuffle solve: unknown game %q\n", game)
		return 2
	}
	var single string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		single, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	deals := fs.String("deals", "1-1000", "deal numbers or seeds, A-B")
	draw := fs.Int("draw", 1, "Klondike: cards turned, 1 or 3")
	suits := fs.Int("suits", 1, "Spider: 1, 2 or 4 suits")
	nodes := fs.Int("nodes", entry.Nodes, "search budget per deal, in positions (default: the game's budget times --threads)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "deals solved at once (default: one per core, or per --threads cores)")
	threads := fs.Int("threads", 1, "Klondike: goroutines searching each deal together")
	showMoves := fs.Bool("moves", false, "print the solution of a single deal")
	notation := fs.String("notation", "", "FreeCell --moves: \"fcs\" lays the moves out as fc-solve -m -snx does, ten to a line")
	listWon := fs.Bool("list-won", false, "print the won deals' numbers, one per line, after the report")
	check := fs.Bool("check", false, "FreeCell: write every solution in the notation and replay it (automatic moves off); report failures and the mean length")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *notation != "" && (*notation != "fcs" || game != "freecell") {
		fmt.Fprintf(stderr, "sshuffle solve: --notation %q: only freecell has a notation other than its own, \"fcs\"\n", *notation)
		return 2
	}
	if single != "" {
		*deals = single
	}
	if *threads < 1 || (*threads > 1 && entry.SolveOn == nil) {
		fmt.Fprintf(stderr, "sshuffle solve: --threads %d: only klondike searches a deal on several threads; use --threads 1\n", *threads)
		return 2
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["nodes"] {
		*nodes = entry.Nodes * *threads
	}
	if !set["workers"] {
		*workers = max(1, runtime.GOMAXPROCS(0) / *threads)
	}
	solveOne := entry.Solve
	if *threads > 1 {
		solveOne = func(spec engine.Spec, n int) engine.Result[engine.Action] { return entry.SolveOn(spec, n, *threads) }
	}
	lo, hi, err := parseRange(*deals)
	if err != nil {
		fmt.Fprintln(stderr, "sshuffle solve:", err)
		return 2
	}
	variant := ""
	switch game {
	case "klondike":
		variant = fmt.Sprintf("draw%d", *draw)
	case "spider":
		variant = fmt.Sprintf("%dsuit", *suits)
	}
	specOf := func(seed uint64) engine.Spec { return engine.Spec{Game: game, Variant: variant, Seed: seed} }
	if _, err := engine.ParseSpec(specOf(lo).String()); err != nil {
		fmt.Fprintln(stderr, "sshuffle solve:", err)
		return 2
	}
	// The game deals it or says why not (--draw 2, --suits 3): a deal that
	// can't be made is not an impossible one.
	if _, err := entry.Text(specOf(lo)); err != nil {
		fmt.Fprintln(stderr, "sshuffle solve:", err)
		return 2
	}

	keepMoves := single != "" && lo == hi && *showMoves
	start := time.Now()
	results := make([]dealOutcome, hi-lo+1)
	next := make(chan uint64)
	var wg sync.WaitGroup
	for range max(*workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range next {
				t := time.Now()
				r := solveOne(specOf(seed), *nodes)
				o := dealOutcome{seed: seed, outcome: r.Outcome, nodes: r.Nodes, took: time.Since(t)}
				// Keeping every solution of a long range would cost more
				// memory than the search.
				if keepMoves {
					o.moves = r.Moves
				}
				if *check && game == "freecell" && r.Outcome == engine.Solved {
					o.length, o.replayErr = checkFreecell(specOf(seed), r.Moves)
				}
				results[seed-lo] = o
			}
		}()
	}
	for s := lo; s <= hi; s++ {
		next <- s
	}
	close(next)
	wg.Wait()
	total := time.Since(start)

	if single != "" && lo == hi && *showMoves {
		r := results[0]
		if r.outcome != engine.Solved {
			fmt.Fprintf(stdout, "%s: %s after %d positions\n", specOf(lo), r.outcome, r.nodes)
			return 1
		}
		return printMoves(stdout, stderr, specOf(lo), r.moves, *notation == "fcs")
	}
	report(stdout, specOf(lo), lo, hi, results, total, *nodes, *workers, *threads)
	if *check {
		checkReport(stdout, results)
	}
	if *listWon {
		for _, r := range results {
			if r.outcome == engine.Solved {
				fmt.Fprintln(stdout, r.seed)
			}
		}
	}
	return 0
}

func report(w io.Writer, spec engine.Spec, lo, hi uint64, rs []dealOutcome, total time.Duration, nodes, workers, threads int) {
	var counts [3]int
	var times []time.Duration
	within2 := 0
	var slowest dealOutcome
	var impossible []uint64
	for _, r := range rs {
		counts[r.outcome]++
		times = append(times, r.took)
		if r.outcome != engine.Undecided && r.took <= 2*time.Second {
			within2++
		}
		if r.took > slowest.took {
			slowest = r
		}
		if r.outcome == engine.Impossible && len(impossible) < 20 {
			impossible = append(impossible, r.seed)
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
	fmt.Fprintf(w, "total %s\n", total.Round(time.Millisecond))
	if len(impossible) > 0 {
		fmt.Fprintf(w, "impossible deals (first %d): %v\n", len(impossible), impossible)
	}
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

func checkReport(w io.Writer, rs []dealOutcome) {
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
	fmt.Fprintf(w, "checked %d solutions: %d replay as wins, %d fail; mean length %.1f moves in the notation\n",
		checked, checked-failed, failed, float64(length)/float64(checked))
}
