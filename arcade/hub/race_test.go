package hub

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestRaceRefusals: every refusal a race makes, with the sentence the
// player reads.
func TestRaceRefusals(t *testing.T) {
	for _, tc := range []struct {
		name     string
		run      func(t *testing.T, e *env) error
		want     error
		sentence string
	}{
		{"start by a racer who is not the host", func(t *testing.T, e *env) error {
			r := e.race(false)
			join(t, r, "ann", Racer)
			bob, _ := join(t, r, "bob", Racer)
			return bob.Start()
		}, ErrNotHost, "Only the host, ann, can start the race."},
		{"start by a watcher", func(t *testing.T, e *env) error {
			r := e.race(false)
			join(t, r, "ann", Racer)
			w, _ := join(t, r, "wes", Watcher)
			return w.Start()
		}, ErrNotHost, "Only the host, ann, can start the race."},
		{"start twice", func(t *testing.T, e *env) error {
			r := e.race(false)
			ann, _ := join(t, r, "ann", Racer)
			if err := ann.Start(); err != nil {
				return err
			}
			return ann.Start()
		}, ErrAlreadyStarted, "The race has already started."},
		{"join a full race", func(t *testing.T, e *env) error {
			r := e.race(false)
			for i := range MaxRacers {
				join(t, r, fmt.Sprint("p", i), Racer)
			}
			_, err := r.Join(person("late"), Racer, func(RaceState) {})
			return err
		}, ErrFull, "This race is full (8 racers); you can watch it instead."},
		{"join a running race as a new racer", func(t *testing.T, e *env) error {
			r := e.race(false)
			ann, _ := join(t, r, "ann", Racer)
			e.begin(ann)
			_, err := r.Join(person("late"), Racer, func(RaceState) {})
			return err
		}, ErrStarted, "This race has already started; you can watch it instead."},
		{"join a finished race as a racer", func(t *testing.T, e *env) error {
			r := e.race(false)
			ann, _ := join(t, r, "ann", Racer)
			join(t, r, "wes", Watcher) // keeps the finished room open
			e.begin(ann)
			if err := ann.Report(progress(52, 90, Won)); err != nil {
				return err
			}
			_, err := r.Join(person("late"), Racer, func(RaceState) {})
			return err
		}, ErrStarted, "This race is over; you can see its results as a watcher."},
		{"report before the start", func(t *testing.T, e *env) error {
			r := e.race(false)
			ann, _ := join(t, r, "ann", Racer)
			return ann.Report(progress(1, 1, Playing))
		}, ErrNotRunning, "The race has not started yet."},
		{"report during the countdown", func(t *testing.T, e *env) error {
			r := e.race(false)
			ann, _ := join(t, r, "ann", Racer)
			if err := ann.Start(); err != nil {
				return err
			}
			return ann.Report(progress(1, 1, Playing))
		}, ErrNotRunning, "The race has not started yet."},
		{"report by a watcher", func(t *testing.T, e *env) error {
			r := e.race(false)
			ann, _ := join(t, r, "ann", Racer)
			w, _ := join(t, r, "wes", Watcher)
			e.begin(ann)
			return w.Report(progress(1, 1, Playing))
		}, ErrNotRacer, "Only a racer can do that; you are watching."},
		{"report after winning", func(t *testing.T, e *env) error {
			r := e.race(false)
			ann, _ := join(t, r, "ann", Racer)
			join(t, r, "bob", Racer)
			e.begin(ann)
			if err := ann.Report(progress(52, 80, Won)); err != nil {
				return err
			}
			return ann.Report(progress(52, 81, Won))
		}, ErrDone, "Your race is over; your result stands."},
		{"report after the race is over", func(t *testing.T, e *env) error {
			r := e.race(false)
			ann, _ := join(t, r, "ann", Racer)
			e.begin(ann)
			if err := ann.Report(progress(52, 80, Won)); err != nil {
				return err
			}
			return ann.Report(progress(52, 81, Won))
		}, ErrNotRunning, "The race is over."},
		{"more cards home than the game has", func(t *testing.T, e *env) error {
			r := e.race(false)
			ann, _ := join(t, r, "ann", Racer)
			e.begin(ann)
			return ann.Report(progress(53, 1, Playing))
		}, ErrBadProgress, "That progress report does not add up."},
		{"a win with cards still out", func(t *testing.T, e *env) error {
			r := e.race(false)
			ann, _ := join(t, r, "ann", Racer)
			e.begin(ann)
			return ann.Report(progress(51, 1, Won))
		}, ErrBadProgress, "That progress report does not add up."},
		{"follow someone not racing", func(t *testing.T, e *env) error {
			r := e.race(false)
			join(t, r, "ann", Racer)
			w, _ := join(t, r, "wes", Watcher)
			return w.Follow("id-nobody")
		}, ErrNoRacer, "No racer by that name is in this race."},
		{"a ghost added by someone not the host", func(t *testing.T, e *env) error {
			r := e.race(false)
			join(t, r, "ann", Racer)
			bob, _ := join(t, r, "bob", Racer)
			return bob.AddGhost(ghostRun("cat", 10*time.Second))
		}, ErrNotHost, "Only the host, ann, can add a ghost."},
		{"a ghost of another deal", func(t *testing.T, e *env) error {
			r := e.race(false)
			ann, _ := join(t, r, "ann", Racer)
			run := ghostRun("cat", 10*time.Second)
			run.Spec.Seed = 8
			return ann.AddGhost(run)
		}, ErrBadRun, "That run is of klondike/draw1/w/8, not of this race's deal."},
		{"a ghost whose steps go back in time", func(t *testing.T, e *env) error {
			r := e.race(false)
			ann, _ := join(t, r, "ann", Racer)
			run := ghostRun("cat", 10*time.Second)
			run.Steps[0].At = time.Hour
			return ann.AddGhost(run)
		}, ErrBadRun, "That run cannot be replayed."},
		{"a ghost after the start", func(t *testing.T, e *env) error {
			r := e.race(false)
			ann, _ := join(t, r, "ann", Racer)
			e.begin(ann)
			return ann.AddGhost(ghostRun("cat", 10*time.Second))
		}, ErrAlreadyStarted, "The race has already started."},
		{"a member who has left", func(t *testing.T, e *env) error {
			r := e.race(false)
			ann, _ := join(t, r, "ann", Racer)
			join(t, r, "bob", Racer)
			if err := ann.Leave(); err != nil {
				return err
			}
			return ann.Start()
		}, ErrNotMember, "You are not in this room."},
		{"a session another one took over from", func(t *testing.T, e *env) error {
			r := e.race(false)
			first, _ := join(t, r, "ann", Racer)
			join(t, r, "ann", Racer)
			return first.Start()
		}, ErrReplaced, "You opened this room in another session, so this one has left it."},
		{"a room that has ended", func(t *testing.T, e *env) error {
			r := e.race(false)
			ann, _ := join(t, r, "ann", Racer)
			if err := ann.Leave(); err != nil {
				return err
			}
			e.clock.Advance(30 * time.Second)
			<-r.Done()
			return ann.Start()
		}, ErrClosed, "This room has ended."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run(t, newEnv(t))
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if err.Error() != tc.sentence {
				t.Fatalf("sentence %q, want %q", err.Error(), tc.sentence)
			}
		})
	}
}

