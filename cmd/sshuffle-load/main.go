// Command sshuffle-load drives many SSH sessions against a running sshuffle
// server (or the bare Wish + Bubble Tea server of ../shared/bench/bare) on
// loopback and measures key-echo latency (from sending a cursor key to the
// frame that shows the cursor moved), the server's CPU and resident memory
// (read from /proc for -pid), idle CPU per session, bytes per key and for
// the first screens. It ramps in steps (-steps 500,1000,...) and prints one
// line per step (reports/capacity.md says how the runs use it). Its loops
// are bounded in count and time, and it only dials the address it is given.
package main

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

type options struct {
	addr     string
	pid      int
	steps    []int
	rate     float64
	settle   time.Duration
	duration time.Duration
	every    time.Duration
	idle     time.Duration
	idleAt   int
	stopP99  time.Duration
	spread   bool
	marker   string
	label    string
	metrics  string
	slow     time.Duration
}

func main() {
	var o options
	flag.StringVar(&o.addr, "addr", "127.0.0.1:2222", "server address (loopback only)")
	sessions := flag.Int("sessions", 100, "sessions to open (one step; see -steps)")
	stepsFlag := flag.String("steps", "", "comma-separated session counts to ramp through, measuring at each (e.g. 500,1000,2000)")
	ramp := flag.Duration("ramp", 10*time.Second, "time over which -sessions are opened (sets -rate when -rate is 0)")
	flag.Float64Var(&o.rate, "rate", 0, "sessions opened a second during ramps")
	flag.DurationVar(&o.settle, "settle", 3*time.Second, "wait after a ramp before measuring")
	flag.DurationVar(&o.duration, "duration", 30*time.Second, "measuring window at each step")
	flag.DurationVar(&o.every, "every", 2*time.Second, "one key per session this often")
	flag.DurationVar(&o.slow, "slow", 0, "print every echo slower than this to stderr, with the time its key was sent (to match against a server's or the collector's log)")
	flag.DurationVar(&o.idle, "idle", 0, "at one step (-idle-at), also measure this long with no keys pressed (idle CPU)")
	flag.IntVar(&o.idleAt, "idle-at", 0, "the step (session count) whose idle CPU is measured; 0: the first")
	flag.DurationVar(&o.stopP99, "stop-p99", 0, "stop stepping once a step's p99 echo is above this (0: never)")
	flag.IntVar(&o.pid, "pid", 0, "the server's process id, for its CPU and RSS (from /proc)")
	flag.StringVar(&o.marker, "marker", "48;5;220", "bytes that show the cursor was drawn (the cursor's background at 256 colours)")
	flag.StringVar(&o.label, "label", "", "a name for the server, printed on every result line")
	flag.StringVar(&o.metrics, "metrics", "", "sshuffle's metrics URL (http://127.0.0.1:PORT/metrics): also report the server's own key-to-frame p99 (a histogram bucket bound)")
	hostileOn := flag.Bool("hostile", false, "also run one hostile client (issue 10's items 1-7 in a loop) from 127.0.0.254")
	flag.BoolVar(&o.spread, "spread", false, "dial each session from its own 127.x.y.z address, so per-address caps see players, not one host")
	gcPercent := flag.Int("gogc", 800, "the load generator's own GOGC: its collector must not pause the readers whose clocks time the echoes")
	races := flag.Int("races", 0, "put the sessions in this many races instead (each of --racers), and time a move's progress reaching every other racer's screen")
	racersPer := flag.Int("racers", 4, "racers in each race (with --races)")
	tablesN := flag.Int("tables", 0, "seat the sessions at this many Kings tables instead (two load people and two computers each), and time a move reaching the other person's screen")
	flag.Parse()
	debug.SetGCPercent(*gcPercent)
	host, _, err := net.SplitHostPort(o.addr)
	if err != nil || !net.ParseIP(host).IsLoopback() {
		fmt.Fprintln(os.Stderr, "sshuffle-load: the address must be on loopback (127.0.0.0/8 or ::1)")
		os.Exit(2)
	}

	if *tablesN > 0 {
		os.Exit(tableMode(o.addr, *tablesN, *ramp, o.duration))
	}
	if *races > 0 {
		os.Exit(raceMode(o.addr, *races, *racersPer, *ramp, o.duration, o.every))
	}
	o.steps = []int{*sessions}
	if *stepsFlag != "" {
		o.steps = nil
		for _, f := range strings.Split(*stepsFlag, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n <= 0 || (len(o.steps) > 0 && n <= o.steps[len(o.steps)-1]) {
				fmt.Fprintln(os.Stderr, "sshuffle-load: -steps wants rising positive counts")
				os.Exit(2)
			}
			o.steps = append(o.steps, n)
		}
	}
	if o.rate <= 0 {
		o.rate = float64(o.steps[0]) / max(ramp.Seconds(), 0.001)
	}
	if n := raiseFileLimit(); n > 0 && n < uint64(o.steps[len(o.steps)-1])*2+64 {
		fmt.Fprintf(os.Stderr, "sshuffle-load: the open-file limit is %d; %d sessions need about %d\n",
			n, o.steps[len(o.steps)-1], o.steps[len(o.steps)-1]*2)
	}
	var h *hostile
	hostileDone := make(chan struct{})
	if *hostileOn {
		// As long as the steps are expected to take.
		last := o.steps[len(o.steps)-1]
		span := time.Duration(float64(last)/o.rate*float64(time.Second)) + o.idle + o.every + time.Second +
			time.Duration(len(o.steps))*(o.settle+o.duration)
		h = newHostile(o.addr, net.IPv4(127, 0, 0, 254))
		go func() { defer close(hostileDone); h.run(time.Now().Add(span)) }()
	} else {
		close(hostileDone)
	}
	ok := run(o)
	<-hostileDone
	if h != nil {
		fmt.Printf("hostile tries completed: %s\n", h.report())
	}
	if !ok {
		os.Exit(1)
	}
}

