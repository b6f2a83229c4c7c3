package main

import (
	"cmp"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// hostile is one client that loops through what a client could do to the
// server: a huge window, floods of env requests and
// channels, connections that hold a slot, a resize before the shell, a
// 100 KB command, and a hint flood on FreeCell deal 11982. It dials from
// its own loopback address, so the per-address caps apply to it alone.
type hostile struct {
	addr  string
	local net.IP
	stats map[string]*atomic.Int64
	idle  []*gossh.Client // connections item 4 holds open
}

func newHostile(addr string, local net.IP) *hostile {
	h := &hostile{addr: addr, local: local, stats: map[string]*atomic.Int64{}}
	for _, it := range hostileItems {
		h.stats[it.name] = &atomic.Int64{}
	}
	return h
}

// hostileItem is one thing the hostile client tries, again and again.
// Items in other files add themselves with addHostile.
type hostileItem struct {
	name string // "N-what": the loop runs them in the order of N
	try  func(h *hostile) error
}

var hostileItems []hostileItem

// addHostile adds an item to the loop, in the order of its number.
func addHostile(name string, try func(h *hostile) error) {
	hostileItems = append(hostileItems, hostileItem{name, try})
	slices.SortFunc(hostileItems, func(a, b hostileItem) int { return cmp.Compare(itemNumber(a.name), itemNumber(b.name)) })
}

// onlyHostile keeps the items named in list (numbers or whole names,
// comma-separated; "" keeps them all).
func onlyHostile(list string) error {
	if list == "" {
		return nil
	}
	var kept []hostileItem
	for _, w := range strings.Split(list, ",") {
		n := len(kept)
		for _, it := range hostileItems {
			if it.name == w || strconv.Itoa(itemNumber(it.name)) == w {
				kept = append(kept, it)
			}
		}
		if len(kept) == n {
			return fmt.Errorf("no hostile item %q", w)
		}
	}
	hostileItems = kept
	return nil
}

func itemNumber(name string) int {
	n, _ := strconv.Atoi(name[:strings.IndexByte(name, '-')])
	return n
}

func init() {
	addHostile("1-huge-window", func(h *hostile) error {
		return h.shell(func(s *gossh.Session) error { return s.RequestPty("xterm", 65535, 65535, nil) }, nil)
	})
	addHostile("2-env-flood", func(h *hostile) error {
		return h.shell(func(s *gossh.Session) error {
			big := strings.Repeat("x", 200<<10)
			for i := range 200 {
				_ = s.Setenv(fmt.Sprintf("LC_%d", i), big)
			}
			return s.RequestPty("xterm", 24, 80, nil)
		}, nil)
	})
	addHostile("3-channel-flood", (*hostile).channels)
	addHostile("4-idle-conns", func(h *hostile) error {
		// Hold a few logged-in connections open with no session; the
		// server closes them at its start deadline.
		for range 3 {
			if c, err := h.dial(); err == nil {
				h.idle = append(h.idle, c)
			}
		}
		if len(h.idle) > 12 {
			for _, c := range h.idle[:len(h.idle)-12] {
				c.Close()
			}
			h.idle = h.idle[len(h.idle)-12:]
		}
		return nil
	})
	addHostile("5-early-resize", func(h *hostile) error {
		return h.shell(func(s *gossh.Session) error {
			if err := s.RequestPty("xterm", 24, 80, nil); err != nil {
				return err
			}
			return s.WindowChange(40, 120)
		}, nil)
	})
	addHostile("6-long-command", func(h *hostile) error { return h.exec(strings.Repeat("'a b' ", 100<<10/6)) })
	addHostile("7-hint-flood", func(h *hostile) error {
		return h.shell(func(s *gossh.Session) error { return s.RequestPty("xterm-256color", 24, 80, nil) },
			func(in io.Writer) {
				_, _ = io.WriteString(in, "3")
				time.Sleep(300 * time.Millisecond)
				_, _ = io.WriteString(in, "#11982\r")
				time.Sleep(300 * time.Millisecond)
				for range 60 {
					_, _ = io.WriteString(in, "t")
					time.Sleep(20 * time.Millisecond)
				}
			})
	})
}

func (h *hostile) dial() (*gossh.Client, error) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return nil, err
	}
	return dialFrom(h.addr, h.local, "hostile", signer)
}

// dialFrom connects from a chosen loopback source address.
func dialFrom(addr string, local net.IP, user string, signer gossh.Signer) (*gossh.Client, error) {
	d := net.Dialer{Timeout: 20 * time.Second}
	if local != nil {
		d.LocalAddr = &net.TCPAddr{IP: local}
	}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	cfg := &gossh.ClientConfig{User: user, Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 20 * time.Second}
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	c, chans, reqs, err := gossh.NewClientConn(conn, addr, cfg)
	if err != nil {
		conn.Close()
		return nil, err
	}
	_ = conn.SetDeadline(time.Time{})
	return gossh.NewClient(c, chans, reqs), nil
}

// run loops until stopAt; each item's count of completed tries is kept.
func (h *hostile) run(stopAt time.Time) {
	defer func() {
		for _, c := range h.idle {
			c.Close()
		}
	}()
	for time.Now().Before(stopAt) {
		for _, item := range hostileItems {
			if !time.Now().Before(stopAt) {
				return
			}
			if item.try(h) == nil {
				h.stats[item.name].Add(1)
			}
		}
	}
}

// shell opens a session, applies setup, starts the shell (with a 15 s
// limit: a window-change before the shell must not keep the shell from
// being answered), runs act, and closes it.
func (h *hostile) shell(setup func(*gossh.Session) error, act func(io.Writer)) error {
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
	if err := setup(s); err != nil {
		return err
	}
	in, _ := s.StdinPipe()
	out, _ := s.StdoutPipe()
	go func() { _, _ = io.Copy(io.Discard, out) }()
	started := make(chan error, 1)
	go func() { started <- s.Shell() }()
	select {
	case err := <-started:
		if err != nil {
			return err
		}
	case <-time.After(15 * time.Second):
		return fmt.Errorf("shell not answered in 15 s")
	}
	if act != nil {
		act(in)
	}
	time.Sleep(200 * time.Millisecond)
	return nil
}

func (h *hostile) channels() error {
	c, err := h.dial()
	if err != nil {
		return err
	}
	defer c.Close()
	for range 100 {
		ch, _, err := c.OpenChannel("session", nil)
		if err != nil {
			continue // refused past the cap, as it should be
		}
		go func() { _, _ = ch.Write(make([]byte, 1<<20)) }()
	}
	return nil
}

func (h *hostile) exec(cmd string) error {
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
	_ = s.Run(cmd) // refused with exit 1
	return nil
}

func (h *hostile) report() string {
	var b strings.Builder
	for _, k := range hostileItems {
		fmt.Fprintf(&b, " %s=%d", k.name, h.stats[k.name].Load())
	}
	return strings.TrimSpace(b.String())
}
