package games

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"sshuffle/engine"
)

// MatchOf is a table game package's Match, seen through the calls a table
// makes of it.
type MatchOf[G any] interface {
	Game() G
	Next() (G, bool)
	Totals() []int
	Winner() int
}

// TablePackage is a table game package's exported names, typed. Kit erases
// the types: the one place where a game's actions and views become bytes,
// so a server holding kits needs no game package, and a game package needs
// nothing of the server.
type TablePackage[A comparable, V any, G engine.Table[A, V], M MatchOf[G]] struct {
	Info engine.TableInfo
	// NewMatch deals a match's first game.
	NewMatch func(spec engine.Spec, seats int) (M, error)
	// Resume rebuilds a game in progress from its record so far, and
	// ResumeMatch the match around it.
	Resume      func(record []byte) (G, error)
	ResumeMatch func(spec engine.Spec, game int, totals []int, current G) (M, error)
	NewPlayer   func(strength string, seed uint64) (engine.Player[A, V], error)
	// Describe words one entry of the history, given the public views
	// around it.
	Describe func(before, after V, seat int, a A, names []string) []string
	// Record is the game as its record value.
	Record func(g G, seats []string) any
	// RecordHead and RecordAction, when both are set, let the kit keep
	// the record's JSON as the game goes, each action marshalled once
	// rather than the whole record at every save: RecordHead is Record
	// with no actions (a nil list, marshalled as null), RecordAction the
	// record's form of history entry i. Marshalled, the two make Record's
	// JSON byte for byte.
	RecordHead   func(g G, seats []string) any
	RecordAction func(g G, i int) any
	Replay       func(line []byte) error
	// NotYourTurn is the error (or wrapped in the error) Do returns to a
	// seat acting out of turn.
	NotYourTurn error
	// The codec: a decoder never panics and refuses what is not a value
	// of the game.
	EncodeAction func(A) ([]byte, error)
	DecodeAction func([]byte) (A, error)
	EncodeView   func(V) ([]byte, error)
	DecodeView   func([]byte) (V, error)
}

// Kit is the package as the server holds it. Every field must be set.
func (p TablePackage[A, V, G, M]) Kit() engine.TableKit {
	return &tableKit[A, V, G, M]{p: p}
}

type tableKit[A comparable, V any, G engine.Table[A, V], M MatchOf[G]] struct {
	p TablePackage[A, V, G, M]
}

func (k *tableKit[A, V, G, M]) Info() engine.TableInfo { return k.p.Info }

// errNot: a value of another game handed to this
// game's codec, which only a bug in the caller can do.
func (k *tableKit[A, V, G, M]) errNot(what string) error {
	return fmt.Errorf("That is not %s of %s.", what, k.p.Info.Title)
}

func (k *tableKit[A, V, G, M]) EncodeAction(a any) ([]byte, error) {
	act, ok := a.(A)
	if !ok {
		return nil, k.errNot("a move")
	}
	return k.p.EncodeAction(act)
}

func (k *tableKit[A, V, G, M]) DecodeAction(b []byte) (any, error) {
	a, err := k.p.DecodeAction(b)
	if err != nil {
		return nil, err
	}
	return a, nil
}

func (k *tableKit[A, V, G, M]) EncodeView(v any) ([]byte, error) {
	view, ok := v.(V)
	if !ok {
		return nil, k.errNot("a view")
	}
	return k.p.EncodeView(view)
}

func (k *tableKit[A, V, G, M]) DecodeView(b []byte) (any, error) {
	v, err := k.p.DecodeView(b)
	if err != nil {
		return nil, err
	}
	return v, nil
}

