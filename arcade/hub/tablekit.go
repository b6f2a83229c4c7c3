package hub

import (
	"encoding/json"
	"errors"
	"slices"

	"sshuffle/engine"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
)

// TableGameInfo is what the screen that opens a table needs of a game.
type TableGameInfo struct {
	Name       string
	Title      string
	Settings   []engine.Setting
	MinPlayers int
	MaxPlayers int
	Strengths  []string
}

// TableGames lists the games a table can play.
func TableGames() []TableGameInfo {
	out := make([]TableGameInfo, 0, len(kitOrder))
	for _, n := range kitOrder {
		out = append(out, tableKits[n].info)
	}
	return out
}

// The room holds a game through these interfaces, with the package's own
// action and view types erased: one room loop serves every table game, and
// a game package stays free of anything the arcade needs.
type tableMatch interface {
	game() tableGame
	next() bool // after the current game is over: count it and deal the next; false when the match is over
	totals() []int
	winner() int
}

type tableGame interface {
	turn() int
	do(seat int, a any) error
	view(seat int) any
	firstLegal(seat int) (any, bool)
	over() (engine.TableResult, bool)
	// describe words what the last do added to the history, given the
	// public views before and after it.
	describe(before, after any, names []string) []string
	record(seats []string) ([]byte, error)
	// recordValue is the record before JSON: a value of its own, which
	// another goroutine may marshal while the game plays on.
	recordValue(seats []string) any
	notYourTurn(err error) bool
}

type tablePlayer interface {
	choose(view any) any
}

type tableKit struct {
	info      TableGameInfo
	newMatch  func(spec engine.Spec, seats int) (tableMatch, error)
	resume    func(spec engine.Spec, game int, totals []int, record []byte) (tableMatch, error)
	newPlayer func(strength string, seed uint64) (tablePlayer, error)
	replay    func(line []byte) error
}

var kitOrder = []string{spite.Name, kings.Name}

var tableKits = map[string]tableKit{
	spite.Name: pkg[spite.Action, spite.View, *spite.Game, *spite.Match]{
		newMatch: spite.NewMatch, resumeGame: spite.Resume, resumeMatch: spite.ResumeMatch,
		newPlayer: spite.NewPlayer, describe: spite.Describe, notYourTurn: spite.ErrNotYourTurn,
		record: func(g *spite.Game, seats []string) any { return g.Record(seats) },
	}.kit(TableGameInfo{Name: spite.Name, Title: "Spite and Malice", Settings: spite.Settings,
		MinPlayers: spite.MinPlayers, MaxPlayers: spite.MaxPlayers, Strengths: spite.Strengths}, spite.Replay),
	kings.Name: pkg[kings.Action, kings.View, *kings.Game, *kings.Match]{
		newMatch: kings.NewMatch, resumeGame: kings.Resume, resumeMatch: kings.ResumeMatch,
		newPlayer: kings.NewPlayer, describe: kings.Describe, notYourTurn: kings.ErrNotYourTurn,
		record: func(g *kings.Game, seats []string) any { return g.Record(seats) },
	}.kit(TableGameInfo{Name: kings.Name, Title: "Kings in the Corner", Settings: kings.Settings,
		MinPlayers: kings.MinPlayers, MaxPlayers: kings.MaxPlayers, Strengths: kings.Strengths}, kings.Replay),
}

type matchOf[G any] interface {
	Game() G
	Next() (G, bool)
	Totals() []int
	Winner() int
}

// pkg is one game package's exported names, typed; kit erases the types.
type pkg[A comparable, V any, G engine.Table[A, V], M matchOf[G]] struct {
	newMatch    func(engine.Spec, int) (M, error)
	resumeGame  func([]byte) (G, error)
	resumeMatch func(engine.Spec, int, []int, G) (M, error)
	newPlayer   func(string, uint64) (engine.Player[A, V], error)
	record      func(G, []string) any
	describe    func(before, after V, seat int, a A, names []string) []string
	notYourTurn error
}

