package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"slices"
	"sync"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// loginProbe is a newcomer arriving every interval while the run goes:
// a fresh key from a fresh loopback address, timed from dialling to its
// first screen. It answers "can a new player still get in?" during a
// flood, which the honest sessions, all logged in before it, cannot.
type loginProbe struct {
	addr  string
	every time.Duration

	mu     sync.Mutex
	took   []time.Duration
	failed int
}

// run probes until quit; each login is its own goroutine, so a stalled
// one does not hold up the next.
func (p *loginProbe) run(quit <-chan struct{}) {
	var wg sync.WaitGroup
	defer wg.Wait()
	t := time.NewTicker(p.every)
	defer t.Stop()
	for i := 0; ; i++ {
		select {
		case <-quit:
			return
		case <-t.C:
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := net.IPv4(127, 3, byte(i/250%250), byte(i%250+1))
			d, err := p.login(local)
			p.mu.Lock()
			defer p.mu.Unlock()
			if err != nil {
				p.failed++
				return
			}
			p.took = append(p.took, d)
		}()
	}
}

var errNoScreen = errors.New("no first screen within 20 s")

// login is what a person does: try, and try again at once if the server
// dropped the connection (as a server under a flood of half-open
// connections may, at random); three tries at most, timed together.
func (p *loginProbe) login(local net.IP) (time.Duration, error) {
	t0 := time.Now()
	var err error
	for range 3 {
		if _, err = p.once(local); err == nil {
			return time.Since(t0), nil
		}
		if errors.Is(err, errNoScreen) {
			break
		}
	}
	return 0, err
}

// once logs in and waits for the first bytes of a screen (20 s at most).
func (p *loginProbe) once(local net.IP) (time.Duration, error) {
	t0 := time.Now()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return 0, err
	}
	c, err := dialFrom(p.addr, local, "probe", signer)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	s, err := c.NewSession()
	if err != nil {
		return 0, err
	}
	if err := s.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
		return 0, err
	}
	out, _ := s.StdoutPipe()
	if err := s.Shell(); err != nil {
		return 0, err
	}
	got := make(chan error, 1)
	go func() {
		var b [1]byte
		_, err := io.ReadFull(out, b[:])
		got <- err
	}()
	select {
	case err := <-got:
		if err != nil {
			return 0, err
		}
		return time.Since(t0), nil
	case <-time.After(20 * time.Second):
		return 0, errNoScreen
	}
}

// take returns the logins since the last take, sorted, and the failures.
func (p *loginProbe) take() ([]time.Duration, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	took, failed := p.took, p.failed
	p.took, p.failed = nil, 0
	slices.Sort(took)
	return took, failed
}
