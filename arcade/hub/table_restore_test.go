package hub

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/games"
	"sshuffle/games/spite"
)

func (e *tenv) actions(t *Table) int {
	return inspect(t, func() int { return t.game.Actions() })
}

func recordActions(t *testing.T, rec []byte) []json.RawMessage {
	t.Helper()
	var r struct{ Actions []json.RawMessage }
	if err := json.Unmarshal(rec, &r); err != nil {
		t.Fatal(err)
	}
	return r.Actions
}

// startSpite opens a Spite and Malice table of ann and bob with a 45 s
// turn clock, and starts it.
func (e *tenv) startSpite() (tb *Table, a, b *seatAt) {
	e.t.Helper()
	cfg := TableConfig{Game: spite.Name, Settings: "payoff=13", Seats: []SeatPlan{open, open}, Host: person("ann"), TurnClock: 45 * time.Second}
	tb = e.open(cfg)
	a = e.sit(tb, "ann", 0)
	b = e.sit(tb, "bob", 1)
	if err := a.m.Start(); err != nil {
		e.t.Fatal(err)
	}
	return tb, a, b
}

// TestRestoreMidGame stops the server in the middle of a Spite and Malice
// table, restores it from its last snapshot on a new hub, and has both
// people rejoin and finish it; a second restore has one of them never
// come back.
func TestRestoreMidGame(t *testing.T) {
	e := newTenv(t)
	tb, a, b := e.startSpite()
	code := tb.Code()
	e.play(tb, []*seatAt{a, b}, func() bool { return e.actions(tb) >= 30 })
	n := e.actions(tb)
	before := inspect(tb, func() []byte { r, _ := games.RecordJSON(tb.game, nil); return r })
	e.h.Close()
	e.mu.Lock()
	snap := e.saved[code]
	e.mu.Unlock()
	if snap == nil {
		t.Fatal("no snapshot kept at shutdown")
	}
	if got := len(recordActions(t, snap.Record)); got != n {
		t.Fatalf("the last snapshot holds %d actions, the game %d", got, n)
	}
	stored, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}

	restore := func() (*Table, TableSnapshot) {
		var s TableSnapshot
		if err := json.Unmarshal(stored, &s); err != nil {
			t.Fatal(err)
		}
		e.clock = NewManualClock()
		e.h = e.hub(e.clock)
		rt, err := e.h.RestoreTable(s)
		if err != nil {
			t.Fatal(err)
		}
		if rt.Code() != code {
			t.Fatalf("restored as %s, was %s", rt.Code(), code)
		}
		return rt, s
	}

	t.Run("both come back", func(t *testing.T) {
		rt, s := restore()
		if seated := e.h.SeatedAt(person("bob").ID); len(seated) != 1 || seated[0].Code != code {
			t.Fatalf("bob is seated at %+v", seated)
		}
		a := e.sit(rt, "ann", AnySeat)
		st := e.current(rt, a)
		if !st.Paused || st.Seats[1].Here {
			t.Fatalf("restored, before bob is back: %+v", st)
		}
		e.clock.Advance(10 * time.Second)
		if got := e.actions(rt); got != n {
			t.Fatalf("a paused table moved: %d actions, was %d", got, n)
		}
		b := e.sit(rt, "bob", AnySeat)
		st = e.current(rt, b)
		if st.Paused || b.m.Seat() != 1 {
			t.Fatalf("both back: %+v", st)
		}
		if st.Turn >= 0 && s.TurnLeft > 0 && st.TurnLeft != s.TurnLeft {
			t.Fatalf("the turn clock came back with %v, was saved with %v", st.TurnLeft, s.TurnLeft)
		}
		e.play(rt, []*seatAt{a, b}, nil)
		rs := e.resultList()
		if len(rs) != 1 {
			t.Fatalf("%d results", len(rs))
		}
		got, was := recordActions(t, rs[0].Record), recordActions(t, before)
		for i := range was {
			if string(got[i]) != string(was[i]) {
				t.Fatalf("action %d changed across the restart: %s, was %s", i, got[i], was[i])
			}
		}
		e.h.Close()
	})

	t.Run("one never comes back", func(t *testing.T) {
		rt, _ := restore()
		a := e.sit(rt, "ann", AnySeat)
		e.clock.Advance(rt.cfg.Hold - time.Second)
		if st := e.current(rt, a); !st.Paused {
			t.Fatal("resumed before the hold ran out")
		}
		e.clock.Advance(time.Second)
		st := e.current(rt, a)
		if st.Paused || !st.Seats[1].Gone || st.Seats[1].Computer != "normal" {
			t.Fatalf("after the hold: %+v", st)
		}
		if _, err := rt.Join(person("bob"), AnySeat, func(TableState) {}); err == nil {
			t.Fatal("bob took back a seat he lost")
		}
		e.play(rt, []*seatAt{a}, nil)
		rs := e.resultList()
		last := rs[len(rs)-1]
		if !last.Seats[1].Gone || !strings.Contains(string(last.Record), `"seats":["person","person"]`) {
			t.Fatalf("result: %+v", last.Seats)
		}
	})

	bad := TableSnapshot{Format: SnapshotFormat, Code: code, Game: spite.Name, Seats: []SnapshotSeat{{Person: person("ann")}, {Person: person("bob")}}, Record: []byte(`{}`)}
	if _, err := e.h.RestoreTable(bad); err == nil {
		t.Fatal("restored a snapshot with no game in it")
	}
}

