package klondike

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"sshuffle/engine"
	"sshuffle/reports"
)

// threadCPU is the calling thread's user+system time; the goroutine must be
// locked to its thread.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(1, &ru) // RUSAGE_THREAD
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestList solves a range of deals on two workers and lists the undecided
// and slow ones with their CPU time, e.g.
// KLIST=draw3:1-1000 go test -run TestList -v -timeout 0 ./games/klondike/
// It fails if it proves lost a deal the kept report, or the file
// KLIST_WON, lists as won.
// KLIST_SEEDS="3 17 40" picks deals instead of a range, KLIST_NODES sets the
// budget, KLIST_SHARE="5 1" the Draw 1 : Draw 3 share (relaxShare) and
// KLIST_RESTART="20000 6 512" the restart unit, growth (in quarters) and
// noise. KLIST_THREADS=2 searches one deal at a time on two goroutines
// (SolveOn) and times each by the clock instead of by CPU.
func TestList(t *testing.T) {
	spec := os.Getenv("KLIST")
	if spec == "" {
		t.Skip()
	}
	v, rng, _ := strings.Cut(spec, ":")
	var seeds []int
	if s := os.Getenv("KLIST_SEEDS"); s != "" {
		for _, f := range strings.Fields(s) {
			n, _ := strconv.Atoi(f)
			seeds = append(seeds, n)
		}
	} else {
		a, b, _ := strings.Cut(rng, "-")
		lo, _ := strconv.Atoi(a)
		hi, _ := strconv.Atoi(b)
		for s := lo; s <= hi; s++ {
			seeds = append(seeds, s)
		}
	}
	if sh := strings.Fields(os.Getenv("KLIST_SHARE")); len(sh) == 2 {
		a, _ := strconv.Atoi(sh[0])
		b, _ := strconv.Atoi(sh[1])
		relaxShare = [2]int{a, b}
	}
	if sh := strings.Fields(os.Getenv("KLIST_RESTART")); len(sh) == 3 {
		a, _ := strconv.Atoi(sh[0])
		b, _ := strconv.Atoi(sh[1])
		c, _ := strconv.Atoi(sh[2])
		restartUnit, restartGrowth, restartNoise = a, b, int32(c)
	}
	nodes := DefaultNodes
	if n, _ := strconv.Atoi(os.Getenv("KLIST_NODES")); n > 0 {
		nodes = n
	}
	type res struct {
		seed  int
		out   engine.Outcome
		nodes int
		cpu   time.Duration
	}
	threads, _ := strconv.Atoi(os.Getenv("KLIST_THREADS"))
	threads = max(threads, 1)
	clock := threadCPU
	workers := 2
	if threads > 1 {
		t0 := time.Now()
		clock = func() time.Duration { return time.Since(t0) }
		workers = 1
	}
	rs := make([]res, len(seeds))
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(seeds) {
					return
				}
				c0 := clock()
				r := SolveOn(engine.Spec{Game: "klondike", Variant: v, Seed: uint64(seeds[i])}, nodes, threads)
				rs[i] = res{seeds[i], r.Outcome, r.Nodes, clock() - c0}
				if r.Outcome == engine.Solved {
					replayWins(t, engine.Spec{Game: "klondike", Variant: v, Seed: uint64(seeds[i])}, r.Moves)
				}
			}
		}()
	}
	wg.Wait()
	var won, lost, und, fast int
	var cpus []time.Duration
	var total time.Duration
	var undl, slow, lostl []string
	var dnodes []int
	for _, r := range rs {
		cpus = append(cpus, r.cpu)
		total += r.cpu
		switch r.out {
		case engine.Solved:
			won++
		case engine.Impossible:
			lost++
			lostl = append(lostl, strconv.Itoa(r.seed))
		default:
			und++
			undl = append(undl, strconv.Itoa(r.seed))
		}
		if r.out != engine.Undecided {
			dnodes = append(dnodes, r.nodes)
		}
		if r.out != engine.Undecided && r.cpu <= 2*time.Second {
			fast++
		} else if r.out != engine.Undecided {
			slow = append(slow, fmt.Sprintf("%d(%v %s)", r.seed, r.cpu.Round(time.Millisecond), r.out))
		}
	}
	sort.Slice(cpus, func(i, j int) bool { return cpus[i] < cpus[j] })
	n := len(rs)
	fmt.Printf("%s %d deals nodes %d: won %d impossible %d undecided %d; decided within 2s cpu %d (%.1f%%); p50 %v p99 %v max %v total %v\n",
		v, n, nodes, won, lost, und, fast, 100*float64(fast)/float64(n), cpus[n/2], cpus[min(n*99/100, n-1)], cpus[n-1], total.Round(time.Millisecond))
	// A deal the kept report lists as won must never be proved lost: a
	// new pruning rule that does so is unsound.
	wonSet := map[int]bool{}
	if r, ok := reports.For("klondike/" + v); ok {
		for _, w := range r.Won {
			wonSet[int(w)] = true
		}
	}
	// KLIST_WON names a file of won deals, one number a line (the output
	// of sshuffle solve --list-won), for checking ranges the report does
	// not cover.
	if f := os.Getenv("KLIST_WON"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if n, err := strconv.Atoi(strings.TrimSpace(line)); err == nil {
				wonSet[n] = true
			}
		}
	}
	for _, x := range rs {
		if x.out == engine.Impossible && wonSet[x.seed] {
			t.Errorf("deal %d: listed as won, the solver says impossible", x.seed)
		}
	}
	fmt.Println("undecided:", strings.Join(undl, " "))
	fmt.Println("impossible:", strings.Join(lostl, " "))
	sort.Ints(dnodes)
	for _, q := range []int{50, 90, 95, 98, 99, 100} {
		if len(dnodes) > 0 {
			fmt.Printf("decided nodes p%d %d\n", q, dnodes[min(len(dnodes)*q/100, len(dnodes)-1)])
		}
	}
	fmt.Println("slow decided:", strings.Join(slow, " "))
}

// BenchmarkSolveDeals solves KBENCH deals ("draw3:143 draw1:47") once per
// iteration, for profiling.
func BenchmarkSolveDeals(b *testing.B) {
	fs := strings.Fields(os.Getenv("KBENCH"))
	if len(fs) == 0 {
		fs = []string{"draw3:143"}
	}
	for range b.N {
		for _, f := range fs {
			v, sd, _ := strings.Cut(f, ":")
			seed, _ := strconv.Atoi(sd)
			Solve(engine.Spec{Game: "klondike", Variant: v, Seed: uint64(seed)}, DefaultNodes)
		}
	}
}

// TestDeadCount counts deals the start check proves lost: KDEAD=draw3:1-1000.
func TestDeadCount(t *testing.T) {
	spec := os.Getenv("KDEAD")
	if spec == "" {
		t.Skip()
	}
	v, rng, _ := strings.Cut(spec, ":")
	a, b, _ := strings.Cut(rng, "-")
	lo, _ := strconv.Atoi(a)
	hi, _ := strconv.Atoi(b)
	var list []string
	for seed := lo; seed <= hi; seed++ {
		g, _ := New(engine.Spec{Game: "klondike", Variant: v, Seed: uint64(seed)})
		sv := &solver{draw: g.draw}
		s := fromGame(g)
		sv.auto(&s, nil)
		if sv.dead(&s) {
			list = append(list, strconv.Itoa(seed))
		}
	}
	fmt.Println(len(list), "dead:", strings.Join(list, " "))
}
