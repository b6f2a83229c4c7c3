package hub

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// finishedTable is a one-hand Kings table of ann, bob and an easy computer,
// watched by wat, played to the end of its match.
func finishedTable(t *testing.T, e *tenv) (*Table, *seatAt, *seatAt, *seatAt) {
	t.Helper()
	tb := e.open(kingsTable(person("ann"), open, open, SeatPlan{Computer: "easy"}))
	a := e.sit(tb, "ann", AnySeat)
	b := e.sit(tb, "bob", AnySeat)
	w := e.sit(tb, "wat", Watch)
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	e.play(tb, []*seatAt{a, b}, nil)
	if e.phaseOf(tb) != TableFinished {
		t.Fatalf("the match did not end: %v", e.phaseOf(tb))
	}
	return tb, a, b, w
}

func closedWith(t *testing.T, s *seatAt, reason string) {
	t.Helper()
	st := s.r.until(t, "the table closes", func(st TableState) bool { return st.Phase == TableClosed })
	if st.Reason != reason {
		t.Fatalf("%s was told %q, want %q", s.p.Name, st.Reason, reason)
	}
	if st.Rematch != nil || st.TurnLeft != 0 {
		t.Fatalf("a closed table's state: %+v", st)
	}
}

// TestRematchWhenAllSayYes: the end of a match asks everyone seated; the
// computer's seat says yes at once, the rematch waits for each person, and
// is dealt, to the same seats, once the last one says yes. Its games are a
// new match on a new deal.
func TestRematchWhenAllSayYes(t *testing.T) {
	e := newTenv(t)
	tb, a, b, w := finishedTable(t, e)
	st := e.current(tb, w)
	if st.Rematch == nil || !slices.Equal(st.Rematch.Yes, []bool{false, false, true}) ||
		!slices.Equal(st.Rematch.Waiting, []string{"ann", "bob"}) || st.Rematch.Left != tb.cfg.RematchWait {
		t.Fatalf("the offer: %+v", st.Rematch)
	}
	if err := w.m.Rematch(); !errors.Is(err, ErrNotSeated) {
		t.Fatalf("a watcher answers: %v", err)
	}
	seed := inspect(tb, func() uint64 { return tb.spec.Seed })
	e.clock.Advance(10 * time.Second)
	if err := a.m.Rematch(); err != nil {
		t.Fatal(err)
	}
	if err := a.m.Rematch(); err != nil {
		t.Fatalf("yes twice: %v", err)
	}
	st = e.current(tb, b)
	if st.Phase != TableFinished || !slices.Equal(st.Rematch.Waiting, []string{"bob"}) || !st.Rematch.Yes[0] ||
		st.Rematch.Left != tb.cfg.RematchWait-10*time.Second || !strings.Contains(strings.Join(st.Log, "\n"), "ann says yes to a rematch") {
		t.Fatalf("after ann's yes: %+v", st)
	}
	if err := b.m.Rematch(); err != nil {
		t.Fatal(err)
	}
	st = e.current(tb, a)
	if st.Phase != TablePlaying || st.GameNo != 0 || st.Rematch != nil || !slices.Equal(st.Totals, []int{0, 0, 0}) ||
		st.Seats[0].Person.Name != "ann" || st.Seats[1].Person.Name != "bob" || st.Seats[2].Computer != "easy" {
		t.Fatalf("the rematch: %+v", st)
	}
	if inspect(tb, func() uint64 { return tb.spec.Seed }) == seed {
		t.Fatal("the rematch dealt the same seed")
	}
	// The offer's time does not run on into the rematch.
	e.clock.Advance(tb.cfg.RematchWait)
	e.play(tb, []*seatAt{a, b}, nil)
	rs := e.resultList()
	if len(rs) != 2 || !rs[0].MatchEnd || !rs[1].MatchEnd || rs[0].Spec == rs[1].Spec || rs[1].GameNo != 0 {
		t.Fatalf("results: %+v", rs)
	}
	if e.phaseOf(tb) != TableFinished || e.current(tb, a).Rematch == nil {
		t.Fatal("the second match's end offers a rematch again")
	}
}

