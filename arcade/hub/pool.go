//lint:file-ignore ST1005 these errors are the sentences players read, capitalised and punctuated as the house rules ask

package hub

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"strconv"
	"sync"
	"time"

	"sshuffle/engine"
)

// The play-now pool: a player asks for a game of a table game (and, for a
// game of several sizes, how many at the table) and the pool finds them
// people of a rating near their own, seats them all at a table it opens,
// and starts it.
//
// How it pairs, in the order it looks:
//   - Everyone waiting is served oldest first. Each waiter's window (how
//     far from their rating a partner may be) starts at Window and widens
//     by Widen a second of waiting, without bound, so anyone waiting long
//     enough has everyone in their window.
//   - The oldest waiter who has enough people of the same game and table
//     size inside their window is seated with the nearest of them (ties:
//     the one waiting longer). Being the oldest, their window is the
//     widest of the table's, and it is the one every partner is inside.
//     Nobody is paired past someone waiting longer who could be paired.
//   - A bot account waits like a person but is seated only with people,
//     each of whom allows bots (PoolWant.NoBots); the nearest who may sit
//     together are taken.
//   - After Wait without a table, a waiter is offered the computer player
//     whose rating is nearest their own. Accepting opens a table at once:
//     the empty seats of a bigger table go first to others waiting under
//     an offer of their own (the nearest in rating, inside the accepting
//     player's window: they said they would play with computers, and a
//     person is more), then to that computer player. Keeping on waiting
//     dismisses the offer until Wait has passed again.
//
// One goroutine owns the pool, as one owns each room: joining, leaving,
// answers and the clock's ticks are commands on its loop. It knows the
// ratings only as the wiring's PoolConfig gives them.

// Defaults of the pool.
const (
	// DefaultPoolWait is how long a player waits for a person before a
	// computer player is offered: long enough for a second player to turn
	// up on a quiet evening, short enough that nobody gives up first.
	DefaultPoolWait = 20 * time.Second
	// DefaultPoolWindow and DefaultPoolWiden: at first a partner within
	// 100 points (well inside a new player's uncertainty), and 10 points
	// more every second, so after the 20 s of the offer anyone within 300.
	DefaultPoolWindow = 100
	DefaultPoolWiden  = 10
	// DefaultPoolTick is how often a waiting player's screen hears the time
	// waited and the pool's size, and windows are looked at again.
	DefaultPoolTick = time.Second
	// DefaultRating and DefaultDeviation are a player's with no rated game
	// (Glicko-2's starting values).
	DefaultRating    = 1500
	DefaultDeviation = 350
)

// PoolConfig is the play-now pool's part of the hub's Config. Every field
// may be left zero.
type PoolConfig struct {
	// Wait is how long a player waits for a person before the computer
	// player nearest their rating is offered (0: DefaultPoolWait).
	Wait time.Duration
	// Window is how far apart in rating two people may be paired at once
	// (0: DefaultPoolWindow); Widen is how many points a second of waiting
	// adds to a waiter's window (0: DefaultPoolWiden).
	Window, Widen float64
	// Tick is how often the pool looks again (0: DefaultPoolTick).
	Tick time.Duration
	// Rating is a player's rating and deviation at a table game (account
	// ID, game name). It is called once as the player joins, on the
	// joining caller's goroutine, so it may read the store. nil: every
	// player is DefaultRating and DefaultDeviation.
	Rating func(account, game string) (rating, deviation float64)
	// Computers is the fixed rating of each computer player's strength at
	// a game. It is called as a player joins, like Rating. nil (or no
	// strength of the game in it): the game's stand-in strength is offered.
	Computers func(game string) map[string]float64
	// Table is what every table the pool opens starts from: its times
	// (TurnClock, Pace, Hold, Break, RematchWait) and pace. The pool sets
	// the game, the seats and the host, and leaves the settings at the
	// game's defaults. Whatever else the wiring sets here (whether the
	// table is rated, once tables say so) holds for every play-now table.
	Table TableConfig
}

func (c *PoolConfig) defaults() {
	if c.Wait <= 0 {
		c.Wait = DefaultPoolWait
	}
	if c.Window <= 0 {
		c.Window = DefaultPoolWindow
	}
	if c.Widen <= 0 {
		c.Widen = DefaultPoolWiden
	}
	if c.Tick <= 0 {
		c.Tick = DefaultPoolTick
	}
}

