package hub

import (
	"errors"
	"slices"
	"testing"
	"time"

	"sshuffle/engine"
	"sshuffle/games/kings"
)

// TestKingsMatchAndRematch plays a Kings match to 25 at a table: hands
// follow one another after the break, results carry running totals, the
// last ends the match with the lowest total winning; a rematch deals anew
// to the same seats.
func TestKingsMatchAndRematch(t *testing.T) {
	e := newTenv(t)
	tb := e.open(TableConfig{Game: kings.Name, Settings: "match=25", Host: person("ann"),
		Seats: []SeatPlan{open, {Computer: "easy"}, {Computer: "easy"}}})
	a := e.sit(tb, "ann", AnySeat)
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	for e.phaseOf(tb) != TableFinished {
		e.play(tb, []*seatAt{a}, nil)
		if e.phaseOf(tb) == TableBetween {
			st := e.current(tb, a)
			if st.Result == nil || err(a.m.Do(act(kings.Action{Do: kings.End})), ErrNotPlaying) {
				t.Fatalf("between hands: %+v", st)
			}
			e.clock.Advance(tb.cfg.Break)
		}
	}
	rs := e.resultList()
	if len(rs) < 2 {
		t.Fatalf("a match to 25 over %d hands", len(rs))
	}
	sum := make([]int, 3)
	for i, r := range rs {
		for s, p := range r.Outcome.Points {
			sum[s] += p
		}
		if r.GameNo != i || !slices.Equal(r.Totals, sum) || r.MatchEnd != (i == len(rs)-1) {
			t.Fatalf("result %d: game %d, totals %v (summed %v), end %v", i, r.GameNo, r.Totals, sum, r.MatchEnd)
		}
	}
	last := rs[len(rs)-1]
	if slices.Max(last.Totals) < kings.MatchTarget {
		t.Fatalf("the match ended at %v", last.Totals)
	}
	low := slices.Min(last.Totals)
	want := engine.NoSeat
	if n := len(slices.DeleteFunc(slices.Clone(last.Totals), func(x int) bool { return x != low })); n == 1 {
		want = slices.Index(last.Totals, low)
	}
	st := e.current(tb, a)
	if last.MatchWinner != want || st.MatchWinner != want {
		t.Fatalf("match winner %d / %d, want %d of %v", last.MatchWinner, st.MatchWinner, want, last.Totals)
	}
	seed := inspect(tb, func() uint64 { return tb.spec.Seed })
	if err := a.m.Rematch(); err != nil {
		t.Fatal(err)
	}
	st = e.current(tb, a)
	if st.Phase != TablePlaying || st.GameNo != 0 || st.Seats[0].Person.Name != "ann" || st.Seats[1].Computer != "easy" || !slices.Equal(st.Totals, []int{0, 0, 0}) {
		t.Fatalf("the rematch: %+v", st)
	}
	if inspect(tb, func() uint64 { return tb.spec.Seed }) == seed {
		t.Fatal("the rematch dealt the same seed")
	}
}

func err(got, want error) bool { return !errors.Is(got, want) }

// TestDropPastTheHold: a person who does not come back within the hold
// loses the seat to the computer, which plays it to the end.
func TestDropPastTheHold(t *testing.T) {
	e := newTenv(t)
	cfg := kingsTable(person("ann"), open, open)
	cfg.Hold = 15 * time.Second
	tb := e.open(cfg)
	a := e.sit(tb, "ann", AnySeat)
	b := e.sit(tb, "bob", AnySeat)
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.m.Drop(); err != nil {
		t.Fatal(err)
	}
	b.m = nil
	st := e.current(tb, a)
	if !st.Seats[1].StandIn || !st.Seats[1].HeldUntil.Equal(e.clock.Now().Add(cfg.Hold)) {
		t.Fatalf("held: %+v", st.Seats[1])
	}
	// Played meanwhile by the stand-in; ann plays her turns, the hold ends.
	e.play(tb, []*seatAt{a}, func() bool { return !e.clock.Now().Before(st.Seats[1].HeldUntil) })
	if e.phaseOf(tb) != TablePlaying {
		t.Fatal("the hand ended within the hold; this deal does not test the hold")
	}
	{
		st = e.current(tb, a)
		if !st.Seats[1].Gone || st.Seats[1].Computer != "normal" {
			t.Fatalf("after the hold: %+v", st.Seats[1])
		}
		if _, err := tb.Join(person("bob"), AnySeat, func(TableState) {}); !errors.Is(err, ErrTableStarted) {
			t.Fatalf("bob after losing the seat: %v", err)
		}
		e.play(tb, []*seatAt{a}, nil)
	}
	rs := e.resultList()
	if len(rs) != 1 || rs[0].Seats[1].Person.Name != "bob" || !rs[0].Seats[1].StoodIn || !rs[0].Seats[1].Gone {
		t.Fatalf("result seats: %+v", rs[0].Seats)
	}
}

// TestComputersKeepThePace: a computer acts once per Pace, never sooner,
// so that each action stays on the screen that long.
func TestComputersKeepThePace(t *testing.T) {
	e := newTenv(t)
	cfg := kingsTable(person("ann"), SeatPlan{Computer: "easy"}, SeatPlan{Computer: "normal"})
	cfg.Pace = 1500 * time.Millisecond
	tb := e.open(cfg)
	w := e.sit(tb, "ann", Watch)
	if err := w.m.Start(); err != nil {
		t.Fatal(err)
	}
	moves := func() int {
		return inspect(tb, func() int { return tb.game.Actions() })
	}
	for i := range 10 {
		if e.phaseOf(tb) != TablePlaying {
			break
		}
		e.clock.Advance(cfg.Pace - time.Millisecond)
		if got := moves(); got != i {
			t.Fatalf("after %d paces less a millisecond: %d actions", i+1, got)
		}
		e.clock.Advance(time.Millisecond)
		if got := moves(); got != i+1 {
			t.Fatalf("after %d paces: %d actions", i+1, got)
		}
	}
	if st := e.current(tb, w); len(st.Log) == 0 || st.TurnLeft != 0 {
		t.Fatalf("a computers' table: %+v", st)
	}
}