// raiseFileLimit lifts the soft open-file limit to the hard one and
// returns it (0 if it cannot tell).
func raiseFileLimit() uint64 {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0
	}
	if l.Cur < l.Max {
		l.Cur = l.Max
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l)
	}
	return l.Cur
}

// echo is one key's answer.
type echo struct {
	lat   time.Duration
	bytes int
}

// collector gathers the echoes of the step being measured.
type collector struct {
	mu      sync.Mutex
	on      bool
	echoes  []echo
	sent    int
	missed  int
	keysOn  atomic.Bool
	failed  atomic.Int64
	opened  atomic.Int64
	first   []int // bytes of the first screen (the menu), per session
	game    []int // bytes of the game's first screen, per session
	lateErr atomic.Int64
}

func (c *collector) key() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.on {
		c.sent++
	}
	return c.on
}

func (c *collector) add(counted bool, e echo, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !counted || !c.on {
		return
	}
	if err != nil {
		c.missed++
		return
	}
	c.echoes = append(c.echoes, e)
}

func (c *collector) start() {
	c.mu.Lock()
	c.on, c.echoes, c.sent, c.missed = true, nil, 0, 0
	c.mu.Unlock()
}

func (c *collector) stop() (echoes []echo, sent, missed int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.on = false
	return c.echoes, c.sent, c.missed
}

