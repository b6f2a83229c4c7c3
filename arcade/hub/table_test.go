package hub

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
)

func kingsTable(host Person, seats ...SeatPlan) TableConfig {
	return TableConfig{Game: kings.Name, Seats: seats, Host: host}
}

var open = SeatPlan{}

// TestKingsWithADropAndRejoin is Kings in the Corner with two people and a
// hard computer player, watched, to the end of a hand: bob drops on the
// way, the stand-in plays his turns meanwhile, and he comes back.
func TestKingsWithADropAndRejoin(t *testing.T) {
	e := newTenv(t)
	ann := person("ann")
	tb := e.open(kingsTable(ann, open, open, SeatPlan{Computer: "hard"}))
	a := e.sit(tb, "ann", AnySeat)
	b := e.sit(tb, "bob", AnySeat)
	w := e.sit(tb, "wat", Watch)
	if a.m.Seat() != 0 || b.m.Seat() != 1 || w.m.Seat() != Watch {
		t.Fatalf("seats %d %d %d", a.m.Seat(), b.m.Seat(), w.m.Seat())
	}
	if err := b.m.Start(); !errors.Is(err, ErrNotHost) {
		t.Fatalf("bob starts: %v", err)
	}
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	people := []*seatAt{a, b}
	// Play until bob's turn comes round, then drop him.
	e.play(tb, people, func() bool { return e.current(tb, b).Turn == 1 })
	if err := b.m.Drop(); err != nil {
		t.Fatal(err)
	}
	b.m = nil
	st := e.current(tb, a)
	if !st.Seats[1].StandIn || st.Seats[1].Here {
		t.Fatalf("bob's seat while he is away: %+v", st.Seats[1])
	}
	// The stand-in plays his turns: the turn passes through seat 1 twice.
	passes := 0
	last := 1
	e.play(tb, people, func() bool {
		turn := inspect(tb, func() int { return tb.game.Turn() })
		if turn != last && last == 1 {
			passes++
		}
		last = turn
		return passes == 2
	})
	if e.phaseOf(tb) != TablePlaying || passes != 2 {
		t.Fatalf("the stand-in played %d of bob's turns before the hand ended; this deal does not test a rejoin", passes)
	}
	{
		// He comes back: asking for any seat, or to watch, gives him his own.
		b2 := e.sit(tb, "bob", Watch)
		if b2.m.Seat() != 1 {
			t.Fatalf("bob came back to seat %d", b2.m.Seat())
		}
		b.m, b.r = b2.m, b2.r
		if st := e.current(tb, a); st.Seats[1].StandIn || !st.Seats[1].Here {
			t.Fatalf("bob's seat once back: %+v", st.Seats[1])
		}
	}
	e.play(tb, people, nil)
	st = e.current(tb, w)
	if st.Phase != TableFinished || st.Result == nil || !st.Result.LowWins {
		t.Fatalf("the hand did not end: %+v", st)
	}
	rs := e.resultList()
	if len(rs) != 1 || !rs[0].MatchEnd || rs[0].Seats[0].Person != ann || rs[0].Seats[2].Strength != "hard" || !rs[0].Seats[1].StoodIn {
		t.Fatalf("results: %+v", rs)
	}
	if !strings.Contains(string(rs[0].Record), `"seats":["person","person","hard"]`) {
		t.Fatalf("record seats: %s", rs[0].Record)
	}
}

// TestSpiteBetweenTwo plays Spite and Malice between two people to the
// end, a watcher looking on.
func TestSpiteBetweenTwo(t *testing.T) {
	e := newTenv(t)
	tb := e.open(TableConfig{Game: spite.Name, Settings: "payoff=13", Seats: []SeatPlan{open, open}, Host: person("ann")})
	a := e.sit(tb, "ann", 0)
	b := e.sit(tb, "bob", 1)
	w := e.sit(tb, "wat", Watch)
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	e.play(tb, []*seatAt{a, b}, nil)
	st := e.current(tb, w)
	if st.Phase != TableFinished || st.Result == nil {
		t.Fatalf("not finished: %+v", st)
	}
	if len(st.Log) == 0 || !strings.Contains(strings.Join(st.Log, "\n"), "wins the game") && !strings.Contains(strings.Join(st.Log, "\n"), "draw") {
		t.Fatalf("log: %q", st.Log)
	}
	if rs := e.resultList(); len(rs) != 1 || rs[0].Seats[1].Person.Name != "bob" {
		t.Fatalf("results: %+v", rs)
	}
	// Everyone leaves: the room ends at once it is empty past the grace,
	// and says its snapshot is no longer needed.
	for _, s := range []*seatAt{a, b, w} {
		if err := s.m.Leave(); err != nil {
			t.Fatal(err)
		}
	}
	e.clock.Advance(e.h.grace)
	<-tb.Done()
	e.mu.Lock()
	snap, had := e.saved[tb.Code()]
	e.mu.Unlock()
	if !had || snap != nil {
		t.Fatalf("the ended table's snapshot: %v %+v", had, snap)
	}
}