// TestRematchDeclined: a no from one person closes the table for everyone,
// watchers too, naming who said no.
func TestRematchDeclined(t *testing.T) {
	e := newTenv(t)
	tb := e.open(kingsTable(person("ann"), open, open, SeatPlan{Computer: "easy"}))
	a := e.sit(tb, "ann", AnySeat)
	b := e.sit(tb, "bob", AnySeat)
	if err := b.m.Decline(); !errors.Is(err, ErrNotPlaying) {
		t.Fatalf("a no before the match: %v", err)
	}
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	w := e.sit(tb, "wat", Watch)
	e.play(tb, []*seatAt{a, b}, nil)
	if err := w.m.Decline(); !errors.Is(err, ErrNotSeated) {
		t.Fatalf("a watcher's no: %v", err)
	}
	if err := a.m.Rematch(); err != nil {
		t.Fatal(err)
	}
	if err := b.m.Decline(); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*seatAt{a, b, w} {
		closedWith(t, s, "bob declined the rematch.")
	}
	<-tb.Done()
	if in := e.h.SeatedAt("id-bob"); len(in) != 0 {
		t.Fatalf("the closed table is listed: %+v", in)
	}
	if err := a.m.Leave(); err != nil {
		t.Fatalf("leaving the closed table: %v", err)
	}
}

// TestRematchLapses: unanswered within the wait, the offer closes the
// table, saying who did not answer.
func TestRematchLapses(t *testing.T) {
	for _, annSays := range []bool{false, true} {
		e := newTenv(t)
		tb, a, b, w := finishedTable(t, e)
		if annSays {
			if err := a.m.Rematch(); err != nil {
				t.Fatal(err)
			}
		}
		e.clock.Advance(tb.cfg.RematchWait - time.Millisecond)
		if p := e.phaseOf(tb); p != TableFinished {
			t.Fatalf("closed before its time: %v", p)
		}
		e.clock.Advance(time.Millisecond)
		want := "Nobody answered the rematch in time."
		if annSays {
			want = "bob did not answer the rematch in time."
		}
		for _, s := range []*seatAt{a, b, w} {
			closedWith(t, s, want)
		}
		<-tb.Done()
	}
}

// TestComputersSayYes: the computers' seats say yes at once, so a person
// alone with computers deals the rematch by their own yes; at a table of
// computers only, the host who watches answers for it.
func TestComputersSayYes(t *testing.T) {
	e := newTenv(t)
	tb := e.open(kingsTable(person("ann"), SeatPlan{Computer: "easy"}, SeatPlan{Computer: "normal"}))
	host := e.sit(tb, "ann", Watch)
	other := e.sit(tb, "wat", Watch)
	if err := host.m.Start(); err != nil {
		t.Fatal(err)
	}
	e.play(tb, nil, nil)
	st := e.current(tb, other)
	if st.Phase != TableFinished || !slices.Equal(st.Rematch.Yes, []bool{true, true}) || !slices.Equal(st.Rematch.Waiting, []string{"ann"}) {
		t.Fatalf("a computers' table's offer: %+v", st.Rematch)
	}
	if err := other.m.Rematch(); !errors.Is(err, ErrNotSeated) {
		t.Fatalf("a watcher not the host: %v", err)
	}
	if err := host.m.Rematch(); err != nil {
		t.Fatal(err)
	}
	if st := e.current(tb, other); st.Phase != TablePlaying || st.GameNo != 0 {
		t.Fatalf("the host's yes: %+v", st)
	}
}

// TestLeavingIsANo: a person who goes once the match is over (by choice or
// by a lost connection) says no to the rematch.
func TestLeavingIsANo(t *testing.T) {
	for _, drop := range []bool{false, true} {
		e := newTenv(t)
		tb, a, b, w := finishedTable(t, e)
		if err := b.m.Rematch(); err != nil {
			t.Fatal(err)
		}
		leave := a.m.Leave
		if drop {
			leave = a.m.Drop
		}
		if err := leave(); err != nil {
			t.Fatal(err)
		}
		for _, s := range []*seatAt{b, w} {
			closedWith(t, s, "ann left the table, so there is no rematch.")
		}
		<-tb.Done()
	}
}

