package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// movesOut is the file runRooms writes every move to (-moves-out).
var movesOut string

// writeMoves writes each group's moves to movesOut, in the order sent.
func writeMoves(groups []roomGroup, res []groupResult) error {
	type move struct {
		at   time.Time
		lat  time.Duration
		kind string
	}
	var all []move
	for k, g := range groups {
		for i, at := range res[k].sent {
			all = append(all, move{at, res[k].lat[i], g.kind})
		}
	}
	slices.SortFunc(all, func(a, b move) int { return a.at.Compare(b.at) })
	var b strings.Builder
	for _, m := range all {
		fmt.Fprintf(&b, "%d %.2f %s\n", m.at.UnixMilli(), ms(m.lat), m.kind)
	}
	return os.WriteFile(movesOut, []byte(b.String()), 0o644)
}

// roomTotals is what a run of races or tables measured, summed.
type roomTotals struct{ failed, moves, reached, missed int }

// roomGroup is one kind of room a run opens: n of them, each with people
// load people and watchers watching (computers are neither), run playing
// room i (numbered across every group of the run, so that names and
// source addresses stay apart) until stopAt.
type roomGroup struct {
	kind             string
	n                int
	people, watchers int
	run              func(i int, stopAt time.Time) raceResult
}

// groupResult is what one group's rooms measured.
type groupResult struct {
	roomTotals
	lat    []time.Duration
	sent   []time.Time // of each lat
	mb, tb []int
	win    []time.Duration // the lats of keys sent in the measured window
}

func (g *groupResult) add(r raceResult) {
	g.lat = append(g.lat, r.lat...)
	g.sent = append(g.sent, r.sent...)
	g.mb = append(g.mb, r.moveBytes...)
	g.tb = append(g.tb, r.tickBytes...)
	g.missed += r.missed
	g.moves += r.moves
	if r.err != nil {
		g.failed++
	}
}

// sort orders the figures for their quantiles and counts what reached;
// win is the lats of the keys sent from w0 to w1.
func (g *groupResult) sort(w0, w1 time.Time) {
	g.reached = len(g.lat)
	g.win = g.win[:0]
	for i, at := range g.sent {
		if !at.Before(w0) && at.Before(w1) {
			g.win = append(g.win, g.lat[i])
		}
	}
	slices.Sort(g.win)
	slices.Sort(g.lat)
	slices.Sort(g.mb)
	slices.Sort(g.tb)
}

func (g *groupResult) q(p float64) time.Duration {
	return q(g.lat, p).Round(100 * time.Microsecond)
}

// qw is q of the window's lats alone.
func (g *groupResult) qw(p float64) time.Duration {
	return q(g.win, p).Round(100 * time.Microsecond)
}

// openOrder is the group of each room in the order they are opened: the
// groups interleaved in proportion, so that every kind ramps over the
// whole ramp and each is at full strength by its end.
func openOrder(groups []roomGroup) []int {
	total := 0
	for _, g := range groups {
		total += g.n
	}
	order := make([]int, 0, total)
	opened := make([]int, len(groups))
	for range total {
		best := -1
		for k, g := range groups {
			if opened[k] >= g.n {
				continue
			}
			// The group furthest behind its share of the ramp so far.
			if best < 0 || opened[k]*groups[best].n < opened[best]*g.n {
				best = k
			}
		}
		order = append(order, best)
		opened[best]++
	}
	return order
}