// LegalEncoded lists the actions the view's seat may take, from the view
// alone, when the game's view type says what they are (both table games'
// do: the screens offer a card's places from it).
func (k *tableKit[A, V, G, M]) LegalEncoded(view []byte) ([][]byte, error) {
	v, err := k.p.DecodeView(view)
	if err != nil {
		return nil, err
	}
	l, ok := any(v).(interface{ Legal() []A })
	if !ok {
		return nil, fmt.Errorf("%s cannot list its moves from a view.", k.p.Info.Title)
	}
	acts := l.Legal()
	out := make([][]byte, 0, len(acts))
	for _, a := range acts {
		b, err := k.p.EncodeAction(a)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

func (k *tableKit[A, V, G, M]) NewMatch(spec engine.Spec, seats int) (engine.TableMatch, error) {
	m, err := k.p.NewMatch(spec, seats)
	if err != nil {
		return nil, err
	}
	return k.wrap(m), nil
}

func (k *tableKit[A, V, G, M]) ResumeMatch(spec engine.Spec, game int, totals []int, record []byte) (engine.TableMatch, error) {
	g, err := k.p.Resume(record)
	if err != nil {
		return nil, err
	}
	m, err := k.p.ResumeMatch(spec, game, totals, g)
	if err != nil {
		return nil, err
	}
	return k.wrap(m), nil
}

func (k *tableKit[A, V, G, M]) NewPlayer(strength string, seed uint64) (engine.TablePlayer, error) {
	pl, err := k.p.NewPlayer(strength, seed)
	if err != nil {
		return nil, err
	}
	return &tablePlayer[A, V, G, M]{k: k, p: pl}, nil
}

func (k *tableKit[A, V, G, M]) Replay(line []byte) error { return k.p.Replay(line) }

func (k *tableKit[A, V, G, M]) wrap(m M) engine.TableMatch {
	return &tableMatch[A, V, G, M]{k: k, m: m, cur: k.adapt(m.Game())}
}

// adapt wraps g; a resumed game's history so far is already in the log.
func (k *tableKit[A, V, G, M]) adapt(g G) *tableGame[A, V, G, M] {
	x := &tableGame[A, V, G, M]{k: k, g: g}
	x.done = x.historyLen()
	return x
}

type tableMatch[A comparable, V any, G engine.Table[A, V], M MatchOf[G]] struct {
	k   *tableKit[A, V, G, M]
	m   M
	cur *tableGame[A, V, G, M]
}

func (m *tableMatch[A, V, G, M]) Game() engine.TableGame { return m.cur }
func (m *tableMatch[A, V, G, M]) Totals() []int          { return m.m.Totals() }
func (m *tableMatch[A, V, G, M]) Winner() int            { return m.m.Winner() }

func (m *tableMatch[A, V, G, M]) Next() bool {
	g, more := m.m.Next()
	if more {
		m.cur = m.k.adapt(g)
	}
	return more
}

type tableGame[A comparable, V any, G engine.Table[A, V], M MatchOf[G]] struct {
	k *tableKit[A, V, G, M]
	g G
	// before is the public view before the first action not yet
	// described, which Describe words against the view after the last.
	before    V
	hasBefore bool
	done      int // history entries already described
	rec       keptRecord
}

// historyAt is a game that reads its history without copying it all
// (History copies, for a caller that keeps it).
type historyAt[A any] interface {
	HistoryLen() int
	Acted(i int) engine.Acted[A]
}

func (x *tableGame[A, V, G, M]) historyLen() int {
	if h, ok := any(x.g).(historyAt[A]); ok {
		return h.HistoryLen()
	}
	return len(x.g.History())
}

// historySince is the history from entry i on.
func (x *tableGame[A, V, G, M]) historySince(i int) []engine.Acted[A] {
	h, ok := any(x.g).(historyAt[A])
	if !ok {
		return x.g.History()[i:]
	}
	n := h.HistoryLen()
	if i >= n {
		return nil
	}
	out := make([]engine.Acted[A], 0, n-i)
	for ; i < n; i++ {
		out = append(out, h.Acted(i))
	}
	return out
}

// Record is the game's record value: with the package's RecordHead and
// RecordAction, its JSON kept as the game goes (a JSONRecord).
func (x *tableGame[A, V, G, M]) Record(seats []string) any {
	p := x.k.p
	if p.RecordHead == nil || p.RecordAction == nil {
		return p.Record(x.g, seats)
	}
	r := &x.rec
	_, over := x.g.Over()
	n := x.historyLen()
	if !r.ok || r.over != over || r.n > n || !slices.Equal(r.seats, seats) {
		head, err := json.Marshal(p.RecordHead(x.g, seats))
		i := bytes.Index(head, actionsNull)
		if err != nil || i < 0 || bytes.Contains(head[i+1:], actionsNull) {
			r.ok = false
			return p.Record(x.g, seats) // not reached: a record has one list of actions
		}
		at := i + len(actionsNull) - len("null")
		// New slices: a JSONRecord handed out before keeps the old.
		r.pre, r.post = head[:at:at], head[i+len(actionsNull):]
		r.ok, r.over, r.seats = true, over, slices.Clone(seats)
		if r.n > n {
			r.acts, r.n = nil, 0
		}
	}
	for ; r.n < n; r.n++ {
		b, err := json.Marshal(p.RecordAction(x.g, r.n))
		if err != nil {
			r.ok, r.acts, r.n = false, nil, 0
			return p.Record(x.g, seats)
		}
		if r.n > 0 {
			r.acts = append(r.acts, ',')
		}
		// Appending never writes over the bytes a JSONRecord handed out
		// holds: those lie before the end it was given.
		r.acts = append(r.acts, b...)
	}
	return JSONRecord{pre: r.pre, acts: r.acts[:len(r.acts):len(r.acts)], post: r.post}
}

// actionsNull is how a record without its actions marshals them.
var actionsNull = []byte(`"actions":null`)

// keptRecord is a game's record as JSON so far, in pieces: the record
// without its actions cut where they go, and the actions' JSON, comma
// separated.
type keptRecord struct {
	ok        bool
	over      bool
	seats     []string
	pre, post []byte
	acts      []byte
	n         int // the history entries in acts
}

// JSONRecord is a game's record already written as JSON, which it writes
// out without going through encoding/json again.
type JSONRecord struct{ pre, acts, post []byte }

// JSONLen is the length of the record's JSON.
func (r JSONRecord) JSONLen() int { return len(r.pre) + len(r.acts) + len(r.post) + 2 }

// AppendJSON appends the record's JSON (as json.Marshal writes the
// record) to dst.
func (r JSONRecord) AppendJSON(dst []byte) []byte {
	dst = append(dst, r.pre...)
	dst = append(dst, '[')
	dst = append(dst, r.acts...)
	dst = append(dst, ']')
	return append(dst, r.post...)
}

func (r JSONRecord) MarshalJSON() ([]byte, error) {
	return r.AppendJSON(make([]byte, 0, r.JSONLen())), nil
}

func (x *tableGame[A, V, G, M]) Turn() int                        { return x.g.Turn() }
func (x *tableGame[A, V, G, M]) Over() (engine.TableResult, bool) { return x.g.Over() }
func (x *tableGame[A, V, G, M]) Actions() int                     { return x.historyLen() }
func (x *tableGame[A, V, G, M]) NotYourTurn(err error) bool       { return errors.Is(err, x.k.p.NotYourTurn) }

func (x *tableGame[A, V, G, M]) Do(seat int, b []byte) error {
	a, err := x.k.p.DecodeAction(b)
	if err != nil {
		return err
	}
	return x.apply(seat, a)
}

// apply is Do in the game's own types, keeping the public view from before
// the first action Describe has not worded yet.
func (x *tableGame[A, V, G, M]) apply(seat int, a A) error {
	var before V
	if !x.hasBefore {
		before = x.g.View(engine.Spectator)
	}
	if err := x.g.Do(seat, a); err != nil {
		return err
	}
	if !x.hasBefore {
		x.before, x.hasBefore = before, true
	}
	return nil
}

// View encodes seat's view. A view is a plain value of cards and numbers,
// which the codec always encodes; a codec that could not would be a bug
// in the game package, which the table's guard catches.
func (x *tableGame[A, V, G, M]) View(seat int) []byte {
	b, err := x.k.p.EncodeView(x.g.View(seat))
	if err != nil {
		panic(fmt.Sprintf("%s: a view does not encode: %v", x.k.p.Info.Name, err))
	}
	return b
}

func (x *tableGame[A, V, G, M]) Play(seat int, p engine.TablePlayer) error {
	var a A
	switch pl := p.(type) {
	case *tablePlayer[A, V, G, M]:
		a = pl.p.Choose(x.g.View(seat))
	default:
		// A player from elsewhere sees the same view, as bytes.
		b, err := p.ChooseEncoded(x.View(seat))
		if err == nil {
			a, err = x.k.p.DecodeAction(b)
		}
		if err != nil {
			return x.firstLegal(seat)
		}
	}
	if err := x.apply(seat, a); err != nil {
		return x.firstLegal(seat)
	}
	return nil
}

func (x *tableGame[A, V, G, M]) Choice(seat int, p engine.TablePlayer) func() []byte {
	if pl, ok := p.(*tablePlayer[A, V, G, M]); ok {
		v := x.g.View(seat)
		return func() []byte {
			b, err := x.k.p.EncodeAction(pl.p.Choose(v))
			if err != nil {
				return nil
			}
			return b
		}
	}
	view := x.View(seat)
	return func() []byte {
		b, err := p.ChooseEncoded(view)
		if err != nil {
			return nil
		}
		return b
	}
}

func (x *tableGame[A, V, G, M]) PlayChosen(seat int, action []byte) error {
	a, err := x.k.p.DecodeAction(action)
	if err == nil {
		err = x.apply(seat, a)
	}
	if err != nil {
		return x.firstLegal(seat)
	}
	return nil
}

func (x *tableGame[A, V, G, M]) firstLegal(seat int) error {
	l := x.g.Legal(seat)
	if len(l) == 0 {
		return errors.New("no legal action")
	}
	return x.apply(seat, l[0])
}

func (x *tableGame[A, V, G, M]) Describe(names []string) []string {
	hist := x.historySince(x.done)
	if len(hist) == 0 {
		x.hasBefore = false
		return nil
	}
	after := x.g.View(engine.Spectator)
	var lines []string
	for _, h := range hist {
		lines = append(lines, x.k.p.Describe(x.before, after, h.Seat, h.Action, names)...)
	}
	x.done += len(hist)
	var zero V
	x.before, x.hasBefore = zero, false
	return lines
}

type tablePlayer[A comparable, V any, G engine.Table[A, V], M MatchOf[G]] struct {
	k *tableKit[A, V, G, M]
	p engine.Player[A, V]
}

func (p *tablePlayer[A, V, G, M]) ChooseEncoded(view []byte) ([]byte, error) {
	v, err := p.k.p.DecodeView(view)
	if err != nil {
		return nil, err
	}
	return p.k.p.EncodeAction(p.p.Choose(v))
}

// RecordJSON is a kit game's record as one JSON line (no newline).
func RecordJSON(g engine.TableGame, seats []string) ([]byte, error) {
	return json.Marshal(g.Record(seats))
}