func TestTurnClockRunsOut(t *testing.T) {
	e := newTenv(t)
	cfg := TableConfig{Game: spite.Name, Seats: []SeatPlan{open, open}, Host: person("ann"), TurnClock: 20 * time.Second}
	tb := e.open(cfg)
	a := e.sit(tb, "ann", 0)
	b := e.sit(tb, "bob", 1)
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	first := e.current(tb, a)
	slow := a
	if first.Turn == 1 {
		slow = b
	}
	if first.TurnLeft != 20*time.Second {
		t.Fatalf("turn left %v", first.TurnLeft)
	}
	e.clock.Advance(19 * time.Second)
	if st := e.current(tb, slow); st.Auto {
		t.Fatal("the clock ran out early")
	}
	e.clock.Advance(time.Second)
	st := e.current(tb, slow)
	if !st.Auto || !strings.Contains(st.Log[len(st.Log)-1], "time ran out") {
		t.Fatalf("after the clock: auto %v, log %q", st.Auto, st.Log)
	}
	if err := slow.m.Do(act(spite.Action{Do: spite.Pass})); !errors.Is(err, ErrNotYourTurn) || !strings.Contains(err.Error(), "time ran out") {
		t.Fatalf("a move after the clock ran out: %v", err)
	}
	// The computer plays the whole turn, one action a pace, and then it is
	// the other's turn with a fresh clock.
	turn := st.Turn
	n := 0
	for e.current(tb, slow).Turn == turn {
		e.clock.Advance(tb.cfg.Pace)
		n++
		if n > 100 {
			t.Fatal("the computer never ended the turn")
		}
	}
	st = e.current(tb, slow)
	if st.Auto || st.TurnLeft != 20*time.Second {
		t.Fatalf("the next turn: auto %v, left %v", st.Auto, st.TurnLeft)
	}
	if rs := inspect(tb, func() bool { return tb.seats[turn].stoodIn }); !rs {
		t.Fatal("the seat is not marked as stood in for")
	}
}

func TestIllegalActionChangesNothing(t *testing.T) {
	e := newTenv(t)
	tb := e.open(kingsTable(person("ann"), open, open))
	a := e.sit(tb, "ann", 0)
	b := e.sit(tb, "bob", 1)
	w := e.sit(tb, "wat", Watch)
	if err := a.m.Do(act(kings.Action{Do: kings.End})); !errors.Is(err, ErrNotPlaying) {
		t.Fatalf("a move before the start: %v", err)
	}
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	st := e.current(tb, a)
	mover, other := a, b
	if st.Turn == 1 {
		mover, other = b, a
	}
	mine := e.current(tb, mover)
	if err := w.m.Do(act(kings.Action{Do: kings.End})); !errors.Is(err, ErrNotSeated) {
		t.Fatalf("a watcher moves: %v", err)
	}
	wv := e.current(tb, w).Version
	before := inspect(tb, func() string { r, _ := games.RecordJSON(tb.game, nil); return string(r) })
	otherN := e.current(tb, other).Version
	// A card the seat does not hold, onto N.
	var notHeld engine.Card
	for _, c := range engine.Deck() {
		if !slices.Contains(handOf(viewOf(mine)), c) {
			notHeld = c
			break
		}
	}
	err := mover.m.Do(act(kings.Action{Do: kings.Play, Card: notHeld, To: kings.N}))
	if err == nil || err.Error() != "You don't hold "+notHeld.String()+"." {
		t.Fatalf("refusal: %v", err)
	}
	got := mover.r.until(t, "the refusal reaches the mover", func(s TableState) bool { return s.Refused != "" })
	if got.Refused != err.Error() {
		t.Fatalf("pushed %q, returned %q", got.Refused, err)
	}
	if err := other.m.Do(act(kings.Action{Do: kings.End})); err == nil || err.Error() != "It is "+mover.p.Name+"'s turn." {
		t.Fatalf("out of turn: %v", err)
	}
	if err := mover.m.Do(act(spite.Action{Do: spite.Pass})); err == nil {
		t.Fatal("a Spite move at a Kings table")
	}
	after := inspect(tb, func() string { r, _ := games.RecordJSON(tb.game, nil); return string(r) })
	if after != before {
		t.Fatalf("a refused move changed the game:\n%s\n%s", before, after)
	}
	// The other member's screen got nothing (its last state is the one it
	// had plus its own refusal); the watcher none at all.
	if st := e.current(tb, other); st.Refused == "" || st.Version == otherN {
		t.Fatalf("the other's refusal: %+v", st)
	}
	if st := e.current(tb, w); st.Version != wv {
		t.Fatalf("the watcher heard of a refusal: %+v", st)
	}
	// A legal move clears the sentence.
	if err := mover.m.Do(choose(mover.bot, mine.View)); err != nil {
		t.Fatal(err)
	}
	if st := e.current(tb, mover); st.Refused != "" {
		t.Fatalf("the sentence stays after a legal move: %q", st.Refused)
	}
}

