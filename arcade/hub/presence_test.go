package hub

import (
	"errors"
	"sync"
	"testing"
	"time"
)

// inbox is a session's screen: the notices it was sent, newest last.
type inbox struct {
	mu  sync.Mutex
	got []Notice
	ch  chan struct{}
}

func newInbox() *inbox { return &inbox{ch: make(chan struct{}, 1)} }

func (b *inbox) sink(n Notice) {
	b.mu.Lock()
	b.got = append(b.got, n)
	b.mu.Unlock()
	select {
	case b.ch <- struct{}{}:
	default:
	}
}

func (b *inbox) wait(t *testing.T, kind NoticeKind) Notice {
	t.Helper()
	deadline := time.After(guard)
	for {
		b.mu.Lock()
		for _, n := range b.got {
			if n.Kind == kind {
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

func TestPresence(t *testing.T) {
	e := newEnv(t)
	a1 := e.h.Connect(person("ann"), true, func(Notice) {})
	a2 := e.h.Connect(person("ann"), true, func(Notice) {})
	a1.SetActivity(Activity{Doing: InGame, Game: "freecell"})
	a2.SetActivity(Activity{Doing: Racing, Game: "klondike", Room: "KQTWX", Watchable: true})
	p := e.h.Presence("id-ann", "id-bob")
	if !p[0].Online || p[0].Sessions != 2 || p[0].Name != "ann" || p[0].Activity.Doing != Racing || !p[0].Activity.Watchable {
		t.Fatalf("ann: %+v", p[0])
	}
	if p[1].Online || p[1].ID != "id-bob" {
		t.Fatalf("bob: %+v", p[1])
	}
	a1.SetActivity(Activity{Doing: AtMenu})
	if p := e.h.Presence("id-ann")[0]; p.Activity.Doing != AtMenu {
		t.Fatalf("the latest change should show: %+v", p.Activity)
	}
	a1.Close()
	if p := e.h.Presence("id-ann")[0]; !p.Online || p.Sessions != 1 || p.Activity.Doing != Racing {
		t.Fatalf("one session left: %+v", p)
	}
	a2.Close()
	a2.Close() // twice is harmless
	if p := e.h.Presence("id-ann")[0]; p.Online {
		t.Fatalf("offline ann: %+v", p)
	}
	if len(e.h.Online()) != 0 {
		t.Fatalf("online: %+v", e.h.Online())
	}
	<-a1.Done()
	<-a2.Done()
}

func TestInvitations(t *testing.T) {
	e := newEnv(t)
	follows := map[[2]string]bool{{"id-ann", "id-bob"}: true, {"id-ann", "id-cy"}: true, {"id-ann", "id-dee"}: true, {"id-ann", "id-eve"}: true}
	e.h.mayInvite = func(from, to string) bool { return follows[[2]string{from, to}] }
	r := e.race(false)
	annBox, bobBox1, bobBox2 := newInbox(), newInbox(), newInbox()
	ann := e.h.Connect(person("ann"), true, annBox.sink)
	bob1 := e.h.Connect(person("bob"), true, bobBox1.sink)
	bob2 := e.h.Connect(person("bob"), true, bobBox2.sink)
	e.h.Connect(person("cy"), false, func(Notice) {})
	dee := e.h.Connect(person("dee"), true, func(Notice) {})
	dee.SetInvitations(false)

	for _, tc := range []struct {
		name     string
		from     *Session
		to       Person
		code     string
		want     error
		sentence string
	}{
		{"offline", ann, person("eve"), r.Code(), ErrOffline, "eve is offline; send them the invite line instead."},
		{"invitations off at connect", ann, person("cy"), r.Code(), ErrInvitesOff, "cy has invitations turned off."},
		{"invitations turned off", ann, person("dee"), r.Code(), ErrInvitesOff, "dee has invitations turned off."},
		{"not followed", bob1, person("ann"), r.Code(), ErrNotFollowing, "You can invite only players you follow, and you do not follow ann."},
		{"self", ann, person("ann"), r.Code(), ErrSelf, "You cannot invite yourself."},
		{"wrong code", ann, person("bob"), "ZZZZZ", ErrNoRoom, "No room has the code ZZZZZ; check the letters."},
		{"malformed code", ann, person("bob"), "0", ErrBadCode, "An invite code is five letters, like KQTWX."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.from.Invite(tc.to, tc.code)
			if !errors.Is(err, tc.want) || err.Error() != tc.sentence {
				t.Fatalf("Invite: %v, want %q", err, tc.sentence)
			}
		})
	}

	if err := ann.Invite(person("bob"), r.Code()); err != nil {
		t.Fatal(err)
	}
	if err := ann.Invite(person("bob"), r.Code()); !errors.Is(err, ErrAlreadyInvited) || err.Error() != "You have already invited bob to this race." {
		t.Fatalf("second invitation: %v", err)
	}
	// Every session of bob's hears, on whatever screen it is on.
	n1, n2 := bobBox1.wait(t, Invited), bobBox2.wait(t, Invited)
	if n1.Invitation.ID != n2.Invitation.ID || n1.Invitation.Code != r.Code() || n1.Invitation.From.Name != "ann" {
		t.Fatalf("notices %+v / %+v", n1, n2)
	}
	if n1.Text != "ann invites you to a race of klondike/draw1/w/7." {
		t.Fatalf("text %q", n1.Text)
	}
	if inv := bob2.Invitations(); len(inv) != 1 || inv[0].ID != n1.Invitation.ID {
		t.Fatalf("pending %+v", inv)
	}
	code, err := bob2.Answer(n1.Invitation.ID, true)
	if err != nil || code != r.Code() {
		t.Fatalf("accept: %q, %v", code, err)
	}
	if n := annBox.wait(t, Accepted); n.Text != "bob accepted your invitation." {
		t.Fatalf("ann hears %q", n.Text)
	}
	if _, err := bob1.Answer(n1.Invitation.ID, true); !errors.Is(err, ErrNoInvitation) || err.Error() != "That invitation is no longer open." {
		t.Fatalf("answered twice: %v", err)
	}

	// A decline reaches the inviter too.
	if err := ann.Invite(person("bob"), r.Code()); err != nil {
		t.Fatal(err)
	}
	inv := bob1.Invitations()[0]
	if code, err := bob1.Answer(inv.ID, false); err != nil || code != "" {
		t.Fatalf("decline: %q, %v", code, err)
	}
	if n := annBox.wait(t, Declined); n.Text != "bob declined your invitation." {
		t.Fatalf("ann hears %q", n.Text)
	}

	// An invitation goes with its room.
	if err := ann.Invite(person("bob"), r.Code()); err != nil {
		t.Fatal(err)
	}
	inv = bob1.Invitations()[0]
	e.clock.Advance(30 * time.Second) // nobody joined the race: it ends
	<-r.Done()
	if got := bob1.Invitations(); len(got) != 0 {
		t.Fatalf("invitations to an ended room: %+v", got)
	}
	if _, err := bob1.Answer(inv.ID, true); !errors.Is(err, ErrNoInvitation) {
		t.Fatalf("answer to an ended room: %v", err)
	}
	if err := ann.Invite(person("bob"), r.Code()); !errors.Is(err, ErrExpired) {
		t.Fatalf("invite to an ended room: %v", err)
	}
}

func TestPendingInvitationsAreBounded(t *testing.T) {
	e := newEnv(t)
	bob := e.h.Connect(person("bob"), true, func(Notice) {})
	for i := range maxPending + 4 {
		s := e.h.Connect(Person{ID: "id-" + itoa(i), Name: "p" + itoa(i)}, true, func(Notice) {})
		if err := s.Invite(person("bob"), e.race(false).Code()); err != nil {
			t.Fatal(err)
		}
	}
	got := bob.Invitations()
	if len(got) != maxPending || got[0].From.Name != "p4" {
		t.Fatalf("%d pending, oldest from %s", len(got), got[0].From.Name)
	}
}

// Friends screens poll presence; they must not queue behind the lock that
// connecting and playing take (held here for the whole test's reads).
func TestPresenceReadersDoNotTakeTheHubLock(t *testing.T) {
	e := newEnv(t)
	ann := e.h.Connect(person("ann"), true, func(Notice) {})
	defer ann.Close()
	ann.SetActivity(Activity{Doing: InGame, Game: "freecell"})
	e.h.mu.Lock()
	done := make(chan []Presence, 2)
	go func() {
		done <- e.h.Presence("id-ann", "id-bob")
		done <- e.h.Online()
	}()
	var got [][]Presence
	for range 2 {
		select {
		case p := <-done:
			got = append(got, p)
		case <-time.After(guard):
			e.h.mu.Unlock()
			t.Fatal("a presence read waited on the hub's lock")
		}
	}
	e.h.mu.Unlock()
	if p := got[0]; !p[0].Online || p[0].Activity.Game != "freecell" || p[1].Online {
		t.Fatalf("presence: %+v", p)
	}
	if o := got[1]; len(o) != 1 || o[0].Name != "ann" {
		t.Fatalf("online: %+v", o)
	}
}
