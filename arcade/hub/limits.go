package hub

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Limits bound what one account, and one address, may ask of the hub: how
// many rooms it keeps open, how many lobby actions and code lookups it
// makes a second. A zero field takes its default (DefaultLimits); a
// negative one turns that limit off.
type Limits struct {
	// RoomsPerAccount and RoomsPerAddr cap the live rooms (races and
	// tables, listed or private) opened by one account or from one
	// address, counted until the room ends.
	RoomsPerAccount int
	RoomsPerAddr    int
	// Actions is the rate of lobby actions (open, join, start, rematch),
	// per account and per address.
	Actions Rate
	// Lookups is the rate of code lookups, and FailedLookups that of
	// lookups that found no room, per account and per address.
	Lookups       Rate
	FailedLookups Rate
}

// Rate is a token bucket: Burst at once, then PerSecond.
type Rate struct {
	PerSecond float64
	Burst     int
}

// The default limits. Each is far above what a person at a keyboard does
// and far below what a script does.
const (
	// A player may host a table and a race at once, in two sessions, and
	// leave a table or two behind that has not yet closed (an empty room
	// lasts the grace, a minute): four covers that. Each room costs memory
	// and a goroutine, so a burst of them must stop somewhere small.
	DefaultRoomsPerAccount = 4
	// An address may be a household or an office behind one NAT: four
	// accounts' worth. Fresh keys are free, so without this one account
	// per key would lift the account cap.
	DefaultRoomsPerAddr = 16
	// Lobby actions: a person opens, joins or starts at most a couple of
	// times a second; ten at once covers a burst of keys typed ahead.
	DefaultActionsPerSecond = 3
	DefaultActionsBurst     = 10
	// Code lookups: a person pastes a code now and then; a join costs one
	// or two lookups. Failed ones are the guessing, limited as tightly
	// per address as per account: one a second after five puts a sweep of
	// the 23^5 codes over two months away for one address, and with two
	// thousand rooms live it lands in one (not one it chose) about once an
	// hour.
	DefaultLookupsPerSecond       = 4
	DefaultLookupsBurst           = 10
	DefaultFailedLookupsPerSecond = 1
	DefaultFailedLookupsBurst     = 5
	// An address's rates of lookups and actions are four times an
	// account's, for the same reason its room cap is.
	addrFactor = 4
	// logEvery is how often a limit being hit is logged, per kind: often
	// enough that an operator sees a flood, rarely enough that the flood
	// cannot flood the log.
	logEvery = time.Minute
	// bucketsMax bounds the buckets kept (an account's and an address's
	// each); full ones are forgotten first, since a full bucket and no
	// bucket mean the same.
	bucketsMax = 100_000
)

// DefaultLimits is the limits a zero Limits stands for.
func DefaultLimits() Limits {
	return Limits{
		RoomsPerAccount: DefaultRoomsPerAccount,
		RoomsPerAddr:    DefaultRoomsPerAddr,
		Actions:         Rate{DefaultActionsPerSecond, DefaultActionsBurst},
		Lookups:         Rate{DefaultLookupsPerSecond, DefaultLookupsBurst},
		FailedLookups:   Rate{DefaultFailedLookupsPerSecond, DefaultFailedLookupsBurst},
	}
}

// NoLimits turns every limit off (a load test's own server, say).
func NoLimits() Limits {
	return Limits{RoomsPerAccount: -1, RoomsPerAddr: -1, Actions: Rate{-1, -1}, Lookups: Rate{-1, -1},
		FailedLookups: Rate{-1, -1}}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.RoomsPerAccount == 0 {
		l.RoomsPerAccount = d.RoomsPerAccount
	}
	if l.RoomsPerAddr == 0 {
		l.RoomsPerAddr = d.RoomsPerAddr
	}
	for _, p := range []struct{ r, d *Rate }{{&l.Actions, &d.Actions}, {&l.Lookups, &d.Lookups},
		{&l.FailedLookups, &d.FailedLookups}} {
		if *p.r == (Rate{}) {
			*p.r = *p.d
		}
	}
	return l
}