func TestLobbyList(t *testing.T) {
	e := newTenv(t)
	lr := &lobbyRec{changed: make(chan struct{})}
	lw := e.h.WatchLobby(lr.sink)
	defer lw.Close()
	tb := e.open(kingsTable(person("ann"), open, SeatPlan{Reserved: person("cy")}, SeatPlan{Computer: "easy"}, open))
	priv := e.open(TableConfig{Game: spite.Name, Seats: []SeatPlan{open, open}, Host: person("ann"), Private: true})
	free := func(n int) func(TableList) bool {
		return func(l TableList) bool { return len(l.Tables) == 1 && l.Tables[0].Free == n }
	}
	lr.until(t, "the table is listed with three seats free", free(3))
	a := e.sit(tb, "ann", AnySeat)
	lr.until(t, "two free", free(2))
	if _, err := tb.Join(person("bob"), 1, func(TableState) {}); !errors.Is(err, ErrSeatTaken) {
		t.Fatalf("bob takes cy's seat: %v", err)
	}
	b := e.sit(tb, "bob", AnySeat)
	if b.m.Seat() != 3 {
		t.Fatalf("bob sits at %d", b.m.Seat())
	}
	lr.until(t, "one free", free(1))
	if err := a.m.Start(); !errors.Is(err, ErrSeatsOpen) || !strings.Contains(err.Error(), "cy") {
		t.Fatalf("start without cy: %v", err)
	}
	c := e.sit(tb, "cy", AnySeat)
	if c.m.Seat() != 1 {
		t.Fatalf("cy sits at %d", c.m.Seat())
	}
	l := lr.until(t, "none free", free(0))
	in := l.Tables[0]
	if in.Host.Name != "ann" || in.Seats[2].Computer != "easy" || in.Seats[1].Person.Name != "cy" || in.Code != tb.Code() {
		t.Fatalf("listing: %+v", in)
	}
	_ = e.sit(tb, "wat", Watch)
	lr.until(t, "a watcher", func(l TableList) bool { return len(l.Tables) == 1 && l.Tables[0].Watchers == 1 })
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	lr.until(t, "playing", func(l TableList) bool { return len(l.Tables) == 1 && l.Tables[0].Phase == TablePlaying })
	// Private tables are not listed, but a seated player finds them.
	if _, err := priv.Join(person("bob"), AnySeat, func(TableState) {}); err != nil {
		t.Fatal(err)
	}
	seated := e.h.SeatedAt(person("bob").ID)
	if len(seated) != 2 || e.h.Tables()[0].Code != tb.Code() || len(e.h.Tables()) != 1 {
		t.Fatalf("bob is seated at %+v; listed %+v", seated, e.h.Tables())
	}
	// Actions do not touch the lobby.
	v := lr.state().Version
	e.play(tb, []*seatAt{a, b, c}, func() bool { return inspect(tb, func() int { return len(tb.log) }) >= MaxLog })
	if lr.state().Version != v {
		t.Fatal("the lobby heard of moves")
	}
	tb.shut("test")
	lr.until(t, "the ended table is gone from the list", func(l TableList) bool { return len(l.Tables) == 0 })
}

type lobbyRec struct {
	mu      sync.Mutex
	last    TableList
	changed chan struct{}
}

func (r *lobbyRec) sink(l TableList) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last = l
	close(r.changed)
	r.changed = make(chan struct{})
}

func (r *lobbyRec) state() TableList {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

func (r *lobbyRec) until(t *testing.T, what string, ok func(TableList) bool) TableList {
	t.Helper()
	deadline := time.After(guard)
	for {
		r.mu.Lock()
		l, ch := r.last, r.changed
		r.mu.Unlock()
		if ok(l) {
			return l
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("the lobby never showed %s; last %+v", what, l)
		}
	}
}

func TestInviteToTable(t *testing.T) {
	e := newTenv(t)
	tb := e.open(TableConfig{Game: spite.Name, Seats: []SeatPlan{open, open}, Host: person("ann"), Private: true})
	a := e.sit(tb, "ann", AnySeat)
	sa := e.h.Connect(person("ann"), true, func(Notice) {})
	sb := e.h.Connect(person("bob"), true, func(Notice) {})
	defer sa.Close()
	defer sb.Close()
	if err := sa.Invite(person("bob"), tb.Code()); err != nil {
		t.Fatal(err)
	}
	inv := sb.Invitations()
	if len(inv) != 1 || inv[0].Kind != TableRoom || inv[0].What != "table of Spite and Malice" {
		t.Fatalf("invitations: %+v", inv)
	}
	code, err := sb.Answer(inv[0].ID, true)
	if err != nil {
		t.Fatal(err)
	}
	found, err := e.h.Table(code)
	if err != nil || found != tb {
		t.Fatalf("the code %s finds %v, %v", code, found, err)
	}
	b := e.sit(found, "bob", AnySeat)
	if b.m.Seat() != 1 {
		t.Fatalf("bob sits at %d", b.m.Seat())
	}
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.h.Race(code); !errors.Is(err, ErrNoRoom) {
		t.Fatalf("a table's code as a race: %v", err)
	}
}