// PoolWant is what a player asks the pool for: a game of a table game, at
// a table of Players (0: the game's fewest).
type PoolWant struct {
	Game    string
	Players int
	// NoBots: the player refuses to be seated with a bot account. Bots
	// (Person.Bot) wait in the pool like people, but only for people: two
	// bots are never seated together by the pool, which is for people to
	// find a game (bots meet each other by seeking and challenges), and a
	// bot is seated only with people who allow it.
	NoBots bool
}

// PoolPhase is where a pool member is.
type PoolPhase int

const (
	PoolWaiting PoolPhase = iota // in the pool
	PoolSeated                   // the pool opened a table and seated the member: see Table
	PoolClosed                   // out of the pool without a table: see Reason
)

// PoolState is what a pool member is sent on every change, and every Tick
// while waiting.
type PoolState struct {
	Phase   PoolPhase
	Game    string
	Players int
	// Rating and Deviation are the member's, as the pool pairs them.
	Rating, Deviation float64
	// Waiting is how many people wait for the same game and table size,
	// the member included; Pool how many wait for any game.
	Waiting, Pool int
	// Waited is how long the member has waited, as of this state; Window
	// is how far from Rating a partner may be now.
	Waited time.Duration
	Window float64
	// Offer is the computer player offered, once the member has waited
	// Wait; nil otherwise.
	Offer *PoolOffer
	// Table is the member's seat at the table the pool opened, once
	// PoolSeated: the game is dealt, and its states go to the seat sink
	// given at PlayNow. Code is that table's.
	Table *TableMember `json:"-"`
	Code  string
	// With are the people seated with the member (PoolSeated).
	With []Person
	// Reason says why the member is out of the pool (PoolClosed).
	Reason  string
	Version uint64
}

// PoolOffer is a computer player offered to a waiting member.
type PoolOffer struct {
	Strength string
	Rating   float64 // the strength's fixed rating; 0 when none is known
	// Seats is how many seats computer players would fill at most (others
	// waiting under an offer of their own may take some).
	Seats int
}

// Pool is the hub's play-now pool (Hub.PlayNow).
type Pool struct {
	h    *Hub
	cfg  PoolConfig
	loop loop

	mu      sync.Mutex // guards started and closed, for Hub.Close
	started bool
	closed  bool

	// Everything below belongs to the pool's goroutine.
	waiting []*waiter // oldest first
	tokens  uint64
	version uint64
	tick    alarm
	ended   bool
	// spy sees every table the pool seats, with the waiting list as it
	// was just before (tests only).
	spy func(poolMatch)
}

// waiter is one member of the pool.
type waiter struct {
	person    Person // with Addr, for the limits the table checks
	key       string // game and table size: who may sit together
	want      PoolWant
	rating    float64
	deviation float64
	comps     []poolComputer // the game's strengths with their ratings, weakest first
	joined    time.Time
	offerFrom time.Time // the offer comes Wait after this
	offer     *PoolOffer
	out       *outbox[PoolState]
	seat      func(TableState)
	handle    *PoolMember
	// seatID, for a player on another node, is the member handle their
	// node gave their seat's states (poolacross.go); "" for one here.
	seatID string
}

type poolComputer struct {
	strength string
	rating   float64
}

// poolMatch is one table the pool seated, as its spy sees it.
type poolMatch struct {
	at        time.Time
	waiting   []poolEntry // everyone waiting just before, oldest first
	people    []string    // account IDs seated, the anchor first
	computers int
	accepted  bool // a computer offer accepted, not people found
}

type poolEntry struct {
	id     string
	key    string
	rating float64
	window float64
	joined time.Time
	offer  bool
}

// PoolMember is one member's handle on the pool.
type PoolMember struct {
	pool   *Pool
	person Person
	token  uint64

	mu    sync.Mutex
	table *TableMember // set by the pool's goroutine once seated

	rp *poolRemote // set when the pool runs on another node
}

func newPool(h *Hub, cfg PoolConfig) *Pool {
	cfg.defaults()
	return &Pool{h: h, cfg: cfg, loop: newLoop()}
}