// TestRematchAfterALostSeat: a person who lost the seat during the match
// is not waited for; the rematch opens the seat again and the table goes
// back to seating, where the host starts it once someone sits.
func TestRematchAfterALostSeat(t *testing.T) {
	e := newTenv(t)
	tb := e.open(kingsTable(person("ann"), open, open, SeatPlan{Computer: "easy"}))
	a := e.sit(tb, "ann", AnySeat)
	b := e.sit(tb, "bob", AnySeat)
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.m.Leave(); err != nil {
		t.Fatal(err)
	}
	e.play(tb, []*seatAt{a}, nil)
	st := e.current(tb, a)
	if st.Phase != TableFinished || !slices.Equal(st.Rematch.Yes, []bool{false, true, true}) || !slices.Equal(st.Rematch.Waiting, []string{"ann"}) {
		t.Fatalf("the offer after bob left: %+v", st.Rematch)
	}
	if err := a.m.Rematch(); err != nil {
		t.Fatal(err)
	}
	st = e.current(tb, a)
	if st.Phase != TableSeating || !st.Seats[1].Open() || !strings.Contains(st.Log[len(st.Log)-1], "waiting for seat 2") {
		t.Fatalf("the rematch with a seat open: %+v", st)
	}
	c := e.sit(tb, "cy", AnySeat)
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	if st := e.current(tb, c); st.Phase != TablePlaying || st.Seat != 1 {
		t.Fatalf("cy in bob's seat: %+v", st)
	}
}

// TestHostHandsOn: a host who leaves passes the host's part to the next
// person seated, who may then start the table; with nobody seated there
// is no host until someone sits.
func TestHostHandsOn(t *testing.T) {
	e := newTenv(t)
	tb := e.open(kingsTable(person("ann"), open, open, open))
	a := e.sit(tb, "ann", AnySeat)
	b := e.sit(tb, "bob", AnySeat)
	c := e.sit(tb, "cy", AnySeat)
	if err := b.m.Leave(); err != nil {
		t.Fatal(err)
	}
	if st := e.current(tb, a); st.Host != "id-ann" {
		t.Fatalf("a guest left and the host changed: %+v", st)
	}
	b = e.sit(tb, "bob", 1)
	if err := a.m.Leave(); err != nil {
		t.Fatal(err)
	}
	st := e.current(tb, c)
	if st.Host != "id-bob" || st.Log[len(st.Log)-1] != "bob hosts the table now" {
		t.Fatalf("after the host left: host %q, log %q", st.Host, st.Log)
	}
	if in, _ := tb.Info(); in.Host.Name != "bob" {
		t.Fatalf("the lobby's host: %+v", in.Host)
	}
	if err := c.m.Start(); !errors.Is(err, ErrNotHost) || !strings.Contains(err.Error(), "bob") {
		t.Fatalf("cy starts: %v", err)
	}
	a = e.sit(tb, "ann", 0)
	if err := b.m.Start(); err != nil {
		t.Fatal(err)
	}
	// In play: the host who goes for good passes it on, the next seat
	// after theirs first (cy, not ann).
	if err := b.m.Leave(); err != nil {
		t.Fatal(err)
	}
	if st := e.current(tb, a); st.Host != "id-cy" || !strings.Contains(strings.Join(st.Log, "\n"), "cy hosts the table now") {
		t.Fatalf("after the host left in play: host %q, log %q", st.Host, st.Log)
	}
	// One who drops keeps the seat but not the host's part, which goes to
	// someone here; and the last person seated going leaves no host.
	if err := c.m.Drop(); err != nil {
		t.Fatal(err)
	}
	if st := e.current(tb, a); st.Host != "id-ann" {
		t.Fatalf("after the host dropped: %q", st.Host)
	}

	e2 := newTenv(t)
	tb2 := e2.open(kingsTable(person("dee"), open, open))
	d := e2.sit(tb2, "dee", AnySeat)
	w := e2.sit(tb2, "wat", Watch)
	if err := d.m.Leave(); err != nil {
		t.Fatal(err)
	}
	if st := e2.current(tb2, w); st.Host != "" {
		t.Fatalf("nobody seated, yet a host: %q", st.Host)
	}
	if in, _ := tb2.Info(); in.Host.Name != "" {
		t.Fatalf("the lobby's host of a table nobody sits at: %+v", in.Host)
	}
	e2.sit(tb2, "eve", AnySeat)
	if st := e2.current(tb2, w); st.Host != "id-eve" {
		t.Fatalf("the first to sit at a table with no host: %q", st.Host)
	}
}

