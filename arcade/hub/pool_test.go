package hub

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/games"
)

// penv is a hub with a play-now pool on a manual clock, and every table
// match the pool made kept for the test to look at.
type penv struct {
	t     *testing.T
	clock *ManualClock
	h     *Hub

	mu      sync.Mutex
	matches []poolMatch
}

// ratings in a test are looked up here, by account ID.
type ratingBook struct {
	mu sync.Mutex
	r  map[string]float64
}

func (b *ratingBook) set(id string, r float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.r[id] = r
}

func (b *ratingBook) get(id, _ string) (float64, float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if r, ok := b.r[id]; ok {
		return r, 80
	}
	return DefaultRating, DefaultDeviation
}

var testComputers = map[string]float64{"easy": 1200, "normal": 1500, "hard": 1800}

func newPenv(t *testing.T, cfg PoolConfig) (*penv, *ratingBook) {
	t.Helper()
	book := &ratingBook{r: map[string]float64{}}
	if cfg.Rating == nil {
		cfg.Rating = book.get
	}
	if cfg.Computers == nil {
		cfg.Computers = func(string) map[string]float64 { return testComputers }
	}
	cfg.Table.TurnClock = -1 // nobody here moves: no clock plays for them
	e := &penv{t: t, clock: NewManualClock()}
	e.h = New(Config{Clock: e.clock, Rand: engine.NewRNG(1), Grace: 30 * time.Second,
		TableKit: games.Default().TableKit, Pool: cfg,
		Limits: Limits{RoomsPerAccount: -1, RoomsPerAddr: -1, Actions: Rate{PerSecond: 1e9, Burst: 1e9}}})
	e.h.pool.spy = func(m poolMatch) {
		e.mu.Lock()
		e.matches = append(e.matches, m)
		e.mu.Unlock()
	}
	t.Cleanup(e.h.Close)
	return e, book
}

// prec is a pool member's screen: the newest pool state, and the newest
// state of the table the pool seated it at.
type prec struct {
	mu      sync.Mutex
	last    PoolState
	n       int
	table   TableState
	tables  int
	changed chan struct{}
}

func newPrec() *prec { return &prec{changed: make(chan struct{})} }

func (r *prec) sink(s PoolState) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s.Version < r.last.Version {
		panic("an outbox delivered an older pool state after a newer one")
	}
	r.last, r.n = s, r.n+1
	close(r.changed)
	r.changed = make(chan struct{})
}

func (r *prec) seat(s TableState) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.table, r.tables = s, r.tables+1
	close(r.changed)
	r.changed = make(chan struct{})
}

// await waits until ok holds of the newest states.
func (r *prec) await(t *testing.T, what string, ok func(p PoolState, tb TableState) bool) PoolState {
	t.Helper()
	deadline := time.After(guard)
	for {
		r.mu.Lock()
		p, tb, ch := r.last, r.table, r.changed
		r.mu.Unlock()
		if ok(p, tb) {
			return p
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("waited for %s; the newest pool state is %+v", what, p)
		}
	}
}

func (r *prec) seated(t *testing.T) PoolState {
	t.Helper()
	return r.await(t, "a seat at a dealt table", func(p PoolState, tb TableState) bool {
		return p.Phase == PoolSeated && tb.Code == p.Code && tb.View != nil
	})
}

func (r *prec) waiting(t *testing.T, cond func(PoolState) bool) PoolState {
	t.Helper()
	return r.await(t, "a waiting state", func(p PoolState, _ TableState) bool {
		return p.Version > 0 && p.Phase == PoolWaiting && cond(p)
	})
}

func (e *penv) join(name string, want PoolWant) (*PoolMember, *prec) {
	e.t.Helper()
	r := newPrec()
	m, err := e.h.PlayNow(person(name), want, r.sink, r.seat)
	require.NoError(e.t, err)
	return m, r
}

var spiteNow = PoolWant{Game: "spite"}

