package main

// What a run reads from the server and the machine: its process, its key
// histogram, stalls, steal time, and the quantiles of what it measured.

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

func labelText(l string) string {
	if l == "" {
		return ""
	}
	return " server=" + l
}

func stepsText(s []int) string {
	parts := make([]string, len(s))
	for i, n := range s {
		parts[i] = strconv.Itoa(n)
	}
	return "steps " + strings.Join(parts, ",")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func q(s []time.Duration, p float64) time.Duration {
	if len(s) == 0 {
		return 0
	}
	return s[min(int(p*float64(len(s))), len(s)-1)]
}

func qi(s []int, p float64) int {
	if len(s) == 0 {
		return 0
	}
	return s[min(int(p*float64(len(s))), len(s)-1)]
}

// stat is a process's CPU time (user + system) and resident set.
type stat struct {
	cpu time.Duration
	rss int64 // bytes
}

// procStat reads /proc/PID/stat and status; zero when pid is 0 or gone.
func procStat(pid int) stat {
	if pid <= 0 {
		return stat{}
	}
	var st stat
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		// Fields after the command name, which is in parentheses.
		if i := bytes.LastIndexByte(b, ')'); i >= 0 {
			f := strings.Fields(string(b[i+1:]))
			if len(f) > 13 {
				u, _ := strconv.ParseInt(f[11], 10, 64)
				s, _ := strconv.ParseInt(f[12], 10, 64)
				st.cpu = time.Duration(u+s) * time.Second / 100 // USER_HZ
			}
		}
	}
	if run, ok := schedRun(pid); ok {
		st.cpu = run
	}
	if f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				st.rss = kb << 10
			}
		}
		_ = f.Close()
	}
	return st
}

// histogram reads sshuffle_key_to_frame_seconds's cumulative buckets (upper
// bound in seconds -> count) from a metrics URL on loopback.
func histogram(url string) map[float64]float64 {
	if url == "" {
		return nil
	}
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	out := map[float64]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, `sshuffle_key_to_frame_seconds_bucket{le="`)
		if !ok {
			continue
		}
		le, count, ok := strings.Cut(rest, `"} `)
		if !ok {
			continue
		}
		n, err := strconv.ParseFloat(count, 64)
		if err != nil {
			continue
		}
		bound := math.Inf(1)
		if le != "+Inf" {
			if bound, err = strconv.ParseFloat(le, 64); err != nil {
				continue
			}
		}
		out[bound] = n
	}
	return out
}

// bucketQuantile is the upper bound (ms) of the bucket holding quantile p
// of the counts added between a and b.
func bucketQuantile(a, b map[float64]float64, p float64) string {
	if len(b) == 0 {
		return "?"
	}
	bounds := make([]float64, 0, len(b))
	for k := range b {
		bounds = append(bounds, k)
	}
	slices.Sort(bounds)
	total := b[math.Inf(1)] - a[math.Inf(1)]
	if total <= 0 {
		return "?"
	}
	for _, k := range bounds {
		if b[k]-a[k] >= p*total {
			if math.IsInf(k, 1) {
				return "inf"
			}
			return strconv.FormatFloat(k*1000, 'f', -1, 64)
		}
	}
	return "inf"
}

// loadAvg is the machine's one-minute load average, printed with each step
// so that a figure taken beside other work can be read as such.
// stallProbe measures the load generator's own hold-ups: a goroutine asks
// to wake every 5 ms and notes how late it wakes. An echo timed while the
// generator itself was held up (its collector, the host taking its core)
// is late by that much without the server having been slow.
type stallProbe struct {
	mu    sync.Mutex
	max   time.Duration
	over  int // wake-ups 20 ms or more late
	total int
}

func (p *stallProbe) run(quit <-chan struct{}) {
	const step = 5 * time.Millisecond
	t := time.NewTicker(step)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-quit:
			return
		case now := <-t.C:
			late := now.Sub(last) - step
			last = now
			p.mu.Lock()
			p.total++
			p.max = max(p.max, late)
			if late >= 20*time.Millisecond {
				p.over++
			}
			p.mu.Unlock()
		}
	}
}

// take returns what was seen since the last take and starts again.
func (p *stallProbe) take() (worst time.Duration, over int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	worst, over = p.max, p.over
	p.max, p.over, p.total = 0, 0, 0
	return worst, over
}

// cpuTicks is one CPU's line of /proc/stat: its steal ticks and all of
// them.
type cpuTicks struct{ steal, total uint64 }

// parseCPUTicks reads the per-CPU lines (cpu0, cpu1, ...) of /proc/stat.
func parseCPUTicks(stat string) []cpuTicks {
	var out []cpuTicks
	for _, line := range strings.Split(stat, "\n") {
		f := strings.Fields(line)
		if len(f) < 9 || !strings.HasPrefix(f[0], "cpu") || f[0] == "cpu" {
			continue
		}
		var t cpuTicks
		for i, v := range f[1:] {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				break
			}
			if i < 8 { // guest time is counted in user time already
				t.total += n
			}
			if i == 7 {
				t.steal = n
			}
		}
		out = append(out, t)
	}
	return out
}

func readCPUTicks() []cpuTicks {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return nil
	}
	return parseCPUTicks(string(b))
}

// stealText is the share of each CPU's time the hypervisor gave to someone
// else between a and b: on a shared host, a step whose server core lost
// much of its time is not comparable with one that did not.
func stealText(a, b []cpuTicks) string {
	if len(a) == 0 || len(a) != len(b) {
		return "?"
	}
	var parts []string
	for i := range a {
		pct := 0.0
		if d := b[i].total - a[i].total; d > 0 {
			pct = float64(b[i].steal-a[i].steal) / float64(d) * 100
		}
		parts = append(parts, fmt.Sprintf("%d:%.0f", i, pct))
	}
	return strings.Join(parts, ",")
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return "?"
}

// runqWait is the time the threads of process pid have spent runnable but
// waiting for a CPU (the second field of each /proc/PID/task/*/schedstat):
// on a core shared with other work, the time the server was ready and
// someone else ran. Zero when pid is 0 or the kernel keeps no schedstats.
func runqWait(pid int) time.Duration {
	if pid <= 0 {
		return 0
	}
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	var sum time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
		if err != nil {
			continue
		}
		sum += parseRunqWait(string(b))
	}
	return sum
}

// schedRun is the CPU time of pid's threads to the nanosecond (the first
// field of each /proc/PID/task/*/schedstat). /proc/PID/stat counts CPU in
// clock ticks, 10 ms each, charged to whichever thread a tick finds
// running: a still server using a hundredth of its core gets a few ticks
// a second, and its CPU a person over a 20 s window varied by a tenth
// from that alone. False when the kernel keeps no schedstats.
func schedRun(pid int) (time.Duration, bool) {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return 0, false
	}
	var sum time.Duration
	ok := false
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) < 1 {
			continue
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			continue
		}
		sum += time.Duration(n)
		ok = true
	}
	return sum, ok
}

// parseRunqWait reads the wait (ns) of a schedstat line "run wait slices".
func parseRunqWait(s string) time.Duration {
	f := strings.Fields(s)
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.ParseInt(f[1], 10, 64)
	return time.Duration(n)
}
