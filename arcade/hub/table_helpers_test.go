package hub

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
)

// tenv is a hub with tables, a manual clock, and everything the wiring
// would be handed kept for the test to look at.
type tenv struct {
	t     *testing.T
	clock *ManualClock
	h     *Hub

	mu      sync.Mutex
	results []TableResult
	saved   map[string]*TableSnapshot
	saves   int
	// allowed[code][version][seat+1] is the multiset of cards the member
	// at that seat (0: a watcher) may be shown in that version's state.
	allowed map[roomKey]map[uint64][]map[engine.Card]int
	seeds   map[roomKey]uint64
	leaks   []string
	gen     int // the hub's: a restored table has its old code on a new hub
	// ratingOf, when set, is the wiring's Config.Rating.
	ratingOf func(account, game string) string
}

type roomKey struct {
	code string
	gen  int
}

func newTenv(t *testing.T) *tenv {
	t.Helper()
	e := &tenv{t: t, clock: NewManualClock(), saved: map[string]*TableSnapshot{},
		allowed: map[roomKey]map[uint64][]map[engine.Card]int{}, seeds: map[roomKey]uint64{}}
	e.h = e.hub(e.clock)
	t.Cleanup(func() {
		e.h.Close()
		e.checkResults()
		e.mu.Lock()
		defer e.mu.Unlock()
		for _, l := range e.leaks {
			t.Error(l)
		}
	})
	return e
}

func (e *tenv) hub(clock *ManualClock) *Hub {
	h := New(Config{
		Clock: clock, Rand: engine.NewRNG(1), Grace: 30 * time.Second, TableKit: games.Default().TableKit,
		OnTableResult: func(r TableResult) {
			e.mu.Lock()
			e.results = append(e.results, r)
			e.mu.Unlock()
		},
		SaveTable: func(code string, s *TableSnapshot) {
			e.mu.Lock()
			e.saved[code] = s
			e.saves++
			e.mu.Unlock()
		},
		Rating: func(account, game string) string {
			e.mu.Lock()
			f := e.ratingOf
			e.mu.Unlock()
			if f == nil {
				return ""
			}
			return f(account, game)
		},
	})
	e.mu.Lock()
	e.gen++
	gen := e.gen
	e.mu.Unlock()
	h.tableSpy = func(t *Table) { e.spy(t, gen) }
	return h
}