func (p pkg[A, V, G, M]) kit(info TableGameInfo, replay func([]byte) error) tableKit {
	wrap := func(m M) tableMatch {
		return &matchAdapter[A, V, G, M]{m: m, cur: adapt(m.Game(), &p), p: &p}
	}
	return tableKit{
		info: info, replay: replay,
		newMatch: func(spec engine.Spec, seats int) (tableMatch, error) {
			m, err := p.newMatch(spec, seats)
			if err != nil {
				return nil, err
			}
			return wrap(m), nil
		},
		resume: func(spec engine.Spec, game int, totals []int, record []byte) (tableMatch, error) {
			g, err := p.resumeGame(record)
			if err != nil {
				return nil, err
			}
			m, err := p.resumeMatch(spec, game, totals, g)
			if err != nil {
				return nil, err
			}
			return wrap(m), nil
		},
		newPlayer: func(strength string, seed uint64) (tablePlayer, error) {
			pl, err := p.newPlayer(strength, seed)
			if err != nil {
				return nil, err
			}
			return playerAdapter[A, V]{pl}, nil
		},
	}
}

type matchAdapter[A comparable, V any, G engine.Table[A, V], M matchOf[G]] struct {
	m   M
	cur *gameAdapter[A, V, G]
	p   *pkg[A, V, G, M]
}

func (m *matchAdapter[A, V, G, M]) game() tableGame { return m.cur }
func (m *matchAdapter[A, V, G, M]) totals() []int   { return m.m.Totals() }
func (m *matchAdapter[A, V, G, M]) winner() int     { return m.m.Winner() }

func (m *matchAdapter[A, V, G, M]) next() bool {
	g, more := m.m.Next()
	if more {
		m.cur = adapt(g, m.p)
	}
	return more
}

type gameAdapter[A comparable, V any, G engine.Table[A, V]] struct {
	g G
	p interface {
		words(before, after V, seat int, a A, names []string) []string
		recordOf(G, []string) any
		turnErr() error
	}
	done int // history entries already described
}

// adapt wraps g; a resumed game's history so far is already in the log.
func adapt[A comparable, V any, G engine.Table[A, V], M matchOf[G]](g G, p *pkg[A, V, G, M]) *gameAdapter[A, V, G] {
	return &gameAdapter[A, V, G]{g: g, p: p, done: len(g.History())}
}

func (p *pkg[A, V, G, M]) words(before, after V, seat int, a A, names []string) []string {
	return p.describe(before, after, seat, a, names)
}
func (p *pkg[A, V, G, M]) recordOf(g G, seats []string) any { return p.record(g, seats) }
func (p *pkg[A, V, G, M]) turnErr() error                   { return p.notYourTurn }

func (x *gameAdapter[A, V, G]) turn() int { return x.g.Turn() }

func (x *gameAdapter[A, V, G]) do(seat int, a any) error {
	act, ok := a.(A)
	if !ok {
		return errWrongGame
	}
	return x.g.Do(seat, act)
}

func (x *gameAdapter[A, V, G]) view(seat int) any { return x.g.View(seat) }

func (x *gameAdapter[A, V, G]) firstLegal(seat int) (any, bool) {
	l := x.g.Legal(seat)
	if len(l) == 0 {
		return nil, false
	}
	return l[0], true
}

func (x *gameAdapter[A, V, G]) over() (engine.TableResult, bool) { return x.g.Over() }

func (x *gameAdapter[A, V, G]) describe(before, after any, names []string) []string {
	b, _ := before.(V)
	a, _ := after.(V)
	hist := x.g.History()
	var lines []string
	for _, h := range hist[min(x.done, len(hist)):] {
		lines = append(lines, x.p.words(b, a, h.Seat, h.Action, names)...)
	}
	x.done = len(hist)
	return lines
}

func (x *gameAdapter[A, V, G]) record(seats []string) ([]byte, error) {
	return json.Marshal(x.p.recordOf(x.g, seats))
}

func (x *gameAdapter[A, V, G]) recordValue(seats []string) any { return x.p.recordOf(x.g, seats) }

func (x *gameAdapter[A, V, G]) notYourTurn(err error) bool { return errors.Is(err, x.p.turnErr()) }

type playerAdapter[A any, V any] struct{ p engine.Player[A, V] }

func (p playerAdapter[A, V]) choose(v any) any { return p.p.Choose(v.(V)) }

// strengthOK says whether s is a computer strength of the game.
func (k tableKit) strengthOK(s string) bool { return slices.Contains(k.info.Strengths, s) }
