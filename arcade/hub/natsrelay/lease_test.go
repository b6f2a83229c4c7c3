package natsrelay

import (
	"context"
	"errors"
	"testing"

	"sshuffle/arcade/hub"
	"sshuffle/internal/natstest"
)

// TestRenewalLandedLate: a renewal whose answer was lost in a stall may
// land after all, moving the entry's revision past the one the node
// knows. The node finds its own entry there and keeps the room; an entry
// another node wrote (a takeover) loses it.
func TestRenewalLandedLate(t *testing.T) {
	c := natstest.Single(t)
	a := newNode(t, c, 0, "a", nodeOpts{})
	r := a.relay
	lost := make(chan struct{}, 1)
	e := hub.RoomEntry{Kind: hub.TableRoom, Node: "a", What: "a table", Game: "kings"}
	if err := r.Claim("LATEA", e, func() { lost <- struct{}{} }); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// This node's own write, as a late renewal lands.
	if _, err := r.kv.Put(ctx, "LATEA", r.encode(e)); err != nil {
		t.Fatal(err)
	}
	if err := r.Hold("LATEA"); err != nil {
		t.Fatalf("a renewal after one of its own landed late: %v", err)
	}
	// Another node's, as a takeover writes it.
	taken := e
	taken.Node = "b"
	if _, err := r.kv.Put(ctx, "LATEA", r.encode(taken)); err != nil {
		t.Fatal(err)
	}
	if err := r.Hold("LATEA"); !errors.Is(err, hub.ErrLeaseLost) {
		t.Fatalf("a renewal after a takeover: %v", err)
	}
	<-lost
}
