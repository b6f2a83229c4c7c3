package natsrelay

import (
	"testing"
	"time"

	"sshuffle/arcade/hub"
	"sshuffle/internal/natstest"
)

func poolScreen() *screen[hub.PoolState] {
	return newScreen(func(st hub.PoolState) uint64 { return st.Version })
}

// TestPlayNowAcrossNodes: two people asking to play now on two nodes meet
// at one table, run by the node that runs the pool, and play it to the
// end; a third on the other node takes the computer player offered; a
// fourth leaves the pool from the other node and is out of it.
func TestPlayNowAcrossNodes(t *testing.T) {
	c := natstest.Single(t)
	opts := nodeOpts{pool: hub.PoolConfig{Wait: 300 * time.Millisecond, Table: hub.TableConfig{
		TurnClock: -1, Speed: hub.Instant, Pace: time.Millisecond, Break: time.Millisecond}}}
	a := newNode(t, c, 0, "a", opts)
	b := newNode(t, c, 0, "b", opts)
	ann, bob, cat, dan := person("ann"), person("bob"), person("cat"), person("dan")
	want := hub.PoolWant{Game: "kings", Players: 2}

	annPool, bobPool := poolScreen(), poolScreen()
	annSeat, bobSeat := tableScreen(), tableScreen()
	// Ann asks first, on node a, which takes the pool on.
	if _, err := a.h.PlayNow(ann, want, annPool.sink, annSeat.sink); err != nil {
		t.Fatal(err)
	}
	if _, err := b.h.PlayNow(bob, want, bobPool.sink, bobSeat.sink); err != nil {
		t.Fatal(err)
	}
	seated := func(st hub.PoolState) bool { return st.Phase == hub.PoolSeated }
	as := annPool.until(t, "ann is seated", seated)
	bs := bobPool.until(t, "bob, on node b, is seated", seated)
	if as.Code == "" || as.Code != bs.Code || as.Table == nil || bs.Table == nil || bs.Table.Table().Code() != as.Code {
		t.Fatalf("ann's table %q, bob's %q (%v, %v)", as.Code, bs.Code, as.Table, bs.Table)
	}
	if len(bs.With) != 1 || bs.With[0].ID != ann.ID || len(as.With) != 1 || as.With[0].ID != bob.ID {
		t.Fatalf("seated with: ann %+v, bob %+v", as.With, bs.With)
	}
	if as.Table.Seat() == bs.Table.Seat() {
		t.Fatalf("both in seat %d", as.Table.Seat())
	}
	for _, ch := range []<-chan error{playSeat(as.Table, annSeat, 1), playSeat(bs.Table, bobSeat, 2)} {
		if err := <-ch; err != nil {
			t.Fatal(err)
		}
	}
	final := bobSeat.until(t, "bob sees the hand over", func(st hub.TableState) bool { return st.Phase == hub.TableFinished })
	if final.Result == nil || final.You != bob.ID || final.Seat != bs.Table.Seat() {
		t.Fatalf("bob's last state: %+v", final)
	}
	if n := len(a.tableResults()); n != 1 {
		t.Fatalf("node a recorded %d results", n)
	}
	if n := len(b.tableResults()); n != 0 {
		t.Fatalf("node b recorded %d results", n)
	}

	// Cat, on node b, waits alone, is offered a computer player and takes it.
	catPool, catSeat := poolScreen(), tableScreen()
	cm, err := b.h.PlayNow(cat, want, catPool.sink, catSeat.sink)
	if err != nil {
		t.Fatal(err)
	}
	catPool.until(t, "cat is offered a computer player", func(st hub.PoolState) bool {
		return st.Phase == hub.PoolWaiting && st.Offer != nil && st.Waiting == 1
	})
	if err := cm.Accept(); err != nil {
		t.Fatal(err)
	}
	cs := catPool.until(t, "cat is seated", seated)
	if cs.Table == nil || cm.Table() != cs.Table {
		t.Fatalf("cat's seat: %+v, %v", cs, cm.Table())
	}
	catSeat.until(t, "cat's game is dealt", func(st hub.TableState) bool {
		return st.Phase == hub.TablePlaying && st.View != nil && st.You == cat.ID
	})
	if err := cs.Table.Leave(); err != nil {
		t.Fatal(err)
	}

	// Dan, on node b, waits and then leaves: he is out of node a's pool.
	danPool := poolScreen()
	dm, err := b.h.PlayNow(dan, want, danPool.sink, func(hub.TableState) {})
	if err != nil {
		t.Fatal(err)
	}
	danPool.until(t, "dan waits", func(st hub.PoolState) bool { return st.Phase == hub.PoolWaiting })
	if n := a.h.PoolWaiting(); n != 1 {
		t.Fatalf("%d wait in node a's pool, not dan alone", n)
	}
	if dm.Leave() != nil {
		t.Fatal("dan had a seat")
	}
	eventually(t, "nobody waits in node a's pool", func() bool { return a.h.PoolWaiting() == 0 })
	if err := dm.Accept(); err == nil {
		t.Fatal("dan accepted an offer after leaving")
	}
}

// TestPlayNowAfterPoolNodeDies: the node running the pool dies while cat,
// on node b, waits in it. Cat is told the pool moved; once its lease has
// lapsed, the first node asked takes the pool on, and cat on node b meets
// dan on node d there.
func TestPlayNowAfterPoolNodeDies(t *testing.T) {
	c := natstest.Single(t)
	opts := nodeOpts{renew: 40 * time.Millisecond, lease: 400 * time.Millisecond, check: 40 * time.Millisecond,
		pool: hub.PoolConfig{Wait: time.Minute}}
	a := newNode(t, c, 0, "a", opts)
	b := newNode(t, c, 0, "b", opts)
	d := newNode(t, c, 0, "d", opts)
	ann, cat, dan := person("ann"), person("cat"), person("dan")
	want := hub.PoolWant{Game: "kings", Players: 3}

	if _, err := a.h.PlayNow(ann, want, func(hub.PoolState) {}, func(hub.TableState) {}); err != nil {
		t.Fatal(err)
	}
	catPool := poolScreen()
	if _, err := b.h.PlayNow(cat, want, catPool.sink, func(hub.TableState) {}); err != nil {
		t.Fatal(err)
	}
	catPool.until(t, "cat waits with ann", func(st hub.PoolState) bool { return st.Waiting == 2 })
	a.relay.Close()
	a.nc.Close()
	gone := catPool.until(t, "cat is told the pool moved", func(st hub.PoolState) bool { return st.Phase == hub.PoolClosed })
	if gone.Reason != hub.PoolMoved {
		t.Fatalf("cat's reason: %q", gone.Reason)
	}

	seated := func(st hub.PoolState) bool { return st.Phase == hub.PoolSeated }
	catPool, danPool := poolScreen(), poolScreen()
	eventually(t, "cat finds a pool again", func() bool {
		_, err := b.h.PlayNow(cat, hub.PoolWant{Game: "kings", Players: 2}, catPool.sink, func(hub.TableState) {})
		return err == nil
	})
	if _, err := d.h.PlayNow(dan, hub.PoolWant{Game: "kings", Players: 2}, danPool.sink, func(hub.TableState) {}); err != nil {
		t.Fatal(err)
	}
	cs := catPool.until(t, "cat is seated", seated)
	ds := danPool.until(t, "dan is seated", seated)
	if cs.Code != ds.Code {
		t.Fatalf("cat at %s, dan at %s", cs.Code, ds.Code)
	}
}