func ghostRun(name string, winAt time.Duration) Run {
	return Run{
		Person: person(name), Spec: deal, Total: 52,
		Steps: []Step{
			{At: winAt / 2, Home: 20, Moves: 40, Status: Playing},
			{At: winAt, Home: 52, Moves: 90, Status: Won},
		},
	}
}

func TestLobbyHostHandsOver(t *testing.T) {
	e := newEnv(t)
	r := e.race(false)
	w, wrec := join(t, r, "wes", Watcher)
	if s := state(t, r); s.Host != "" {
		t.Fatalf("a watcher became host: %+v", s)
	}
	ann, _ := join(t, r, "ann", Racer)
	bob, _ := join(t, r, "bob", Racer)
	join(t, r, "cy", Racer)
	if s := state(t, r); s.Host != "id-ann" || names(s) != "ann,bob,cy" || !standing(t, s, "ann").Host {
		t.Fatalf("lobby %+v", s)
	}
	if err := ann.Leave(); err != nil {
		t.Fatal(err)
	}
	s := wrec.until(t, "bob is host", func(s RaceState) bool { return s.Host == "id-bob" })
	if names(s) != "bob,cy" || len(s.Watchers) != 1 || s.Watchers[0].Name != "wes" || s.You != "id-wes" || s.Role != Watcher {
		t.Fatalf("after the host left: %+v", s)
	}
	// A drop in the lobby is a leave: there is no game yet to come back to.
	if err := bob.Drop(); err != nil {
		t.Fatal(err)
	}
	if s := state(t, r); s.Host != "id-cy" || names(s) != "cy" {
		t.Fatalf("after bob dropped: %+v", s)
	}
	_ = w
}

