package hub

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"sshuffle/games/kings"
)

// TestStuckSinkSlowsNoTable has a watcher whose screen never takes a
// state; the table plays to the end all the same, and the stuck outbox
// only ever replaced its value.
func TestStuckSinkSlowsNoTable(t *testing.T) {
	e := newTenv(t)
	tb := e.open(kingsTable(person("ann"), open, SeatPlan{Computer: "normal"}, open, SeatPlan{Computer: "easy"}))
	a := e.sit(tb, "ann", AnySeat)
	b := e.sit(tb, "bob", AnySeat)
	release := make(chan struct{})
	var entered, got atomic.Int64
	var last atomic.Value
	stuck, err := tb.Join(person("zed"), Watch, func(st TableState) {
		if entered.Add(1) == 1 {
			<-release
		}
		got.Add(1)
		last.Store(st)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	e.play(tb, []*seatAt{a, b}, nil)
	if e.phaseOf(tb) != TableFinished {
		t.Fatal("the table did not finish")
	}
	counts := inspect(tb, func() [2]uint64 {
		for _, m := range tb.members {
			if m.ID == stuck.Person().ID {
				p, r := m.out.Counts()
				return [2]uint64{p, r}
			}
		}
		return [2]uint64{}
	})
	puts, replaced := counts[0], counts[1]
	if entered.Load() != 1 || puts < 20 || replaced < puts-2 {
		t.Fatalf("the stuck sink was entered %d times; %d puts, %d replaced", entered.Load(), puts, replaced)
	}
	close(release)
	deadline := time.Now().Add(guard)
	for {
		if st, ok := last.Load().(TableState); ok && st.Phase == TableFinished {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the released sink never got the final state")
		}
		runtime.Gosched()
	}
}

// TestTablesLeaveNothing takes tables through every way one ends and counts
// goroutines afterwards.
func TestTablesLeaveNothing(t *testing.T) {
	base := runtime.NumGoroutine()
	func() {
		e := newTenv(t)
		for i := range 4 {
			// Finished, then left.
			tb := e.open(kingsTable(person("ann"), open, SeatPlan{Computer: "easy"}))
			a := e.sit(tb, "ann", AnySeat)
			w := e.sit(tb, "wat", Watch)
			_ = a.m.Start()
			e.play(tb, []*seatAt{a}, nil)
			_ = a.m.Leave()
			_ = w.m.Drop()
			e.clock.Advance(e.h.grace)
			<-tb.Done()
			// Everyone dropped in play: held, then gone, then empty.
			tb = e.open(kingsTable(person("bob"), open, open))
			b := e.sit(tb, "bob", AnySeat)
			c := e.sit(tb, "cy", AnySeat)
			_ = b.m.Start()
			_ = b.m.Drop()
			_ = c.m.Drop()
			e.clock.Advance(tb.cfg.Hold + e.h.grace + time.Second)
			<-tb.Done()
			// Never joined.
			tb = e.open(TableConfig{Game: kings.Name, Seats: []SeatPlan{open, open}})
			e.clock.Advance(e.h.grace)
			<-tb.Done()
			// Left open for Close, one with a takeover.
			tb = e.open(kingsTable(person("dee"), open, open))
			e.sit(tb, "dee", AnySeat)
			e.sit(tb, "dee", AnySeat)
			_ = i
		}
		lw := e.h.WatchLobby(func(TableList) {})
		_ = lw
		e.h.Close()
	}()
	settle(t, base)
}

type panicky struct{}

func (panicky) ChooseEncoded([]byte) ([]byte, error) { panic("a computer player with a bug") }

// TestAPanickingGameEndsOnlyItsTable: a panic inside a game package (here a
// computer player's) closes that table with a sentence; the hub and the
// other tables go on.
func TestAPanickingGameEndsOnlyItsTable(t *testing.T) {
	e := newTenv(t)
	bad := e.open(kingsTable(person("ann"), SeatPlan{Computer: "easy"}, SeatPlan{Computer: "easy"}))
	good := e.open(kingsTable(person("ann"), SeatPlan{Computer: "easy"}, SeatPlan{Computer: "easy"}))
	wb := e.sit(bad, "ann", Watch)
	wg := e.sit(good, "ann", Watch)
	for _, w := range []*seatAt{wb, wg} {
		if err := w.m.Start(); err != nil {
			t.Fatal(err)
		}
	}
	_ = bad.loop.wait(func() {
		for _, s := range bad.seats {
			s.player = panicky{}
		}
	})
	e.clock.Advance(bad.cfg.Pace)
	st := wb.r.until(t, "the broken table closes", func(s TableState) bool { return s.Phase == TableClosed })
	if st.Reason != ErrTableBroke.Error() || st.View != nil {
		t.Fatalf("closing state: %+v", st)
	}
	<-bad.Done()
	e.mu.Lock()
	snap, had := e.saved[bad.Code()]
	e.mu.Unlock()
	if !had || snap != nil {
		t.Fatal("the broken table's snapshot was kept")
	}
	if got := e.current(good, wg); got.Phase != TablePlaying || len(got.Log) < 2 {
		t.Fatalf("the other table: %+v", got)
	}
	if _, err := e.h.OpenTable(kingsTable(person("bob"), open, open)); err != nil {
		t.Fatal(err)
	}
}