// Two people asking for Spite at once are seated together at a table the
// pool opened and dealt.
func TestPoolSeatsTwoPeopleTogether(t *testing.T) {
	e, _ := newPenv(t, PoolConfig{})
	_, ra := e.join("ann", spiteNow)
	ra.waiting(t, func(p PoolState) bool { return p.Waiting == 1 && p.Window == DefaultPoolWindow })
	_, rb := e.join("bob", spiteNow)
	a, b := ra.seated(t), rb.seated(t)
	require.Equal(t, a.Code, b.Code)
	require.Equal(t, []Person{{ID: "id-bob", Name: "bob"}}, a.With)
	require.Equal(t, []Person{{ID: "id-ann", Name: "ann"}}, b.With)
	ra.mu.Lock()
	st := ra.table
	ra.mu.Unlock()
	require.Equal(t, TablePlaying, st.Phase)
	require.Equal(t, "ann", st.Seats[0].Person.Name)
	require.Equal(t, "bob", st.Seats[1].Person.Name)
	require.True(t, st.Seats[0].Here && st.Seats[1].Here)
	tb, err := e.h.Table(a.Code)
	require.NoError(t, err)
	info, err := tb.Info()
	require.NoError(t, err)
	require.False(t, info.Private, "a play-now table is listed, to be watched")
}

// A lone player hears the time waited tick, is offered the computer player
// nearest their rating once the wait is over and not before, and accepting
// seats them with it.
func TestPoolOffersComputerAfterWait(t *testing.T) {
	e, book := newPenv(t, PoolConfig{})
	book.set("id-ann", 1740)
	m, r := e.join("ann", spiteNow)
	e.clock.Advance(5 * time.Second)
	st := r.waiting(t, func(p PoolState) bool { return p.Waited == 5*time.Second })
	require.Nil(t, st.Offer)
	require.InDelta(t, DefaultPoolWindow+5*DefaultPoolWiden, st.Window, 1e-9)
	require.EqualError(t, m.Accept(), "No computer player is offered yet: one is after 20 seconds of waiting.")
	e.clock.Advance(DefaultPoolWait - 5*time.Second - time.Millisecond)
	require.Nil(t, r.waiting(t, func(p PoolState) bool { return p.Waited >= 19*time.Second }).Offer)
	e.clock.Advance(time.Millisecond)
	st = r.waiting(t, func(p PoolState) bool { return p.Offer != nil })
	require.Equal(t, DefaultPoolWait, st.Waited, "the offer comes on the dot, not at the next tick")
	require.Equal(t, PoolOffer{Strength: "hard", Rating: 1800, Seats: 1}, *st.Offer)
	require.NoError(t, m.Accept())
	st = r.seated(t)
	require.Empty(t, st.With)
	r.mu.Lock()
	tb := r.table
	r.mu.Unlock()
	require.Equal(t, "ann", tb.Seats[0].Person.Name)
	require.Equal(t, "hard", tb.Seats[1].Computer)
	require.Same(t, st.Table, m.Table())
}

// Keeping on waiting puts the offer away until another wait has passed,
// and a person who turns up meanwhile is seated with the waiter.
func TestPoolKeepWaiting(t *testing.T) {
	e, book := newPenv(t, PoolConfig{Wait: 10 * time.Second})
	book.set("id-ann", 1300)
	m, r := e.join("ann", spiteNow)
	e.clock.Advance(10 * time.Second)
	require.Equal(t, "easy", r.waiting(t, func(p PoolState) bool { return p.Offer != nil }).Offer.Strength)
	e.clock.Advance(2 * time.Second)
	require.NoError(t, m.KeepWaiting())
	r.waiting(t, func(p PoolState) bool { return p.Offer == nil })
	e.clock.Advance(9 * time.Second)
	require.Nil(t, r.waiting(t, func(p PoolState) bool { return p.Waited == 21*time.Second }).Offer)
	e.clock.Advance(time.Second)
	r.waiting(t, func(p PoolState) bool { return p.Offer != nil })
	_, rb := e.join("bob", spiteNow) // 1500: inside ann's window, widened by 22 s to 320
	require.Equal(t, r.seated(t).Code, rb.seated(t).Code)
}