// spy runs on the table's goroutine as a state goes out: it notes, from
// the game itself, which cards each member may be shown.
func (e *tenv) spy(t *Table, gen int) {
	if t.game == nil {
		return
	}
	public := cardsIn(decodeView(t.cfg.Game, t.game.View(engine.Spectator)))
	per := []map[engine.Card]int{public}
	deck := 1
	if t.cfg.Game == "spite" {
		deck = 2
	}
	hands := map[engine.Card]int{}
	for s := range t.seats {
		own := handOf(decodeView(t.cfg.Game, t.game.View(s)))
		m := map[engine.Card]int{}
		for c, n := range public {
			m[c] += n
		}
		for _, c := range own {
			m[c]++
			hands[c]++
		}
		per = append(per, m)
	}
	// The public view and the hands together never hold more copies of a
	// card than the deck has: a card in a hand is in no public place.
	for c, n := range hands {
		if n+public[c] > deck {
			e.leak(fmt.Sprintf("%s v%d: %v is in hands %d times and in the public view %d times", t.code, t.version, c, n, public[c]))
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	k := roomKey{t.code, gen}
	if e.allowed[k] == nil {
		e.allowed[k] = map[uint64][]map[engine.Card]int{}
	}
	e.allowed[k][t.version] = per
	e.seeds[k] = t.spec.Seed
}

func (e *tenv) leak(s string) {
	e.mu.Lock()
	e.leaks = append(e.leaks, s)
	e.mu.Unlock()
}

// check is run on every state a member receives.
func (e *tenv) check(st TableState, gen int) {
	if st.View == nil {
		return
	}
	e.mu.Lock()
	k := roomKey{st.Code, gen}
	byV := e.allowed[k]
	var best uint64
	for v := range byV {
		if v <= st.Version && v > best {
			best = v
		}
	}
	per := byV[best]
	seed := e.seeds[k]
	e.mu.Unlock()
	if per == nil {
		e.leak(fmt.Sprintf("%s v%d: a view went out that no state of the table was built for", st.Code, st.Version))
		return
	}
	ok := per[st.Seat+1]
	view := viewOf(st)
	if st.Seat == Watch && handOf(view) != nil {
		e.leak(fmt.Sprintf("%s v%d: a watcher was sent a hand", st.Code, st.Version))
	}
	for c, n := range cardsIn(view) {
		if n > ok[c] {
			e.leak(fmt.Sprintf("%s v%d: seat %d was shown %v %d times, and may see it %d times", st.Code, st.Version, st.Seat, c, n, ok[c]))
		}
	}
	js, err := json.Marshal(st)
	if err != nil {
		e.leak(err.Error())
	}
	if strings.Contains(string(js)+string(st.View), strconv.FormatUint(seed, 10)) {
		e.leak(fmt.Sprintf("%s v%d: a state holds the deal's seed", st.Code, st.Version))
	}
}

// cardsIn collects every card in a value, whatever field it sits in, so a
// field added to a view later is checked too.
func cardsIn(v any) map[engine.Card]int {
	out := map[engine.Card]int{}
	var walk func(reflect.Value)
	cardType := reflect.TypeOf(engine.Card(0))
	walk = func(x reflect.Value) {
		if x.Type() == cardType {
			if c := engine.Card(x.Uint()); c != engine.NoCard {
				out[c]++
			}
			return
		}
		switch x.Kind() {
		case reflect.Slice, reflect.Array:
			for i := range x.Len() {
				walk(x.Index(i))
			}
		case reflect.Struct:
			for i := range x.NumField() {
				walk(x.Field(i))
			}
		case reflect.Pointer, reflect.Interface:
			if !x.IsNil() {
				walk(x.Elem())
			}
		}
	}
	walk(reflect.ValueOf(v))
	return out
}

// decodeView is an encoded view of game as its package's own value.
func decodeView(game string, b []byte) any {
	kit, ok := games.Default().TableKit(game)
	if !ok {
		panic("no table game " + game)
	}
	v, err := kit.DecodeView(b)
	if err != nil {
		panic(fmt.Sprintf("a %s view does not decode: %v\n%s", game, err, b))
	}
	return v
}

// viewOf is a state's view decoded, or nil when it has none.
func viewOf(st TableState) any {
	if st.View == nil {
		return nil
	}
	return decodeView(st.Game, st.View)
}

// act is a game package's action as a member sends it.
func act(a any) []byte {
	var b []byte
	var err error
	switch a := a.(type) {
	case spite.Action:
		b, err = spite.EncodeAction(a)
	case kings.Action:
		b, err = kings.EncodeAction(a)
	default:
		panic(fmt.Sprintf("no table game's action: %T", a))
	}
	if err != nil {
		// Not an action of the game at all: what a member sends is
		// bytes, and these bytes are no action.
		return []byte(`{"do":"` + fmt.Sprint(a) + `"}`)
	}
	return b
}

// choose is a computer player's choice from a member's encoded view.
func choose(p engine.TablePlayer, view []byte) []byte {
	b, err := p.ChooseEncoded(view)
	if err != nil {
		panic(err)
	}
	return b
}

func handOf(v any) []engine.Card {
	f := reflect.ValueOf(v).FieldByName("Hand")
	if !f.IsValid() || f.IsNil() {
		return nil
	}
	out := make([]engine.Card, f.Len())
	for i := range out {
		out[i] = engine.Card(f.Index(i).Uint())
	}
	return out
}

// checkResults replays every record a table emitted.
func (e *tenv) checkResults() {
	e.t.Helper()
	for _, r := range e.resultList() {
		kit, _ := games.Default().TableKit(r.Spec.Game)
		if err := kit.Replay(r.Record); err != nil {
			e.t.Errorf("%s game %d: the emitted record does not replay: %v\n%s", r.Code, r.GameNo, err, r.Record)
		}
	}
}

func (e *tenv) resultList() []TableResult {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]TableResult(nil), e.results...)
}