// start runs the pool's goroutine on first use, so that a hub nobody
// plays now on costs none.
func (p *Pool) start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return ErrHubClosed
	}
	if !p.started {
		p.started = true
		go p.loop.run(func() bool { return p.ended })
	}
	return nil
}

// close tells everyone waiting that the arcade is closing and stops the
// pool's goroutine.
func (p *Pool) close() {
	p.mu.Lock()
	p.closed = true
	started := p.started
	p.mu.Unlock()
	if !started {
		return
	}
	_ = p.loop.wait(func() {
		p.tick.stop()
		for _, w := range p.waiting {
			p.closeWaiter(w, poolShutting)
		}
		p.waiting = nil
		p.ended = true
	})
	<-p.loop.done
}

// PlayNow puts p in the play-now pool for want. sink gets the member's
// pool states and follows the outbox rules; seat is the sink the pool
// joins the member's table with once it has found one (a TableState sink,
// as Table.Join takes). The same account joining again from another
// session takes the place over, and the older session is told so.
func (h *Hub) PlayNow(p Person, want PoolWant, sink func(PoolState), seat func(TableState)) (*PoolMember, error) {
	if p.Guest {
		return nil, ErrGuest
	}
	want, info, err := h.poolWant(want)
	if err != nil {
		return nil, err
	}
	pool := h.pool
	w := &waiter{person: p, want: want, key: want.Game + "/" + strconv.Itoa(want.Players), seat: seat,
		rating: DefaultRating, deviation: DefaultDeviation}
	if pool.cfg.Rating != nil {
		w.rating, w.deviation = pool.cfg.Rating(p.ID, want.Game)
	}
	var fixed map[string]float64
	if pool.cfg.Computers != nil {
		fixed = pool.cfg.Computers(want.Game)
	}
	for _, s := range info.Strengths {
		if r, ok := fixed[s]; ok {
			w.comps = append(w.comps, poolComputer{strength: s, rating: r})
		}
	}
	if len(w.comps) == 0 {
		w.comps = []poolComputer{{strength: info.StandInStrength()}}
	}
	if h.relay != nil {
		node, err := h.poolNode()
		if err != nil {
			return nil, err
		}
		if node != h.relay.Node() {
			return h.playNowElsewhere(node, w, info.Title, sink, seat)
		}
	}
	w.out = newOutbox(sink)
	return pool.enter(w)
}

// poolWant checks what a player asks the pool for, and fills in the
// table's size when they left it to the game.
func (h *Hub) poolWant(want PoolWant) (PoolWant, engine.TableInfo, error) {
	k, ok := h.tableKit(want.Game)
	if !ok {
		return want, engine.TableInfo{}, refuse(ErrBadTable, "There is no table game called %q.", want.Game)
	}
	info := k.Info()
	if want.Players == 0 {
		want.Players = info.MinPlayers
	}
	if want.Players < info.MinPlayers || want.Players > info.MaxPlayers {
		if info.MinPlayers == info.MaxPlayers {
			return want, info, refuse(ErrBadTable, "%s is for %d players.", info.Title, info.MinPlayers)
		}
		return want, info, refuse(ErrBadTable, "%s is for %d to %d players.", info.Title, info.MinPlayers, info.MaxPlayers)
	}
	return want, info, nil
}

// enter puts w, its outbox made, in the pool.
func (pool *Pool) enter(w *waiter) (*PoolMember, error) {
	if err := pool.start(); err != nil {
		w.out.Close()
		return nil, err
	}
	m, err := call(&pool.loop, func() (*PoolMember, error) { return pool.join(w), nil })
	if err != nil {
		w.out.Close()
		if errors.Is(err, ErrClosed) {
			err = ErrHubClosed
		}
		return nil, err
	}
	return m, nil
}

// Person is whom the membership is for.
func (m *PoolMember) Person() Person { return m.person }