// TestDesertedTableEnds: once every person has dropped, the computers play
// on only until the last hold runs out; watchers do not keep the table
// going, and the lobby lists it no more.
func TestDesertedTableEnds(t *testing.T) {
	e := newTenv(t)
	cfg := kingsTable(person("ann"), open, open, SeatPlan{Computer: "easy"}, SeatPlan{Computer: "hard"})
	cfg.Hold = 20 * time.Second
	tb := e.open(cfg)
	a := e.sit(tb, "ann", AnySeat)
	b := e.sit(tb, "bob", AnySeat)
	w := e.sit(tb, "wat", Watch)
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	if err := a.m.Drop(); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(5 * time.Second)
	if err := b.m.Drop(); err != nil {
		t.Fatal(err)
	}
	// Nobody is here: the host's part goes to a person away.
	if st := e.current(tb, w); st.Host != "id-ann" {
		t.Fatalf("both dropped; host %q", st.Host)
	}
	// ann's hold runs out first: bob's seat is still held, and he hosts.
	e.clock.Advance(15 * time.Second)
	if st := e.current(tb, w); st.Phase == TableClosed || !st.Seats[0].Gone || st.Seats[1].Gone || st.Host != "id-bob" {
		t.Fatalf("with bob's seat held: %+v", st)
	}
	if in := e.h.SeatedAt("id-bob"); len(in) != 1 || in[0].Host.Name != "bob" {
		t.Fatalf("listed: %+v", in)
	}
	e.clock.Advance(5 * time.Second)
	closedWith(t, w, "Every player has left, so the table has closed.")
	<-tb.Done()
	if in := e.h.SeatedAt("id-bob"); len(in) != 0 {
		t.Fatalf("a deserted table is listed: %+v", in)
	}
	e.mu.Lock()
	snap, had := e.saved[tb.Code()]
	e.mu.Unlock()
	if !had || snap != nil {
		t.Fatal("the deserted table's snapshot was kept")
	}
}

// TestRematchWaitsForAHeldSeat: a person who dropped during the last game
// keeps the seat through the hold and is asked too; once the hold runs out
// the seat is lost, the rematch waits for them no more, and goes ahead.
func TestRematchWaitsForAHeldSeat(t *testing.T) {
	e := newTenv(t)
	cfg := kingsTable(person("ann"), open, open, SeatPlan{Computer: "easy"})
	cfg.Hold, cfg.RematchWait = time.Hour, 2*time.Hour
	tb := e.open(cfg)
	a := e.sit(tb, "ann", AnySeat)
	b := e.sit(tb, "bob", AnySeat)
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.m.Drop(); err != nil {
		t.Fatal(err)
	}
	e.play(tb, []*seatAt{a}, nil)
	if err := a.m.Rematch(); err != nil {
		t.Fatal(err)
	}
	st := e.current(tb, a)
	if st.Phase != TableFinished || !slices.Equal(st.Rematch.Waiting, []string{"bob"}) {
		t.Fatalf("bob away, within his hold: %+v", st.Rematch)
	}
	until := st.Seats[1].HeldUntil
	e.clock.Advance(until.Sub(e.clock.Now()))
	st = e.current(tb, a)
	if st.Phase != TableSeating || !st.Seats[1].Open() {
		t.Fatalf("after bob's hold: %+v", st)
	}
}

// TestWatchersKeepNoTable: while seating, watchers alone do not keep a
// table whose people all left: it closes after the grace period, unless
// someone sits meanwhile. A table planned for computers alone is kept for
// its watching host.
func TestWatchersKeepNoTable(t *testing.T) {
	e := newTenv(t)
	tb := e.open(kingsTable(person("ann"), open, open))
	a := e.sit(tb, "ann", AnySeat)
	w := e.sit(tb, "wat", Watch)
	if err := a.m.Leave(); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(e.h.grace - time.Second)
	b := e.sit(tb, "bob", AnySeat)
	e.clock.Advance(e.h.grace)
	if st := e.current(tb, w); st.Phase != TableSeating || st.Host != "id-bob" {
		t.Fatalf("bob sat in time: %+v", st)
	}
	if err := b.m.Leave(); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(e.h.grace - time.Second)
	if p := e.phaseOf(tb); p != TableSeating {
		t.Fatalf("closed before the grace ran out: %v", p)
	}
	e.clock.Advance(time.Second)
	closedWith(t, w, "Nobody sat at the table, so it has closed.")
	<-tb.Done()

	cp := e.open(kingsTable(person("cy"), SeatPlan{Computer: "easy"}, SeatPlan{Computer: "easy"}))
	c := e.sit(cp, "cy", Watch)
	e.clock.Advance(2 * e.h.grace)
	if st := e.current(cp, c); st.Phase != TableSeating {
		t.Fatalf("a computers' table its host watches: %+v", st)
	}
}
