package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net"
	"strings"
	"sync"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// The hostile client's input items: a flood of random bytes typed into a
// game, a wave of connections that never start their handshake, and a
// loop of friend add over names nobody has. Each counts as completed when
// the server held: the flooded session still answers a key, an honest
// login gets through the wave, the probe is told to wait.
func init() {
	addHostile("9-input-flood", (*hostile).inputFlood)
	addHostile("11-half-open-wave", (*hostile).halfOpenWave)
	addHostile("12-name-probe", (*hostile).nameProbe)
}

// inputFlood opens a game and types 4 MB of random bytes into it as fast
// as the server reads, then presses ctrl+c until the session ends.
func (h *hostile) inputFlood() error {
	c, err := h.dial()
	if err != nil {
		return err
	}
	defer c.Close()
	s, err := c.NewSession()
	if err != nil {
		return err
	}
	defer s.Close()
	if err := s.RequestPty("xterm-256color", 24, 80, nil); err != nil {
		return err
	}
	in, _ := s.StdinPipe()
	out, _ := s.StdoutPipe()
	go func() { _, _ = io.Copy(io.Discard, out) }()
	if err := s.Shell(); err != nil {
		return err
	}
	time.Sleep(300 * time.Millisecond)
	_, _ = io.WriteString(in, "\r") // the first game on the menu
	time.Sleep(300 * time.Millisecond)
	chunk := make([]byte, 64<<10)
	for range 64 {
		for i := range chunk {
			b := byte(mrand.Uint32())
			switch b {
			case 0x03, 'q', 'Q': // the keys that end the session early
				b = ' '
			}
			chunk[i] = b
		}
		if _, err := in.Write(chunk); err != nil {
			return fmt.Errorf("flood: %w", err)
		}
	}
	ended := make(chan error, 1)
	go func() { ended <- s.Wait() }()
	for range 20 {
		_, _ = io.WriteString(in, "\x03")
		select {
		case <-ended:
			return nil
		case <-time.After(500 * time.Millisecond):
		}
	}
	return errors.New("flooded session did not answer ctrl+c in 10 s")
}

// halfOpenWave opens 250 TCP connections from 250 loopback addresses that
// never send a byte, holds them 5 s while an honest login tries to get in,
// then lets them go.
func (h *hostile) halfOpenWave() error {
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	for i := range 250 {
		d := net.Dialer{Timeout: 2 * time.Second, LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 254, byte(i/250), byte(i%250+1))}}
		if c, err := d.Dial("tcp", h.addr); err == nil {
			held = append(held, c)
		}
	}
	stop := time.Now().Add(5 * time.Second)
	var err error
	for time.Now().Before(stop) {
		var c *gossh.Client
		if c, err = h.dial(); err == nil {
			c.Close()
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(time.Until(stop))
	if err != nil {
		return fmt.Errorf("no honest login through the wave: %w", err)
	}
	return nil
}

// probeKey is the name prober's key: friend add needs an account, so it
// logs in once with a PTY to have one.
var probeKey = sync.OnceValues(func() (gossh.Signer, error) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	return gossh.NewSignerFromKey(priv)
})

// nameProbe runs friend add over 30 names nobody has; it holds when the
// server tells it to wait before the 30 are answered.
func (h *hostile) nameProbe() error {
	signer, err := probeKey()
	if err != nil {
		return err
	}
	user := fmt.Sprintf("probe%d", mrand.IntN(1_000_000))
	c, err := dialFrom(h.addr, h.local, user, signer)
	if err != nil {
		return err
	}
	defer c.Close()
	if s, err := c.NewSession(); err == nil {
		// The account comes with the first session with a PTY.
		if s.RequestPty("xterm", 24, 80, nil) == nil && s.Shell() == nil {
			time.Sleep(300 * time.Millisecond)
		}
		s.Close()
	}
	for i := range 30 {
		s, err := c.NewSession()
		if err != nil {
			return err
		}
		out, _ := s.CombinedOutput(fmt.Sprintf("friend add nx%d%d", mrand.IntN(1_000_000), i))
		s.Close()
		if strings.Contains(string(out), "Too many names") {
			return nil
		}
	}
	return errors.New("30 unknown names answered without a wait")
}