// Accept takes the computer player offered: the pool opens the table at
// once (its state says PoolSeated, or why not).
func (m *PoolMember) Accept() error {
	if m.rp != nil {
		return m.rp.ask(opPoolAccept)
	}
	return m.do(func(p *Pool, w *waiter) error {
		if w.offer == nil {
			return refuse(ErrNoInvitation, "No computer player is offered yet: one is after %s of waiting.", seconds(p.cfg.Wait))
		}
		// People first: a window may have widened onto someone since
		// the last look, and someone older may be owed them.
		now := p.h.clock.Now()
		for p.pairOne(now) {
		}
		if p.index(m) >= 0 {
			p.seat(now, w)
		}
		p.settle()
		return nil
	})
}

// KeepWaiting turns the computer player offered down: the member waits on
// for a person, and is offered one again after another Wait.
func (m *PoolMember) KeepWaiting() error {
	if m.rp != nil {
		return m.rp.ask(opPoolKeep)
	}
	return m.do(func(p *Pool, w *waiter) error {
		if w.offer != nil {
			w.offer, w.offerFrom = nil, p.h.clock.Now()
		}
		p.settle()
		return nil
	})
}

// Leave takes the member out of the pool at once. When the pool had
// seated them already (the state saying so may still be on its way), the
// table's membership is returned for the caller to leave or drop.
func (m *PoolMember) Leave() *TableMember {
	if m.rp != nil {
		return m.rp.leave()
	}
	_ = m.pool.loop.wait(func() {
		p := m.pool
		if i := p.index(m); i >= 0 {
			w := p.waiting[i]
			p.waiting = slices.Delete(p.waiting, i, i+1)
			w.out.Close()
			p.settle()
		}
	})
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.table
}

// Table is the seat the pool found, once it has; nil before.
func (m *PoolMember) Table() *TableMember {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.table
}

func (m *PoolMember) do(f func(p *Pool, w *waiter) error) error {
	p := m.pool
	_, err := call(&p.loop, func() (struct{}, error) {
		i := p.index(m)
		if i < 0 {
			return struct{}{}, refuse(ErrNotMember, "You are not waiting to play now.")
		}
		return struct{}{}, f(p, p.waiting[i])
	})
	if errors.Is(err, ErrClosed) {
		return ErrHubClosed
	}
	return err
}

func (p *Pool) index(m *PoolMember) int {
	return slices.IndexFunc(p.waiting, func(w *waiter) bool { return w.handle == m })
}

func (p *Pool) join(w *waiter) *PoolMember {
	now := p.h.clock.Now()
	if i := slices.IndexFunc(p.waiting, func(o *waiter) bool { return o.person.ID == w.person.ID }); i >= 0 {
		old := p.waiting[i]
		p.waiting = slices.Delete(p.waiting, i, i+1)
		p.closeWaiter(old, "You are waiting to play in another session now, so this one has stopped.")
	}
	p.tokens++
	w.handle = &PoolMember{pool: p, person: w.person.public(), token: p.tokens}
	w.joined, w.offerFrom = now, now
	p.waiting = append(p.waiting, w)
	p.settle()
	return w.handle
}

func (p *Pool) closeWaiter(w *waiter, reason string) {
	if w.seatID != "" && reason == poolShutting {
		reason = PoolMoved // only the pool's node is shutting down
	}
	p.version++
	w.out.Put(PoolState{Phase: PoolClosed, Game: w.want.Game, Players: w.want.Players, Rating: w.rating,
		Deviation: w.deviation, Reason: reason, Version: p.version})
	w.out.Close()
}

// window is how far from w's rating a partner may be at now.
func (p *Pool) window(w *waiter, now time.Time) float64 {
	return p.cfg.Window + p.cfg.Widen*now.Sub(w.joined).Seconds()
}

// settle seats whoever can be seated, makes the offers that fall due,
// tells everyone still waiting where they are, and sets the next tick.
func (p *Pool) settle() {
	now := p.h.clock.Now()
	for p.pairOne(now) {
	}
	for _, w := range p.waiting {
		if w.offer == nil && !now.Before(w.offerFrom.Add(p.cfg.Wait)) {
			c := nearest(w.comps, w.rating)
			w.offer = &PoolOffer{Strength: c.strength, Rating: c.rating, Seats: w.want.Players - 1}
		}
	}
	p.tell(now)
	p.schedule(now)
}