// runRooms opens the groups' rooms spread over ramp (interleaved, see
// openOrder), each playing until ramp+duration is over, and prints what
// head says, the latency quantiles of every move reaching another screen,
// the bytes each other screen read for a move and for a clock tick, and
// whose CPU it took: the server's (pid, when given) and this generator's
// own, each over the whole run and over the window after the ramp, so that
// a figure can be read as the server's or the generator's. With more than
// one group, the result line has each group's own figures too, prefixed
// by its kind. Its exit status is 1 when a room failed or a move never
// reached a screen.
func runRooms(groups []roomGroup, ramp, duration time.Duration, pid int, head func(roomTotals) string) int {
	order := openOrder(groups)
	n := len(order)
	start := time.Now()
	stopAt := start.Add(ramp + duration)
	gap := ramp / time.Duration(max(n, 1))
	var (
		mu          sync.Mutex
		res         = make([]groupResult, len(groups))
		wg          sync.WaitGroup
		self0, srv0 = procStat(os.Getpid()), procStat(pid)
	)
	for i, k := range order {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := groups[k].run(i, stopAt)
			mu.Lock()
			defer mu.Unlock()
			if r.err != nil {
				fmt.Fprintln(os.Stderr, groups[k].kind, i, r.err)
			}
			res[k].add(r)
		}()
		time.Sleep(gap)
	}
	// The window: every room open, none closing yet.
	probe := &stallProbe{}
	quit := make(chan struct{})
	go probe.run(quit)
	time.Sleep(time.Until(start.Add(ramp + time.Second)))
	probe.take()
	w0, self1, srv1, ticks0, wait0 := time.Now(), procStat(os.Getpid()), procStat(pid), readCPUTicks(), runqWait(pid)
	time.Sleep(time.Until(stopAt))
	w1, self2, srv2, ticks1, wait1 := time.Now(), procStat(os.Getpid()), procStat(pid), readCPUTicks(), runqWait(pid)
	stallMax, stalls := probe.take()
	close(quit)
	wg.Wait()

	if movesOut != "" {
		// Before sort, which orders each group's lats apart from their sent.
		if err := writeMoves(groups, res); err != nil {
			fmt.Fprintln(os.Stderr, "writing the moves:", err)
		}
	}
	var all groupResult
	kinds := make([]string, len(groups))
	people, watchers := 0, 0
	for k, g := range groups {
		res[k].sort(w0, w1)
		all.lat = append(all.lat, res[k].lat...)
		all.sent = append(all.sent, res[k].sent...)
		all.mb = append(all.mb, res[k].mb...)
		all.tb = append(all.tb, res[k].tb...)
		all.failed += res[k].failed
		all.missed += res[k].missed
		all.moves += res[k].moves
		kinds[k] = g.kind
		people += g.n * g.people
		watchers += g.n * g.watchers
	}
	all.sort(w0, w1)
	sessions := people + watchers
	win := w1.Sub(w0).Seconds()
	fmt.Printf("%s p50 %v p90 %v p99 %v max %v\n", head(all.roomTotals), all.q(0.5), all.q(0.9), all.q(0.99), all.q(1))
	var line strings.Builder
	fmt.Fprintf(&line, "result kind=%s rooms=%d people=%d watchers=%d sessions=%d failed=%d moves=%d reached=%d missed=%d p50_ms=%.1f p90_ms=%.1f p99_ms=%.1f max_ms=%.1f "+
		"move_bytes_p50=%d move_bytes_p90=%d ticks=%d tick_bytes_p50=%d tick_bytes_p90=%d "+
		"loadgen_cpu_s=%.2f loadgen_cores_window=%.3f server_cpu_s=%.2f server_cores_window=%.3f server_rss_mib=%.1f server_rss_per_session_kib=%.0f server_runq_wait_ms_per_s=%.1f loadgen_stall_max_ms=%.1f loadgen_stalls_20ms=%d window_s=%.1f load_avg=%s steal_pct=%s",
		strings.Join(kinds, "+"), n, people, watchers, sessions, all.failed, all.moves, all.reached, all.missed, ms(all.q(0.5)), ms(all.q(0.9)), ms(all.q(0.99)), ms(all.q(1)),
		qi(all.mb, 0.5), qi(all.mb, 0.9), len(all.tb), qi(all.tb, 0.5), qi(all.tb, 0.9),
		(procStat(os.Getpid()).cpu - self0.cpu).Seconds(), (self2.cpu-self1.cpu).Seconds()/max(win, 1e-3),
		(srv2.cpu - srv0.cpu).Seconds(), (srv2.cpu-srv1.cpu).Seconds()/max(win, 1e-3), float64(srv2.rss)/(1<<20),
		float64(srv2.rss-srv0.rss)/1024/float64(max(sessions, 1)),
		ms(wait1-wait0)/max(win, 1e-3), ms(stallMax), stalls, win, loadAvg(), stealText(ticks0, ticks1))
	// The same of the keys sent in the window alone (the quantiles above
	// have the ramp's moves too, when sessions were still logging in).
	fmt.Fprintf(&line, " window_reached=%d window_p50_ms=%.1f window_p90_ms=%.1f window_p99_ms=%.1f",
		len(all.win), ms(all.qw(0.5)), ms(all.qw(0.9)), ms(all.qw(0.99)))
	if len(groups) > 1 {
		for k, g := range groups {
			r := &res[k]
			fmt.Fprintf(&line, " %[1]s_rooms=%[2]d %[1]s_failed=%[3]d %[1]s_moves=%[4]d %[1]s_reached=%[5]d %[1]s_missed=%[6]d %[1]s_p50_ms=%.1[7]f %[1]s_p90_ms=%.1[8]f %[1]s_p99_ms=%.1[9]f %[1]s_max_ms=%.1[10]f %[1]s_move_bytes_p90=%[11]d %[1]s_tick_bytes_p90=%[12]d %[1]s_window_p99_ms=%.1[13]f",
				g.kind, g.n, r.failed, r.moves, r.reached, r.missed, ms(r.q(0.5)), ms(r.q(0.9)), ms(r.q(0.99)), ms(r.q(1)), qi(r.mb, 0.9), qi(r.tb, 0.9), ms(r.qw(0.99)))
		}
	}
	fmt.Println(line.String())
	if all.failed > 0 || all.missed > 0 {
		return 1
	}
	return 0
}
