package natsrelay

import (
	"slices"
	"testing"
	"time"

	"sshuffle/arcade/hub"
	"sshuffle/internal/natstest"
)

// listed is the table of code in list, if there.
func listed(list []hub.TableInfo, code string) (hub.TableInfo, bool) {
	i := slices.IndexFunc(list, func(in hub.TableInfo) bool { return in.Code == code })
	if i < 0 {
		return hub.TableInfo{}, false
	}
	return list[i], true
}

// TestLobbyAcrossNodes: a table opened on node a is in node b's lobby
// (Tables and a lobby watcher) with the details node a lists, is joined
// from there, shows in "your seats" on node b, leaves the list when it
// ends, and a dead node's tables leave it once their listings age out. A
// private table stays out of the list but not out of its people's seats.
func TestLobbyAcrossNodes(t *testing.T) {
	c := natstest.Single(t)
	fast := nodeOpts{listingEvery: 50 * time.Millisecond, listingTTL: 500 * time.Millisecond, grace: 200 * time.Millisecond}
	a := newNode(t, c, 0, "a", fast)
	b := newNode(t, c, 0, "b", fast)
	d := newNode(t, c, 0, "d", fast)
	ann, bob, dan := person("ann"), person("bob"), person("dan")

	lobbyB := newScreen(func(l hub.TableList) uint64 { return l.Version })
	w := b.h.WatchLobby(lobbyB.sink)
	defer w.Close()

	cfg := kingsTable(ann)
	cfg.Rated, cfg.Speed = true, hub.Quick
	tb, err := a.h.OpenTable(cfg)
	if err != nil {
		t.Fatal(err)
	}
	am, err := tb.Join(ann, hub.AnySeat, func(hub.TableState) {})
	if err != nil {
		t.Fatal(err)
	}
	lobbyB.until(t, "node b's lobby lists ann's table", func(l hub.TableList) bool {
		in, ok := listed(l.Tables, tb.Code())
		return ok && in.Free == 1
	})
	in, ok := listed(b.h.Tables(), tb.Code())
	if !ok || in.Game != "kings" || in.Host.ID != ann.ID || in.Seats[0].Person.ID != ann.ID ||
		in.Seats[2].Computer != "easy" || !in.Rated || in.Speed != hub.Quick || in.Phase != hub.TableSeating {
		t.Fatalf("ann's table as node b lists it: %+v (listed %v)", in, ok)
	}
	if got := b.h.SeatedAt(ann.ID); len(got) != 1 || got[0].Code != tb.Code() {
		t.Fatalf("ann's seats as node b sees them: %+v", got)
	}

	// Bob, on node b, joins the table from the list.
	far, err := b.h.FindTable(bob, in.Code)
	if err != nil {
		t.Fatal(err)
	}
	bm, err := far.Join(bob, hub.AnySeat, func(hub.TableState) {})
	if err != nil {
		t.Fatal(err)
	}
	lobbyB.until(t, "node b's lobby shows bob seated", func(l hub.TableList) bool {
		in, ok := listed(l.Tables, tb.Code())
		return ok && in.Free == 0 && in.Seats[1].Person.ID == bob.ID
	})
	eventually(t, "bob's seat on node a is in node b's seats", func() bool {
		got := b.h.SeatedAt(bob.ID)
		return len(got) == 1 && got[0].Code == tb.Code()
	})

	// A private table of ann's: in her seats, in nobody's list.
	pcfg := kingsTable(ann)
	pcfg.Private = true
	pt, err := a.h.OpenTable(pcfg)
	if err != nil {
		t.Fatal(err)
	}
	pm, err := pt.Join(ann, hub.AnySeat, func(hub.TableState) {})
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "ann's private table is in her seats on node b", func() bool { return len(b.h.SeatedAt(ann.ID)) == 2 })
	if _, ok := listed(b.h.Tables(), pt.Code()); ok {
		t.Fatal("a private table is listed on node b")
	}

	// Node d's table, then node d dies without a word.
	dt, err := d.h.OpenTable(kingsTable(dan))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dt.Join(dan, hub.AnySeat, func(hub.TableState) {}); err != nil {
		t.Fatal(err)
	}
	lobbyB.until(t, "node b lists node d's table", func(l hub.TableList) bool {
		_, ok := listed(l.Tables, dt.Code())
		return ok
	})
	d.relay.Close()
	d.nc.Close()
	lobbyB.until(t, "node d's table leaves node b's list", func(l hub.TableList) bool {
		_, ok := listed(l.Tables, dt.Code())
		return !ok
	})

	// Everyone leaves ann's tables: they close, and leave the list and
	// the seats.
	for _, m := range []*hub.TableMember{am, bm, pm} {
		if err := m.Leave(); err != nil {
			t.Fatal(err)
		}
	}
	lobbyB.until(t, "ann's table leaves node b's list", func(l hub.TableList) bool {
		_, ok := listed(l.Tables, tb.Code())
		return !ok
	})
	eventually(t, "no seats left on node b", func() bool {
		return len(b.h.SeatedAt(ann.ID)) == 0 && len(b.h.SeatedAt(bob.ID)) == 0
	})
	if got := b.h.Tables(); len(got) != 0 {
		t.Fatalf("node b still lists %+v", got)
	}
}
