package arcade

import (
	"crypto/ed25519"
	crand "crypto/rand"
	"math/rand/v2"
	"net"
	"sync"
	"testing"
	"time"

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
	// A half-open connection does count, and closing it frees its place.
	raw, err := net.Dial("tcp", ts.addr)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		ts.srv.mu.Lock()
		defer ts.srv.mu.Unlock()
		return ts.srv.startups == 1
	}, 5*time.Second, 10*time.Millisecond)
	_, err = tryDial(ts.addr)
	require.Error(t, err, "a login with the one place taken by a half-open connection")
	_ = raw.Close()
	require.Eventually(t, func() bool {
		c, err := tryDial(ts.addr)
		if err == nil {
			_ = c.Close()
		}
		return err == nil
	}, 5*time.Second, 50*time.Millisecond)
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

// An honest login gets through while a wave of connections that never
// start their handshake is held open, more than the server's total cap
// (the players') would take. It may take the player a few tries, as
// OpenSSH's MaxStartups does.
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
	for range 120 {
		c, err := net.Dial("tcp", ts.addr)
		require.NoError(t, err)
		held = append(held, c)
	}
	require.Eventually(t, func() bool {
		ts.srv.mu.Lock()
		defer ts.srv.mu.Unlock()
		return ts.srv.startups > DefaultStartups.Start
	}, 5*time.Second, 10*time.Millisecond, "the wave is held")
	var err error
	for range 40 {
		var c *gossh.Client
		if c, err = tryDial(ts.addr); err == nil {
			_ = c.Close()
			break
		}
	}
	require.NoError(t, err, "an honest login in 40 tries")
	ts.srv.mu.Lock()
	n := ts.srv.startups
	ts.srv.mu.Unlock()
	require.Less(t, n, DefaultStartups.Full, "half-open connections held")
}

// Once the half-open connections have sat in their login past staleLogin,
// an honest login gets in at its first try, however unlucky the draw: the
// oldest of them gives way, and the wave does not grow by it.
func TestStaleHalfOpenConnectionsGiveWay(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	// The draw always refuses past the start: only eviction lets one in.
	ts := startServerWith(t, Config{MaxSessions: 10, MaxPerAddr: 1000, StartupDraw: func() float64 { return 0 }, Now: clock})
	var held []net.Conn
	defer func() {
		for _, c := range held {
			_ = c.Close()
		}
	}()
	for range 40 {
		c, err := net.Dial("tcp", ts.addr)
		require.NoError(t, err)
		held = append(held, c)
	}
	startups := func() int {
		ts.srv.mu.Lock()
		defer ts.srv.mu.Unlock()
		return ts.srv.startups
	}
	require.Eventually(t, func() bool { return startups() == DefaultStartups.Start }, 5*time.Second, 10*time.Millisecond)
	_, err := tryDial(ts.addr)
	require.Error(t, err, "while the wave is fresh, the draw refuses")
	mu.Lock()
	now = now.Add(staleLogin + time.Second)
	mu.Unlock()
	c, err := tryDial(ts.addr)
	require.NoError(t, err, "the first try gets in")
	_ = c.Close()
	require.LessOrEqual(t, startups(), DefaultStartups.Start, "the wave did not grow")
}
