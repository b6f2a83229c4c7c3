package natsrelay

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"sshuffle/arcade/hub"
	"sshuffle/internal/natstest"
)

// lossy is the relay with its deliveries to one node lost while drop is
// set: the network losing pushes on the way.
type lossy struct {
	*Relay
	mu      sync.Mutex
	drop    string
	dropped chan struct{} // gets one value for each push lost
}

func (l *lossy) Deliver(node string, msg []byte) error {
	l.mu.Lock()
	drop := l.drop == node
	l.mu.Unlock()
	if drop {
		l.dropped <- struct{}{}
		return nil
	}
	return l.Relay.Deliver(node, msg)
}

func (l *lossy) dropTo(node string) {
	l.mu.Lock()
	l.drop = node
	l.mu.Unlock()
}

// TestGapAsksForWholeState loses the push of a change to bob's node, then
// hands that node a push whose Prev says one went missing (its state is
// not the room's): bob's node asks the room for his whole state and his
// screen ends on the room's own.
func TestGapAsksForWholeState(t *testing.T) {
	c := natstest.Single(t)
	a := newNode(t, c, 0, "a", nodeOpts{})
	b := newNode(t, c, 0, "b", nodeOpts{})
	// Node a again, on a relay that can lose its pushes.
	l := &lossy{Relay: a.relay, dropped: make(chan struct{}, 16)}
	ha := hub.New(hub.Config{Relay: l, TableKit: kitOf, Limits: hub.NoLimits()})
	t.Cleanup(ha.Close)
	ann, bob := person("ann"), person("bob")
	tb, err := ha.OpenTable(kingsTable(ann))
	if err != nil {
		t.Fatal(err)
	}
	annS, bobS := tableScreen(), tableScreen()
	am, err := tb.Join(ann, hub.AnySeat, annS.sink)
	if err != nil {
		t.Fatal(err)
	}
	far, err := b.h.Table(tb.Code())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := far.Join(bob, hub.AnySeat, bobS.sink); err != nil {
		t.Fatal(err)
	}
	before := bobS.until(t, "bob is seated", func(st hub.TableState) bool { return st.Seat == 1 })
	l.dropTo("b")
	if err := am.Say(2); err != nil {
		t.Fatal(err)
	}
	said := annS.until(t, "ann sees her phrase", func(st hub.TableState) bool { return st.Said != nil })
	select {
	case <-l.dropped:
	case <-time.After(guard):
		t.Fatal("the phrase's push to node b was never sent")
	}
	l.dropTo("")
	// The push that reaches node b next claims the phrase's version but
	// lacks the phrase; its Prev says a push was lost before it.
	forged := before
	forged.Version, forged.Said = said.Version, nil
	msg, _ := json.Marshal(map[string]any{"v": hub.WireFormat, "member": "b/1", "prev": said.Version, "table": forged})
	if err := b.relay.nc.Publish(deliverSubject("b"), msg); err != nil {
		t.Fatal(err)
	}
	got := bobS.until(t, "bob's screen shows the phrase after asking for his whole state", func(st hub.TableState) bool {
		return st.Said != nil && st.Said.By.ID == ann.ID
	})
	if got.Version != said.Version {
		t.Fatalf("bob's whole state is version %d, the room's %d", got.Version, said.Version)
	}
}

// TestBadMessagesAreDropped sends a room and a node bytes that are no
// message of the protocol, and messages of another format: each is
// dropped (a request answered with an error), and the room plays on.
func TestBadMessagesAreDropped(t *testing.T) {
	c := natstest.Single(t)
	a := newNode(t, c, 0, "a", nodeOpts{})
	b := newNode(t, c, 0, "b", nodeOpts{})
	ann, bob := person("ann"), person("bob")
	tb, err := a.h.OpenTable(kingsTable(ann))
	if err != nil {
		t.Fatal(err)
	}
	annS, bobS := tableScreen(), tableScreen()
	if _, err := tb.Join(ann, hub.AnySeat, annS.sink); err != nil {
		t.Fatal(err)
	}
	far, err := b.h.Table(tb.Code())
	if err != nil {
		t.Fatal(err)
	}
	bm, err := far.Join(bob, hub.AnySeat, bobS.sink)
	if err != nil {
		t.Fatal(err)
	}
	nc := c.Connect(0)
	for _, bad := range []string{"", "not json", `{"v":99,"op":"leave","member":"b/1"}`, `{"v":1,"op":"shout","member":"b/1"}`,
		`{"v":1,"op":"do","member":"b/1","action":"bm90IGFuIGFjdGlvbg=="}`, `[1,2,3]`} {
		rep, err := a.relay.Request(tb.Code(), []byte(bad))
		if err != nil {
			t.Fatalf("%q: no answer: %v", bad, err)
		}
		var r struct{ Err string }
		if json.Unmarshal(rep, &r) != nil || r.Err == "" {
			t.Fatalf("%q was answered %s", bad, rep)
		}
		if err := nc.Publish(deliverSubject("b"), []byte(bad)); err != nil {
			t.Fatal(err)
		}
	}
	for _, bad := range []string{`{"v":1,"member":"b/1"}`, `{"v":1,"member":"b/1","table":{},"race":{}}`,
		`{"v":1,"member":"b/1","race":{"Version":99}}`, `{"v":1,"member":"nobody","table":{"Version":99}}`} {
		if err := nc.Publish(deliverSubject("b"), []byte(bad)); err != nil {
			t.Fatal(err)
		}
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	// Bob, still seated, leaves; ann sees his seat open.
	if err := bm.Leave(); err != nil {
		t.Fatal(err)
	}
	annS.until(t, "ann sees bob's seat open", func(st hub.TableState) bool { return st.Seats[1].Open() })
	if err := bm.Do([]byte("{}")); !errors.Is(err, hub.ErrNotMember) {
		t.Fatalf("bob acts after leaving: %v", err)
	}
	if last := bobS.until(t, "", func(hub.TableState) bool { return true }); bobS.older != 0 || last.Version > newest(annS).Version {
		t.Fatalf("bob's screen took a bad push: %+v", last)
	}
}

// newest is the newest state a screen was sent.
func newest(s *screen[hub.TableState]) hub.TableState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}
