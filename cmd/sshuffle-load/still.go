package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The still mode (--tables N --still): N tables seated and started as in
// the table mode, and then nobody moves. What a live session costs the
// server while it only sits there, its turn clocks ticking on every
// screen: the server's CPU a second per person seated and per session
// (people and watchers), over the window, and above what the server took
// with no session at all; its resident memory and, given its debug
// listener, its live heap (after a collection), goroutine stacks and
// goroutines, each per
// session above what they were before the first one. Every figure is the
// server's (pid), but those marked loadgen. The window must end before a
// turn clock runs out (60 s from a table's start by default): when one does,
// the computer plays the turn, and turns_changed counts the tables where
// that happened.

// serverMem is what the server's debug listener says of its memory.
type serverMem struct {
	ok         bool
	heapInuse  int64 // bytes, after a collection
	stack      int64 // bytes of goroutine stacks in use
	goroutines int
}

// debugMem reads the server's heap (forcing a collection first) and its
// goroutine count from its debug listener at base (http://127.0.0.1:PORT),
// which must be on loopback.
func debugMem(base string) serverMem {
	if base == "" {
		return serverMem{}
	}
	u, err := url.Parse(base)
	if err != nil || !net.ParseIP(u.Hostname()).IsLoopback() {
		return serverMem{}
	}
	c := http.Client{Timeout: 30 * time.Second}
	var m serverMem
	get := func(path string, line func(string) bool) bool {
		resp, err := c.Get(strings.TrimSuffix(base, "/") + path)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			if line(sc.Text()) {
				return true
			}
		}
		return false
	}
	seen := 0
	heap := get("/debug/pprof/heap?gc=1&debug=1", func(l string) bool {
		if v, ok := strings.CutPrefix(l, "# HeapInuse = "); ok {
			m.heapInuse, _ = strconv.ParseInt(v, 10, 64)
			seen++
		}
		if v, ok := strings.CutPrefix(l, "# Stack = "); ok { // "inuse / sys"
			inuse, _, _ := strings.Cut(v, " ")
			m.stack, _ = strconv.ParseInt(inuse, 10, 64)
			seen++
		}
		return seen == 2
	})
	gor := get("/debug/pprof/goroutine?debug=1", func(l string) bool {
		if v, ok := strings.CutPrefix(l, "goroutine profile: total "); ok {
			m.goroutines, _ = strconv.Atoi(v)
			return true
		}
		return false
	})
	m.ok = heap && gor
	return m
}

