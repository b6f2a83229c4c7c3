package hub

import (
	"errors"
	"sync"
	"testing"
	"time"

	"sshuffle/games"
)

// stallRelay is a relay of one node whose Hold fails `fails` times with
// err before it succeeds; the calls a table of this node alone makes are
// all it answers (the embedded nil Relay panics at any other).
type stallRelay struct {
	Relay
	mu    sync.Mutex
	fails int
	err   error
	holds int
}

func (r *stallRelay) Node() string                                                { return "a" }
func (r *stallRelay) Claim(string, RoomEntry, func()) error                       { return nil }
func (r *stallRelay) Release(string) error                                        { return nil }
func (r *stallRelay) Serve(string, func([]byte) []byte) (func(), error)           { return func() {}, nil }
func (r *stallRelay) Listen(func([]byte)) error                                   { return nil }
func (r *stallRelay) ListenInvitations(func(string, []byte) ([]byte, bool)) error { return nil }
func (r *stallRelay) ListenListings(func()) error                                 { return nil }
func (r *stallRelay) SetListing(string, []byte)                                   {}
func (r *stallRelay) Listings() [][]byte                                          { return nil }
func (r *stallRelay) SetPresence(string, []byte)                                  {}
func (r *stallRelay) Alive(string) bool                                           { return true }
func (r *stallRelay) ListenReconnects(func()) error                               { return nil }

func (r *stallRelay) Hold(string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.holds++
	if r.fails > 0 {
		r.fails--
		return r.err
	}
	return nil
}

// TestSnapshotWaitsOutAStall: on a node of several, a table's snapshot is
// saved only after its lease is renewed. A renewal that fails because NATS
// takes no writes for a moment is tried again until it goes through, and
// the snapshot is then saved; one that finds the room no longer this
// node's saves nothing.
func TestSnapshotWaitsOutAStall(t *testing.T) {
	for _, c := range []struct {
		name  string
		err   error
		saved bool
	}{
		{"stalled", errors.New("context deadline exceeded"), true},
		{"lost", ErrLeaseLost, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			relay := &stallRelay{fails: 3, err: c.err}
			var mu sync.Mutex
			saves := 0
			h := New(Config{Relay: relay, TableKit: games.Default().TableKit, Limits: NoLimits(),
				SaveTable: func(_ string, s *TableSnapshot) {
					if s != nil {
						mu.Lock()
						saves++
						mu.Unlock()
					}
				}})
			defer h.Close()
			ann := Person{ID: "ann", Name: "ann"}
			tb, err := h.OpenTable(TableConfig{Game: "kings", Seats: []SeatPlan{{}, {Computer: "easy"}}, Host: ann,
				TurnClock: -1, Pace: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			m, err := tb.Join(ann, AnySeat, func(TableState) {})
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(10 * time.Second)
			for {
				relay.mu.Lock()
				holds := relay.holds
				relay.mu.Unlock()
				mu.Lock()
				n := saves
				mu.Unlock()
				if c.saved && n > 0 && holds >= 4 {
					return
				}
				if !c.saved && holds >= 1 {
					time.Sleep(100 * time.Millisecond)
					mu.Lock()
					n = saves
					mu.Unlock()
					if n != 0 {
						t.Fatalf("%d snapshots saved by a node whose lease was lost", n)
					}
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("holds %d, snapshots saved %d", holds, n)
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}
