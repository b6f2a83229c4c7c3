package natsrelay

import (
	"errors"
	"sync"
	"testing"
	"time"

	"sshuffle/arcade/hub"
	"sshuffle/internal/natstest"
)

// inbox is a session's screen for notices.
type inbox struct {
	mu  sync.Mutex
	got []hub.Notice
	ch  chan struct{}
}

func newInbox() *inbox { return &inbox{ch: make(chan struct{}, 1)} }

func (b *inbox) sink(n hub.Notice) {
	b.mu.Lock()
	b.got = append(b.got, n)
	b.mu.Unlock()
	select {
	case b.ch <- struct{}{}:
	default:
	}
}

// wait returns the first notice of the kind not taken yet.
func (b *inbox) wait(t *testing.T, kind hub.NoticeKind) hub.Notice {
	t.Helper()
	deadline := time.After(guard)
	for {
		b.mu.Lock()
		for i, n := range b.got {
			if n.Kind == kind {
				b.got = append(b.got[:i:i], b.got[i+1:]...)
				b.mu.Unlock()
				return n
			}
		}
		b.mu.Unlock()
		select {
		case <-b.ch:
		case <-deadline:
			t.Fatalf("no notice of kind %d", kind)
		}
	}
}

// eventually waits until ok holds: presence crosses nodes through a
// watch, a moment after the change.
func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestPresenceAndInvitationsAcrossNodes: friends on other nodes show
// online, with what they do; invitations reach them and their answers
// come back; their choices (invitations off) and their going offline
// count; and a node that dies has its people shown offline once their
// records age out.
func TestPresenceAndInvitationsAcrossNodes(t *testing.T) {
	c := natstest.Single(t)
	fast := nodeOpts{presenceEvery: 50 * time.Millisecond, presenceTTL: 400 * time.Millisecond}
	a := newNode(t, c, 0, "a", fast)
	b := newNode(t, c, 0, "b", fast)
	d := newNode(t, c, 0, "d", fast)
	ann, bob, cat, dan := person("ann"), person("bob"), person("cat"), person("dan")

	annIn, bobIn, catIn := newInbox(), newInbox(), newInbox()
	as := a.h.Connect(ann, true, annIn.sink)
	bs := b.h.Connect(bob, true, bobIn.sink)
	cs := b.h.Connect(cat, true, catIn.sink)
	ds := d.h.Connect(dan, true, func(hub.Notice) {})
	defer as.Close()
	defer cs.Close()
	defer ds.Close()

	eventually(t, "node a sees bob online", func() bool {
		p := a.h.Presence(bob.ID)[0]
		return p.Online && p.Sessions == 1 && p.Name == "bob"
	})
	// A second session of bob, on node a: two sessions in all.
	bs2 := a.h.Connect(bob, true, func(hub.Notice) {})
	eventually(t, "node b counts bob's sessions on both nodes", func() bool { return b.h.Presence(bob.ID)[0].Sessions == 2 })
	bs2.Close()
	bs.SetActivity(hub.Activity{Doing: hub.Racing, Game: "klondike"})
	eventually(t, "node a sees what bob does", func() bool {
		p := a.h.Presence(bob.ID)[0]
		return p.Activity.Doing == hub.Racing && p.Sessions == 1
	})

	tb, err := a.h.OpenTable(kingsTable(ann))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Join(ann, hub.AnySeat, func(hub.TableState) {}); err != nil {
		t.Fatal(err)
	}
	if err := as.Invite(bob, tb.Code()); err != nil {
		t.Fatal(err)
	}
	n := bobIn.wait(t, hub.Invited)
	if n.Invitation.From.ID != ann.ID || n.Invitation.Code != tb.Code() || n.Text != "ann invites you to a table of Kings in the Corner." {
		t.Fatalf("bob's notice: %+v", n)
	}
	if err := as.Invite(bob, tb.Code()); !errors.Is(err, hub.ErrAlreadyInvited) {
		t.Fatalf("the same invitation again: %v", err)
	}
	invs := bs.Invitations()
	if len(invs) != 1 {
		t.Fatalf("bob's invitations: %+v", invs)
	}
	code, err := bs.Answer(invs[0].ID, true)
	if err != nil || code != tb.Code() {
		t.Fatalf("bob accepts: %q, %v", code, err)
	}
	if got := annIn.wait(t, hub.Accepted); got.Text != "bob accepted your invitation." {
		t.Fatalf("ann's notice: %+v", got)
	}
	// Bob, on node b, invites cat (on b too) to ann's table on node a.
	if err := bs.Invite(cat, tb.Code()); err != nil {
		t.Fatal(err)
	}
	ci := catIn.wait(t, hub.Invited)
	if _, err := cs.Answer(ci.Invitation.ID, false); err != nil {
		t.Fatal(err)
	}
	// Cat turns invitations off; ann's to her is refused from node b.
	cs.SetInvitations(false)
	eventually(t, "node a sees cat's invitations off", func() bool { return !a.h.Presence(cat.ID)[0].Invitations })
	if err := as.Invite(cat, tb.Code()); !errors.Is(err, hub.ErrInvitesOff) {
		t.Fatalf("an invitation to cat with hers off: %v", err)
	}
	// Bob goes offline.
	bs.Close()
	eventually(t, "node a sees bob offline", func() bool { return !a.h.Presence(bob.ID)[0].Online })
	if err := as.Invite(bob, tb.Code()); !errors.Is(err, hub.ErrOffline) {
		t.Fatalf("an invitation to bob offline: %v", err)
	}
	// Node d dies without a word: dan shows offline once his record ages.
	eventually(t, "node a sees dan online", func() bool { return a.h.Presence(dan.ID)[0].Online })
	d.relay.Close()
	d.nc.Close()
	eventually(t, "node a sees dan offline after node d died", func() bool { return !a.h.Presence(dan.ID)[0].Online })
}
