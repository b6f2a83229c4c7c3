package hub

import (
	"errors"
	"testing"
	"time"
)

// sentTo is the version of the last state the table put in s's outbox.
func sentTo(tb *Table, s *seatAt) uint64 {
	return inspect(tb, func() uint64 {
		for _, m := range tb.members {
			if m.ID == s.p.ID {
				return m.sent
			}
		}
		return 0
	})
}

// TestTablePhrases: a phrase goes by number to every seat and watcher for
// PhraseShown, words and name from the hub; one person says one every
// PhraseGap at most; a number outside the list is refused; a member who
// muted phrases is neither shown one nor sent a state for one.
func TestTablePhrases(t *testing.T) {
	e := newTenv(t)
	tb := e.open(kingsTable(person("ann"), open, open, SeatPlan{Computer: "easy"}))
	a := e.sit(tb, "ann", AnySeat)
	b := e.sit(tb, "bob", AnySeat)
	w := e.sit(tb, "wat", Watch)
	for _, n := range []int{-1, len(Phrases), 1 << 40} {
		if err := a.m.Say(n); !errors.Is(err, ErrNoPhrase) || err.Error() != "There is no such quick phrase." {
			t.Fatalf("phrase %d: %v", n, err)
		}
	}
	if st := e.current(tb, w); st.Said != nil {
		t.Fatalf("a refused phrase is shown: %+v", st.Said)
	}
	if err := b.m.Mute(true); err != nil {
		t.Fatal(err)
	}
	muted := sentTo(tb, b)
	if err := a.m.Say(2); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*seatAt{a, w} {
		st := e.current(tb, s)
		if st.Said == nil || st.Said.Text() != "ann: Good luck" || st.Said.By.ID != a.p.ID {
			t.Fatalf("%s is shown %+v", s.p.Name, st.Said)
		}
	}
	if st := e.current(tb, b); st.Said != nil || sentTo(tb, b) != muted {
		t.Fatalf("bob muted phrases and is sent %+v (v%d, was v%d)", st.Said, sentTo(tb, b), muted)
	}
	if st, _ := b.m.State(); st.Said != nil {
		t.Fatalf("bob asks for the whole state and hears %+v", st.Said)
	}

	// Faster than one every PhraseGap: refused with a sentence, and the
	// phrase up stays; someone else may speak meanwhile.
	e.clock.Advance(PhraseGap - time.Millisecond)
	if err := a.m.Say(0); !errors.Is(err, ErrPhraseTooSoon) || err.Error() != "One quick phrase every 3 seconds: wait a moment." {
		t.Fatalf("a second phrase too soon: %v", err)
	}
	if st := e.current(tb, w); st.Said == nil || st.Said.Phrase != 2 {
		t.Fatalf("after a refused phrase the watcher sees %+v", st.Said)
	}
	if err := w.m.Say(3); err != nil {
		t.Fatalf("the watcher thanks: %v", err)
	}
	if st := e.current(tb, a); st.Said == nil || st.Said.Text() != "wat: Thanks" {
		t.Fatalf("ann sees %+v", st.Said)
	}
	// Leaving and coming back does not start the count again.
	if err := w.m.Leave(); err != nil {
		t.Fatal(err)
	}
	w = e.sit(tb, "wat", Watch)
	if err := w.m.Say(4); !errors.Is(err, ErrPhraseTooSoon) {
		t.Fatalf("the watcher back at once: %v", err)
	}
	e.clock.Advance(time.Millisecond)
	if err := a.m.Say(0); err != nil {
		t.Fatalf("after the gap: %v", err)
	}

	// Shown for PhraseShown, then gone from every screen.
	e.clock.Advance(PhraseShown - time.Millisecond)
	if st := e.current(tb, w); st.Said == nil || st.Said.Text() != "ann: Good game" {
		t.Fatalf("before its time is up the watcher sees %+v", st.Said)
	}
	e.clock.Advance(time.Millisecond)
	for _, s := range []*seatAt{a, w} {
		if st := e.current(tb, s); st.Said != nil {
			t.Fatalf("%s still sees %+v", s.p.Name, st.Said)
		}
	}

	// bob hears phrases again once he turns them back on.
	if err := b.m.Mute(false); err != nil {
		t.Fatal(err)
	}
	if err := a.m.Say(1); err != nil {
		t.Fatal(err)
	}
	if st := e.current(tb, b); st.Said == nil || st.Said.Text() != "ann: Well played" {
		t.Fatalf("bob unmuted sees %+v", st.Said)
	}
}

// TestRacePhrases: the same in a race, for racers and watchers alike, and
// the race's clock in a phrase's state is the race time of that moment.
func TestRacePhrases(t *testing.T) {
	e := newEnv(t)
	r := e.race(false)
	ann, ra := join(t, r, "ann", Racer)
	bob, rb := join(t, r, "bob", Racer)
	wat, rw := join(t, r, "wat", Watcher)
	if err := ann.Say(len(Phrases)); !errors.Is(err, ErrNoPhrase) {
		t.Fatalf("phrase %d: %v", len(Phrases), err)
	}
	e.begin(ann)
	e.clock.Advance(7 * time.Second)
	if err := bob.Mute(true); err != nil {
		t.Fatal(err)
	}
	puts := func() uint64 {
		n, _ := call(&r.loop, func() (uint64, error) {
			for _, m := range r.members {
				if m.ID == bob.Person().ID {
					p, _ := m.out.Counts()
					return p, nil
				}
			}
			return 0, nil
		})
		return n
	}
	bobPuts := puts()
	if err := wat.Say(2); err != nil {
		t.Fatal(err)
	}
	st := ra.until(t, "ann hears the watcher", func(s RaceState) bool { return s.Said != nil })
	if st.Said.Text() != "wat: Good luck" || st.Elapsed != 7*time.Second {
		t.Fatalf("ann is sent %+v at %v", st.Said, st.Elapsed)
	}
	rw.until(t, "the watcher sees it too", func(s RaceState) bool { return s.Said != nil && s.Said.Phrase == 2 })
	if s, _ := bob.State(); s.Said != nil {
		t.Fatalf("bob muted and hears %+v", s.Said)
	}
	if n := puts(); n != bobPuts {
		t.Fatalf("bob muted was sent %d states for a phrase", n-bobPuts)
	}
	if s := rb.until(t, "bob's screen is current", func(RaceState) bool { return true }); s.Said != nil {
		t.Fatalf("bob's screen shows %+v", s.Said)
	}
	if err := wat.Say(1); !errors.Is(err, ErrPhraseTooSoon) {
		t.Fatalf("again at once: %v", err)
	}
	e.clock.Advance(PhraseShown)
	ra.until(t, "the phrase goes", func(s RaceState) bool { return s.Said == nil })
}