// TestRestoreKingsMatch restarts a Kings match in its second hand (and
// once more during a break between hands): the match's totals and hand
// numbers carry on, the computers play on, and the match ends as one.
func TestRestoreKingsMatch(t *testing.T) {
	e := newTenv(t)
	tb := e.open(TableConfig{Game: "kings", Settings: "match=25", Host: person("ann"),
		Seats: []SeatPlan{open, {Computer: "easy"}, {Computer: "normal"}}})
	code := tb.Code()
	a := e.sit(tb, "ann", AnySeat)
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	restart := func() (*Table, *seatAt) {
		e.h.Close()
		e.mu.Lock()
		snap := e.saved[code]
		e.mu.Unlock()
		if snap == nil {
			t.Fatal("no snapshot")
		}
		js, _ := json.Marshal(snap)
		var s TableSnapshot
		if err := json.Unmarshal(js, &s); err != nil {
			t.Fatal(err)
		}
		e.clock = NewManualClock()
		e.h = e.hub(e.clock)
		rt, err := e.h.RestoreTable(s)
		if err != nil {
			t.Fatal(err)
		}
		return rt, e.sit(rt, "ann", AnySeat)
	}
	e.play(tb, []*seatAt{a}, nil) // to the end of hand 0
	if e.phaseOf(tb) != TableBetween {
		t.Fatalf("after hand 0: %v", e.phaseOf(tb))
	}
	tb, a = restart() // during the break: the snapshot is of hand 1, not yet played
	if st := e.current(tb, a); st.GameNo != 1 || st.Paused || st.Phase != TablePlaying {
		t.Fatalf("restored in the break: %+v", st)
	}
	e.play(tb, []*seatAt{a}, func() bool { return inspect(tb, func() int { return len(tb.log) }) >= MaxLog })
	tb, a = restart() // in the middle of hand 1
	for e.phaseOf(tb) != TableFinished {
		e.play(tb, []*seatAt{a}, nil)
		if e.phaseOf(tb) == TableBetween {
			e.clock.Advance(tb.cfg.Break)
		}
	}
	rs := e.resultList()
	sum := make([]int, 3)
	for i, r := range rs {
		for s, p := range r.Outcome.Points {
			sum[s] += p
		}
		if r.GameNo != i || !slices.Equal(r.Totals, sum) {
			t.Fatalf("result %d across restarts: game %d, totals %v, summed %v", i, r.GameNo, r.Totals, sum)
		}
	}
	if len(rs) < 2 || !rs[len(rs)-1].MatchEnd {
		t.Fatalf("%d results, last %+v", len(rs), rs[len(rs)-1])
	}
}