// pairOne seats the oldest waiter who has enough people inside their
// window, and reports whether it did.
func (p *Pool) pairOne(now time.Time) bool {
	for _, a := range p.waiting {
		win := p.window(a, now)
		var near []*waiter
		for _, b := range p.waiting {
			if b != a && b.key == a.key && math.Abs(b.rating-a.rating) <= win {
				near = append(near, b)
			}
		}
		with := pick(near, a, a.want.Players-1)
		if len(with) < a.want.Players-1 {
			continue
		}
		p.seatWith(now, a, with, 0, false)
		return true
	}
	return false
}

// closest is the n of ws nearest in rating to r; ties go to the one
// waiting longer (ws is oldest first, and the sort is stable).
func closest(ws []*waiter, r float64, n int) []*waiter {
	ws = slices.Clone(ws)
	slices.SortStableFunc(ws, func(x, y *waiter) int {
		dx, dy := math.Abs(x.rating-r), math.Abs(y.rating-r)
		switch {
		case dx < dy:
			return -1
		case dx > dy:
			return 1
		}
		return 0
	})
	return ws[:min(n, len(ws))]
}

// nearest is the computer player whose rating is nearest r; ties go to
// the weaker.
func nearest(cs []poolComputer, r float64) poolComputer {
	best := cs[0]
	for _, c := range cs[1:] {
		if math.Abs(c.rating-r) < math.Abs(best.rating-r) {
			best = c
		}
	}
	return best
}

// seat opens a table for a, who accepted the computer offered: others
// waiting under an offer of their own, inside a's window, take the empty
// seats first.
func (p *Pool) seat(now time.Time, a *waiter) {
	win := p.window(a, now)
	var near []*waiter
	for _, b := range p.waiting {
		if b != a && b.key == a.key && b.offer != nil && math.Abs(b.rating-a.rating) <= win {
			near = append(near, b)
		}
	}
	with := pick(near, a, a.want.Players-1)
	p.seatWith(now, a, with, a.want.Players-1-len(with), true)
}

// together says whether the pool may seat x and y at one table: not two
// bots, and a bot only with someone who allows bots.
func together(x, y *waiter) bool {
	switch {
	case x.person.Bot && y.person.Bot:
		return false
	case x.person.Bot:
		return !y.want.NoBots
	case y.person.Bot:
		return !x.want.NoBots
	}
	return true
}

// pick is up to n of ws to seat with a: the nearest in rating first (ties:
// the one waiting longer), skipping anyone who may not sit with a or with
// one picked before.
func pick(ws []*waiter, a *waiter, n int) []*waiter {
	var out []*waiter
	for _, b := range closest(ws, a.rating, len(ws)) {
		if len(out) == n {
			break
		}
		if !together(a, b) || slices.ContainsFunc(out, func(c *waiter) bool { return !together(b, c) }) {
			continue
		}
		out = append(out, b)
	}
	return out
}

// seatWith takes a and with out of the pool, opens their table with
// computers more seats of a's offered strength, seats everyone, deals,
// and tells each of them.
func (p *Pool) seatWith(now time.Time, a *waiter, with []*waiter, computers int, accepted bool) {
	people := append([]*waiter{a}, with...)
	if p.spy != nil {
		m := poolMatch{at: now, computers: computers, accepted: accepted}
		for _, w := range p.waiting {
			m.waiting = append(m.waiting, poolEntry{id: w.person.ID, key: w.key, rating: w.rating,
				window: p.window(w, m.at), joined: w.joined, offer: w.offer != nil})
		}
		for _, w := range people {
			m.people = append(m.people, w.person.ID)
		}
		p.spy(m)
	}
	p.waiting = slices.DeleteFunc(p.waiting, func(w *waiter) bool { return slices.Contains(people, w) })
	cfg := p.cfg.Table
	cfg.Game, cfg.Settings, cfg.Host, cfg.Private = a.want.Game, "", a.person, false
	cfg.Seats = nil
	for _, w := range people {
		cfg.Seats = append(cfg.Seats, SeatPlan{Reserved: w.person.public()})
	}
	if computers > 0 {
		strength := nearest(a.comps, a.rating).strength
		if a.offer != nil {
			strength = a.offer.Strength
		}
		for range computers {
			cfg.Seats = append(cfg.Seats, SeatPlan{Computer: strength})
		}
	}
	members, fault, err := p.open(cfg, people)
	if err != nil {
		p.refused(people, fault, err)
		return
	}
	for i, w := range people {
		if w.seatID != "" {
			// Their node sends the seat's commands under this handle.
			p.h.serve(w.seatID, &served{code: members[i].Table().Code(), table: members[i]})
		}
	}
	var names []Person
	for _, w := range people {
		names = append(names, w.person.public())
	}
	for i, w := range people {
		w.handle.mu.Lock()
		w.handle.table = members[i]
		w.handle.mu.Unlock()
		p.version++
		with := slices.Delete(slices.Clone(names), i, i+1)
		w.out.Put(PoolState{Phase: PoolSeated, Game: w.want.Game, Players: w.want.Players, Rating: w.rating,
			Deviation: w.deviation, Waited: now.Sub(w.joined), Table: members[i],
			Code: members[i].Table().Code(), With: with, Version: p.version})
		w.out.Close()
	}
}

