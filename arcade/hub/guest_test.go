package hub

import (
	"errors"
	"testing"

	"sshuffle/engine"
)

// A guest watches a table and a race, shown to the others as "a guest",
// and may do nothing else: no seat, no racing, no room of their own. Two
// guests are two watchers, not one session taking over from the other.
func TestGuestsOnlyWatch(t *testing.T) {
	e := newTenv(t)
	ann := person("ann")
	tb := e.open(kingsTable(ann, open, SeatPlan{Computer: "hard"}))
	a := e.sit(tb, "ann", AnySeat)

	g1, g2 := e.h.Guest("10.0.0.1"), e.h.Guest("10.0.0.2")
	if g1.ID == g2.ID || g1.Name != GuestName || !g1.Guest {
		t.Fatalf("guests %+v and %+v", g1, g2)
	}
	for _, seat := range []int{AnySeat, 1} {
		if _, err := tb.Join(g1, seat, e.rec().sink); !errors.Is(err, ErrGuest) {
			t.Fatalf("a guest takes seat %d: %v", seat, err)
		}
	}
	w1, err := tb.Join(g1, Watch, e.rec().sink)
	if err != nil {
		t.Fatalf("a guest watches: %v", err)
	}
	if _, err := tb.Join(g2, Watch, e.rec().sink); err != nil {
		t.Fatalf("a second guest watches: %v", err)
	}
	st := e.current(tb, a)
	if len(st.Watchers) != 2 || st.Watchers[0].Name != GuestName || st.Watchers[1].Name != GuestName ||
		st.Watchers[0].Addr != "" {
		t.Fatalf("watchers %+v, want the two guests", st.Watchers)
	}
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	if err := w1.Do([]byte(`{}`)); !errors.Is(err, ErrNotSeated) {
		t.Fatalf("a guest's action: %v", err)
	}
	if err := w1.Start(); err == nil {
		t.Fatal("a guest started the table")
	}
	if err := w1.Say(0); !errors.Is(err, ErrGuest) {
		t.Fatalf("a guest's quick phrase: %v", err)
	}
	if _, err := e.h.OpenTable(kingsTable(g1, open, SeatPlan{Computer: "hard"})); !errors.Is(err, ErrGuest) {
		t.Fatalf("a guest opens a table: %v", err)
	}

	r, err := e.h.NewRace(RaceConfig{Spec: deal, Host: ann})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Join(g1, Racer, newRec().sink); !errors.Is(err, ErrGuest) {
		t.Fatalf("a guest races: %v", err)
	}
	rw, err := r.Join(g1, Watcher, newRec().sink)
	if err != nil {
		t.Fatalf("a guest watches a race: %v", err)
	}
	if err := rw.Say(0); !errors.Is(err, ErrGuest) {
		t.Fatalf("a guest's quick phrase in a race: %v", err)
	}
	rs := state(t, r)
	if len(rs.Watchers) != 1 || rs.Watchers[0].Name != GuestName || rs.Watchers[0].Addr != "" {
		t.Fatalf("the race's watchers: %+v", rs.Watchers)
	}
	if _, err := e.h.NewRace(RaceConfig{Spec: deal, Host: g1}); !errors.Is(err, ErrGuest) {
		t.Fatalf("a guest opens a race: %v", err)
	}
}

// An invitation names the race's game as people read it (the wiring's
// GameName), and says whether it is today's deal or which deal it is.
func TestInvitationNamesTheGame(t *testing.T) {
	e := newEnv(t)
	e.h.gameName = func(s engine.Spec) string { return "Klondike Draw 1 (" + s.Key() + ")" }
	ann := e.h.Connect(person("ann"), true, func(Notice) {})
	box := newInbox()
	e.h.Connect(person("bob"), true, box.sink)
	for _, tc := range []struct {
		ranked bool
		want   string
	}{
		{true, "ann invites you to a race of today's Klondike Draw 1 (klondike/draw1)."},
		{false, "ann invites you to a race of Klondike Draw 1 (klondike/draw1), deal #7."},
	} {
		box.mu.Lock()
		box.got = nil
		box.mu.Unlock()
		r := e.race(tc.ranked)
		if err := ann.Invite(person("bob"), r.Code()); err != nil {
			t.Fatal(err)
		}
		if n := box.wait(t, Invited); n.Text != tc.want {
			t.Fatalf("invitation %q, want %q", n.Text, tc.want)
		}
	}
}