// People too far apart wait until the older one's window reaches the
// other; a player within it is preferred by nearness, not by age.
func TestPoolWindowWidens(t *testing.T) {
	e, book := newPenv(t, PoolConfig{Wait: time.Hour})
	book.set("id-ann", 1500)
	book.set("id-bob", 1800)
	book.set("id-cat", 1795)
	_, ra := e.join("ann", spiteNow)
	e.clock.Advance(time.Second)
	_, rb := e.join("bob", spiteNow)
	// ann's window: 100 + 10/s; bob is 300 away, so at ann's 20th second.
	e.clock.Advance(18 * time.Second)
	st := ra.waiting(t, func(p PoolState) bool { return p.Waited == 19*time.Second })
	require.Equal(t, 2, st.Waiting)
	// cat is 295 from ann, outside her 290, and 5 from bob, inside his 280.
	_, rc := e.join("cat", spiteNow)
	require.Equal(t, rb.seated(t).Code, rc.seated(t).Code)
	e.clock.Advance(time.Second)
	require.Equal(t, 1, ra.waiting(t, func(p PoolState) bool { return p.Waited == 20*time.Second }).Waiting)
	e.mu.Lock()
	require.Len(t, e.matches, 1)
	require.Equal(t, []string{"id-bob", "id-cat"}, e.matches[0].people)
	e.mu.Unlock()

	// The window widens without end: 1500 points apart are paired once
	// ann has waited 140 s, and not before.
	book.set("id-dan", 3000)
	_, rd := e.join("dan", spiteNow)
	e.clock.Advance(119 * time.Second)
	st = ra.waiting(t, func(p PoolState) bool { return p.Waited == 139*time.Second })
	require.Equal(t, 2, st.Waiting)
	require.InDelta(t, 1490, st.Window, 1e-9)
	e.clock.Advance(time.Second)
	require.Equal(t, ra.seated(t).Code, rd.seated(t).Code)
}

// The longest waiter is served first: a newcomer inside two waiters'
// windows goes to the one who waited longer, though the other is nearer.
func TestPoolServesLongestWaiterFirst(t *testing.T) {
	e, book := newPenv(t, PoolConfig{Wait: time.Hour})
	book.set("id-ann", 1500)
	book.set("id-bob", 1010)
	book.set("id-cat", 1250)
	_, ra := e.join("ann", spiteNow)
	e.clock.Advance(time.Second)
	_, rb := e.join("bob", spiteNow)
	e.clock.Advance(15 * time.Second) // ann's window 260, bob's 250
	_, rc := e.join("cat", spiteNow)  // 250 from ann, 240 from bob
	require.Equal(t, ra.seated(t).Code, rc.seated(t).Code)
	rb.waiting(t, func(p PoolState) bool { return p.Waiting == 1 })
}

// A Kings table of four: three people waiting are seated together with a
// computer once one of them accepts; someone who turned the offer down is
// left waiting; people asking for another table size are never mixed in.
func TestPoolKingsFillsWithComputers(t *testing.T) {
	e, book := newPenv(t, PoolConfig{Wait: 20 * time.Second})
	kings4 := PoolWant{Game: "kings", Players: 4}
	book.set("id-dan", 1700)
	ma, ra := e.join("ann", kings4)
	_, rb := e.join("bob", kings4)
	mc, rc := e.join("cat", kings4)
	_, rd := e.join("dan", PoolWant{Game: "kings", Players: 3})
	e.clock.Advance(20 * time.Second)
	for _, r := range []*prec{ra, rb, rc} {
		st := r.waiting(t, func(p PoolState) bool { return p.Offer != nil })
		require.Equal(t, 3, st.Waiting)
		require.Equal(t, 4, st.Pool)
		require.Equal(t, PoolOffer{Strength: "normal", Rating: 1500, Seats: 3}, *st.Offer)
	}
	require.Equal(t, "hard", rd.waiting(t, func(p PoolState) bool { return p.Offer != nil }).Offer.Strength)
	require.NoError(t, mc.KeepWaiting())
	require.NoError(t, ma.Accept())
	a, b := ra.seated(t), rb.seated(t)
	require.Equal(t, a.Code, b.Code)
	ra.mu.Lock()
	tb := ra.table
	ra.mu.Unlock()
	require.Len(t, tb.Seats, 4)
	require.Equal(t, "ann", tb.Seats[0].Person.Name)
	require.Equal(t, "bob", tb.Seats[1].Person.Name)
	require.Equal(t, "normal", tb.Seats[2].Computer)
	require.Equal(t, "normal", tb.Seats[3].Computer)
	rc.waiting(t, func(p PoolState) bool { return p.Waiting == 1 && p.Offer == nil })
	rd.waiting(t, func(p PoolState) bool { return p.Waiting == 1 })
}

// Three people asking for a Kings table of three are seated at one.
func TestPoolKingsOfThreePeople(t *testing.T) {
	e, _ := newPenv(t, PoolConfig{})
	kings3 := PoolWant{Game: "kings", Players: 3}
	var rs []*prec
	for _, n := range []string{"ann", "bob", "cat"} {
		_, r := e.join(n, kings3)
		rs = append(rs, r)
	}
	code := rs[0].seated(t).Code
	for _, r := range rs[1:] {
		require.Equal(t, code, r.seated(t).Code)
	}
}