func TestCountdownStartsEveryoneTogether(t *testing.T) {
	e := newEnv(t)
	r := e.race(true)
	ann, arec := join(t, r, "ann", Racer)
	_, brec := join(t, r, "bob", Racer)
	if err := ann.Start(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []int{3, 2, 1} {
		for _, rc := range []*rec{arec, brec} {
			rc.until(t, fmt.Sprint("the countdown shows ", want), func(s RaceState) bool {
				return s.Phase == Countdown && s.Count == want
			})
		}
		e.clock.Advance(time.Second)
	}
	for _, rc := range []*rec{arec, brec} {
		s := rc.until(t, "the race runs", func(s RaceState) bool { return s.Phase == Running })
		if s.Elapsed != 0 || !s.Ranked {
			t.Fatalf("at the start: %+v", s)
		}
		for _, x := range s.Racers {
			if x.Status != Playing || x.Time != 0 {
				t.Fatalf("at the start %s is %v at %v", x.Name, x.Status, x.Time)
			}
		}
	}
	e.clock.Advance(1500 * time.Millisecond)
	if err := ann.Report(progress(3, 4, Playing)); err != nil {
		t.Fatal(err)
	}
	if a := standing(t, state(t, r), "ann"); a.Time != 1500*time.Millisecond || a.Home != 3 || a.Moves != 4 {
		t.Fatalf("ann's report: %+v", a)
	}
}

func TestEveryoneLeavingTheCountdownReturnsToTheLobby(t *testing.T) {
	e := newEnv(t)
	r := e.race(false)
	ann, _ := join(t, r, "ann", Racer)
	_, wrec := join(t, r, "wes", Watcher)
	if err := ann.Start(); err != nil {
		t.Fatal(err)
	}
	if err := ann.Leave(); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(5 * time.Second)
	// The watcher may still hold the lobby state from before the start, so
	// wait for one that came after it.
	s := wrec.until(t, "back in the lobby", func(s RaceState) bool { return s.Phase == Lobby && s.Version > 3 })
	if len(s.Racers) != 0 || s.Host != "" {
		t.Fatalf("lobby after the countdown emptied: %+v", s)
	}
}

func TestDropAndRejoinWhileRunning(t *testing.T) {
	e := newEnv(t)
	r := e.race(false)
	ann, _ := join(t, r, "ann", Racer)
	bob, _ := join(t, r, "bob", Racer)
	e.begin(ann)
	if err := bob.Report(Progress{Home: 5, Total: 52, Moves: 12, Status: Playing, Save: []byte("bob-save-12")}); err != nil {
		t.Fatal(err)
	}
	if err := bob.Drop(); err != nil {
		t.Fatal(err)
	}
	b := standing(t, state(t, r), "bob")
	if b.Status != Dropped || b.Here || !b.Status.Out() {
		t.Fatalf("dropped bob: %+v", b)
	}
	e.clock.Advance(10 * time.Second)        // less than the grace
	bob2, brec := join(t, r, "bob", Watcher) // whatever he asks, he is a racer again
	if bob2.Role() != Racer || string(bob2.Resume()) != "bob-save-12" {
		t.Fatalf("rejoined as %v with save %q", bob2.Role(), bob2.Resume())
	}
	s := brec.until(t, "bob is back", func(s RaceState) bool { return s.You == "id-bob" && s.Phase == Running })
	if b := standing(t, s, "bob"); b.Status != Playing || !b.Here || b.Home != 5 {
		t.Fatalf("bob back: %+v", b)
	}
	if err := bob2.Report(progress(52, 100, Won)); err != nil {
		t.Fatal(err)
	}
	if err := ann.Leave(); err != nil { // mid-race: ann gives up
		t.Fatal(err)
	}
	res := e.resultList()
	if len(res) != 1 {
		t.Fatalf("%d results", len(res))
	}
	got := res[0].Racers
	if len(got) != 2 || got[0].Name != "bob" || got[0].Place != 1 || got[1].Name != "ann" || got[1].Status != GaveUp || got[1].Place != 0 {
		t.Fatalf("result %+v", got)
	}
	if n := len(got[0].Timeline); n != 2 || got[0].Timeline[1].Status != Won {
		t.Fatalf("bob's timeline %+v", got[0].Timeline)
	}
	// A report without a save keeps the last one: the result has bob's
	// moves, for his history.
	if string(got[0].Save) != "bob-save-12" {
		t.Fatalf("bob's save in the result: %q", got[0].Save)
	}
}

func TestDroppedPastTheGraceIsOut(t *testing.T) {
	e := newEnv(t)
	r := e.race(false)
	ann, arec := join(t, r, "ann", Racer)
	bob, _ := join(t, r, "bob", Racer)
	e.begin(ann)
	if err := ann.Report(progress(52, 70, Won)); err != nil {
		t.Fatal(err)
	}
	if err := bob.Drop(); err != nil {
		t.Fatal(err)
	}
	// The race waits for bob as long as the grace lasts.
	e.clock.Advance(29 * time.Second)
	if s := state(t, r); s.Phase != Running {
		t.Fatalf("finished before the grace was over: %+v", s)
	}
	e.clock.Advance(time.Second)
	s := arec.until(t, "finished", func(s RaceState) bool { return s.Phase == Finished })
	if a, b := standing(t, s, "ann"), standing(t, s, "bob"); a.Place != 1 || b.Place != 0 || b.Status != Dropped {
		t.Fatalf("standings %+v", s.Racers)
	}
	// Too late to race: he can come back to see the results.
	bob2, _ := join(t, r, "bob", Racer)
	if err := bob2.Report(progress(1, 1, Playing)); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("a report after the finish: %v", err)
	}
}

