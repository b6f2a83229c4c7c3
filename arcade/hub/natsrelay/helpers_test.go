package natsrelay

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sshuffle/arcade/hub"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/natstest"
)

// guard bounds every wait of these tests: far above what any step takes,
// so that a broken relay fails the test instead of hanging it.
const guard = 30 * time.Second

// node is one sshuffle node of a test: a hub on its own NATS connection,
// with what the wiring would be handed kept for the test to look at.
type node struct {
	name  string
	h     *hub.Hub
	relay *Relay
	nc    interface{ Close() }
	dead  atomic.Bool // a node killed: its writes to the shared store stop

	mu          sync.Mutex
	tableResult []hub.TableResult
	raceResult  []hub.Result
	saved       map[string]*hub.TableSnapshot
}

type nodeOpts struct {
	renew, lease time.Duration
	clock        hub.Clock // nil: the wall clock
	// presenceEvery and presenceTTL: 0 takes the defaults.
	presenceEvery, presenceTTL time.Duration
	// listingEvery and listingTTL: 0 takes the defaults.
	listingEvery, listingTTL time.Duration
	grace                    time.Duration // 0: 5 s
	pool                     hub.PoolConfig
	replicas                 int // of the buckets: 3 on a cluster of three
	// save, when set, is the SaveTable of the node (a shared store in the
	// tests of a node's death); nil keeps the snapshots in the node.
	save func(n *node, code string, s *hub.TableSnapshot)
	// load is the node's LoadTable; check its RemoteCheck.
	load  func(code string) (*hub.TableSnapshot, error)
	check time.Duration
}

func newNode(t testing.TB, c *natstest.Cluster, server int, name string, o nodeOpts) *node {
	t.Helper()
	nc := c.Connect(server)
	r, err := New(context.Background(), Config{Conn: nc, Node: name, Renew: o.renew, Lease: o.lease,
		PresenceEvery: o.presenceEvery, PresenceTTL: o.presenceTTL, ListingEvery: o.listingEvery, ListingTTL: o.listingTTL,
		Replicas: o.replicas,
		Timeout:  5 * time.Second, Log: slog.Default().With("node", name)})
	if err != nil {
		t.Fatal(err)
	}
	n := &node{name: name, relay: r, nc: nc, saved: map[string]*hub.TableSnapshot{}}
	if o.grace == 0 {
		o.grace = 5 * time.Second
	}
	n.h = hub.New(hub.Config{
		Relay: r, Clock: o.clock, LoadTable: o.load, RemoteCheck: o.check, TableKit: games.Default().TableKit, Limits: hub.NoLimits(), Grace: o.grace, Pool: o.pool,
		Log: slog.Default().With("node", name),
		OnTableResult: func(res hub.TableResult) {
			n.mu.Lock()
			n.tableResult = append(n.tableResult, res)
			n.mu.Unlock()
		},
		OnResult: func(res hub.Result) {
			n.mu.Lock()
			n.raceResult = append(n.raceResult, res)
			n.mu.Unlock()
		},
		SaveTable: func(code string, s *hub.TableSnapshot) {
			if o.save != nil {
				o.save(n, code, s)
				return
			}
			n.mu.Lock()
			n.saved[code] = s
			n.mu.Unlock()
		},
	})
	t.Cleanup(func() {
		n.h.Close()
		r.Close()
	})
	return n
}

func (n *node) tableResults() []hub.TableResult {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]hub.TableResult(nil), n.tableResult...)
}

func (n *node) raceResults() []hub.Result {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]hub.Result(nil), n.raceResult...)
}

func kitOf(game string) (engine.TableKit, bool) { return games.Default().TableKit(game) }

func person(name string) hub.Person { return hub.Person{ID: "id-" + name, Name: name} }

// screen is one member's screen: it keeps the newest state it was sent.
type screen[S any] struct {
	mu      sync.Mutex
	last    S
	n       int
	changed chan struct{}
	version func(S) uint64
	older   int // states older than one already shown: must stay 0
}

func newScreen[S any](version func(S) uint64) *screen[S] {
	return &screen[S]{changed: make(chan struct{}), version: version}
}

func (s *screen[S]) sink(st S) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n > 0 && s.version(st) < s.version(s.last) {
		s.older++
	}
	s.last, s.n = st, s.n+1
	close(s.changed)
	s.changed = make(chan struct{})
}

// until waits for a state that ok accepts.
func (s *screen[S]) until(t testing.TB, what string, ok func(S) bool) S {
	t.Helper()
	deadline := time.After(guard)
	for {
		s.mu.Lock()
		st, n, ch := s.last, s.n, s.changed
		s.mu.Unlock()
		if n > 0 && ok(st) {
			return st
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("no state where %s; last: %+v", what, st)
		}
	}
}

func tableScreen() *screen[hub.TableState] {
	return newScreen(func(st hub.TableState) uint64 { return st.Version })
}

func raceScreen() *screen[hub.RaceState] {
	return newScreen(func(st hub.RaceState) uint64 { return st.Version })
}

// playSeat plays a person's seat as a computer player would, from the
// states its screen gets, until the match is over or the table closes.
// It returns what went wrong, if anything.
func playSeat(m *hub.TableMember, s *screen[hub.TableState], seed uint64) <-chan error {
	out := make(chan error, 1)
	kit, _ := games.Default().TableKit("kings")
	player, err := kit.NewPlayer("easy", seed)
	if err != nil {
		out <- err
		return out
	}
	go func() {
		deadline := time.After(guard)
		var tried uint64
		for {
			s.mu.Lock()
			st, ch := s.last, s.changed
			s.mu.Unlock()
			switch {
			case st.Phase == hub.TableFinished || st.Phase == hub.TableClosed:
				out <- nil
				return
			case st.Phase == hub.TablePlaying && st.Turn == st.Seat && st.View != nil && st.Version != tried:
				tried = st.Version
				a, err := player.ChooseEncoded(st.View)
				if err != nil {
					out <- err
					return
				}
				// A refusal here is a state that went stale on the way
				// (the turn moved on): the next state says what now.
				_ = m.Do(a)
			}
			select {
			case <-ch:
			case <-deadline:
				out <- errTimeout
				return
			}
		}
	}()
	return out
}

type timeoutError struct{}

func (timeoutError) Error() string { return "the match did not end in time" }

var errTimeout error = timeoutError{}

// kingsTable is three seats of Kings in the Corner: two people's and a
// computer's, with no turn clock and no pause between computer actions.
func kingsTable(host hub.Person) hub.TableConfig {
	return hub.TableConfig{
		Game: "kings", Seats: []hub.SeatPlan{{}, {}, {Computer: "easy"}}, Host: host,
		TurnClock: -1, Speed: hub.Instant, Pace: time.Millisecond, Break: time.Millisecond,
	}
}