func run(o options) bool {
	col := &collector{}
	col.keysOn.Store(true)
	quit := make(chan struct{})
	probe := &stallProbe{}
	go probe.run(quit)
	var wg sync.WaitGroup
	base := procStat(o.pid)
	// The server's own cost with no session at all (its store's
	// compactors, its sweeper): what every session shares, so an idle
	// session's cost is also given above it.
	var emptyCores float64
	if o.idle > 0 && o.pid > 0 {
		t0 := time.Now()
		time.Sleep(min(o.idle, 10*time.Second))
		b := procStat(o.pid)
		emptyCores = (b.cpu - base.cpu).Seconds() / time.Since(t0).Seconds()
		base = b
	}
	fmt.Printf("load: %s pid %d, base RSS %.1f MiB, %.1f ms CPU a second with no session; %s; key every %v; window %v; GOMAXPROCS %s\n",
		o.addr, o.pid, float64(base.rss)/(1<<20), emptyCores*1e3, stepsText(o.steps), o.every, o.duration, os.Getenv("GOMAXPROCS"))
	all := true
	opened := 0
	// Fresh names each run: a name taken by an earlier run sends the
	// session to the name picker instead of the menu.
	tag := strconv.FormatInt(time.Now().UnixNano()/1e6%(36*36*36*36*36), 36)
	for si, n := range o.steps {
		gap := time.Duration(float64(time.Second) / o.rate)
		rampStart := time.Now()
		cpuR0 := procStat(o.pid)
		for i := opened; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var local net.IP
				if o.spread {
					local = net.IPv4(127, 1+byte(i/62500), byte(i/250%250), byte(i%250+1))
				}
				err := session(o, col, local, fmt.Sprintf("ld%s%05d", tag, i), quit)
				if err != nil {
					col.failed.Add(1)
					if col.lateErr.Add(1) <= 20 {
						fmt.Fprintln(os.Stderr, "session", i, err)
					}
				}
			}()
			time.Sleep(time.Until(rampStart.Add(time.Duration(i-opened+1) * gap)))
		}
		// Wait for the sessions to be in the game (or to have failed).
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if int(col.opened.Load()+col.failed.Load()) >= n {
				break
			}
		}
		rampCPU := procStat(o.pid).cpu - cpuR0.cpu
		rampN := n - opened
		opened = n
		time.Sleep(o.settle)
		idleText := ""
		if o.idle > 0 && (n == o.idleAt || (o.idleAt == 0 && si == 0)) {
			col.keysOn.Store(false)
			time.Sleep(o.every + time.Second) // answers in flight land
			a := procStat(o.pid)
			ticks0 := readCPUTicks()
			t0 := time.Now()
			time.Sleep(o.idle)
			b := procStat(o.pid)
			idleSteal := stealText(ticks0, readCPUTicks())
			wall := time.Since(t0)
			live := int(col.opened.Load())
			cores := (b.cpu - a.cpu).Seconds() / wall.Seconds()
			perSess := cores / float64(max(live, 1)) * 1e6
			above := (cores - emptyCores) / float64(max(live, 1)) * 1e6
			idleText = fmt.Sprintf(" idle_cpu_per_session_us=%.0f idle_cpu_per_session_above_empty_us=%.0f idle_steal_pct=%s", perSess, above, idleSteal)
			col.keysOn.Store(true)
			time.Sleep(o.every)
		}
		a := procStat(o.pid)
		self0 := procStat(os.Getpid())
		ticks0 := readCPUTicks()
		probe.take()
		h0 := histogram(o.metrics)
		t0 := time.Now()
		col.start()
		time.Sleep(o.duration)
		echoes, sent, missed := col.stop()
		serverText := ""
		if o.metrics != "" {
			serverText = " server_key_to_frame_p99_le_ms=" + bucketQuantile(h0, histogram(o.metrics), 0.99)
		}
		wall := time.Since(t0)
		b := procStat(o.pid)
		self1 := procStat(os.Getpid())
		ticks1 := readCPUTicks()
		stallMax, stalls := probe.take()
		live := int(col.opened.Load())
		lats := make([]time.Duration, len(echoes))
		sizes := make([]int, len(echoes))
		for i, e := range echoes {
			lats[i], sizes[i] = e.lat, e.bytes
		}
		slices.Sort(lats)
		slices.Sort(sizes)
		col.mu.Lock()
		first, game := slices.Clone(col.first), slices.Clone(col.game)
		col.mu.Unlock()
		slices.Sort(first)
		slices.Sort(game)
		cores := (b.cpu - a.cpu).Seconds() / wall.Seconds()
		rssPer := float64(b.rss-base.rss) / float64(max(live, 1))
		p99 := q(lats, 0.99)
		fmt.Printf("step%s sessions=%d live=%d failed=%d keys_sent=%d answered=%d missed=%d echo_p50_ms=%.1f echo_p90_ms=%.1f echo_p99_ms=%.1f echo_max_ms=%.1f "+
			"server_cores=%.3f rss_mib=%.1f rss_per_session_kib=%.0f bytes_per_key_p50=%d bytes_per_key_p90=%d first_screen_bytes=%d game_screen_bytes=%d "+
			"open_cpu_ms=%.1f loadgen_cores=%.2f loadgen_stall_max_ms=%.1f loadgen_stalls_20ms=%d load_avg=%s steal_pct=%s%s%s\n",
			labelText(o.label), n, live, col.failed.Load(), sent, len(echoes), missed,
			ms(q(lats, 0.5)), ms(q(lats, 0.9)), ms(p99), ms(q(lats, 1)),
			cores, float64(b.rss)/(1<<20), rssPer/1024, qi(sizes, 0.5), qi(sizes, 0.9), qi(first, 0.5), qi(game, 0.5),
			rampCPU.Seconds()/float64(max(rampN, 1))*1e3, (self1.cpu-self0.cpu).Seconds()/wall.Seconds(), ms(stallMax), stalls, loadAvg(), stealText(ticks0, ticks1), idleText, serverText)
		if missed > 0 || col.failed.Load() > 0 || len(echoes) == 0 {
			all = false
		}
		if o.stopP99 > 0 && p99 > o.stopP99 {
			break
		}
	}
	close(quit)
	wg.Wait()
	return all
}

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

