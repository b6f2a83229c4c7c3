package hub

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/kings"
)

// blocker is a computer player that thinks until the test lets it answer.
type blocker struct {
	inner   engine.TablePlayer
	entered chan struct{}
	gate    chan struct{}
}

func (b *blocker) ChooseEncoded(view []byte) ([]byte, error) {
	b.entered <- struct{}{}
	<-b.gate
	return b.inner.ChooseEncoded(view)
}

// TestAThinkingComputerHoldsNoOne: while a computer player thinks, its
// table answers a person's commands and pushes states to its members, and
// the answer, once in, is played.
func TestAThinkingComputerHoldsNoOne(t *testing.T) {
	e := newTenv(t)
	ann := person("ann")
	tb := e.open(kingsTable(ann, open, SeatPlan{Computer: "easy"}, SeatPlan{Computer: "easy"}))
	a := e.sit(tb, "ann", 0)
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	b := &blocker{entered: make(chan struct{}), gate: make(chan struct{})}
	_ = tb.loop.wait(func() {
		b.inner = tb.seats[1].player
		tb.seats[1].player, tb.seats[2].player = b, b
	})
	// ann plays until a computer is to act.
	for {
		st := e.current(tb, a)
		if st.Turn != 0 {
			break
		}
		if err := a.m.Do(choose(a.bot, st.View)); err != nil {
			t.Fatal(err)
		}
	}
	before := inspect(tb, func() int { return tb.game.Actions() })
	advanced := make(chan struct{})
	go func() {
		e.clock.Advance(tb.cfg.Pace)
		close(advanced)
	}()
	select {
	case <-b.entered:
	case <-time.After(guard):
		t.Fatal("the computer never began to think")
	}

	// The room answers while the computer thinks: a refusal, a phrase
	// said (pushed to every member), a watcher let in. A room that waited
	// for the thinking would answer none of them.
	answers := make(chan struct{})
	go func() {
		defer close(answers)
		if err := a.m.Do(choose(a.bot, a.r.state().View)); err == nil {
			t.Error("ann moved out of turn")
		}
		if err := a.m.Say(0); err != nil {
			t.Error(err)
		}
		w := e.sit(tb, "cy", Watch)
		w.r.until(t, "the watcher is shown the table", func(st TableState) bool { return st.Phase == TablePlaying })
	}()
	select {
	case <-answers:
	case <-time.After(5 * time.Second):
		close(b.gate) // lets the room go, so the hub can close
		t.Fatal("the room did not answer while a computer thought")
	}
	a.r.until(t, "ann hears her phrase", func(st TableState) bool { return st.Said != nil })
	if n := inspect(tb, func() int { return tb.game.Actions() }); n != before {
		t.Fatalf("the game moved from %d to %d actions before the computer answered", before, n)
	}

	close(b.gate)
	go func() {
		// The other computer's turn may follow; it thinks through too.
		for range b.entered {
		}
	}()
	<-advanced
	if n := inspect(tb, func() int { return tb.game.Actions() }); n <= before {
		t.Fatalf("the computer's answer was not played: %d actions, %d before", n, before)
	}
	close(b.entered)
}

// TestAComputerAnswerTheTableMovedOnFromIsDropped: an answer that comes
// back after the person it stood in for came back is not played; the
// person plays their turn.
func TestAComputerAnswerTheTableMovedOnFromIsDropped(t *testing.T) {
	e := newTenv(t)
	ann, bob := person("ann"), person("bob")
	tb := e.open(kingsTable(ann, open, open))
	a := e.sit(tb, "ann", 0)
	bo := e.sit(tb, "bob", 1)
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	// Whoever is to act drops; the stand-in thinks for them and is held.
	seats := []*seatAt{a, bo}
	turn := e.current(tb, a).Turn
	gone := seats[turn]
	b := &blocker{entered: make(chan struct{}), gate: make(chan struct{})}
	_ = tb.loop.wait(func() {
		b.inner, _ = tb.kit.NewPlayer("easy", 1)
		tb.seats[turn].standIn = b
	})
	if err := gone.m.Drop(); err != nil {
		t.Fatal(err)
	}
	before := inspect(tb, func() int { return tb.game.Actions() })
	advanced := make(chan struct{})
	go func() {
		e.clock.Advance(tb.cfg.Pace)
		close(advanced)
	}()
	<-b.entered
	// Back before the stand-in answers: the seat is theirs to play.
	back := e.sit(tb, gone.p.Name, turn)
	close(b.gate)
	<-advanced
	st := e.current(tb, back)
	if n := inspect(tb, func() int { return tb.game.Actions() }); n != before || st.Turn != turn || st.Auto {
		t.Fatalf("the stale answer was played: %d actions (%d before), turn %d, auto %v", n, before, st.Turn, st.Auto)
	}
	if err := back.m.Do(choose(back.bot, st.View)); err != nil {
		t.Fatalf("the person back at the seat cannot play: %v", err)
	}
	_ = bob
}