func (r Rate) off() bool { return r.PerSecond < 0 || r.Burst < 0 }

// bucket is one token bucket.
type bucket struct {
	tokens float64
	at     time.Time
}

// limiter keeps the rates' buckets and when each kind of limit was last
// logged. It has its own lock, so that a flood of refused requests never
// waits on, or holds up, the hub's.
type limiter struct {
	clock Clock
	log   *slog.Logger
	lim   Limits

	mu      sync.Mutex
	buckets map[limitKey]*bucket
	logged  map[string]time.Time
	missed  map[string]int // hits not logged since the kind's last line
}

type limitKey struct {
	kind string // "actions", "lookups", "failed"
	who  string // "a:" account ID or "i:" address
}

func newLimiter(clock Clock, log *slog.Logger, lim Limits) *limiter {
	return &limiter{clock: clock, log: log, lim: lim.withDefaults(), buckets: map[limitKey]*bucket{},
		logged: map[string]time.Time{}, missed: map[string]int{}}
}

// take takes a token of kind from p's account bucket and address bucket;
// false (and neither taken) when either is empty.
func (l *limiter) take(kind string, r Rate, p Person) bool {
	return l.takeN(kind, r, p, 1)
}

// has says whether p could take a token of kind now, taking none.
func (l *limiter) has(kind string, r Rate, p Person) bool {
	return l.takeN(kind, r, p, 0)
}

func (l *limiter) takeN(kind string, r Rate, p Person, n float64) bool {
	if r.off() {
		return true
	}
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	var bs []*bucket
	if p.ID != "" {
		bs = append(bs, l.fill(limitKey{kind, "a:" + p.ID}, r, now))
	}
	if p.Addr != "" {
		ar := Rate{r.PerSecond * addrFactor, r.Burst * addrFactor}
		if kind == "failed" {
			ar = r // guessing gains nothing from an address's many accounts
		}
		bs = append(bs, l.fill(limitKey{kind, "i:" + p.Addr}, ar, now))
	}
	for _, b := range bs {
		if b.tokens < max(n, 1) {
			return false
		}
	}
	for _, b := range bs {
		b.tokens -= n
	}
	return true
}

// fill finds (or makes) a bucket and adds what has dripped in since.
func (l *limiter) fill(k limitKey, r Rate, now time.Time) *bucket {
	b, ok := l.buckets[k]
	if !ok {
		if len(l.buckets) >= bucketsMax {
			l.forgetFull(now)
		}
		b = &bucket{tokens: float64(r.Burst), at: now}
		l.buckets[k] = b
		return b
	}
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(float64(r.Burst), b.tokens+d.Seconds()*r.PerSecond)
		b.at = now
	}
	return b
}

// forgetFull drops the buckets that have been refilling long enough to be
// full whatever their rate.
func (l *limiter) forgetFull(now time.Time) {
	for k, b := range l.buckets {
		if now.Sub(b.at) > time.Minute {
			delete(l.buckets, k)
		}
	}
}

// hit logs that a limit of kind refused p, at most once a minute per kind;
// the line counts the refusals since the last one.
func (l *limiter) hit(kind string, p Person) {
	now := l.clock.Now()
	l.mu.Lock()
	last, ok := l.logged[kind]
	if ok && now.Sub(last) < logEvery {
		l.missed[kind]++
		l.mu.Unlock()
		return
	}
	n := l.missed[kind] + 1
	l.logged[kind], l.missed[kind] = now, 0
	l.mu.Unlock()
	l.log.Warn("limit reached", "limit", kind, "account", p.ID, "addr", p.Addr, "refused", n)
}

// action counts a lobby action of p: ErrTooFast past the rate.
func (h *Hub) action(p Person) error {
	if h.limits.take("actions", h.limits.lim.Actions, p) {
		return nil
	}
	h.limits.hit("actions", p)
	return ErrTooFast
}

