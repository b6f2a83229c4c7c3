package hub

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// known is every error a room may answer a well-formed call with.
var known = []error{
	ErrBadCode, ErrNoRoom, ErrExpired, ErrClosed, ErrHubClosed, ErrFull, ErrWatchersFull, ErrStarted,
	ErrNotHost, ErrNotRacer, ErrNotMember, ErrReplaced, ErrNotRunning, ErrAlreadyStarted, ErrDone,
	ErrBadProgress, ErrNoRacer, ErrBadRun,
}

func isKnown(err error) bool {
	for _, k := range known {
		if errors.Is(err, k) {
			return true
		}
	}
	return false
}

// checkStandings is what every state must satisfy, whoever receives it.
func checkStandings(s RaceState) error {
	if len(s.Racers) > MaxRacers || len(s.Watchers) > MaxWatchers {
		return fmt.Errorf("%d racers, %d watchers", len(s.Racers), len(s.Watchers))
	}
	hostSeen := s.Host == ""
	ids := map[string]bool{}
	places := map[int]bool{}
	lastRank, lastPlace := -1, 0
	for _, x := range s.Racers {
		if ids[x.ID] {
			return fmt.Errorf("%s is listed twice", x.ID)
		}
		ids[x.ID] = true
		if x.ID == s.Host {
			hostSeen = true
			if x.Ghost {
				return fmt.Errorf("a ghost is host")
			}
		}
		if x.Home < 0 || x.Home > x.Total && x.Total > 0 {
			return fmt.Errorf("%s has %d of %d home", x.Name, x.Home, x.Total)
		}
		if x.Place != 0 {
			if places[x.Place] {
				return fmt.Errorf("place %d given twice", x.Place)
			}
			places[x.Place] = true
			// A room closed after its finish keeps the finish's places.
			if x.Status != Won && !((s.Phase == Finished || s.Phase == Closed) && x.Status == Over) {
				return fmt.Errorf("%s is placed %d while %v", x.Name, x.Place, x.Status)
			}
			if x.Place < lastPlace {
				return fmt.Errorf("place %d listed after place %d", x.Place, lastPlace)
			}
			lastPlace = x.Place
		} else if x.Status == Won || (s.Phase == Finished && x.Status == Over) {
			return fmt.Errorf("%s %v without a place", x.Name, x.Status)
		}
		rank := 0
		if x.Place == 0 {
			rank = 1
		}
		if x.Status.Out() {
			rank = 2
		}
		if rank < lastRank {
			return fmt.Errorf("%s (%v) listed below those out or unplaced", x.Name, x.Status)
		}
		lastRank = rank
		if s.Phase == Lobby && x.Status != Ready {
			return fmt.Errorf("%s is %v in the lobby", x.Name, x.Status)
		}
		if s.Phase == Finished && (x.Status == Playing || x.Status == Ready) {
			return fmt.Errorf("%s still %v after the finish", x.Name, x.Status)
		}
	}
	for p := 1; p <= len(places); p++ {
		if !places[p] {
			return fmt.Errorf("places %v have a gap at %d", places, p)
		}
	}
	if !hostSeen && s.Phase != Closed {
		return fmt.Errorf("host %s is not racing", s.Host)
	}
	return nil
}