func TestFinishingOrder(t *testing.T) {
	e := newEnv(t)
	r := e.race(false)
	ms := map[string]*RaceMember{}
	for _, n := range []string{"ann", "bob", "cy", "dee"} {
		ms[n], _ = join(t, r, n, Racer)
	}
	e.begin(ms["ann"])
	step := func(d time.Duration, name string, p Progress) {
		t.Helper()
		e.clock.Advance(d)
		if err := ms[name].Report(p); err != nil {
			t.Fatal(err)
		}
	}
	step(5*time.Second, "cy", progress(30, 50, Playing))
	won := progress(52, 95, Won)
	won.Score = 640
	step(5*time.Second, "bob", won)
	step(5*time.Second, "dee", progress(12, 50, Over)) // stuck with 12 home
	if s := state(t, r); names(s) != "bob,cy,dee,ann" {
		t.Fatalf("live order %s", names(s))
	}
	step(5*time.Second, "ann", progress(52, 99, Won))
	step(5*time.Second, "cy", progress(31, 60, GaveUp))
	s := state(t, r)
	if s.Phase != Finished || s.Elapsed != 25*time.Second {
		t.Fatalf("not finished: %+v", s)
	}
	want := []struct {
		name   string
		place  int
		status Status
		time   time.Duration
	}{
		{"bob", 1, Won, 10 * time.Second},
		{"ann", 2, Won, 20 * time.Second},
		{"dee", 3, Over, 15 * time.Second},
		{"cy", 0, GaveUp, 25 * time.Second},
	}
	res := e.resultList()[0]
	for i, w := range want {
		st, rr := s.Racers[i], res.Racers[i]
		if st.Name != w.name || st.Place != w.place || st.Status != w.status || st.Time != w.time {
			t.Errorf("standing %d: %+v, want %+v", i, st, w)
		}
		if rr.Name != w.name || rr.Place != w.place || rr.Status != w.status || rr.Time != w.time || rr.Moves != st.Moves {
			t.Errorf("result %d: %+v, want %+v", i, rr, w)
		}
	}
	if res.Spec != deal || res.Code != r.Code() {
		t.Fatalf("result of %v in %s", res.Spec, res.Code)
	}
	// The game's own score travels to the result, for boards that rank by
	// points.
	if res.Racers[0].Score != 640 {
		t.Fatalf("bob's result scores %d, want 640", res.Racers[0].Score)
	}
}

