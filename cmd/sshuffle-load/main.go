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
	"flag"
	"fmt"
	"net"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
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
	// loginEvery, when set, has a newcomer log in this often.
	loginEvery time.Duration
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
	hostileOn := flag.Bool("hostile", false, "also run one hostile client (what a client could do to the server, in a loop) from 127.0.0.254")
	hostileOnly := flag.String("hostile-only", "", "with --hostile: only these items, by number or name (e.g. 8,10 or 8-table-flood)")
	listHostile := flag.Bool("hostile-list", false, "print the hostile client's items, one a line, and exit")
	flag.DurationVar(&o.loginEvery, "login-probe", 0, "also log a new key in this often (from 127.3.x.y) and report how long its first screen took")
	flag.BoolVar(&o.spread, "spread", false, "dial each session from its own 127.x.y.z address, so per-address caps see players, not one host")
	gcPercent := flag.Int("gogc", 800, "the load generator's own GOGC: its collector must not pause the readers whose clocks time the echoes")
	races := flag.Int("races", 0, "put the sessions in this many races instead (each of --racers), and time a move's progress reaching every other racer's screen")
	racersPer := flag.Int("racers", 4, "racers in each race (with --races)")
	tablesN := flag.Int("tables", 0, "seat the sessions at this many Kings tables instead (two load people and two computers each), and time a move reaching the other person's screen")
	game := flag.String("game", "kings", "with --tables: kings (two load people, two computers) or spite (two load people)")
	mixFlag := flag.String("mix", "", "seat tables of several games at once instead of --tables/--game, each as game:tables (kings:400,spite:200): opened interleaved over one ramp, measured over one window, reported together and per game")
	think := flag.Duration("think", 0, "with --tables: a person waits up to this long (at random) before ending a turn, so the turn clocks tick meanwhile")
	watchers := flag.Int("watchers", 0, "with --tables: this many more sessions watch each table, and a move is timed to their screens too")
	still := flag.Bool("still", false, "with --tables: seat and start the tables, then nobody moves; measure the server's idle CPU per person and memory per session (see -debug)")
	debugURL := flag.String("debug", "", "with --still: the server's debug listener (http://127.0.0.1:PORT, sshuffle serve --debug-addr), for its live heap and goroutines per session")
	flag.StringVar(&movesOut, "moves-out", "", "with --races, --tables or --mix: write every move reaching a screen to this file, one a line: the key's send time (Unix ms), the latency (ms) and the room's kind, to find when the slow ones happened")
	cpuProfile := flag.String("cpuprofile", "", "with --still and -debug: write the server's CPU profile over the window to this file")
	flag.Parse()
	if *listHostile {
		for _, it := range hostileItems {
			fmt.Println(it.name)
		}
		return
	}
	debug.SetGCPercent(*gcPercent)
	host, _, err := net.SplitHostPort(o.addr)
	if err != nil || !net.ParseIP(host).IsLoopback() {
		fmt.Fprintln(os.Stderr, "sshuffle-load: the address must be on loopback (127.0.0.0/8 or ::1)")
		os.Exit(2)
	}

	if *mixFlag != "" && *still {
		fmt.Fprintln(os.Stderr, "sshuffle-load: --still takes --tables and --game, not --mix")
		os.Exit(2)
	}
	if *tablesN > 0 && *still {
		os.Exit(stillMode(o.addr, *game, *tablesN, *watchers, *ramp, o.settle, o.duration, o.pid, *debugURL, *cpuProfile))
	}
	if *mixFlag != "" || *tablesN > 0 {
		spec := *mixFlag
		if spec == "" {
			spec = fmt.Sprintf("%s:%d", *game, *tablesN)
		}
		mix, err := parseMix(spec)
		if err != nil {
			fmt.Fprintln(os.Stderr, "sshuffle-load:", err)
			os.Exit(2)
		}
		os.Exit(tableMode(o.addr, mix, *watchers, *think, *ramp, o.duration, o.pid))
	}
	if *races > 0 {
		os.Exit(raceMode(o.addr, *races, *racersPer, *ramp, o.duration, o.every, o.pid))
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
		if err := onlyHostile(*hostileOnly); err != nil {
			fmt.Fprintln(os.Stderr, "sshuffle-load:", err)
			os.Exit(2)
		}
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
	var logins *loginProbe
	if o.loginEvery > 0 {
		logins = &loginProbe{addr: o.addr, every: o.loginEvery}
		go logins.run(quit)
	}
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
		if logins != nil {
			logins.take()
		}
		h0 := histogram(o.metrics)
		t0 := time.Now()
		col.start()
		time.Sleep(o.duration)
		echoes, sent, missed := col.stop()
		serverText := ""
		if logins != nil {
			took, lf := logins.take()
			serverText += fmt.Sprintf(" logins=%d login_failed=%d login_p50_ms=%.1f login_max_ms=%.1f", len(took), lf, ms(q(took, 0.5)), ms(q(took, 1)))
			if lf > 0 {
				all = false
			}
		}
		if o.metrics != "" {
			serverText += " server_key_to_frame_p99_le_ms=" + bucketQuantile(h0, histogram(o.metrics), 0.99)
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

// raceMode runs the races and prints what they measured; its exit status
// is 1 when a race failed or a move never reached a screen.
func raceMode(addr string, n, size int, ramp, duration, every time.Duration, pid int) int {
	if size < 2 || size > 8 {
		fmt.Fprintln(os.Stderr, "sshuffle-load: --racers is 2 to 8")
		return 2
	}
	return runRooms([]roomGroup{{kind: "race", n: n, people: size, run: func(i int, stopAt time.Time) raceResult {
		return runRace(addr, i, size, stopAt, every)
	}}}, ramp, duration, pid, func(r roomTotals) string {
		return fmt.Sprintf("races %d of %d (%d failed); moves %d, reached other screens %d times, missed %d; move to other screens",
			n, size, r.failed, r.moves, r.reached, r.missed)
	})
}
