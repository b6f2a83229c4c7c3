package natsrelay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"sshuffle/arcade/hub"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/natstest"
	"sshuffle/store/badger"
)

// shared is the store the nodes share, for table snapshots, as the
// wiring keeps them (arcade/tablestore.go).
type shared struct{ st *badger.Store }

func newShared(t *testing.T) *shared {
	st, err := badger.OpenInMemory()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return &shared{st: st}
}

// save writes a snapshot, a moment after it is handed over, as a store
// across the network does; a node that died writes nothing any more.
func (s *shared) save(n *node, code string, snap *hub.TableSnapshot) {
	time.Sleep(5 * time.Millisecond)
	if n.dead.Load() {
		return
	}
	ctx := context.Background()
	if snap == nil {
		_ = s.st.DeleteTable(ctx, code)
		return
	}
	b, _ := json.Marshal(snap)
	_ = s.st.PutTable(ctx, code, b)
}

func (s *shared) load(code string) (*hub.TableSnapshot, error) {
	all, err := s.st.SavedTables(context.Background())
	if err != nil {
		return nil, err
	}
	b, ok := all[code]
	if !ok {
		return nil, nil
	}
	var snap hub.TableSnapshot
	if err := json.Unmarshal(b, &snap); err != nil {
		return nil, err
	}
	return &snap, nil
}

// dyingOpts are a node's settings in the tests of a node's death: a lease
// of a fraction of a second, so the tests take no longer.
func dyingOpts(s *shared) nodeOpts {
	return nodeOpts{renew: 40 * time.Millisecond, lease: 400 * time.Millisecond, check: 40 * time.Millisecond,
		save: s.save, load: s.load}
}

// TestTableTakenOverAfterNodeDies: a Kings table lives on node a, ann
// seated there and bob from node b, a computer at the third seat. Right
// after bob's action is acknowledged, node a is cut off from NATS and
// everything. Node b sees the lease lapse, takes the table over from the
// shared store and restores it paused, with bob's action in; bob's screen
// follows the table there on its own; ann comes back through node c and
// finds her seat; they play to the end, and the result is recorded once,
// by node b. Node a, cut off, closes its copy and records nothing.
func TestTableTakenOverAfterNodeDies(t *testing.T) {
	c := natstest.Single(t)
	s := newShared(t)
	a := newNode(t, c, 0, "a", dyingOpts(s))
	b := newNode(t, c, 0, "b", dyingOpts(s))
	cn := newNode(t, c, 0, "c", dyingOpts(s))
	ann, bob := person("ann"), person("bob")
	kit, _ := games.Default().TableKit("kings")

	tb, err := a.h.OpenTable(kingsTable(ann))
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
	bm, err := far.Join(bob, hub.AnySeat, bobS.sink)
	if err != nil {
		t.Fatal(err)
	}
	annS.until(t, "bob seated", func(st hub.TableState) bool { return st.Seats[1].Here })
	if err := am.Start(); err != nil {
		t.Fatal(err)
	}
	bobS.until(t, "the deal", func(st hub.TableState) bool { return st.Phase == hub.TablePlaying })
	// Play on until it is bob's turn after at least one of his actions.
	players := map[int]engine.TablePlayer{}
	for seat := range 2 {
		players[seat], _ = kit.NewPlayer("easy", uint64(seat+1))
	}
	bobActed := false
	var before hub.TableState
	var acted uint64 // the version each action was chosen at: the next is chosen from a newer state
	for {
		st := bobS.until(t, "a person's turn", func(st hub.TableState) bool {
			return st.Version > acted && (st.Phase != hub.TablePlaying || st.Turn == 0 || st.Turn == 1)
		})
		if st.Phase != hub.TablePlaying {
			t.Fatalf("the hand ended before the test could cut node a off: %+v", st)
		}
		m, scr := am, annS
		if st.Turn == 1 {
			m, scr = bm, bobS
		}
		mine := scr.until(t, "the mover's screen catching up", func(x hub.TableState) bool { return x.Version >= st.Version })
		acted = mine.Version
		if mine.Turn != st.Turn {
			continue // the turn moved on meanwhile
		}
		if st.Turn == 1 && bobActed {
			before = mine
			break
		}
		act, err := players[st.Turn].ChooseEncoded(mine.View)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Do(act); err != nil {
			continue // a stale view: the next state says what now
		}
		bobActed = bobActed || st.Turn == 1
	}
	act, err := players[1].ChooseEncoded(before.View)
	if err != nil {
		t.Fatal(err)
	}
	if err := bm.Do(act); err != nil {
		t.Fatal(err)
	}
	// Acknowledged. Node a dies at once: it writes nothing more, and
	// NATS hears nothing more of it.
	a.dead.Store(true)
	a.nc.Close()

	<-tb.Done()
	annGone := annS.until(t, "ann's screen on node a closes", func(st hub.TableState) bool { return st.Phase == hub.TableClosed })
	if annGone.Reason == "" {
		t.Fatal("ann's screen closed without a reason")
	}
	back := bobS.until(t, "bob's screen follows the table to node b, paused", func(st hub.TableState) bool {
		return st.Phase == hub.TablePlaying && st.Paused
	})
	if bytes.Equal(back.View, before.View) {
		t.Fatal("the table came back without bob's acknowledged action")
	}
	if back.Seats[1].Person.ID != bob.ID || !back.Seats[1].Here || back.Seats[0].Here {
		t.Fatalf("seats after the takeover: %+v", back.Seats)
	}
	if _, err := b.h.Table(tb.Code()); err != nil {
		t.Fatalf("the table is not on node b: %v", err)
	}
	// Ann comes back through node c and finds her seat.
	onC, err := cn.h.FindTable(ann, tb.Code())
	if err != nil {
		t.Fatal(err)
	}
	annS2 := tableScreen()
	am2, err := onC.Join(ann, hub.Watch, annS2.sink)
	if err != nil {
		t.Fatal(err)
	}
	if am2.Seat() != 0 {
		t.Fatalf("ann came back to seat %d", am2.Seat())
	}
	bobS.until(t, "play resumes", func(st hub.TableState) bool { return !st.Paused })
	for _, ch := range []<-chan error{playSeat(am2, annS2, 3), playSeat(bm, bobS, 4)} {
		if err := <-ch; err != nil {
			t.Fatal(err)
		}
	}
	bobS.until(t, "bob sees the hand over", func(st hub.TableState) bool { return st.Phase == hub.TableFinished })
	eventually(t, "the result recorded", func() bool { return len(b.tableResults()) > 0 })
	if rs := b.tableResults(); len(rs) != 1 || rs[0].Seats[0].Person.ID != ann.ID || rs[0].Seats[1].Person.ID != bob.ID {
		t.Fatalf("results on node b: %+v", rs)
	}
	if n := len(a.tableResults()) + len(cn.tableResults()); n != 0 {
		t.Fatalf("%d results recorded by other nodes", n)
	}
	if err := kit.Replay(b.tableResults()[0].Record); err != nil {
		t.Fatalf("the record of the game across the takeover does not replay: %v", err)
	}
}