func TestWatcherFollowsABoard(t *testing.T) {
	e := newEnv(t)
	r := e.race(false)
	ann, _ := join(t, r, "ann", Racer)
	join(t, r, "bob", Racer)
	w, wrec := join(t, r, "wes", Watcher)
	e.begin(ann)
	if err := w.Follow("id-ann"); err != nil {
		t.Fatal(err)
	}
	if err := ann.Report(Progress{Home: 1, Total: 52, Moves: 1, Status: Playing, Board: []byte("board-1")}); err != nil {
		t.Fatal(err)
	}
	s := wrec.until(t, "ann's board", func(s RaceState) bool { return string(s.Board) == "board-1" })
	if s.Following != "id-ann" {
		t.Fatalf("following %q", s.Following)
	}
	// A report without a board keeps the last one.
	if err := ann.Report(progress(2, 2, Playing)); err != nil {
		t.Fatal(err)
	}
	s = wrec.until(t, "ann's second report", func(s RaceState) bool { return standing(t, s, "ann").Moves == 2 })
	if string(s.Board) != "board-1" {
		t.Fatalf("board %q", s.Board)
	}
	if err := w.Follow(""); err != nil {
		t.Fatal(err)
	}
	wrec.until(t, "no board", func(s RaceState) bool { return s.Following == "" && s.Board == nil })
}

func TestTakeoverClosesTheOlderSession(t *testing.T) {
	e := newEnv(t)
	r := e.race(false)
	_, old := join(t, r, "ann", Racer)
	join(t, r, "ann", Racer)
	s := old.until(t, "the old session is closed", func(s RaceState) bool { return s.Phase == Closed })
	if s.Reason != ErrReplaced.Error() {
		t.Fatalf("reason %q", s.Reason)
	}
	if st := state(t, r); len(st.Racers) != 1 || !st.Racers[0].Here {
		t.Fatalf("after takeover: %+v", st.Racers)
	}
}

func TestRoomLifetime(t *testing.T) {
	t.Run("nobody joins", func(t *testing.T) {
		e := newEnv(t)
		r := e.race(false)
		e.clock.Advance(29 * time.Second)
		if _, err := e.h.Race(r.Code()); err != nil {
			t.Fatalf("closed before the grace: %v", err)
		}
		e.clock.Advance(time.Second)
		<-r.Done()
		if _, err := e.h.Race(r.Code()); !errors.Is(err, ErrExpired) {
			t.Fatalf("lookup after the end: %v", err)
		}
	})
	t.Run("empty, then rejoined within the grace", func(t *testing.T) {
		e := newEnv(t)
		r := e.race(false)
		ann, _ := join(t, r, "ann", Racer)
		e.begin(ann)
		if err := ann.Drop(); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(20 * time.Second)
		join(t, r, "ann", Racer)
		e.clock.Advance(time.Hour)
		if s := state(t, r); s.Phase != Running || standing(t, s, "ann").Status != Playing {
			t.Fatalf("after coming back: %+v", s)
		}
	})
	t.Run("everyone dropped from a running race", func(t *testing.T) {
		e := newEnv(t)
		r := e.race(false)
		ann, _ := join(t, r, "ann", Racer)
		e.begin(ann)
		if err := ann.Drop(); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(30 * time.Second)
		<-r.Done()
		res := e.resultList()
		if len(res) != 1 || res[0].Racers[0].Status != Dropped {
			t.Fatalf("results %+v", res)
		}
	})
	t.Run("finished and everyone left", func(t *testing.T) {
		e := newEnv(t)
		r := e.race(false)
		ann, _ := join(t, r, "ann", Racer)
		e.begin(ann)
		if err := ann.Report(progress(52, 60, Won)); err != nil {
			t.Fatal(err)
		}
		if err := ann.Leave(); err != nil {
			t.Fatal(err)
		}
		<-r.Done() // at once: no clock moves
		if e.h.Rooms() != 0 {
			t.Fatalf("%d rooms", e.h.Rooms())
		}
	})
	t.Run("the hub closes under its members", func(t *testing.T) {
		e := newEnv(t)
		r := e.race(false)
		_, arec := join(t, r, "ann", Racer)
		e.h.Close()
		s := arec.until(t, "closed", func(s RaceState) bool { return s.Phase == Closed })
		if s.Reason != "The arcade is shutting down." {
			t.Fatalf("reason %q", s.Reason)
		}
		if _, err := e.h.NewRace(RaceConfig{Spec: deal}); !errors.Is(err, ErrHubClosed) {
			t.Fatalf("new race on a closed hub: %v", err)
		}
	})
}