// stillMode seats the tables over ramp, waits for them to start, lets
// settle pass and measures for duration with nobody moving.
func stillMode(addr, game string, n, watchers int, ramp, settle, duration time.Duration, pid int, debug, cpuProfile string) int {
	g, ok := tableGames[game]
	if !ok {
		fmt.Fprintln(os.Stderr, "sshuffle-load: --game is kings or spite")
		return 2
	}
	if ramp+settle+duration > 55*time.Second {
		fmt.Fprintf(os.Stderr, "sshuffle-load: the ramp, settle and window (%v) outlast a 60 s turn clock: the first tables' clocks may run out in the window (turns_changed says how many)\n",
			ramp+settle+duration)
	}
	// The server before any session: its memory, and its CPU a second
	// with nobody on it (its store's compactors, its sweeper).
	mem0, srv0 := debugMem(debug), procStat(pid)
	const emptyFor = 3 * time.Second
	time.Sleep(emptyFor)
	srvE := procStat(pid)
	emptyCores := (srvE.cpu - srv0.cpu).Seconds() / emptyFor.Seconds()

	quit := make(chan struct{})
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		started atomic.Int64
		failed  atomic.Int64
		tables  [][]*racer // each started table's sessions, people first
	)
	gap := ramp / time.Duration(n)
	t0 := time.Now()
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			people, lookers, err := seatTable(addr, g, i, watchers)
			all := append(people, lookers...)
			defer func() {
				for _, r := range all {
					r.close()
				}
			}()
			if err != nil {
				failed.Add(1)
				fmt.Fprintln(os.Stderr, "still", i, err)
				return
			}
			mu.Lock()
			tables = append(tables, all)
			mu.Unlock()
			started.Add(1)
			<-quit
		}()
		time.Sleep(time.Until(t0.Add(time.Duration(i+1) * gap)))
	}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if int(started.Load()+failed.Load()) >= n {
			break
		}
	}
	time.Sleep(settle)

	mu.Lock()
	seated := slices.Clone(tables)
	mu.Unlock()
	turn := func(rs []*racer) bool { return rs[0].has(lineHas(0, "your turn", true)) }
	turns0 := make([]bool, len(seated))
	ticks0 := make([][]int, len(seated)) // each session's clock ticks so far
	for i, rs := range seated {
		turns0[i] = turn(rs)
		for _, r := range rs {
			ticks0[i] = append(ticks0[i], len(r.ticks()))
		}
	}
	profiled := make(chan error, 1)
	if cpuProfile != "" {
		go func() { profiled <- saveProfile(debug, cpuProfile, max(duration-time.Second, time.Second)) }()
	} else {
		profiled <- nil
	}
	w0, a, self0, cpu0, wait0 := time.Now(), procStat(pid), procStat(os.Getpid()), readCPUTicks(), runqWait(pid)
	time.Sleep(duration)
	w1, b, self1, cpu1, wait1 := time.Now(), procStat(pid), procStat(os.Getpid()), readCPUTicks(), runqWait(pid)
	changed := 0
	var tb []int // the bytes of each clock tick in the window
	for i, rs := range seated {
		if turn(rs) != turns0[i] {
			changed++
		}
		for k, r := range rs {
			tb = append(tb, r.ticks()[ticks0[i][k]:]...)
		}
	}
	// Memory while every session is still open.
	if err := <-profiled; err != nil {
		fmt.Fprintln(os.Stderr, "sshuffle-load: the CPU profile:", err)
	}
	mem1 := debugMem(debug)
	close(quit)
	wg.Wait()

	win := w1.Sub(w0).Seconds()
	tablesOK := len(seated)
	people := tablesOK * 2
	sessions := tablesOK * (2 + watchers)
	per := func(x float64, k int) float64 { return x / float64(max(k, 1)) }
	cores := (b.cpu - a.cpu).Seconds() / max(win, 1e-3)
	slices.Sort(tb)
	heapText := "server_heap_live_mib=? server_heap_per_session_kib=? server_stack_per_session_kib=? server_goroutines=? server_goroutines_per_session=?"
	if mem0.ok && mem1.ok {
		heapText = fmt.Sprintf("server_heap_live_mib=%.1f server_heap_per_session_kib=%.1f server_stack_per_session_kib=%.1f server_goroutines=%d server_goroutines_per_session=%.1f",
			float64(mem1.heapInuse)/(1<<20), per(float64(mem1.heapInuse-mem0.heapInuse)/1024, sessions),
			per(float64(mem1.stack-mem0.stack)/1024, sessions), mem1.goroutines, per(float64(mem1.goroutines-mem0.goroutines), sessions))
	}
	fmt.Printf("still %s tables %d (%d watchers each; %d failed): %d people, %d sessions, nobody moving for %.0f s\n",
		game, n, watchers, failed.Load(), people, sessions, win)
	fmt.Printf("result kind=still-%s rooms=%d failed=%d people=%d sessions=%d turns_changed=%d "+
		"server_cpu_us_per_s_per_person=%.1f server_cpu_us_per_s_per_session=%.1f server_cpu_above_empty_us_per_s_per_person=%.1f server_empty_cores=%.4f server_cores_window=%.3f "+
		"server_rss_base_mib=%.1f server_rss_mib=%.1f server_rss_per_session_kib=%.1f %s "+
		"ticks=%d tick_bytes_p50=%d tick_bytes_p90=%d tick_bytes_per_s_per_session=%.1f "+
		"loadgen_cores_window=%.3f server_runq_wait_ms_per_s=%.1f window_s=%.1f load_avg=%s steal_pct=%s\n",
		game, n, failed.Load(), people, sessions, changed,
		per(cores*1e6, people), per(cores*1e6, sessions), per((cores-emptyCores)*1e6, people), emptyCores, cores,
		float64(srv0.rss)/(1<<20), float64(b.rss)/(1<<20), per(float64(b.rss-srv0.rss)/1024, sessions), heapText,
		len(tb), qi(tb, 0.5), qi(tb, 0.9), per(float64(sumInts(tb))/max(win, 1e-3), sessions),
		(self1.cpu-self0.cpu).Seconds()/max(win, 1e-3), ms(wait1-wait0)/max(win, 1e-3), win, loadAvg(), stealText(cpu0, cpu1))
	if failed.Load() > 0 {
		return 1
	}
	return 0
}

// saveProfile writes the server's CPU profile over the next d, from its
// debug listener at base (on loopback), to file.
func saveProfile(base, file string, d time.Duration) error {
	u, err := url.Parse(base)
	if err != nil || !net.ParseIP(u.Hostname()).IsLoopback() {
		return fmt.Errorf("-debug must be on loopback: %q", base)
	}
	c := http.Client{Timeout: d + 30*time.Second}
	resp, err := c.Get(fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", strings.TrimSuffix(base, "/"), int(d.Seconds())))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s", resp.Status)
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

func sumInts(s []int) int {
	n := 0
	for _, x := range s {
		n += x
	}
	return n
}