// TestStress runs many players joining, leaving, reporting and dropping at
// random in a few races while the clock runs, and checks every state each
// of them receives.
func TestStress(t *testing.T) {
	base := runtime.NumGoroutine()
	clock := NewManualClock()
	var bad atomic.Int64
	var firstBad sync.Once
	fail := func(format string, args ...any) {
		bad.Add(1)
		firstBad.Do(func() { t.Errorf(format, args...) })
	}
	var results atomic.Int64
	// A few accounts play as fast as the machine goes: the limits, which
	// have tests of their own, would refuse most of it.
	h := New(Config{Clock: clock, Grace: 5 * time.Second, Limits: NoLimits(), OnResult: func(r Result) {
		results.Add(1)
		placed := 0
		for i, x := range r.Racers {
			if x.Place != 0 {
				placed++
				if x.Place != i+1 {
					fail("result %s: %s has place %d at %d", r.Code, x.Name, x.Place, i+1)
				}
			}
		}
	}})

	var codesMu sync.Mutex
	codes := map[string]bool{}
	var rooms []*Race
	newRace := func() *Race {
		r, err := h.NewRace(RaceConfig{Spec: deal})
		if err != nil {
			fail("new race: %v", err)
			return nil
		}
		codesMu.Lock()
		defer codesMu.Unlock()
		if codes[r.Code()] {
			fail("code %s handed out twice", r.Code())
		}
		codes[r.Code()] = true
		rooms = append(rooms, r)
		return r
	}
	pick := func(rng *rand.Rand) *Race {
		codesMu.Lock()
		var live []*Race
		for _, r := range rooms {
			select {
			case <-r.Done():
			default:
				live = append(live, r)
			}
		}
		codesMu.Unlock()
		if len(live) < 3 || rng.IntN(20) == 0 {
			return newRace()
		}
		return live[rng.IntN(len(live))]
	}

	const players, ops = 24, 250
	var wg sync.WaitGroup
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				clock.Advance(700 * time.Millisecond)
				runtime.Gosched()
			}
		}
	}()
	for i := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 99))
			p := Person{ID: "id-p" + itoa(i), Name: "p" + itoa(i)}
			mine := map[*Race]*RaceMember{}
			moves := 0
			for range ops {
				r := pick(rng)
				if r == nil {
					return
				}
				m := mine[r]
				var err error
				switch k := rng.IntN(10); {
				case m == nil || k == 0:
					role := Racer
					if rng.IntN(3) == 0 {
						role = Watcher
					}
					var v uint64
					var got *RaceMember
					got, err = r.Join(p, role, func(s RaceState) {
						if s.Version <= v {
							fail("%s: version %d after %d", p.Name, s.Version, v)
						}
						v = s.Version
						if e := checkStandings(s); e != nil {
							fail("%s in %s: %v\n%+v", p.Name, s.Code, e, s)
						}
					})
					if err == nil {
						mine[r] = got
					}
				case k == 1:
					err = m.Leave()
					delete(mine, r)
				case k == 2:
					err = m.Drop()
					delete(mine, r)
				case k == 3:
					err = m.Start()
				case k == 4:
					err = m.Follow("id-p" + itoa(rng.IntN(players)))
				default:
					moves++
					home := rng.IntN(53)
					st := Playing
					switch rng.IntN(40) {
					case 0:
						st, home = Won, 52
					case 1:
						st = GaveUp
					case 2:
						st = Over
					}
					err = m.Report(Progress{Home: home, Total: 52, Moves: moves, Status: st, Save: []byte{byte(moves)}})
				}
				if err != nil && !isKnown(err) {
					fail("%s: unexpected error %v", p.Name, err)
				}
			}
			for _, m := range mine {
				_ = m.Leave()
			}
		}()
	}
	wg.Wait()
	close(stop)
	// Let every room left empty run out its grace.
	clock.Advance(time.Minute)
	// Rooms whose grace ran out end on their own goroutines while this
	// runs, so a code listed live may have ended by the time it is looked
	// up; it must then say so, and never find another room.
	for _, c := range h.codes() {
		r, err := h.Race(c)
		if errors.Is(err, ErrExpired) {
			continue
		}
		if err != nil || r.Code() != c {
			t.Errorf("live code %s finds %v, %v", c, r, err)
		}
	}
	h.Close()
	if n := h.Rooms(); n != 0 {
		t.Errorf("%d rooms after Close", n)
	}
	settle(t, base)
	t.Logf("%d rooms, %d results, %d bad states", len(rooms), results.Load(), bad.Load())
	if results.Load() == 0 {
		t.Errorf("no race finished: the stress did not reach the finish")
	}
}

