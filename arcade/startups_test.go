package arcade

import (
	"crypto/ed25519"
	crand "crypto/rand"
	"io"
	"math/rand/v2"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"
)

func TestParseStartups(t *testing.T) {
	for in, want := range map[string]Startups{
		"10:30:100": {10, 30, 100},
		"5:100:5":   {5, 100, 5},
		"20":        {20, 100, 20},
	} {
		got, err := ParseStartups(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
		require.Equal(t, in != "20", got.String() == in)
	}
	for _, bad := range []string{"", "10:30", "a:b:c", "10:30:5", "10:130:100", "-1:30:100", "0:30:0"} {
		_, err := ParseStartups(bad)
		require.Error(t, err, bad)
	}
}

// Below start every connection is admitted; past it some are dropped and
// some admitted, more dropped the nearer to full; at full all are dropped.
func TestStartupsDropAtRandomPastStart(t *testing.T) {
	s := DefaultStartups
	rng := rand.New(rand.NewPCG(1, 2))
	refused := func(n int) int {
		k := 0
		for range 1000 {
			if s.refuse(n, rng.Float64) {
				k++
			}
		}
		return k
	}
	require.Zero(t, refused(0))
	require.Zero(t, refused(s.Start-1))
	atStart, half := refused(s.Start), refused((s.Start+s.Full)/2)
	require.InDelta(t, 300, atStart, 60, "rate%% at start")
	require.InDelta(t, 650, half, 60, "halfway to full")
	require.Equal(t, 1000, refused(s.Full))
	require.Equal(t, 1000, refused(s.Full+50))
}

// A connection past its login no longer counts: with room for a single
// unauthenticated connection, logins one after another all get in.
func TestAuthenticatedConnectionsDoNotCountAsStartups(t *testing.T) {
	ts := startServerWith(t, Config{MaxStartups: Startups{Start: 1, Rate: 100, Full: 1}})
	for i := range 3 {
		c, err := tryDial(ts.addr)
		require.NoError(t, err)
		defer c.Close()
		ts.srv.mu.Lock()
		n, total := ts.srv.startups, ts.srv.total
		ts.srv.mu.Unlock()
		require.Zero(t, n, "login %d still counted as unauthenticated", i)
		require.Equal(t, i+1, total)
	}
	// A half-open connection does count; a login then takes its place,
	// and the half-open one is closed.
	raw, err := net.Dial("tcp", ts.addr)
	require.NoError(t, err)
	defer raw.Close()
	require.Eventually(t, func() bool {
		ts.srv.mu.Lock()
		defer ts.srv.mu.Unlock()
		return ts.srv.startups == 1
	}, 5*time.Second, 10*time.Millisecond)
	c, err := tryDial(ts.addr)
	require.NoError(t, err, "a login with the one place taken by a half-open connection")
	defer c.Close()
	_ = raw.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err = io.ReadAll(raw)
	require.NoError(t, err, "the half-open connection is closed by the server, not left to time out")
}

func tryDial(addr string) (*gossh.Client, error) {
	_, priv, err := ed25519.GenerateKey(crand.Reader)
	if err != nil {
		return nil, err
	}
	key, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return nil, err
	}
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: "honest", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second,
	})
	if err != nil {
		return nil, err
	}
	// A round trip: the server has taken the connection in (the SSH
	// library tracks it only after the handshake, racing a Shutdown
	// that comes before).
	if _, _, err := c.SendRequest("keepalive@openssh.com", true, nil); err != nil {
		_ = c.Close()
		return nil, err
	}
	return c, nil
}

