package natsrelay

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"sshuffle/arcade/hub"
	"sshuffle/engine"
	"sshuffle/internal/natstest"
)

// TestRaceAcrossThreeNodes is a race opened on node a with a racer on
// each of three nodes and a watcher on the third following the racer on
// the second: the countdown, progress, a drop and a rejoin from another
// node, and the finish, recorded once by the race's node. The nodes talk
// to three NATS servers of one cluster, one each, with the directory's
// buckets replicated on all three.
func TestRaceAcrossThreeNodes(t *testing.T) {
	c := natstest.Three(t)
	clock := hub.NewManualClock()
	a := newNode(t, c, 0, "a", nodeOpts{clock: clock, replicas: 3})
	b := newNode(t, c, 1, "b", nodeOpts{replicas: 3})
	cn := newNode(t, c, 2, "c", nodeOpts{replicas: 3})
	ann, bob, cat, dan := person("ann"), person("bob"), person("cat"), person("dan")
	spec := engine.Spec{Game: "klondike", Variant: "draw1", Seed: 7}

	race, err := a.h.NewRace(hub.RaceConfig{Spec: spec, Host: ann})
	if err != nil {
		t.Fatal(err)
	}
	annS, bobS, catS, danS := raceScreen(), raceScreen(), raceScreen(), raceScreen()
	am, err := race.Join(ann, hub.Racer, annS.sink)
	if err != nil {
		t.Fatal(err)
	}
	onB, err := b.h.FindRace(bob, race.Code())
	if err != nil {
		t.Fatal(err)
	}
	if onB.Spec() != spec || onB.Kind() != hub.RaceRoom {
		t.Fatalf("the race as node b sees it: %v %v", onB.Spec(), onB.Kind())
	}
	if pre, err := onB.State(); err != nil || len(pre.Racers) != 1 || pre.Racers[0].ID != ann.ID {
		t.Fatalf("the race's preview from node b: %+v, %v", pre, err)
	}
	bm, err := onB.Join(bob, hub.Racer, bobS.sink)
	if err != nil {
		t.Fatal(err)
	}
	onC, err := cn.h.FindRace(cat, race.Code())
	if err != nil {
		t.Fatal(err)
	}
	cm, err := onC.Join(cat, hub.Racer, catS.sink)
	if err != nil {
		t.Fatal(err)
	}
	dm, err := onC.Join(dan, hub.Watcher, danS.sink)
	if err != nil {
		t.Fatal(err)
	}
	if bm.Role() != hub.Racer || dm.Role() != hub.Watcher {
		t.Fatalf("roles %v %v", bm.Role(), dm.Role())
	}
	if err := cm.Start(); !errors.Is(err, hub.ErrNotHost) {
		t.Fatalf("cat starts from node c: %v", err)
	}
	annS.until(t, "ann sees three racers and a watcher", func(st hub.RaceState) bool {
		return len(st.Racers) == 3 && len(st.Watchers) == 1
	})
	if err := am.Start(); err != nil {
		t.Fatal(err)
	}
	for range hub.CountdownFrom {
		clock.Advance(time.Second)
	}
	for _, s := range []*screen[hub.RaceState]{bobS, catS, danS} {
		s.until(t, "the race runs", func(st hub.RaceState) bool { return st.Phase == hub.Running })
	}
	if err := dm.Follow(bob.ID); err != nil {
		t.Fatal(err)
	}
	if err := bm.Report(hub.Progress{Home: 10, Total: 52, Moves: 30, Status: hub.Playing,
		Save: []byte("bob's save"), Board: []byte("bob's board")}); err != nil {
		t.Fatal(err)
	}
	danS.until(t, "dan sees bob's board", func(st hub.RaceState) bool {
		return st.Following == bob.ID && bytes.Equal(st.Board, []byte("bob's board"))
	})
	if err := dm.Report(hub.Progress{Home: 1, Total: 52, Status: hub.Playing}); !errors.Is(err, hub.ErrNotRacer) {
		t.Fatalf("a watcher reports from node c: %v", err)
	}
	// Bob's connection goes; he comes back on node c, where the balancer
	// sent him this time, and his game resumes where it was.
	if err := bm.Drop(); err != nil {
		t.Fatal(err)
	}
	bobS2 := raceScreen()
	bm2, err := onC.Join(bob, hub.Watcher, bobS2.sink)
	if err != nil {
		t.Fatal(err)
	}
	if bm2.Role() != hub.Racer || string(bm2.Resume()) != "bob's save" {
		t.Fatalf("bob back on node c: role %v, resume %q", bm2.Role(), bm2.Resume())
	}
	clock.Advance(time.Minute)
	if err := cm.Report(hub.Progress{Home: 52, Total: 52, Moves: 90, Status: hub.Won}); err != nil {
		t.Fatal(err)
	}
	if err := bm2.Report(hub.Progress{Home: 40, Total: 52, Moves: 120, Status: hub.Over}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	if err := am.Report(hub.Progress{Home: 52, Total: 52, Moves: 99, Status: hub.Won}); err != nil {
		t.Fatal(err)
	}
	final := danS.until(t, "dan sees the finish", func(st hub.RaceState) bool { return st.Phase == hub.Finished })
	if final.Racers[0].ID != cat.ID || final.Racers[0].Place != 1 || final.Racers[1].ID != ann.ID || final.Racers[2].ID != bob.ID {
		t.Fatalf("standings: %+v", final.Racers)
	}
	eventually(t, "the race recorded", func() bool { return len(a.raceResults()) > 0 })
	rs := a.raceResults()
	if len(rs) != 1 || len(rs[0].Racers) != 3 || rs[0].Racers[0].ID != cat.ID || rs[0].Racers[2].Status != hub.Over {
		t.Fatalf("results on the race's node: %+v", rs)
	}
	if n := len(b.raceResults()) + len(cn.raceResults()); n != 0 {
		t.Fatalf("%d results recorded by nodes that do not own the race", n)
	}
	for _, s := range []*screen[hub.RaceState]{annS, bobS, catS, danS, bobS2} {
		if s.older != 0 {
			t.Fatal("an older state shown after a newer one")
		}
	}
}
