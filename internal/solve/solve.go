// Package solve is the solve command: deals of a game run through its
// solver, reported as solved, impossible or undecided with the time taken.
// Both the arcade's binary (sshuffle solve) and the lean sshuffle-solve,
// which holds the games and nothing of the server, run it.
package solve

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
	cpu     time.Duration // the deal's CPU time, if cpuMeasure says how
	moves   []engine.Action
	// With --check: the solution's length (FreeCell: in the notation;
	// other games: in actions), and why it failed to replay as a win, if
	// it did.
	length    int
	replayErr error
}

// checkWin replays a solution through the game's rules (its default
// options) from a fresh deal: every action must be legal, and the last
// must leave the game won.
func checkWin(newGame func(engine.Spec, games.Options) (engine.Solitaire, error), spec engine.Spec, moves []engine.Action) (int, error) {
	g, err := newGame(spec, nil)
	if err != nil {
		return 0, err
	}
	for i, a := range moves {
		if err := g.Do(a); err != nil {
			return len(moves), fmt.Errorf("action %d: %w", i+1, err)
		}
	}
	if !g.Won() {
		return len(moves), fmt.Errorf("the replay does not win")
	}
	return len(moves), nil
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

// solveJob is what solve was asked to do: which deals of which game, with
// what budget, on how many workers.
type solveJob struct {
	game      string
	single    string // a single deal named before the flags, if any
	specOf    func(seed uint64) engine.Spec
	lo, hi    uint64
	nodes     int
	workers   int
	threads   int
	solveOne  func(spec engine.Spec, nodes int) engine.Result[engine.Action]
	showMoves bool
	fcs       bool // --notation fcs
	listWon   bool
	check     bool
	newGame   func(engine.Spec, games.Options) (engine.Solitaire, error)
	// cpuProfile is where the searches' CPU profile goes, or "".
	cpuProfile string
}

// Run solves a range of deals (or one) with the game's solver and
// reports how it went, or prints one deal's solution.
func Run(args []string, stdout, stderr io.Writer) int {
	if os.Getenv("GOGC") == "" {
		// Between deals almost nothing is live (the solver's pooled
		// tables, a few hundred KB), and the collector's default lets
		// the heap reach twice that but at least 4 MB: most of the
		// process. Half costs little, the searches making little
		// garbage.
		debug.SetGCPercent(50)
	}
	j, code := parseSolve(args, stderr)
	if code != 0 {
		return code
	}
	if procs := j.workers * j.threads; os.Getenv("GOMAXPROCS") == "" && procs < runtime.GOMAXPROCS(0) {
		// The searches use workers x threads cores; the runtime would
		// still wake threads on the others to collect garbage beside them,
		// a tenth more CPU in all on a range of quick FreeCell deals.
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	}
	if j.cpuProfile != "" {
		f, err := os.Create(j.cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(stderr, "sshuffle solve: --cpuprofile:", err)
			return 2
		}
		// A profile cut short by a full disk would read as a short run.
		defer func() {
			pprof.StopCPUProfile()
			if err := f.Close(); err != nil {
				fmt.Fprintln(stderr, "sshuffle solve: --cpuprofile:", err)
			}
		}()
	}
	start := time.Now()
	results := j.run()
	total := time.Since(start)

	if j.keepMoves() {
		r := results[0]
		if r.outcome != engine.Solved {
			fmt.Fprintf(stdout, "%s: %s after %d positions\n", j.specOf(j.lo), r.outcome, r.nodes)
			return 1
		}
		return printMoves(stdout, stderr, j.specOf(j.lo), r.moves, j.fcs)
	}
	report(stdout, j.specOf(j.lo), j.lo, j.hi, results, total, j.nodes, j.workers, j.threads, j.cpuMeasure())
	if j.check {
		unit := "actions"
		if j.game == "freecell" {
			unit = "moves in the notation"
		}
		checkReport(stdout, results, unit)
	}
	if j.listWon {
		for _, r := range results {
			if r.outcome == engine.Solved {
				fmt.Fprintln(stdout, r.seed)
			}
		}
	}
	return 0
}

// Usage is the command's words and flags.
const Usage = `usage: solve freecell|klondike|spider|tripeaks|pyramid [DEAL] [--deals A-B] [--draw 1|3] [--suits 1|2|4]
        [--nodes N] [--workers N] [--threads N] [--moves] [--notation fcs] [--list-won] [--check]
`

// parseSolve reads solve's words and flags into a job; a non-zero code
// says they were wrong (said on stderr).
func parseSolve(args []string, stderr io.Writer) (solveJob, int) {
	var j solveJob
	if len(args) < 1 {
		fmt.Fprint(stderr, Usage)
		return j, 2
	}
	game, args := args[0], args[1:]
	entry, ok := games.Default().Game(game)
	ok = ok && entry.Solve != nil
	if !ok {
		fmt.Fprintf(stderr, "sshuffle solve: unknown game %q\n", game)
		return j, 2
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
	check := fs.Bool("check", false, "replay every win through the game's rules (FreeCell: written in the notation, automatic moves off); report failures and the mean length")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file, for go tool pprof")
	if err := fs.Parse(args); err != nil {
		return j, 2
	}
	if *notation != "" && (*notation != "fcs" || game != "freecell") {
		fmt.Fprintf(stderr, "sshuffle solve: --notation %q: only freecell has a notation other than its own, \"fcs\"\n", *notation)
		return j, 2
	}
	if single != "" {
		*deals = single
	}
	if *threads < 1 || (*threads > 1 && entry.SolveOn == nil) {
		fmt.Fprintf(stderr, "sshuffle solve: --threads %d: only klondike searches a deal on several threads; use --threads 1\n", *threads)
		return j, 2
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
		return j, 2
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
		return j, 2
	}
	// The game deals it or says why not (--draw 2, --suits 3): a deal that
	// can't be made is not an impossible one.
	if _, err := entry.Text(specOf(lo)); err != nil {
		fmt.Fprintln(stderr, "sshuffle solve:", err)
		return j, 2
	}
	return solveJob{
		game: game, single: single, specOf: specOf, lo: lo, hi: hi, nodes: *nodes, workers: *workers, threads: *threads,
		solveOne: solveOne, showMoves: *showMoves, fcs: *notation == "fcs", listWon: *listWon, check: *check,
		newGame: entry.New, cpuProfile: *cpuProfile,
	}, 0
}

// cpuMeasure says how a deal's CPU time is measured, or "" if it is not.
// With one worker the whole process's CPU between a deal's start and end
// is the deal's: its search, the collector's work on what the search made
// and the runtime beside them. With several workers each searching alone,
// a worker's goroutine is locked to an OS thread and the deal's CPU is
// that thread's, which leaves out the collector's background work on other
// threads. Several workers of several threads each are not measured.
func (j solveJob) cpuMeasure() string {
	switch {
	case j.workers <= 1:
		if _, ok := processCPU(); ok {
			return "process CPU, one worker"
		}
	case j.threads == 1:
		if _, ok := threadCPU(); ok {
			return "the worker thread's CPU"
		}
	}
	return ""
}

// keepMoves: a single deal's moves are asked for.
func (j solveJob) keepMoves() bool { return j.single != "" && j.lo == j.hi && j.showMoves }

// run solves the job's deals on its workers, each deal's outcome at its
// place.
func (j solveJob) run() []dealOutcome {
	keepMoves := j.keepMoves()
	results := make([]dealOutcome, j.hi-j.lo+1)
	// Workers take the next deal from a counter: handing each deal over a
	// channel woke a goroutine on another core for every deal, which cost a
	// fifth of the CPU of a range of fast deals.
	var next atomic.Uint64
	next.Store(j.lo)
	measure := j.cpuMeasure()
	cpuNow := processCPU
	if j.workers > 1 {
		cpuNow = threadCPU
	}
	var wg sync.WaitGroup
	for range max(j.workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if measure != "" {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
			}
			for {
				seed := next.Add(1) - 1
				if seed > j.hi || seed < j.lo {
					return
				}
				t := time.Now()
				var c0 time.Duration
				if measure != "" {
					c0, _ = cpuNow()
				}
				r := j.solveOne(j.specOf(seed), j.nodes)
				o := dealOutcome{seed: seed, outcome: r.Outcome, nodes: r.Nodes, took: time.Since(t)}
				if measure != "" {
					c1, _ := cpuNow()
					o.cpu = c1 - c0
				}
				// Keeping every solution of a long range would cost more
				// memory than the search.
				if keepMoves {
					o.moves = r.Moves
				}
				switch {
				case !j.check || r.Outcome != engine.Solved:
				case j.game == "freecell":
					o.length, o.replayErr = checkFreecell(j.specOf(seed), r.Moves)
				default:
					o.length, o.replayErr = checkWin(j.newGame, j.specOf(seed), r.Moves)
				}
				results[seed-j.lo] = o
			}
		}()
	}
	wg.Wait()
	return results
}
