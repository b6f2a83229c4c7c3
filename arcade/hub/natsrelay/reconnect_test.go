package natsrelay

import (
	"context"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"sshuffle/arcade/hub"
	"sshuffle/games"
	"sshuffle/internal/natstest"
)

// TestPushLostWhileCutOff: bob, on node b, sits at ann's table on node a.
// Node b's NATS server dies, and before b is connected again ann ends
// her turn: the push to bob is lost on the way. Once b is back it asks
// the room for bob's whole state, and bob's screen shows ann's move
// without waiting for the table's next change.
func TestPushLostWhileCutOff(t *testing.T) {
	c := natstest.Single(t)
	a := newNode(t, c, 0, "a", nodeOpts{})
	// Node b reaches the server through a link the test cuts.
	link := newLink(t, strings.TrimPrefix(c.Servers[0].ClientURL(), "nats://"))
	nc, err := nats.Connect("nats://"+link.addr(), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond),
		nats.IgnoreDiscoveredServers())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	r, err := New(context.Background(), Config{Conn: nc, Node: "b", Timeout: 5 * time.Second,
		Log: slog.Default().With("node", "b")})
	if err != nil {
		t.Fatal(err)
	}
	bh := hub.New(hub.Config{Relay: r, TableKit: games.Default().TableKit, Limits: hub.NoLimits()})
	t.Cleanup(func() { bh.Close(); r.Close() })
	ann, bob := person("ann"), person("bob")

	tb, err := a.h.OpenTable(hub.TableConfig{Game: "kings", Seats: []hub.SeatPlan{{}, {}}, Host: ann, TurnClock: -1})
	if err != nil {
		t.Fatal(err)
	}
	annS, bobS := tableScreen(), tableScreen()
	am, err := tb.Join(ann, hub.AnySeat, annS.sink)
	if err != nil {
		t.Fatal(err)
	}
	far, err := bh.FindTable(bob, tb.Code())
	if err != nil {
		t.Fatal(err)
	}
	bm, err := far.Join(bob, hub.AnySeat, bobS.sink)
	if err != nil {
		t.Fatal(err)
	}
	if err := am.Start(); err != nil {
		t.Fatal(err)
	}
	st := annS.until(t, "the deal", func(st hub.TableState) bool { return st.Phase == hub.TablePlaying && st.View != nil })
	// Bob ends his turn if it is his, so that it is ann's (on node a).
	if st.Turn == bm.Seat() {
		bobS.until(t, "bob's turn on bob's screen", func(st hub.TableState) bool { return st.Turn == bm.Seat() && st.View != nil })
		if err := bm.Do([]byte(`{"do":"end"}`)); err != nil {
			t.Fatal(err)
		}
		annS.until(t, "ann's turn", func(st hub.TableState) bool { return st.Turn == am.Seat() })
	}
	bobS.until(t, "ann's turn on bob's screen", func(st hub.TableState) bool { return st.Turn == am.Seat() })

	link.cut()
	for nc.IsConnected() {
		time.Sleep(time.Millisecond)
	}
	if err := am.Do([]byte(`{"do":"end"}`)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the push is gone by now
	link.mend()
	bobS.until(t, "bob's screen shows ann's move after node b is back", func(st hub.TableState) bool {
		return st.Turn == bm.Seat()
	})
}

// link is a TCP relay between a NATS client and its server that the test
// can cut (every connection closed, new ones refused) and mend.
type link struct {
	l      net.Listener
	server string
	mu     sync.Mutex
	down   bool
	conns  []net.Conn
}

func newLink(t *testing.T, server string) *link {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	k := &link{l: l, server: server}
	t.Cleanup(func() { _ = l.Close(); k.cut() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			k.mu.Lock()
			down := k.down
			k.mu.Unlock()
			if down {
				_ = c.Close()
				continue
			}
			s, err := net.Dial("tcp", server)
			if err != nil {
				_ = c.Close()
				continue
			}
			k.mu.Lock()
			k.conns = append(k.conns, c, s)
			k.mu.Unlock()
			go func() { _, _ = io.Copy(s, c); _ = s.Close() }()
			go func() { _, _ = io.Copy(c, s); _ = c.Close() }()
		}
	}()
	return k
}

func (k *link) addr() string { return k.l.Addr().String() }

func (k *link) cut() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.down = true
	for _, c := range k.conns {
		_ = c.Close()
	}
	k.conns = nil
}

func (k *link) mend() {
	k.mu.Lock()
	k.down = false
	k.mu.Unlock()
}

// linkedNode is a node whose NATS connection goes through a link.
func linkedNode(t *testing.T, c *natstest.Cluster, name string) (*hub.Hub, *nats.Conn, *link) {
	t.Helper()
	k := newLink(t, strings.TrimPrefix(c.Servers[0].ClientURL(), "nats://"))
	nc, err := nats.Connect("nats://"+k.addr(), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond),
		nats.IgnoreDiscoveredServers())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	r, err := New(context.Background(), Config{Conn: nc, Node: name, Timeout: 5 * time.Second,
		Log: slog.Default().With("node", name)})
	if err != nil {
		t.Fatal(err)
	}
	h := hub.New(hub.Config{Relay: r, TableKit: games.Default().TableKit, Limits: hub.NoLimits()})
	t.Cleanup(func() { h.Close(); r.Close() })
	return h, nc, k
}