// term is one open session: what it reads is counted, and a key's echo is
// the first read after the key that completes the marker.
type term struct {
	in     io.Writer
	mu     sync.Mutex
	total  int
	watch  bool
	sentAt time.Time
	since  int    // bytes read since the key
	tail   []byte // the last bytes read, for a marker split across reads
	marker []byte
	echoed chan echo
	closed chan struct{}
}

func (t *term) read(out io.Reader) {
	defer close(t.closed)
	buf := make([]byte, 4<<10)
	for {
		n, err := out.Read(buf)
		if n > 0 {
			now := time.Now()
			t.mu.Lock()
			t.total += n
			if t.watch {
				t.since += n
				t.tail = append(t.tail, buf[:n]...)
				if bytes.Contains(t.tail, t.marker) {
					t.watch = false
					select {
					case t.echoed <- echo{lat: now.Sub(t.sentAt), bytes: t.since}:
					default:
					}
				}
				if k := len(t.marker); len(t.tail) > k {
					t.tail = append(t.tail[:0], t.tail[len(t.tail)-k:]...)
				}
			}
			t.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// settle waits for bytes beyond after, then until nothing more has been
// read for quiet (at most max in all), and returns the bytes read in all.
func (t *term) settle(after int, quiet, max time.Duration) int {
	deadline := time.Now().Add(max)
	last := -1
	for time.Now().Before(deadline) {
		t.mu.Lock()
		n := t.total
		t.mu.Unlock()
		if n == last && n > after {
			return n
		}
		last = n
		time.Sleep(quiet)
	}
	return last
}

// press sends key and waits for its echo.
func (t *term) press(key string, timeout time.Duration) (echo, error) {
	t.mu.Lock()
	t.watch, t.sentAt, t.since, t.tail = true, time.Now(), 0, t.tail[:0]
	t.mu.Unlock()
	select {
	case <-t.echoed:
	default:
	}
	if _, err := io.WriteString(t.in, key); err != nil {
		return echo{}, err
	}
	select {
	case e := <-t.echoed:
		return e, nil
	case <-t.closed:
		return echo{}, errClosed
	case <-time.After(timeout):
		t.mu.Lock()
		t.watch = false
		t.mu.Unlock()
		return echo{}, fmt.Errorf("no echo within %v", timeout)
	}
}

// open dials, starts a shell on an 80x24 xterm-256color PTY and enters
// Klondike Draw 1 (the "1" key of the menu), recording the bytes of the
// first screen and of the game's.
func open(addr string, local net.IP, user, marker string) (*gossh.Client, *term, [2]int, error) {
	var sizes [2]int
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return nil, nil, sizes, err
	}
	c, err := dialFrom(addr, local, user, signer)
	if err != nil {
		return nil, nil, sizes, err
	}
	sess, err := c.NewSession()
	if err != nil {
		c.Close()
		return nil, nil, sizes, err
	}
	if err := sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
		c.Close()
		return nil, nil, sizes, err
	}
	in, _ := sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	t := &term{in: in, marker: []byte(marker), echoed: make(chan echo, 1), closed: make(chan struct{})}
	go t.read(out)
	if err := sess.Shell(); err != nil {
		c.Close()
		return nil, nil, sizes, err
	}
	sizes[0] = t.settle(0, 300*time.Millisecond, 20*time.Second)
	if sizes[0] <= 0 {
		c.Close()
		return nil, nil, sizes, errors.New("no first screen")
	}
	if _, err := io.WriteString(in, "1"); err != nil { // Klondike Draw 1
		c.Close()
		return nil, nil, sizes, err
	}
	sizes[1] = t.settle(sizes[0], 300*time.Millisecond, 20*time.Second) - sizes[0]
	return c, t, sizes, nil
}

// cursorKeys move the cursor right and left in turn: every press changes
// the screen, and its echo draws the cursor.
var cursorKeys = []string{"\x1b[C", "\x1b[D"}

// session plays one session until quit: a cursor key every o.every while
// keys are on, each echo handed to the collector.
func session(o options, col *collector, local net.IP, user string, quit <-chan struct{}) error {
	c, t, sizes, err := open(o.addr, local, user, o.marker)
	if err != nil {
		return err
	}
	defer c.Close()
	col.mu.Lock()
	col.first = append(col.first, sizes[0])
	col.game = append(col.game, sizes[1])
	col.mu.Unlock()
	col.opened.Add(1)
	defer col.opened.Add(-1)
	// Keys land at a random phase of the interval, not all at once.
	tick := time.NewTimer(time.Duration(mrand.Int64N(int64(o.every))))
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-quit:
			_, _ = io.WriteString(t.in, "q")
			return nil
		case <-t.closed:
			return errClosed
		case <-tick.C:
		}
		next := time.Now().Add(o.every)
		if col.keysOn.Load() {
			counted := col.key()
			sentAt := time.Now()
			e, err := t.press(cursorKeys[i%len(cursorKeys)], 10*time.Second)
			col.add(counted, e, err)
			if o.slow > 0 && err == nil && e.lat >= o.slow {
				fmt.Fprintf(os.Stderr, "slow echo: sent %s, %.1f ms\n", sentAt.UTC().Format("15:04:05.000"), ms(e.lat))
			}
			if errors.Is(err, errClosed) {
				return err
			}
		}
		tick.Reset(time.Until(next))
	}
}