// Leaving is at once: nobody is paired with a player who left, and a
// player joining again from another session takes the place over.
func TestPoolLeaveAndReplace(t *testing.T) {
	e, _ := newPenv(t, PoolConfig{})
	m, r := e.join("ann", spiteNow)
	r.waiting(t, func(PoolState) bool { return true })
	require.Nil(t, m.Leave(), "no seat was made")
	require.Error(t, m.Accept())
	_, r1 := e.join("bob", spiteNow)
	st := r1.waiting(t, func(PoolState) bool { return true })
	require.Equal(t, 1, st.Waiting)
	_, r2 := e.join("bob", spiteNow)
	r1.await(t, "the older session told", func(p PoolState, _ TableState) bool {
		return p.Phase == PoolClosed && p.Reason != ""
	})
	r2.waiting(t, func(p PoolState) bool { return p.Waiting == 1 })

	// Leaving once seated (the news still on its way) hands back the
	// seat, for the screen to leave or drop.
	m3, r3 := e.join("cat", spiteNow)
	st = r3.seated(t)
	require.Same(t, st.Table, m3.Leave())
	require.Same(t, st.Table, m3.Table())
	require.NoError(t, st.Table.Leave())
}

// A table the pool cannot open for the one it is made for (a host at
// their cap of rooms) puts that player out with the hub's sentence; the
// others wait on, in their place, and are seated with the next to come.
func TestPoolTableRefused(t *testing.T) {
	clock := NewManualClock()
	h := New(Config{Clock: clock, Rand: engine.NewRNG(1), TableKit: games.Default().TableKit})
	t.Cleanup(h.Close)
	for range DefaultRoomsPerAccount {
		_, err := h.OpenTable(TableConfig{Game: "spite", Host: person("ann"), Seats: []SeatPlan{{}, {}}})
		require.NoError(t, err)
	}
	join := func(name string) *prec {
		r := newPrec()
		_, err := h.PlayNow(person(name), spiteNow, r.sink, r.seat)
		require.NoError(t, err)
		return r
	}
	ra := join("ann")
	ra.waiting(t, func(PoolState) bool { return true })
	rb := join("bob")
	st := ra.await(t, "ann refused", func(p PoolState, _ TableState) bool { return p.Phase == PoolClosed })
	require.Contains(t, st.Reason, "You have 4 rooms open")
	rb.waiting(t, func(p PoolState) bool { return p.Waiting == 1 })
	rc := join("cat")
	require.Equal(t, rb.seated(t).Code, rc.seated(t).Code)
}

// Players who cannot play now are told why.
func TestPoolRefusals(t *testing.T) {
	e, _ := newPenv(t, PoolConfig{})
	_, err := e.h.PlayNow(Person{ID: "g", Name: "guest", Guest: true}, spiteNow, func(PoolState) {}, func(TableState) {})
	require.ErrorIs(t, err, ErrGuest)
	_, err = e.h.PlayNow(person("ann"), PoolWant{Game: "klondike"}, func(PoolState) {}, func(TableState) {})
	require.ErrorIs(t, err, ErrBadTable)
	_, err = e.h.PlayNow(person("ann"), PoolWant{Game: "kings", Players: 5}, func(PoolState) {}, func(TableState) {})
	require.EqualError(t, err, "Kings in the Corner is for 2 to 4 players.")
	_, err = e.h.PlayNow(person("ann"), PoolWant{Game: "spite", Players: 3}, func(PoolState) {}, func(TableState) {})
	require.EqualError(t, err, "Spite and Malice is for 2 players.")
}

// Closing the hub tells everyone waiting, and nobody can join after.
func TestPoolClose(t *testing.T) {
	e, _ := newPenv(t, PoolConfig{})
	_, r := e.join("ann", spiteNow)
	r.waiting(t, func(PoolState) bool { return true })
	e.h.Close()
	r.await(t, "closed", func(p PoolState, _ TableState) bool { return p.Phase == PoolClosed })
	_, err := e.h.PlayNow(person("bob"), spiteNow, func(PoolState) {}, func(TableState) {})
	require.ErrorIs(t, err, ErrHubClosed)
}