// An honest login gets through at its first try while a wave of
// connections that never start their handshake is held open, more than
// the server's total cap (the players') would take, and the wave stays
// within MaxStartups' full.
func TestHonestLoginGetsThroughAHalfOpenWave(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 11))
	// The total cap is 10+64 connections; the wave is 120.
	ts := startServerWith(t, Config{MaxSessions: 10, MaxPerAddr: 1000, StartupDraw: rng.Float64})
	var held []net.Conn
	defer func() {
		for _, c := range held {
			_ = c.Close()
		}
	}()
	startups := func() int {
		ts.srv.mu.Lock()
		defer ts.srv.mu.Unlock()
		return ts.srv.startups
	}
	for range 120 {
		c, err := net.Dial("tcp", ts.addr)
		require.NoError(t, err)
		held = append(held, c)
	}
	// The whole wave taken in: each connection is held, or took an
	// older one's place, or was refused.
	taken := func() int {
		ts.srv.mu.Lock()
		total := ts.srv.total
		ts.srv.mu.Unlock()
		m := ts.srv.metrics.refusedC
		return total + int(testutil.ToFloat64(m.WithLabelValues("startups_evicted"))+testutil.ToFloat64(m.WithLabelValues("startups")))
	}
	require.Eventually(t, func() bool { return taken() == len(held) }, 5*time.Second, 10*time.Millisecond, "the wave is held")
	require.Greater(t, startups(), DefaultStartups.Start)
	for i := range 5 {
		c, err := tryDial(ts.addr)
		require.NoError(t, err, "honest login %d, first try", i)
		_ = c.Close()
	}
	require.LessOrEqual(t, startups(), DefaultStartups.Full, "half-open connections held")
}

// When the draw says drop, what is dropped is the connection longest in
// its login, not the new one: with the draw refusing everything past the
// start, a fresh wave stays at the start, each newcomer taking the oldest
// one's place, and the one dropped is the oldest.
func TestTheOldestInItsLoginGivesWay(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	tick := func() { mu.Lock(); now = now.Add(time.Millisecond); mu.Unlock() }
	ts := startServerWith(t, Config{MaxSessions: 10, MaxPerAddr: 1000, StartupDraw: func() float64 { return 0 }, Now: clock})
	startups := func() int {
		ts.srv.mu.Lock()
		defer ts.srv.mu.Unlock()
		return ts.srv.startups
	}
	var held []net.Conn
	defer func() {
		for _, c := range held {
			_ = c.Close()
		}
	}()
	for i := range 40 {
		c, err := net.Dial("tcp", ts.addr)
		require.NoError(t, err)
		held = append(held, c)
		// One at a time, each a millisecond after the last, so that
		// which is oldest is known: the connection dialled Start
		// before this one.
		if i < DefaultStartups.Start {
			require.Eventually(t, func() bool { return startups() == i+1 }, 5*time.Second, 5*time.Millisecond)
		} else {
			_ = held[i-DefaultStartups.Start].SetReadDeadline(time.Now().Add(5 * time.Second))
			_, err = io.ReadAll(held[i-DefaultStartups.Start])
			require.NoError(t, err, "connection %d, the oldest in its login, was closed", i-DefaultStartups.Start)
		}
		tick()
	}
	c, err := tryDial(ts.addr)
	require.NoError(t, err, "the first try gets in")
	_ = c.Close()
	require.LessOrEqual(t, startups(), DefaultStartups.Start, "the wave did not grow")
}

// Past staleLogin, the oldest in its login gives way even when the draw
// would have let the newcomer in beside it.
func TestStaleHalfOpenConnectionsGiveWay(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	ts := startServerWith(t, Config{MaxSessions: 10, MaxPerAddr: 1000, StartupDraw: func() float64 { return 0.999 }, Now: clock})
	startups := func() int {
		ts.srv.mu.Lock()
		defer ts.srv.mu.Unlock()
		return ts.srv.startups
	}
	var held []net.Conn
	defer func() {
		for _, c := range held {
			_ = c.Close()
		}
	}()
	for range 20 {
		c, err := net.Dial("tcp", ts.addr)
		require.NoError(t, err)
		held = append(held, c)
	}
	require.Eventually(t, func() bool { return startups() == 20 }, 5*time.Second, 10*time.Millisecond, "the draw lets the fresh wave grow")
	mu.Lock()
	now = now.Add(staleLogin + time.Second)
	mu.Unlock()
	raw, err := net.Dial("tcp", ts.addr)
	require.NoError(t, err)
	defer raw.Close()
	require.Eventually(t, func() bool { return startups() == 20 }, 5*time.Second, 10*time.Millisecond)
	require.Never(t, func() bool { return startups() > 20 }, 200*time.Millisecond, 20*time.Millisecond, "a stale one gave way: the wave did not grow")
}