// mayOpen says whether by may open one more room: ErrTooManyRooms, with
// the count, when their account or their address is at its cap. Called
// with mu held.
func (h *Hub) mayOpen(by Person) error {
	lim := h.limits.lim
	if n := h.opened["a:"+by.ID]; by.ID != "" && lim.RoomsPerAccount >= 0 && n >= lim.RoomsPerAccount {
		h.limits.hit("rooms per account", by)
		return refuse(ErrTooManyRooms, "You have %d rooms open; close one first (an empty room closes within %s).",
			n, roundGrace(h.grace))
	}
	if n := h.opened["i:"+by.Addr]; by.Addr != "" && lim.RoomsPerAddr >= 0 && n >= lim.RoomsPerAddr {
		h.limits.hit("rooms per address", by)
		return refuse(ErrTooManyRooms, "Your address has %d rooms open; close one first (an empty room closes within %s).",
			n, roundGrace(h.grace))
	}
	return nil
}

func roundGrace(d time.Duration) string {
	if d%time.Minute == 0 {
		if d == time.Minute {
			return "a minute"
		}
		return fmt.Sprintf("%d minutes", d/time.Minute)
	}
	return d.Round(time.Second).String()
}

// own counts a new room against whoever opened it; disown, as it ends.
// Called with mu held.
func (h *Hub) own(code string, by Person) {
	if by.ID == "" && by.Addr == "" {
		return
	}
	h.owners[code] = Person{ID: by.ID, Addr: by.Addr}
	if by.ID != "" {
		h.opened["a:"+by.ID]++
	}
	if by.Addr != "" {
		h.opened["i:"+by.Addr]++
	}
}

func (h *Hub) disown(code string) {
	by, ok := h.owners[code]
	if !ok {
		return
	}
	delete(h.owners, code)
	for _, k := range []string{"a:" + by.ID, "i:" + by.Addr} {
		if k == "a:" || k == "i:" {
			continue
		}
		if h.opened[k]--; h.opened[k] <= 0 {
			delete(h.opened, k)
		}
	}
}

// Find is a player's lookup of a code (a pasted invite line, a code typed
// in the lobby): Room, counted against p's rate of lookups, and refused
// with ErrTooManyLookups once p has had too many fail. A refusal comes
// before the code is looked at, so it tells nothing of the code.
func (h *Hub) Find(p Person, text string) (Room, error) {
	if err := h.lookup(p); err != nil {
		return nil, err
	}
	r, err := h.Room(text)
	if err != nil {
		h.failed(p, err)
		return nil, err
	}
	return r, nil
}

// FindRace is Find for a race: a code of another kind of room is answered
// as a code of no room.
func (h *Hub) FindRace(p Person, text string) (*Race, error) {
	r, err := h.Find(p, text)
	if err != nil {
		return nil, err
	}
	race, ok := r.(*Race)
	if !ok {
		err := h.wrongKind(r.Code())
		h.failed(p, err)
		return nil, err
	}
	return race, nil
}

// FindTable is Find for a table, as FindRace is for a race.
func (h *Hub) FindTable(p Person, text string) (*Table, error) {
	r, err := h.Find(p, text)
	if err != nil {
		return nil, err
	}
	t, ok := r.(*Table)
	if !ok {
		err := h.wrongKind(r.Code())
		h.failed(p, err)
		return nil, err
	}
	return t, nil
}

func (h *Hub) lookup(p Person) error {
	l := h.limits
	if !l.take("lookups", l.lim.Lookups, p) {
		l.hit("code lookups", p)
		return ErrTooManyLookups
	}
	if !l.has("failed", l.lim.FailedLookups, p) {
		l.hit("failed code lookups", p)
		return ErrTooManyLookups
	}
	return nil
}

// failed counts a lookup that found no room. A malformed code is not a
// guess at one, so it costs only the lookup.
func (h *Hub) failed(p Person, err error) {
	if errors.Is(err, ErrBadCode) {
		return
	}
	l := h.limits
	l.take("failed", l.lim.FailedLookups, p)
}
