package main

import (
	"bufio"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/pires/go-proxyproto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/internal/sshtest"
)

// serveOnce accepts one connection on l and reports the address it sees
// once the client's first line has arrived (or the error reading it).
func serveOnce(t *testing.T, l net.Listener) <-chan string {
	got := make(chan string, 1)
	go func() {
		c, err := l.Accept()
		if err != nil {
			got <- "accept: " + err.Error()
			return
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := bufio.NewReader(c).ReadString('\n'); err != nil {
			got <- "read: " + err.Error()
			return
		}
		got <- c.RemoteAddr().String()
	}()
	return got
}

func dialWith(t *testing.T, l net.Listener, header bool) {
	t.Helper()
	c, err := net.Dial("tcp", l.Addr().String())
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	if header {
		h := &proxyproto.Header{Version: 1, Command: proxyproto.PROXY, TransportProtocol: proxyproto.TCPv4,
			SourceAddr:      &net.TCPAddr{IP: net.ParseIP("203.0.113.7"), Port: 40000},
			DestinationAddr: &net.TCPAddr{IP: net.ParseIP("198.51.100.1"), Port: 22}}
		_, err := h.WriteTo(c)
		require.NoError(t, err)
	}
	_, err = c.Write([]byte("SSH-2.0-test\r\n"))
	require.NoError(t, err)
}

// A balancer's header is believed from the trusted addresses only; from
// anywhere else a connection that sends one is refused, and one that does
// not is served as it came.
func TestProxyProtocolTrust(t *testing.T) {
	listen := func(trusted string) net.Listener {
		p, err := parseTrusted(trusted)
		require.NoError(t, err)
		raw, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		l := proxyListener(raw, p)
		t.Cleanup(func() { l.Close() })
		return l
	}

	trusting := listen("127.0.0.0/8, 10.1.2.3")
	got := serveOnce(t, trusting)
	dialWith(t, trusting, true)
	assert.Equal(t, "203.0.113.7:40000", <-got, "the client's address, from the trusted balancer")

	got = serveOnce(t, trusting)
	dialWith(t, trusting, false)
	assert.Contains(t, <-got, "127.0.0.1:", "a trusted connection without a header (a health check)")

	wary := listen("10.1.2.3")
	got = serveOnce(t, wary)
	dialWith(t, wary, true)
	assert.Contains(t, <-got, "read: ", "a header from an address not trusted is refused")

	got = serveOnce(t, wary)
	dialWith(t, wary, false)
	assert.Contains(t, <-got, "127.0.0.1:", "a plain connection from anywhere is served")
}

func TestParseTrusted(t *testing.T) {
	p, err := parseTrusted("10.0.0.0/8,192.168.1.5, ::1")
	require.NoError(t, err)
	assert.Equal(t, []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.168.1.5/32"),
		netip.MustParsePrefix("::1/128")}, p)
	_, err = parseTrusted("10.0.0.0/8,nope")
	assert.ErrorContains(t, err, `"nope"`)
}

// dialAs connects over SSH through a PROXY header naming from as the
// client's address, as a balancer does.
func dialAs(t *testing.T, addr, user, from string) *gossh.Client {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	require.NoError(t, err)
	h := &proxyproto.Header{Version: 2, Command: proxyproto.PROXY, TransportProtocol: proxyproto.TCPv4,
		SourceAddr: &net.TCPAddr{IP: net.ParseIP(from), Port: 40000}, DestinationAddr: conn.RemoteAddr()}
	_, err = h.WriteTo(conn)
	require.NoError(t, err)
	cc, chans, reqs, err := gossh.NewClientConn(conn, addr, &gossh.ClientConfig{User: user,
		Auth: []gossh.AuthMethod{gossh.PublicKeys(sshtest.NewClientKey(t))}, HostKeyCallback: gossh.InsecureIgnoreHostKey(),
		Timeout: 5 * time.Second})
	require.NoError(t, err)
	c := gossh.NewClient(cc, chans, reqs)
	t.Cleanup(func() { c.Close() })
	return c
}

// Behind a trusted balancer the per-address limit counts the addresses
// the balancer reports, not the balancer's own: with one session an
// address, a second client from one address is refused, a client from
// another is served, and the log names the clients' addresses.
func TestServeBehindProxyLimitsClientAddresses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	addr := freePort(t)
	srv := startBinaryArgs(t, bin, "serve", "--addr", addr, "--data", t.TempDir(), "--fill-pools=false",
		"--trust-proxy", "127.0.0.0/8", "--max-per-addr", "1")

	first := sshtest.OpenTerm(t, dialAs(t, addr, "erin", "203.0.113.7"), nil)
	first.WaitFor("Playing as")
	_, err := dialAs(t, addr, "fred", "203.0.113.7").NewSession()
	require.Error(t, err)
	require.Contains(t, err.Error(), "Too many sessions from your address")
	other := sshtest.OpenTerm(t, dialAs(t, addr, "gwen", "203.0.113.8"), nil)
	other.WaitFor("Playing as")
	require.Contains(t, srv.log(), "203.0.113.7")
	require.Contains(t, srv.log(), "203.0.113.8")
}
