package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/vt"
	gossh "golang.org/x/crypto/ssh"
)

// The race mode (--races N): N races of --racers players each. In every
// race the racers take turns to turn a stock card, one move every
// --every/racers, and each other racer's screen is read (through a terminal
// emulator, as a person sees it) until that racer's panel shows the move.
// The figure is the time from the key to each other racer's screen: a
// move's progress reaching everyone else.

// racer is one session in a race, its screen kept by an emulator.
type racer struct {
	name string
	c    *gossh.Client
	sess *gossh.Session
	in   io.Writer

	mu    sync.Mutex
	emu   *vt.Emulator
	waits []*wait // moves of others this screen has yet to show
}

// wait is one move of another racer this racer's screen must show.
type wait struct {
	who   string // the mover's name
	moves int
	sent  time.Time
	seen  chan time.Duration
}

func (r *racer) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n, err := r.emu.Write(p)
	if len(r.waits) > 0 {
		now := time.Now()
		screen := r.emu.String()
		keep := r.waits[:0]
		for _, w := range r.waits {
			if shows(screen, w.who, w.moves) {
				w.seen <- now.Sub(w.sent)
				continue
			}
			keep = append(keep, w)
		}
		r.waits = keep
	}
	return n, err
}

func (r *racer) screen() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.emu.String()
}

// expect registers a move to look for; it may be on the screen already.
func (r *racer) expect(w *wait) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if shows(r.emu.String(), w.who, w.moves) {
		w.seen <- time.Since(w.sent)
		return
	}
	r.waits = append(r.waits, w)
}

// shows reports a panel line of who with the given move count: the side
// panel has the name on one line and "home/total Nm" on the next; folded,
// both are on one line.
func shows(screen, who string, moves int) bool {
	want := fmt.Sprintf("/52 %dm", moves)
	lines := strings.Split(screen, "\n")
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
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if s := r.screen(); strings.Contains(s, want) {
			return s, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return "", fmt.Errorf("%s: screen never showed %q", r.name, want)
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
	r := &racer{name: name, c: c, emu: vt.NewEmulator(80, 24)}
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
	go func() { _, _ = io.Copy(in, r.emu) }() // the terminal's answers to queries
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
	lat    []time.Duration
	missed int // moves some other screen did not show within 10 s
	moves  int
	err    error
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
		var ws []*wait
		sent := time.Now()
		for j, r := range racers {
			if j == k {
				continue
			}
			w := &wait{who: mover.name, moves: moves[k], sent: sent, seen: make(chan time.Duration, 1)}
			ws = append(ws, w)
			r.expect(w)
		}
		if _, err := io.WriteString(mover.in, "d"); err != nil {
			res.err = err
			return res
		}
		res.moves++
		timeout := time.After(10 * time.Second)
		for _, w := range ws {
			select {
			case d := <-w.seen:
				res.lat = append(res.lat, d)
			case <-timeout:
				res.missed++
			}
		}
		time.Sleep(max(step-time.Since(sent), 0))
	}
	return res
}
