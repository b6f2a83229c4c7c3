// Package natstest starts NATS JetStream servers inside a test process, on
// 127.0.0.1, one alone or three in a cluster, so the store and the hub can be
// tested against a real server without anything installed. The server is a
// test dependency only: sshuffle's binary talks to NATS through nats.go and
// never embeds a server.
package natstest

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// Cluster is one or more running servers; URL lists them all, as a node's
// --store flag would.
type Cluster struct {
	Servers []*server.Server
	t       testing.TB
}

// URL is every server's client address, comma-separated.
func (c *Cluster) URL() string {
	urls := make([]string, 0, len(c.Servers))
	for _, s := range c.Servers {
		if s.Running() {
			urls = append(urls, s.ClientURL())
		}
	}
	return strings.Join(urls, ",")
}

// Shutdown stops every server still running.
func (c *Cluster) Shutdown() {
	for _, s := range c.Servers {
		s.Shutdown()
		s.WaitForShutdown()
	}
}

// Connect opens a client connection to server i (i < 0: to all of them), closed
// with the test.
func (c *Cluster) Connect(i int) *nats.Conn {
	c.t.Helper()
	u := c.URL()
	if i >= 0 {
		u = c.Servers[i].ClientURL()
	}
	nc, err := nats.Connect(u, nats.MaxReconnects(-1), nats.ReconnectWait(50*time.Millisecond))
	if err != nil {
		c.t.Fatalf("natstest: connect %s: %v", u, err)
	}
	c.t.Cleanup(nc.Close)
	return nc
}

// Single starts one JetStream server with its store in a temporary folder.
func Single(t testing.TB) *Cluster {
	t.Helper()
	opts := options(t, "single")
	s := start(t, opts)
	c := &Cluster{Servers: []*server.Server{s}, t: t}
	t.Cleanup(c.Shutdown)
	waitJetStream(t, c)
	return c
}

// Three starts a three-server JetStream cluster and waits until it has
// elected a meta leader, so a stream with three replicas can be made at once.
func Three(t testing.TB) *Cluster {
	t.Helper()
	ports := freePorts(t, 3)
	routes := make([]*url.URL, len(ports))
	for i, p := range ports {
		routes[i] = &url.URL{Scheme: "nats-route", Host: fmt.Sprintf("127.0.0.1:%d", p)}
	}
	c := &Cluster{t: t}
	for i := range 3 {
		opts := options(t, fmt.Sprintf("n%d", i+1))
		opts.Cluster.Name = "sshuffle-test"
		opts.Cluster.Host = "127.0.0.1"
		opts.Cluster.Port = ports[i]
		opts.Routes = routes
		c.Servers = append(c.Servers, start(t, opts))
	}
	t.Cleanup(c.Shutdown)
	waitJetStream(t, c)
	return c
}

func options(t testing.TB, name string) *server.Options {
	return &server.Options{
		ServerName: name,
		Host:       "127.0.0.1",
		Port:       server.RANDOM_PORT,
		NoLog:      true,
		NoSigs:     true,
		JetStream:  true,
		StoreDir:   t.TempDir(),
		// The default 1 GiB of memory storage per server is more than a test
		// machine should promise three times over.
		JetStreamMaxMemory: 64 << 20,
		JetStreamMaxStore:  1 << 30,
	}
}

func start(t testing.TB, opts *server.Options) *server.Server {
	t.Helper()
	s, err := server.NewServer(opts)
	if err != nil {
		t.Fatalf("natstest: %v", err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatalf("natstest: server %s not ready", opts.ServerName)
	}
	return s
}

// waitJetStream asks for account info until JetStream answers: in a cluster it
// does only once a meta leader is elected.
func waitJetStream(t testing.TB, c *Cluster) {
	t.Helper()
	nc, err := nats.Connect(c.URL())
	if err != nil {
		t.Fatalf("natstest: %v", err)
	}
	defer nc.Close()
	js, err := nc.JetStream()
	if err != nil {
		t.Fatalf("natstest: %v", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := js.AccountInfo(nats.MaxWait(time.Second))
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("natstest: JetStream did not answer: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ls []net.Listener
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("natstest: %v", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}