// TestTableSavedWhenTheTurnPasses plays a Spite and Malice table action by
// action: a snapshot is written when an action passes the turn, and only
// then, so the kept one always holds every action up to the start of the
// turn in play; a shutdown writes the rest.
func TestTableSavedWhenTheTurnPasses(t *testing.T) {
	e := newTenv(t)
	tb, a, b := e.startSpite()
	code := tb.Code()
	kept := func() int {
		tb.waitSaved(inspect(tb, func() uint64 { return tb.saveSeq }))
		e.mu.Lock()
		defer e.mu.Unlock()
		return len(recordActions(t, e.saved[code].Record))
	}
	turnStart, passes, within := 0, 0, 0
	for range 400 {
		turn := inspect(tb, func() int { return tb.game.Turn() })
		p := a
		if turn == 1 {
			p = b
		}
		st := e.current(tb, p)
		if err := p.m.Do(choose(p.bot, st.View)); err != nil {
			t.Fatal(err)
		}
		n, now := e.actions(tb), inspect(tb, func() int { return tb.game.Turn() })
		if now != turn {
			turnStart = n
			passes++
		} else {
			within++
		}
		if got := kept(); got != turnStart {
			t.Fatalf("after action %d (turn passed: %v) the kept snapshot holds %d actions, want %d", n, now != turn, got, turnStart)
		}
		if passes >= 6 && within >= 6 && now == turn {
			break // in the middle of a turn
		}
	}
	if passes < 6 || within < 6 {
		t.Fatalf("the game gave %d turn passes and %d actions within a turn", passes, within)
	}
	n := e.actions(tb)
	if kept() == n {
		t.Fatal("the turn in play is kept already")
	}
	left := inspect(tb, func() time.Duration { return tb.deadline.Sub(e.clock.Now()) })
	e.clock.Advance(10 * time.Second)
	e.h.Close()
	e.mu.Lock()
	snap := e.saved[code]
	e.mu.Unlock()
	if got := len(recordActions(t, snap.Record)); got != n {
		t.Fatalf("the snapshot written at shutdown holds %d actions, the game %d", got, n)
	}
	if want := left - 10*time.Second; snap.TurnLeft != want {
		t.Fatalf("the snapshot written at shutdown gives the turn %v, want %v", snap.TurnLeft, want)
	}
}

// TestStoppingKeepsSeatsAsTheyAre: once the server is stopping, the
// people's connections going (as every session's does then) change
// nothing at the table: no host passed, no computer standing in, nothing
// in the log, so the table kept for the next start is the one they left.
func TestStoppingKeepsSeatsAsTheyAre(t *testing.T) {
	e := newTenv(t)
	tb, a, b := e.startSpite()
	code := tb.Code()
	// Into the middle of a turn: the snapshot kept then is written at
	// the stop, with whatever the table holds by then.
	e.play(tb, []*seatAt{a, b}, func() bool { return e.actions(tb) >= 6 })
	for inspect(tb, func() bool { return !tb.unsaved }) {
		p := a
		if inspect(tb, func() int { return tb.game.Turn() }) == 1 {
			p = b
		}
		if err := p.m.Do(choose(p.bot, e.current(tb, p).View)); err != nil {
			t.Fatal(err)
		}
	}
	n := e.actions(tb)
	log := inspect(tb, func() []string { return tb.log })
	e.h.Stopping()
	require.NoError(t, a.m.Drop())
	require.NoError(t, b.m.Drop())
	e.clock.Advance(10 * time.Second) // a computer standing in would have played by now
	e.h.Close()
	e.mu.Lock()
	snap := e.saved[code]
	e.mu.Unlock()
	require.Equal(t, n, len(recordActions(t, snap.Record)), "actions in the snapshot")
	require.Equal(t, "id-ann", snap.Host.ID)
	require.Equal(t, log, snap.Log)
}
