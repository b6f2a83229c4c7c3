package hub

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"sshuffle/engine"
)

// TestTablePace: at each pace, a computer's action follows the one before
// it (the computer's own, or the person's that handed it the turn) by the
// pace's gap on the table's clock, and every action goes out as a state of
// its own, instant ones too.
func TestTablePace(t *testing.T) {
	for _, c := range []struct {
		speed Speed
		gap   time.Duration
	}{{"", time.Second}, {Steady, time.Second}, {Quick, 300 * time.Millisecond}, {Instant, 0}} {
		t.Run(string(c.speed), func(t *testing.T) {
			e := newTenv(t)
			want := c.speed
			if want == "" {
				want = Steady
			}
			type act struct {
				at       time.Time
				computer bool
			}
			var (
				mu    sync.Mutex
				acts  []act
				grew  []int // how many actions each state added
				seen  int
				turn  = engine.NoSeat
				spied = e.h.tableSpy
			)
			e.h.tableSpy = func(tb *Table) {
				spied(tb)
				if tb.game == nil || tb.phase != TablePlaying {
					return
				}
				mu.Lock()
				defer mu.Unlock()
				if n := tb.game.Actions(); n > seen {
					grew = append(grew, n-seen)
					acts = append(acts, act{at: e.clock.Now(), computer: turn >= 0 && tb.seats[turn].computer != ""})
					seen = n
				}
				turn = tb.game.Turn()
			}
			cfg := kingsTable(person("ann"), open, SeatPlan{Computer: "easy"}, SeatPlan{Computer: "hard"})
			cfg.Speed = c.speed
			tb := e.open(cfg)
			if got := inspect(tb, func() Speed { return tb.cfg.Speed }); got != want {
				t.Fatalf("the table's pace is %q", got)
			}
			a := e.sit(tb, "ann", AnySeat)
			if err := a.m.Start(); err != nil {
				t.Fatal(err)
			}
			e.play(tb, []*seatAt{a}, func() bool {
				mu.Lock()
				defer mu.Unlock()
				return len(acts) >= 40
			})
			mu.Lock()
			defer mu.Unlock()
			computers := 0
			for i := 1; i < len(acts); i++ {
				if !acts[i].computer {
					continue
				}
				computers++
				if d := acts[i].at.Sub(acts[i-1].at); d != c.gap {
					t.Fatalf("computer action %d came %v after the one before; the pace is %v", i, d, c.gap)
				}
			}
			if computers < 10 {
				t.Fatalf("only %d computer actions to time", computers)
			}
			for i, n := range grew {
				if n != 1 {
					t.Fatalf("state %d carried %d new actions at once", i, n)
				}
			}
			if st := e.current(tb, a); st.Speed != want {
				t.Fatalf("the state says the pace is %q", st.Speed)
			}
			if in, _ := tb.Info(); in.Speed != want {
				t.Fatalf("the lobby lists the pace as %q", in.Speed)
			}
		})
	}
}

// TestTablePaceKept: the pace travels in the snapshot and comes back with
// the restored table; a snapshot from before paces restores as steady.
func TestTablePaceKept(t *testing.T) {
	e := newTenv(t)
	cfg := kingsTable(person("ann"), open, SeatPlan{Computer: "easy"})
	cfg.Speed = Quick
	tb := e.open(cfg)
	code := tb.Code()
	a := e.sit(tb, "ann", AnySeat)
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	e.play(tb, []*seatAt{a}, func() bool { return e.actions(tb) >= 5 })
	e.h.Close()
	e.mu.Lock()
	snap := e.saved[code]
	e.mu.Unlock()
	if snap == nil || snap.Speed != Quick {
		t.Fatalf("the snapshot keeps the pace as %+v", snap)
	}
	stored, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []Speed{Quick, Steady} {
		var s TableSnapshot
		if err := json.Unmarshal(stored, &s); err != nil {
			t.Fatal(err)
		}
		if want == Steady {
			s.Speed = "" // as written before tables had a pace
		}
		e.clock = NewManualClock()
		e.h = e.hub(e.clock)
		rt, err := e.h.RestoreTable(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := inspect(rt, func() Speed { return rt.cfg.Speed }); got != want {
			t.Fatalf("restored at %q, want %q", got, want)
		}
		e.h.Close()
	}
}

// TestTablePaceRefused: a pace that is none of the three opens no table.
func TestTablePaceRefused(t *testing.T) {
	e := newTenv(t)
	cfg := kingsTable(person("ann"), open, SeatPlan{Computer: "easy"})
	cfg.Speed = "ludicrous"
	_, err := e.h.OpenTable(cfg)
	if !errors.Is(err, ErrBadTable) || err.Error() != `A table's pace is steady, quick, instant, not "ludicrous".` {
		t.Fatalf("opening at a pace of ludicrous: %v", err)
	}
}

// TestTablePaceThroughARematch: the rematch deals at the table's pace.
func TestTablePaceThroughARematch(t *testing.T) {
	e := newTenv(t)
	tb := e.open(TableConfig{Game: "kings", Settings: "match=25", Host: person("ann"), Speed: Quick,
		Seats: []SeatPlan{open, {Computer: "easy"}}})
	a := e.sit(tb, "ann", AnySeat)
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	for e.phaseOf(tb) != TableFinished {
		e.play(tb, []*seatAt{a}, nil)
		if e.phaseOf(tb) == TableBetween {
			e.clock.Advance(tb.cfg.Break)
		}
	}
	if err := a.m.Rematch(); err != nil {
		t.Fatal(err)
	}
	if st := e.current(tb, a); st.Phase != TablePlaying || st.Speed != Quick {
		t.Fatalf("the rematch: %v at %q", st.Phase, st.Speed)
	}
	gap := Quick.gap(tb.cfg.Pace)
	for range 100 {
		st := e.current(tb, a)
		if st.Turn == 0 {
			// ann moves; the computer's turn, if it comes, starts now.
			if err := a.m.Do(choose(a.bot, st.View)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		n := e.actions(tb)
		e.clock.Advance(gap - time.Millisecond)
		if e.actions(tb) != n {
			t.Fatalf("the computer acted before the quick pace's %v", gap)
		}
		e.clock.Advance(time.Millisecond)
		if e.actions(tb) != n+1 {
			t.Fatalf("the computer did not act at the quick pace's %v", gap)
		}
		return
	}
	t.Fatal("the computer never had a turn")
}