var errClosed = errors.New("session closed by the server")

// play opens one session, enters Klondike and moves the cursor once every
// interval until stopAt, timing each key's echo.
func play(addr, user string, stopAt time.Time, every time.Duration) ([]time.Duration, error) {
	c, t, _, err := open(addr, nil, user, "48;5;220")
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var lat []time.Duration
	for i := 0; time.Now().Before(stopAt); i++ {
		e, err := t.press(cursorKeys[i%len(cursorKeys)], 10*time.Second)
		if err != nil {
			return lat, err
		}
		lat = append(lat, e.lat)
		time.Sleep(every)
	}
	_, _ = io.WriteString(t.in, "q")
	return lat, nil
}

// raceMode runs the races and prints what they measured; its exit status
// is 1 when a race failed or a move never reached a screen.
func raceMode(addr string, n, size int, ramp, duration, every time.Duration) int {
	if size < 2 || size > 8 {
		fmt.Fprintln(os.Stderr, "sshuffle-load: --racers is 2 to 8")
		return 2
	}
	return runRooms("race", n, ramp, duration, func(i int, stopAt time.Time) raceResult {
		return runRace(addr, i, size, stopAt, every)
	}, func(r roomTotals) string {
		return fmt.Sprintf("races %d of %d (%d failed); moves %d, reached other screens %d times, missed %d; move to other screens",
			n, size, r.failed, r.moves, r.reached, r.missed)
	})
}

// roomTotals is what a run of races or tables measured, summed.
type roomTotals struct{ failed, moves, reached, missed int }

// runRooms opens n rooms spread over ramp, each playing until ramp+duration
// is over, and prints what head says and the latency quantiles of every
// move reaching another screen; its exit status is 1 when a room failed or
// a move never reached a screen.
func runRooms(kind string, n int, ramp, duration time.Duration, run func(i int, stopAt time.Time) raceResult,
	head func(roomTotals) string) int {
	stopAt := time.Now().Add(ramp + duration)
	gap := ramp / time.Duration(n)
	var (
		mu  sync.Mutex
		lat []time.Duration
		t   roomTotals
		wg  sync.WaitGroup
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := run(i, stopAt)
			mu.Lock()
			defer mu.Unlock()
			if r.err != nil {
				t.failed++
				fmt.Fprintln(os.Stderr, kind, i, r.err)
			}
			lat = append(lat, r.lat...)
			t.missed += r.missed
			t.moves += r.moves
		}()
		time.Sleep(gap)
	}
	wg.Wait()
	t.reached = len(lat)
	slices.Sort(lat)
	q := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(int(p*float64(len(lat))), len(lat)-1)].Round(100 * time.Microsecond)
	}
	fmt.Printf("%s p50 %v p90 %v p99 %v max %v\n", head(t), q(0.5), q(0.9), q(0.99), q(1))
	if t.failed > 0 || t.missed > 0 {
		return 1
	}
	return 0
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
