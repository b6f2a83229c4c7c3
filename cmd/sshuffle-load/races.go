package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// The race mode (--races N): N races of --racers players each. In every
// race the racers take turns to turn a stock card, one move every
// --every/racers, and each other racer's screen is read (through a terminal
// emulator, as a person sees it) until that racer's panel shows the move.
// The figure is the time from the key to each other racer's screen: a
// move's progress reaching everyone else.

// racer is one session in a race or at a table, its screen kept by a view.
type racer struct {
	name string
	c    *gossh.Client
	sess *gossh.Session
	in   io.Writer

	mu    sync.Mutex
	v     *view
	conds []*cond // what readers wait for this screen to show
	tick  []int   // bytes of each write that only counted the clock down
}

func (r *racer) Write(p []byte) (int, error) {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	was := r.v.lines[0]
	changed := r.v.write(p)
	if changed != 0 && len(r.conds) > 0 {
		r.conds = settleConds(r.conds, r.v.lines, now)
	}
	if clockTick(changed, was, r.v.lines[0]) {
		r.tick = append(r.tick, len(p))
	}
	return len(p), nil
}

// has reports whether the screen satisfies ok now.
func (r *racer) has(ok func([]string) bool) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return ok(r.v.lines)
}

// ticks is the bytes of each clock tick this screen was sent.
func (r *racer) ticks() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.tick)
}

func (r *racer) screen() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.v.String()
}

// read is the bytes this screen has been sent so far.
func (r *racer) read() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.v.bytes
}

// expect registers c; the screen may show it already.
func (r *racer) expect(c *cond) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c.ok(r.v.lines) {
		c.seen <- time.Since(c.sent)
		return
	}
	r.conds = append(r.conds, c)
}

// drop forgets c (given up on).
func (r *racer) drop(c *cond) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, x := range r.conds {
		if x == c {
			r.conds = append(r.conds[:i], r.conds[i+1:]...)
			return
		}
	}
}

// until waits at most d for the screen to satisfy ok and returns the time
// from sent to the write that did.
func (r *racer) until(ok func([]string) bool, sent time.Time, d time.Duration) (time.Duration, bool) {
	c := newCond(ok, sent)
	r.expect(c)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case lat := <-c.seen:
		return lat, true
	case <-t.C:
		r.drop(c)
		return 0, false
	}
}

// shows reports a panel line of who with the given move count: the side
// panel has the name on one line and "home/total Nm" on the next; folded,
// both are on one line.
func shows(lines []string, who string, moves int) bool {
	want := fmt.Sprintf("/52 %dm", moves)
	for i, l := range lines {
		j := strings.Index(l, " "+who)
		if j < 0 {
			continue
		}
		if strings.Contains(l[j:], want) || (i+1 < len(lines) && strings.Contains(lines[i+1], want)) {
			return true
		}
	}
	return false
}

func (r *racer) waitFor(want string, d time.Duration) (string, error) {
	if _, ok := r.until(containsLine(want), time.Now(), d); !ok {
		return "", fmt.Errorf("%s: screen never showed %q", r.name, want)
	}
	return r.screen(), nil
}

func (r *racer) close() {
	if r.sess != nil {
		_ = r.sess.Close()
	}
	if r.c != nil {
		_ = r.c.Close()
	}
}

// openRacer connects as name from local and runs command with an 80x24 PTY.
func openRacer(addr string, local net.IP, name, command string) (*racer, error) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return nil, err
	}
	c, err := dialFrom(addr, local, name, signer)
	if err != nil {
		return nil, err
	}
	r := &racer{name: name, c: c, v: newView(80, 24)}
	sess, err := c.NewSession()
	if err != nil {
		c.Close()
		return nil, err
	}
	r.sess = sess
	if err := sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
		r.close()
		return nil, err
	}
	in, _ := sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	r.in = in
	go func() { _, _ = io.Copy(r, out) }()
	go func() { _, _ = io.Copy(in, r.v.emu) }() // the terminal's answers to queries
	if err := sess.Start(command); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

var raceCode = regexp.MustCompile(`Race ([A-Z]{5})`)

// runPrefix keeps one run's player names apart from an earlier run's on
// the same server (a taken name would send a racer to the name picker).
var runPrefix = func() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = 'a' + b[i]%26
	}
	return string(b[:])
}()

// raceResult is what one race measured.
type raceResult struct {
	lat []time.Duration
	// sent is when the key of each lat was sent, to tell the moves of the
	// measured window from the ramp's.
	sent []time.Time
	// moveBytes is what each other screen read from a move's key to the
	// write that showed it; tickBytes the writes that only ticked a clock.
	moveBytes, tickBytes []int
	missed               int // moves some other screen did not show within 10 s
	moves                int
	err                  error
}

// runRace opens race n with size racers, starts it, and plays until
// stopAt, each racer moving once every `every`, in turns.
func runRace(addr string, n, size int, stopAt time.Time, every time.Duration) raceResult {
	var res raceResult
	local := func(k int) net.IP { return net.IPv4(127, 2+byte(n/250), byte(n%250), byte(k+1)) }
	name := func(k int) string { return fmt.Sprintf("%s%04dp%d", runPrefix, n, k) }
	host, err := openRacer(addr, local(0), name(0), fmt.Sprintf("race klondike/draw1/%d", 1000+n))
	if err != nil {
		return raceResult{err: err}
	}
	racers := []*racer{host}
	defer func() {
		for _, r := range racers {
			r.close()
		}
	}()
	s, err := host.waitFor("Invite: ", 30*time.Second)
	if err != nil {
		return raceResult{err: err}
	}
	m := raceCode.FindStringSubmatch(s)
	if m == nil {
		return raceResult{err: errors.New("no race code on the host's screen")}
	}
	for k := 1; k < size; k++ {
		r, err := openRacer(addr, local(k), name(k), "join "+m[1])
		if err != nil {
			return raceResult{err: err}
		}
		racers = append(racers, r)
	}
	if _, err := host.waitFor(fmt.Sprintf("Racers (%d/8)", size), 30*time.Second); err != nil {
		return raceResult{err: err}
	}
	if _, err := io.WriteString(host.in, "s"); err != nil {
		return raceResult{err: err}
	}
	for _, r := range racers {
		if _, err := r.waitFor("Moves 0 ", 30*time.Second); err != nil {
			return raceResult{err: err}
		}
	}
	moves := make([]int, size)
	step := every / time.Duration(size)
	for turn := 0; time.Now().Before(stopAt); turn++ {
		k := turn % size
		mover := racers[k]
		moves[k]++
		var (
			cs []*cond
			on []*racer
			b0 []int
		)
		sent := time.Now()
		who, m := mover.name, moves[k]
		for j, r := range racers {
			if j == k {
				continue
			}
			c := newCond(func(l []string) bool { return shows(l, who, m) }, sent)
			cs, on, b0 = append(cs, c), append(on, r), append(b0, r.read())
			r.expect(c)
		}
		if _, err := io.WriteString(mover.in, "d"); err != nil {
			res.err = err
			return res
		}
		res.moves++
		timeout := time.After(10 * time.Second)
		for j, c := range cs {
			select {
			case d := <-c.seen:
				res.lat, res.sent = append(res.lat, d), append(res.sent, sent)
				res.moveBytes = append(res.moveBytes, on[j].read()-b0[j])
			case <-timeout:
				res.missed++
				on[j].drop(c)
			}
		}
		time.Sleep(max(step-time.Since(sent), 0))
	}
	return res
}