// open opens the table, seats each person in the seat kept for them and
// deals. On a refusal it says whose it was (the index in people: the
// host's for the opening and the start); the seats taken are left again
// and the table is left to close by itself, empty.
func (p *Pool) open(cfg TableConfig, people []*waiter) ([]*TableMember, int, error) {
	t, err := p.h.OpenTable(cfg)
	if err != nil {
		return nil, 0, err
	}
	var members []*TableMember
	leave := func() {
		for _, m := range members {
			_ = m.Leave()
		}
	}
	for i, w := range people {
		m, err := t.Join(w.person, AnySeat, w.seat)
		if err != nil {
			leave()
			return nil, i, err
		}
		members = append(members, m)
	}
	if err := members[0].Start(); err != nil {
		leave()
		return nil, 0, err
	}
	return members, 0, nil
}

// refused: the table could not open. The one it was refused for (a host
// at their cap of rooms, say) is out of the pool with the hub's sentence;
// the others wait on where they were in the order, having done nothing
// wrong. When the arcade is closing, everyone is out.
func (p *Pool) refused(people []*waiter, fault int, err error) {
	for i, w := range people {
		switch {
		case i == fault || errors.Is(err, ErrHubClosed):
			p.closeWaiter(w, err.Error())
		default:
			p.waiting = append(p.waiting, w)
		}
	}
	slices.SortFunc(p.waiting, func(a, b *waiter) int { return cmp.Compare(a.handle.token, b.handle.token) })
}

// tell sends everyone waiting their state.
func (p *Pool) tell(now time.Time) {
	count := map[string]int{}
	for _, w := range p.waiting {
		count[w.key]++
	}
	for _, w := range p.waiting {
		p.version++
		var offer *PoolOffer
		if w.offer != nil {
			o := *w.offer
			offer = &o
		}
		w.out.Put(PoolState{Phase: PoolWaiting, Game: w.want.Game, Players: w.want.Players, Rating: w.rating,
			Deviation: w.deviation, Waiting: count[w.key], Pool: len(p.waiting), Waited: now.Sub(w.joined),
			Window: p.window(w, now), Offer: offer, Version: p.version})
	}
}

// schedule sets the next look: a Tick from now, or sooner when an offer
// falls due first; none while nobody waits.
func (p *Pool) schedule(now time.Time) {
	if len(p.waiting) == 0 {
		p.tick.stop()
		return
	}
	d := p.cfg.Tick
	for _, w := range p.waiting {
		if w.offer == nil {
			d = min(d, max(w.offerFrom.Add(p.cfg.Wait).Sub(now), 0))
		}
	}
	p.tick.set(&p.loop, p.h.clock, d, p.settle)
}

// PoolWaiting is how many people wait in the play-now pool, for any game.
func (h *Hub) PoolWaiting() int {
	p := h.pool
	p.mu.Lock()
	started := p.started
	p.mu.Unlock()
	if !started {
		return 0
	}
	n, _ := call(&p.loop, func() (int, error) { return len(p.waiting), nil })
	return n
}

// seconds words a wait: "20 seconds", "1.5s".
func seconds(d time.Duration) string {
	switch {
	case d == time.Second:
		return "a second"
	case d%time.Second == 0:
		return strconv.Itoa(int(d/time.Second)) + " seconds"
	}
	return d.String()
}
