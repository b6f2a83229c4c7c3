package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net"
	"os"
	"sync"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// The SSH client side of a load run: one session, its keys and their echoes.

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
