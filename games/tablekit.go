package games

import (
	"encoding/json"
	"errors"
	"fmt"

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
	Replay func(line []byte) error
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
	return &tableGame[A, V, G, M]{k: k, g: g, done: len(g.History())}
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
}

func (x *tableGame[A, V, G, M]) Turn() int                        { return x.g.Turn() }
func (x *tableGame[A, V, G, M]) Over() (engine.TableResult, bool) { return x.g.Over() }
func (x *tableGame[A, V, G, M]) Actions() int                     { return len(x.g.History()) }
func (x *tableGame[A, V, G, M]) Record(seats []string) any        { return x.k.p.Record(x.g, seats) }
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
	hist := x.g.History()
	if x.done >= len(hist) {
		x.hasBefore = false
		return nil
	}
	after := x.g.View(engine.Spectator)
	var lines []string
	for _, h := range hist[x.done:] {
		lines = append(lines, x.k.p.Describe(x.before, after, h.Seat, h.Action, names)...)
	}
	x.done = len(hist)
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
