package hub

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"sshuffle/engine"
)

// guard is how long a test waits for something that must happen before it
// calls it a hang. It bounds a wait; it never asserts a speed.
const guard = 20 * time.Second

var deal = engine.Spec{Game: "klondike", Variant: "draw1", Winnable: true, Seed: 7}

type env struct {
	t     *testing.T
	clock *ManualClock
	h     *Hub

	mu      sync.Mutex
	results []Result
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, clock: NewManualClock()}
	e.h = New(Config{
		Clock: e.clock,
		Rand:  engine.NewRNG(1),
		Grace: 30 * time.Second,
		OnResult: func(r Result) {
			e.mu.Lock()
			e.results = append(e.results, r)
			e.mu.Unlock()
		},
	})
	t.Cleanup(e.h.Close)
	return e
}

func (e *env) race(ranked bool) *Race {
	e.t.Helper()
	r, err := e.h.NewRace(RaceConfig{Spec: deal, Ranked: ranked})
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

func (e *env) resultList() []Result {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Result(nil), e.results...)
}

func person(name string) Person { return Person{ID: "id-" + name, Name: name} }

// rec is a member's screen: it keeps the newest state it was sent.
type rec struct {
	mu      sync.Mutex
	last    RaceState
	n       int
	changed chan struct{}
}

func newRec() *rec { return &rec{changed: make(chan struct{})} }

func (r *rec) sink(s RaceState) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s.Version < r.last.Version {
		panic("an outbox delivered an older state after a newer one")
	}
	r.last, r.n = s, r.n+1
	close(r.changed)
	r.changed = make(chan struct{})
}

// until waits for a state that satisfies ok.
func (r *rec) until(t *testing.T, what string, ok func(RaceState) bool) RaceState {
	t.Helper()
	deadline := time.After(guard)
	for {
		r.mu.Lock()
		s, ch := r.last, r.changed
		r.mu.Unlock()
		if ok(s) {
			return s
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("never got a state where %s; last: %+v", what, s)
		}
	}
}

func join(t *testing.T, r *Race, name string, role Role) (*RaceMember, *rec) {
	t.Helper()
	rc := newRec()
	m, err := r.Join(person(name), role, rc.sink)
	if err != nil {
		t.Fatalf("%s joins: %v", name, err)
	}
	return m, rc
}

func state(t *testing.T, r *Race) RaceState {
	t.Helper()
	s, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func standing(t *testing.T, s RaceState, name string) Standing {
	t.Helper()
	for _, x := range s.Racers {
		if x.Name == name {
			return x
		}
	}
	t.Fatalf("%s is not among the racers: %+v", name, s.Racers)
	return Standing{}
}

func names(s RaceState) string {
	var b []string
	for _, x := range s.Racers {
		b = append(b, x.Name)
	}
	return strings.Join(b, ",")
}

// begin starts the race and runs the countdown through.
func (e *env) begin(host *RaceMember) {
	e.t.Helper()
	if err := host.Start(); err != nil {
		e.t.Fatal(err)
	}
	e.clock.Advance(CountdownFrom * time.Second)
}

func progress(home, moves int, st Status) Progress {
	return Progress{Home: home, Total: 52, Moves: moves, Status: st}
}

// settle waits until the goroutine count is back to at most base, which is
// what "the room left nothing behind" means; it fails with the stacks of
// whatever is left.
func settle(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			t.Fatalf("%d goroutines left, want at most %d:\n%s", runtime.NumGoroutine(), base, buf[:n])
		}
		time.Sleep(time.Millisecond)
	}
}