func (e *tenv) open(cfg TableConfig) *Table {
	e.t.Helper()
	t, err := e.h.OpenTable(cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	return t
}

// trec is a member's screen: it keeps the newest state and checks each.
type trec struct {
	e       *tenv
	gen     int
	mu      sync.Mutex
	last    TableState
	n       int
	changed chan struct{}
}

func (e *tenv) rec() *trec {
	e.mu.Lock()
	defer e.mu.Unlock()
	return &trec{e: e, gen: e.gen, changed: make(chan struct{})}
}

func (r *trec) sink(s TableState) {
	r.e.check(s, r.gen)
	r.mu.Lock()
	defer r.mu.Unlock()
	if s.Version < r.last.Version {
		panic("an outbox delivered an older state after a newer one")
	}
	r.last, r.n = s, r.n+1
	close(r.changed)
	r.changed = make(chan struct{})
}

func (r *trec) state() TableState {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

func (r *trec) until(t *testing.T, what string, ok func(TableState) bool) TableState {
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

// seatAt is one person at a table: their handle and their screen.
type seatAt struct {
	p   Person
	m   *TableMember
	r   *trec
	bot engine.TablePlayer // how the test's "person" picks a move, from their own view
}

func (e *tenv) sit(t *Table, name string, seat int) *seatAt {
	e.t.Helper()
	r := e.rec()
	p := person(name)
	m, err := t.Join(p, seat, r.sink)
	if err != nil {
		e.t.Fatalf("%s joins: %v", name, err)
	}
	bot, _ := t.kit.NewPlayer("normal", uint64(len(name))*7919)
	return &seatAt{p: p, m: m, r: r, bot: bot}
}

// current waits until the member's screen has the last state the table
// put in its outbox.
func (e *tenv) current(t *Table, s *seatAt) TableState {
	e.t.Helper()
	var want uint64
	if err := t.loop.wait(func() {
		for _, m := range t.members {
			if m.ID == s.p.ID && m.token == s.m.token {
				want = m.sent
			}
		}
	}); err != nil {
		return s.r.state()
	}
	return s.r.until(e.t, "the screen is up to date (v"+strconv.FormatUint(want, 10)+")", func(st TableState) bool { return st.Version >= want })
}

// inspect runs f on the table's goroutine, where its state may be read.
func inspect[T any](t *Table, f func() T) T {
	var v T
	_ = t.loop.wait(func() { v = f() })
	return v
}

// play runs the table until done says stop or the table leaves play:
// people whose turn it is move from their own screen's view; otherwise
// the clock moves on by the table's pace so the computers act.
func (e *tenv) play(t *Table, people []*seatAt, done func() bool) {
	e.t.Helper()
	for range 20000 {
		if done != nil && done() {
			return
		}
		phase := inspect(t, func() TablePhase { return t.phase })
		if phase != TablePlaying {
			return
		}
		moved := false
		for _, p := range people {
			if p.m == nil {
				continue
			}
			st := e.current(t, p)
			if st.Phase == TablePlaying && !st.Paused && !st.Auto && st.Turn == st.Seat && st.Seat >= 0 {
				if err := p.m.Do(choose(p.bot, st.View)); err != nil {
					e.t.Fatalf("%s's move from their own view was refused: %v", p.p.Name, err)
				}
				moved = true
				break
			}
		}
		if !moved {
			e.clock.Advance(t.cfg.Pace)
		}
	}
	e.t.Fatal("the table did not stop")
}

func (e *tenv) phaseOf(t *Table) TablePhase { return inspect(t, func() TablePhase { return t.phase }) }
