package natsrelay

import (
	"errors"
	"strings"
	"testing"

	"sshuffle/arcade/hub"
	"sshuffle/internal/natstest"
)

// TestTableAcrossTwoNodes is a Kings table opened on node a, with ann
// seated there, bob seated from node b, and a computer at the third seat,
// played to the end of the hand. Bob's screen on b sees what ann's sees,
// his refused action comes back as the room's sentence, and the result
// is recorded once, by the table's node.
func TestTableAcrossTwoNodes(t *testing.T) {
	c := natstest.Single(t)
	a := newNode(t, c, 0, "a", nodeOpts{})
	b := newNode(t, c, 0, "b", nodeOpts{})
	ann, bob := person("ann"), person("bob")

	tb, err := a.h.OpenTable(kingsTable(ann))
	if err != nil {
		t.Fatal(err)
	}
	annS, bobS := tableScreen(), tableScreen()
	am, err := tb.Join(ann, hub.AnySeat, annS.sink)
	if err != nil {
		t.Fatal(err)
	}
	// Bob finds the code on his own node, as a pasted invite line does.
	far, err := b.h.FindTable(bob, strings.ToLower(tb.Code()))
	if err != nil {
		t.Fatal(err)
	}
	if far.Game() != "kings" || far.Code() != tb.Code() {
		t.Fatalf("the table as node b sees it: %s %s", far.Game(), far.Code())
	}
	if _, err := b.h.FindRace(bob, tb.Code()); !errors.Is(err, hub.ErrNoRoom) {
		t.Fatalf("a table's code looked up as a race's on another node: %v", err)
	}
	bm, err := far.Join(bob, hub.AnySeat, bobS.sink)
	if err != nil {
		t.Fatal(err)
	}
	if am.Seat() != 0 || bm.Seat() != 1 {
		t.Fatalf("seats %d and %d", am.Seat(), bm.Seat())
	}
	info, err := far.Info()
	if err != nil || info.Free != 0 || info.Seats[1].Person.ID != bob.ID {
		t.Fatalf("the table's listing from node b: %+v, %v", info, err)
	}
	annS.until(t, "ann sees bob seated", func(st hub.TableState) bool { return st.Seats[1].Here })
	if err := bm.Start(); !errors.Is(err, hub.ErrNotHost) {
		t.Fatalf("bob starts from node b: %v", err)
	}
	if err := am.Start(); err != nil {
		t.Fatal(err)
	}
	bobS.until(t, "bob's screen shows the deal", func(st hub.TableState) bool {
		return st.Phase == hub.TablePlaying && st.View != nil
	})
	// Bytes that are no action of the game: refused, with the room's
	// sentence, in his next state and nobody else's.
	if err := bm.Do([]byte(`{"do":"nonsense"}`)); err == nil || errors.Is(err, hub.ErrUnreachable) {
		t.Fatalf("a bad action from node b: %v", err)
	}

	annDone, bobDone := playSeat(am, annS, 1), playSeat(bm, bobS, 2)
	for _, ch := range []<-chan error{annDone, bobDone} {
		if err := <-ch; err != nil {
			t.Fatal(err)
		}
	}
	final := bobS.until(t, "bob sees the hand over", func(st hub.TableState) bool { return st.Phase == hub.TableFinished })
	if final.Result == nil || final.Seat != 1 || final.You != bob.ID {
		t.Fatalf("bob's last state: %+v", final)
	}
	annLast := annS.until(t, "ann sees the hand over", func(st hub.TableState) bool { return st.Phase == hub.TableFinished })
	if !equalInts(annLast.Result.Points, final.Result.Points) || annLast.Result.Winner != final.Result.Winner {
		t.Fatalf("the two nodes disagree on the result: %+v and %+v", annLast.Result, final.Result)
	}
	// The result is recorded after the final states go out.
	eventually(t, "the result recorded", func() bool { return len(a.tableResults()) > 0 })
	if rs := a.tableResults(); len(rs) != 1 || rs[0].Seats[1].Person.ID != bob.ID || rs[0].Seats[2].Strength != "easy" {
		t.Fatalf("results on the table's node: %+v", rs)
	}
	if rs := b.tableResults(); len(rs) != 0 {
		t.Fatalf("node b recorded %d results of a table it does not own", len(rs))
	}
	// Bob asks for his whole state, as after a gap: the room's newest.
	whole, err := bm.State()
	if err != nil || whole.Version < final.Version || whole.Phase != hub.TableFinished {
		t.Fatalf("bob's whole state: v%d %v, %v", whole.Version, whole.Phase, err)
	}
	// He declines the rematch from node b: the table closes for everyone,
	// and its code answers as ended on both nodes.
	if err := bm.Decline(); err != nil {
		t.Fatal(err)
	}
	annS.until(t, "ann sees the table closed", func(st hub.TableState) bool { return st.Phase == hub.TableClosed })
	bobS.until(t, "bob sees the table closed", func(st hub.TableState) bool { return st.Phase == hub.TableClosed })
	<-far.Done()
	<-tb.Done()
	for _, n := range []*node{a, b} {
		if _, err := n.h.Table(tb.Code()); !errors.Is(err, hub.ErrExpired) {
			t.Fatalf("the ended table's code on node %s: %v", n.name, err)
		}
	}
	if annS.older != 0 || bobS.older != 0 {
		t.Fatalf("older states shown after newer: ann %d, bob %d", annS.older, bobS.older)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