// TestRaceEndsWhenItsNodeDies: a race on node a with bob racing from
// node b; node a is cut off, and bob's screen is told the race is over,
// with the sentence saying his game goes on.
func TestRaceEndsWhenItsNodeDies(t *testing.T) {
	c := natstest.Single(t)
	s := newShared(t)
	a := newNode(t, c, 0, "a", dyingOpts(s))
	b := newNode(t, c, 0, "b", dyingOpts(s))
	ann, bob := person("ann"), person("bob")
	race, err := a.h.NewRace(hub.RaceConfig{Spec: engine.Spec{Game: "klondike", Variant: "draw1", Seed: 3}, Host: ann})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := race.Join(ann, hub.Racer, func(hub.RaceState) {}); err != nil {
		t.Fatal(err)
	}
	onB, err := b.h.Race(race.Code())
	if err != nil {
		t.Fatal(err)
	}
	bobS := raceScreen()
	bm, err := onB.Join(bob, hub.Racer, bobS.sink)
	if err != nil {
		t.Fatal(err)
	}
	bobS.until(t, "bob in the lobby", func(st hub.RaceState) bool { return len(st.Racers) == 2 })
	a.nc.Close()
	st := bobS.until(t, "bob told the race is over", func(st hub.RaceState) bool { return st.Phase == hub.Closed })
	if st.Reason != hub.RaceGone {
		t.Fatalf("the reason bob reads: %q", st.Reason)
	}
	<-onB.Done()
	if err := bm.Report(hub.Progress{Home: 1, Total: 52, Status: hub.Playing}); err == nil {
		t.Fatal("a report to a race whose node died went through")
	}
	if _, err := b.h.Race(race.Code()); !errors.Is(err, hub.ErrExpired) {
		t.Fatalf("the dead race's code on node b: %v", err)
	}
}

// TestMembersOfADeadNodeAreDropped: node b dies with bob at a table and
// in a race that node a owns. Node a drops him as after a lost
// connection: his seat is held with a computer standing in, and the race
// shows him out (dropped), so neither room waits on him for ever.
func TestMembersOfADeadNodeAreDropped(t *testing.T) {
	c := natstest.Single(t)
	s := newShared(t)
	a := newNode(t, c, 0, "a", dyingOpts(s))
	b := newNode(t, c, 0, "b", dyingOpts(s))
	ann, bob := person("ann"), person("bob")

	tb, err := a.h.OpenTable(kingsTable(ann))
	if err != nil {
		t.Fatal(err)
	}
	annT := tableScreen()
	am, err := tb.Join(ann, hub.AnySeat, annT.sink)
	if err != nil {
		t.Fatal(err)
	}
	farT, err := b.h.Table(tb.Code())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := farT.Join(bob, hub.AnySeat, func(hub.TableState) {}); err != nil {
		t.Fatal(err)
	}
	annT.until(t, "bob seated", func(st hub.TableState) bool { return st.Seats[1].Here })
	if err := am.Start(); err != nil {
		t.Fatal(err)
	}

	race, err := a.h.NewRace(hub.RaceConfig{Spec: engine.Spec{Game: "klondike", Variant: "draw1", Seed: 5}, Host: ann})
	if err != nil {
		t.Fatal(err)
	}
	annR := raceScreen()
	rm, err := race.Join(ann, hub.Racer, annR.sink)
	if err != nil {
		t.Fatal(err)
	}
	farR, err := b.h.Race(race.Code())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := farR.Join(bob, hub.Racer, func(hub.RaceState) {}); err != nil {
		t.Fatal(err)
	}
	annR.until(t, "bob racing", func(st hub.RaceState) bool { return len(st.Racers) == 2 })
	if err := rm.Start(); err != nil {
		t.Fatal(err)
	}
	annR.until(t, "the race running", func(st hub.RaceState) bool { return st.Phase == hub.Running })

	b.dead.Store(true)
	b.nc.Close()
	st := annT.until(t, "bob's seat held for him", func(st hub.TableState) bool { return !st.Seats[1].Here })
	if !st.Seats[1].StandIn || st.Seats[1].Gone {
		t.Fatalf("bob's seat once his node died: %+v", st.Seats[1])
	}
	annR.until(t, "bob shown out of the race", func(st hub.RaceState) bool {
		for _, x := range st.Racers {
			if x.ID == bob.ID {
				return x.Status == hub.Dropped
			}
		}
		return false
	})
}