// cutAndMend cuts k until nc has noticed, then mends it and waits until
// nc is back.
func cutAndMend(t *testing.T, k *link, nc *nats.Conn, meanwhile func()) {
	t.Helper()
	k.cut()
	for nc.IsConnected() {
		time.Sleep(time.Millisecond)
	}
	meanwhile()
	k.mend()
	deadline := time.Now().Add(guard)
	for !nc.IsConnected() {
		if time.Now().After(deadline) {
			t.Fatal("never connected again")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestRoomNodeReconnectedAsksForResync: a push the room's own node sent as
// its link broke may be lost however its members' nodes fare. Bob's node
// loses a push and (its own resync turned off here) does not ask again;
// once the room's node is back from a cut of its own, it tells bob's node
// to ask, and bob's screen shows the move.
func TestRoomNodeReconnectedAsksForResync(t *testing.T) {
	c := natstest.Single(t)
	ah, anc, alink := linkedNode(t, c, "a")
	bh, bnc, blink := linkedNode(t, c, "b")
	bnc.SetReconnectHandler(func(*nats.Conn) {}) // node b does not ask by itself
	ann, bob := person("ann"), person("bob")

	tb, err := ah.OpenTable(hub.TableConfig{Game: "kings", Seats: []hub.SeatPlan{{}, {}}, Host: ann, TurnClock: -1})
	if err != nil {
		t.Fatal(err)
	}
	annS, bobS := tableScreen(), tableScreen()
	am, err := tb.Join(ann, hub.AnySeat, annS.sink)
	if err != nil {
		t.Fatal(err)
	}
	far, err := bh.FindTable(bob, tb.Code())
	if err != nil {
		t.Fatal(err)
	}
	bm, err := far.Join(bob, hub.AnySeat, bobS.sink)
	if err != nil {
		t.Fatal(err)
	}
	if err := am.Start(); err != nil {
		t.Fatal(err)
	}
	st := annS.until(t, "the deal", func(st hub.TableState) bool { return st.Phase == hub.TablePlaying && st.View != nil })
	if st.Turn == bm.Seat() {
		bobS.until(t, "bob's turn on bob's screen", func(st hub.TableState) bool { return st.Turn == bm.Seat() && st.View != nil })
		if err := bm.Do([]byte(`{"do":"end"}`)); err != nil {
			t.Fatal(err)
		}
	}
	bobS.until(t, "ann's turn on bob's screen", func(st hub.TableState) bool { return st.Turn == am.Seat() })

	cutAndMend(t, blink, bnc, func() {
		if err := am.Do([]byte(`{"do":"end"}`)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond) // the push is gone by now
	})
	cutAndMend(t, alink, anc, func() {})
	bobS.until(t, "bob's screen shows ann's move once node a is back", func(st hub.TableState) bool {
		return st.Turn == bm.Seat()
	})
}

// TestSeatedByThePoolWhileCutOff: bob, on node b, waits in node a's pool;
// node b is cut off just as ann, on node a, asks for the same game, and
// the pool seats them both: the pushes saying so to node b are lost. Once
// b is back it asks the pool where bob stands, and bob's screens show his
// seat and the table.
func TestSeatedByThePoolWhileCutOff(t *testing.T) {
	c := natstest.Single(t)
	a := newNode(t, c, 0, "a", nodeOpts{check: time.Hour})
	bh, bnc, blink := linkedNode(t, c, "b")
	ann, bob, dan := person("ann"), person("bob"), person("dan")

	// Dan, on node a, asks first (for another table size): node a runs the pool.
	if _, err := a.h.PlayNow(dan, hub.PoolWant{Game: "kings", Players: 4}, func(hub.PoolState) {}, func(hub.TableState) {}); err != nil {
		t.Fatal(err)
	}
	want := hub.PoolWant{Game: "kings", Players: 2}
	bobPool, bobSeat := poolScreen(), tableScreen()
	if _, err := bh.PlayNow(bob, want, bobPool.sink, bobSeat.sink); err != nil {
		t.Fatal(err)
	}
	bobPool.until(t, "bob waits in node a's pool", func(st hub.PoolState) bool { return st.Phase == hub.PoolWaiting })
	cutAndMend(t, blink, bnc, func() {
		if _, err := a.h.PlayNow(ann, want, func(hub.PoolState) {}, func(hub.TableState) {}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond) // the pushes are gone by now
	})
	st := bobPool.until(t, "bob's pool screen shows him seated", func(st hub.PoolState) bool { return st.Phase == hub.PoolSeated })
	if st.Table == nil || st.Code == "" {
		t.Fatalf("bob's seated state: %+v", st)
	}
	bobSeat.until(t, "bob's seat shows the game", func(ts hub.TableState) bool {
		return ts.Code == st.Code && ts.Phase == hub.TablePlaying && ts.View != nil
	})
}