// TestComputersPlayTheKitsGame: a table of computers at instant pace plays
// exactly the game the kit plays alone from the same seed and players,
// whether the thinking is driven by a manual clock or by the wall clock.
func TestComputersPlayTheKitsGame(t *testing.T) {
	strengths := []string{"hard", "normal", "easy", "hard"}
	plan := make([]SeatPlan, len(strengths))
	for i, s := range strengths {
		plan[i] = SeatPlan{Computer: s}
	}
	for _, manual := range []bool{true, false} {
		t.Run("manual="+strconv.FormatBool(manual), func(t *testing.T) {
			results := make(chan TableResult, 8)
			var clock Clock = RealClock{}
			mc := NewManualClock()
			if manual {
				clock = mc
			}
			h := New(Config{Clock: clock, Rand: engine.NewRNG(5), TableKit: games.Default().TableKit,
				OnTableResult: func(r TableResult) { results <- r }})
			defer h.Close()
			host := person("ann")
			tb, err := h.OpenTable(TableConfig{Game: kings.Name, Seats: plan, Host: host, Speed: Instant})
			if err != nil {
				t.Fatal(err)
			}
			m, err := tb.Join(host, Watch, func(TableState) {})
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Start(); err != nil {
				t.Fatal(err)
			}
			if manual {
				mc.Advance(0)
			}
			var r TableResult
			select {
			case r = <-results:
			case <-time.After(guard):
				t.Fatal("the game never ended")
			}
			kit := tb.kit
			match, err := kit.NewMatch(r.Spec, len(strengths))
			if err != nil {
				t.Fatal(err)
			}
			players := make([]engine.TablePlayer, len(strengths))
			for i, s := range strengths {
				players[i], _ = kit.NewPlayer(s, playerSeed(r.Spec.Seed, i, 1))
			}
			g := match.Game()
			for g.Turn() != engine.NoSeat {
				if err := g.Play(g.Turn(), players[g.Turn()]); err != nil {
					t.Fatal(err)
				}
			}
			want, err := games.RecordJSON(g, strengths)
			if err != nil {
				t.Fatal(err)
			}
			if string(r.Record) != string(want) {
				t.Fatalf("the table played another game than the kit:\n%s\n%s", r.Record, want)
			}
		})
	}
}

// counting is a computer player that notes how many think at once; each
// choice takes a little while, as a hard player's does.
type counting struct {
	kit     engine.TableKit
	now     atomic.Int32
	most    atomic.Int32
	choices atomic.Int32
}

func (c *counting) ChooseEncoded(view []byte) ([]byte, error) {
	n := c.now.Add(1)
	defer c.now.Add(-1)
	for {
		m := c.most.Load()
		if n <= m || c.most.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(2 * time.Millisecond)
	c.choices.Add(1)
	p, err := c.kit.NewPlayer("easy", uint64(n))
	if err != nil {
		return nil, err
	}
	return p.ChooseEncoded(view)
}

// TestThinkersAreBounded: however many tables' computers are due at once,
// no more of them think at the same time than the processors Go runs
// goroutines on.
func TestThinkersAreBounded(t *testing.T) {
	h := New(Config{Clock: RealClock{}, Rand: engine.NewRNG(9), TableKit: games.Default().TableKit})
	defer h.Close()
	kit, _ := games.Default().TableKit(kings.Name)
	c := &counting{kit: kit}
	for i := range 16 {
		host := person("host" + strconv.Itoa(i))
		tb, err := h.OpenTable(TableConfig{Game: kings.Name, Host: host, Speed: Instant,
			Seats: []SeatPlan{{Computer: "easy"}, {Computer: "easy"}, {Computer: "easy"}}})
		if err != nil {
			t.Fatal(err)
		}
		m, err := tb.Join(host, Watch, func(TableState) {})
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Start(); err != nil {
			t.Fatal(err)
		}
		_ = tb.loop.wait(func() {
			for _, s := range tb.seats {
				s.player = c
			}
		})
	}
	deadline := time.After(guard)
	for c.choices.Load() < 200 {
		select {
		case <-deadline:
			t.Fatalf("only %d choices made", c.choices.Load())
		case <-time.After(5 * time.Millisecond):
		}
	}
	if most, limit := c.most.Load(), int32(cap(thinkers)); most > limit {
		t.Fatalf("%d computers thought at once; at most %d may", most, limit)
	}
}

// TestNoThinkingForAnEndedTable: a computer still waiting for a place among
// the thinkers when its table ends does not think at all.
func TestNoThinkingForAnEndedTable(t *testing.T) {
	e := newTenv(t)
	tb := e.open(kingsTable(person("ann"), SeatPlan{Computer: "easy"}, SeatPlan{Computer: "easy"}))
	w := e.sit(tb, "ann", Watch)
	if err := w.m.Start(); err != nil {
		t.Fatal(err)
	}
	kit, _ := games.Default().TableKit(kings.Name)
	c := &counting{kit: kit}
	_ = tb.loop.wait(func() { tb.seats[0].player, tb.seats[1].player = c, c })
	// Every place among the thinkers is taken.
	for range cap(thinkers) {
		thinkers <- struct{}{}
	}
	release := sync.OnceFunc(func() {
		for range cap(thinkers) {
			<-thinkers
		}
	})
	defer release() // a failure below leaves no place taken for the other tests
	advanced := make(chan struct{})
	go func() {
		e.clock.Advance(tb.cfg.Pace)
		close(advanced)
	}()
	for deadline := time.Now().Add(guard); !inspect(tb, func() bool { return tb.thinking }); {
		if time.Now().After(deadline) {
			t.Fatal("the computer's turn never came")
		}
		time.Sleep(time.Millisecond)
	}
	tb.shut("closing")
	<-tb.Done()
	release()
	<-advanced
	if n := c.choices.Load(); n != 0 {
		t.Fatalf("a computer thought %d times for a table that had ended", n)
	}
}