// Many players join and leave at once, with the clock moving, some taking
// the computer offered: nobody is seated twice, nobody is lost (each is
// seated, has left, or is still waiting and told so), every table's people
// were inside the window of the one it was made for at that moment, and
// nobody older who had enough people in their window was passed over.
func TestPoolStress(t *testing.T) {
	e, book := newPenv(t, PoolConfig{Wait: 30 * time.Second})
	wants := []PoolWant{spiteNow, {Game: "kings", Players: 2}, {Game: "kings", Players: 3}, {Game: "kings", Players: 4}}
	const players = 240
	type player struct {
		m    *PoolMember
		r    *prec
		left bool
	}
	out := make([]player, players)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range players {
		book.set(fmt.Sprintf("id-p%d", i), 1000+float64(rng.IntN(1000)))
	}
	stop := make(chan struct{})
	ticked := make(chan struct{})
	go func() { // the clock moves while they come and go
		defer close(ticked)
		for {
			select {
			case <-stop:
				return
			default:
				e.clock.Advance(700 * time.Millisecond)
				time.Sleep(50 * time.Microsecond)
			}
		}
	}()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 9))
			for i := g; i < players; i += 8 {
				r := newPrec()
				m, err := e.h.PlayNow(person(fmt.Sprintf("p%d", i)), wants[rng.IntN(len(wants))], r.sink, r.seat)
				if err != nil {
					t.Error(err)
					return
				}
				out[i] = player{m: m, r: r}
				switch rng.IntN(6) {
				case 0:
					out[i].left = m.Leave() == nil
				case 1:
					_ = m.Accept() // refused unless offered by now
				case 2:
					_ = m.KeepWaiting()
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	<-ticked
	// The ones who wait on take whatever computer is offered, in turn.
	e.clock.Advance(time.Minute)
	for i := range out {
		if !out[i].left {
			_ = out[i].m.Accept()
		}
	}
	e.mu.Lock()
	matches := append([]poolMatch(nil), e.matches...)
	e.mu.Unlock()
	seatedIn := map[string]int{}
	for mi, m := range matches {
		for _, id := range m.people {
			seatedIn[id]++
		}
		checkPoolMatch(t, mi, m)
	}
	for i, p := range out {
		id := fmt.Sprintf("id-p%d", i)
		require.LessOrEqual(t, seatedIn[id], 1, "%s seated twice", id)
		if p.left {
			require.Zero(t, seatedIn[id], "%s left and was seated", id)
			continue
		}
		st := p.r.await(t, "the last word", func(s PoolState, tb TableState) bool {
			return s.Phase == PoolSeated && tb.View != nil
		})
		require.Equal(t, 1, seatedIn[id], "%s is told of a seat the pool never made", id)
		require.Equal(t, st.Table, p.m.Table())
	}
	require.Positive(t, len(matches))
}

// checkPoolMatch holds one table the pool made against the rules, from
// the waiting list as it was just before.
func checkPoolMatch(t *testing.T, mi int, m poolMatch) {
	t.Helper()
	byID := map[string]poolEntry{}
	anchorAt := -1
	for i, w := range m.waiting {
		byID[w.id] = w
		if w.id == m.people[0] {
			anchorAt = i
		}
	}
	require.GreaterOrEqual(t, anchorAt, 0, "table %d: its first person was not waiting", mi)
	a := m.waiting[anchorAt]
	var players int
	_, err := fmt.Sscanf(a.key[len(a.key)-1:], "%d", &players)
	require.NoError(t, err)
	require.Equal(t, players, len(m.people)+m.computers, "table %d: seats", mi)
	for _, id := range m.people[1:] {
		b, ok := byID[id]
		require.True(t, ok, "table %d: %s was not waiting", mi, id)
		require.Equal(t, a.key, b.key, "table %d: mixed games", mi)
		require.LessOrEqual(t, math.Abs(b.rating-a.rating), a.window, "table %d: %s outside the window", mi, id)
		if m.accepted {
			require.True(t, b.offer, "table %d: %s was seated with computers unasked", mi, id)
		}
	}
	if m.accepted {
		require.True(t, a.offer, "table %d: accepted without an offer", mi)
	} else {
		require.Zero(t, m.computers, "table %d: computers without an offer", mi)
		for _, o := range m.waiting[:anchorAt] {
			if o.joined.After(a.joined) {
				continue
			}
			need := int(o.key[len(o.key)-1] - '0')
			n := 0
			for _, b := range m.waiting {
				if b.id != o.id && b.key == o.key && math.Abs(b.rating-o.rating) <= o.window {
					n++
				}
			}
			require.Less(t, n, need-1, "table %d: %s waited longer and was passed over", mi, o.id)
		}
	}
	for _, w := range m.waiting {
		require.InDelta(t, DefaultPoolWindow+DefaultPoolWiden*m.at.Sub(w.joined).Seconds(), w.window, 1e-6)
	}
}