func TestGhostRace(t *testing.T) {
	t.Run("the ghost finishes first", func(t *testing.T) {
		e := newEnv(t)
		r := e.race(false)
		ann, arec := join(t, r, "ann", Racer)
		if err := ann.AddGhost(ghostRun("cat", 60*time.Second)); err != nil {
			t.Fatal(err)
		}
		s := state(t, r)
		if len(s.Racers) != 2 || !s.Racers[1].Ghost || s.Racers[1].Name != "cat" || s.Racers[1].Status != Ready {
			t.Fatalf("lobby %+v", s.Racers)
		}
		e.begin(ann)
		e.clock.Advance(30 * time.Second)
		s = arec.until(t, "the ghost's first step", func(s RaceState) bool {
			return s.Phase == Running && standing(t, s, "cat").Home == 20
		})
		if g := standing(t, s, "cat"); g.Time != 30*time.Second || g.Moves != 40 {
			t.Fatalf("ghost at 30s: %+v", g)
		}
		e.clock.Advance(30 * time.Second)
		arec.until(t, "the ghost won", func(s RaceState) bool { return standing(t, s, "cat").Place == 1 })
		e.clock.Advance(5 * time.Second)
		if err := ann.Report(progress(52, 80, Won)); err != nil {
			t.Fatal(err)
		}
		res := e.resultList()[0].Racers
		if res[0].Name != "cat" || !res[0].Ghost || res[0].Time != time.Minute || res[1].Name != "ann" || res[1].Place != 2 {
			t.Fatalf("result %+v", res)
		}
		if res[0].Timeline != nil {
			t.Fatalf("a ghost's result carries a timeline")
		}
	})
	t.Run("the racer finishes first; the ghost still takes its place", func(t *testing.T) {
		e := newEnv(t)
		r := e.race(false)
		ann, _ := join(t, r, "ann", Racer)
		if err := ann.AddGhost(ghostRun("cat", 60*time.Second)); err != nil {
			t.Fatal(err)
		}
		e.begin(ann)
		e.clock.Advance(45 * time.Second)
		if err := ann.Report(progress(52, 80, Won)); err != nil {
			t.Fatal(err)
		}
		res := e.resultList()[0].Racers
		if res[0].Name != "ann" || res[0].Place != 1 || res[1].Name != "cat" || res[1].Place != 2 || res[1].Time != time.Minute {
			t.Fatalf("result %+v", res)
		}
		if e.clock.Pending() != 0 {
			t.Fatalf("%d timers left after the finish", e.clock.Pending())
		}
	})
}

// TestMissedStatesResync: a member that got none of the pushed states
// asks for the whole one and gets what it would have been sent, at the
// room's version now; once it has left, it is told it is not a member.
func TestMissedStatesResync(t *testing.T) {
	e := newEnv(t)
	r := e.race(false)
	ann, arec := join(t, r, "ann", Racer)
	join(t, r, "bob", Racer)
	deaf, err := r.Join(person("wes"), Watcher, func(RaceState) {}) // misses everything
	if err != nil {
		t.Fatal(err)
	}
	e.begin(ann)
	if err := deaf.Follow("id-ann"); err != nil {
		t.Fatal(err)
	}
	if err := ann.Report(Progress{Home: 3, Total: 52, Moves: 4, Status: Playing, Board: []byte("board-4")}); err != nil {
		t.Fatal(err)
	}
	last := arec.until(t, "ann's report", func(s RaceState) bool {
		return slices.ContainsFunc(s.Racers, func(x Standing) bool { return x.Name == "ann" && x.Moves == 4 })
	})
	st, err := deaf.State()
	if err != nil {
		t.Fatal(err)
	}
	if st.Version != last.Version || st.Version != state(t, r).Version {
		t.Fatalf("resync at version %d; ann was sent %d", st.Version, last.Version)
	}
	if st.You != "id-wes" || st.Role != Watcher || st.Following != "id-ann" || string(st.Board) != "board-4" {
		t.Fatalf("resync is not the watcher's own state: %+v", st)
	}
	if st.Phase != Running || standing(t, st, "ann").Home != 3 || len(st.Watchers) != 1 {
		t.Fatalf("resync is not the room now: %+v", st)
	}
	if err := deaf.Leave(); err != nil {
		t.Fatal(err)
	}
	if _, err := deaf.State(); !errors.Is(err, ErrNotMember) {
		t.Fatalf("state after leaving: %v", err)
	}
}