// TestStuckMemberSlowsNobody: one racer's screen never reads. The room
// and everyone else carry on; the stuck one's outbox just keeps the newest.
func TestStuckMemberSlowsNobody(t *testing.T) {
	base := runtime.NumGoroutine()
	e := newEnv(t)
	r := e.race(false)
	release := make(chan struct{})
	var entered atomic.Int64
	var lastSeen atomic.Uint64
	stuckSink := func(s RaceState) {
		entered.Add(1)
		<-release
		lastSeen.Store(s.Version)
	}
	ms := make([]*RaceMember, 3)
	recs := make([]*rec, 0, 5)
	for i, n := range []string{"ann", "bob", "cy"} {
		var rc *rec
		ms[i], rc = join(t, r, n, Racer)
		recs = append(recs, rc)
	}
	if _, err := r.Join(person("dee"), Racer, stuckSink); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"wes", "wyn"} {
		_, rc := join(t, r, n, Watcher)
		recs = append(recs, rc)
	}
	e.begin(ms[0])

	const reports = 300
	var wg sync.WaitGroup
	for _, m := range ms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 1; i <= reports; i++ {
				if err := m.Report(progress(i%50, i, Playing)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	final := state(t, r).Version
	for _, rc := range recs {
		s := rc.until(t, "the last state arrived", func(s RaceState) bool { return s.Version == final })
		for _, x := range s.Racers {
			if x.Name != "dee" && x.Moves != reports {
				t.Fatalf("%s's last state shows %s at %d moves", s.You, x.Name, x.Moves)
			}
		}
	}
	if n := entered.Load(); n != 1 {
		t.Fatalf("the stuck sink was entered %d times", n)
	}
	counts, err := call(&r.loop, func() (stats [2]uint64, _ error) {
		for _, m := range r.members {
			if m.ID == "id-dee" {
				stats[0], stats[1] = m.out.Counts()
			}
		}
		return stats, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// One value is in the stuck sink's hands, one waits; every other was
	// replaced, and there was one for each report at least.
	if puts, replaced := counts[0], counts[1]; puts < 3*reports || replaced != puts-2 {
		t.Fatalf("the stuck outbox took %d values and replaced %d; want every state, all but two replaced", puts, replaced)
	}
	close(release)
	for lastSeen.Load() != final {
		runtime.Gosched()
	}
	e.h.Close()
	settle(t, base)
}

// TestNoGoroutineLeft plays rooms through every way they end and counts
// what is left.
func TestNoGoroutineLeft(t *testing.T) {
	base := runtime.NumGoroutine()
	e := newEnv(t)
	for i := range 20 {
		r := e.race(false)
		join(t, r, "ann", Racer)
		bob, _ := join(t, r, "bob", Racer)
		w, _ := join(t, r, "wes", Watcher)
		ann, _ := join(t, r, "ann", Racer) // a takeover of the host's seat
		if i%4 == 2 {
			if err := ann.AddGhost(ghostRun("cat", time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		e.begin(ann)
		switch i % 4 {
		case 0, 2: // finished, then everyone leaves
			for _, m := range []*RaceMember{ann, bob} {
				if err := m.Report(progress(52, 60, Won)); err != nil {
					t.Fatal(err)
				}
			}
			for _, m := range []*RaceMember{ann, bob, w} {
				if err := m.Leave(); err != nil {
					t.Fatal(err)
				}
			}
			<-r.Done()
		case 1: // everyone drops and never comes back
			for _, m := range []*RaceMember{ann, bob, w} {
				if err := m.Drop(); err != nil {
					t.Fatal(err)
				}
			}
		case 3: // left running for the hub to close
		}
	}
	s := e.h.Connect(person("ann"), true, func(Notice) {})
	s.SetActivity(Activity{Doing: Racing})
	e.clock.Advance(time.Minute)
	if n := e.h.Rooms(); n != 5 {
		t.Fatalf("%d rooms still open, want the 5 left running", n)
	}
	if got := len(e.resultList()); got != 15 {
		t.Fatalf("%d results, want 15 (10 finished, 5 dropped out)", got)
	}
	e.h.Close()
	settle(t, base)
}
