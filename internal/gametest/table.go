package gametest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// Table is what the checks need from one table game package, written
// against engine.Table alone so that any table game (a toy one in a test
// included) runs the same checks. S is the game's whole position as a
// comparable value: the checks compare it to tell "unchanged" exactly.
// An action is a plain comparable value too, as it must be to cross
// between machines.
type Table[A comparable, V any, G engine.Table[A, V], S comparable] struct {
	Name               string
	MinSeats, MaxSeats int
	Settings           []engine.Setting
	// Strengths are the computer players' names; NewPlayer makes one.
	Strengths []string
	NewPlayer func(strength string, seed uint64) (engine.Player[A, V], error)
	// SeatMix is what RandomPlay seats draw from: strengths, and "" for a
	// player that picks any legal action (it reaches positions no sensible
	// player would). Empty: every strength once and "".
	SeatMix []string
	New     func(spec engine.Spec, seats int) (G, error)
	State   func(G) S
	// Clone is an independent copy of a game, to try an action on.
	Clone func(G) G
	// Places lists every pile of the true state, split into the ones seat
	// may see and the ones it may not; together they are every card in
	// play, each pile once.
	Places func(g G, seat int) (seen, hidden [][]engine.Card)
	// Packs is how many copies of each of the 52 cards are in play.
	Packs int
	// Blind is a copy of g in which the cards seat cannot see are shuffled
	// among the places that hold them, each keeping its size; false when
	// there is nothing to shuffle.
	Blind func(g G, seat int, rng *engine.RNG) (G, bool)
	// Odd are actions for seat to try now: any that Legal does not list
	// must be refused.
	Odd func(g G, seat int, rng *engine.RNG) []A
	// Record is the game record of a finished game; Replay checks one.
	Record func(g G, seats []string) any
	Replay func(line []byte) error
	// Check, if set, fails t if a rule of the game's own is broken (a pile
	// out of order, say); it runs after every action.
	Check func(testing.TB, G)
	// MaxActions bounds a game: one that runs past it has a player that
	// loops, or a rule that never ends the game.
	MaxActions int
	// MayNotEnd: the rules let a game go round for ever (cards cycling
	// back into play), so a game that reaches MaxActions is let go; at
	// least half of RandomPlay's games must still end.
	MayNotEnd bool
	// ExactViews: a view holds every card of the places its seat may see,
	// not only none of the others.
	ExactViews bool
	// ViewLegal, if set, is what a seat may do worked out from its view
	// alone (for a screen); it must list what Legal does, in its order,
	// for every seat and a spectator.
	ViewLegal func(V) []A
}

func (r Table[A, V, G, S]) spec(seed uint64, settings string) engine.Spec {
	return engine.Spec{Game: r.Name, Settings: settings, Seed: seed}
}

// randomSettings picks a value of every setting, in canonical form.
func (r Table[A, V, G, S]) randomSettings(t testing.TB, rng *engine.RNG) string {
	var parts []string
	for _, s := range r.Settings {
		parts = append(parts, s.Key+"="+s.Values[rng.Intn(len(s.Values))])
	}
	canon, err := engine.NormalizeSettings(strings.Join(parts, ","), r.Settings)
	require.NoError(t, err)
	return canon
}

// anyLegal picks uniformly from the actions Legal lists. It is a test's
// driver, not a computer player: it reads the game, not a view.
type anyLegal[A any, V any, G engine.Table[A, V]] struct {
	g    G
	seat int
	rng  *engine.RNG
}

func (p anyLegal[A, V, G]) Choose(V) A {
	as := p.g.Legal(p.seat)
	return as[p.rng.Intn(len(as))]
}

// RandomPlay plays games seeded games, each with random settings, a random
// number of seats and a random mix of players from SeatMix, and checks:
//   - a deal depends only on its spec and seat count;
//   - after every action, every card is in play exactly Packs times (and
//     Check holds);
//   - every view holds only cards its seat may see, and the same view comes
//     from a copy with the unseen cards shuffled;
//   - Odd actions that Legal does not list are refused with a sentence and
//     change nothing; so is any action for a seat whose turn it is not;
//   - a seat not to act has nothing legal, the seat to act always has
//     something, and every action Legal lists is accepted;
//   - a game ends within MaxActions (unless MayNotEnd), and at least half
//     of all games end;
//   - the history replays on a fresh deal to the same position and history,
//     and a finished game's record replays; the same seed plays the same
//     record again.
func (r Table[A, V, G, S]) RandomPlay(t *testing.T, games int) {
	mix := r.SeatMix
	if len(mix) == 0 {
		mix = append(slices.Clone(r.Strengths), "")
	}
	finished := 0
	for seed := uint64(1); seed <= uint64(games); seed++ {
		rng := engine.NewRNG(seed * 977)
		seats := r.MinSeats + rng.Intn(r.MaxSeats-r.MinSeats+1)
		settings := r.randomSettings(t, rng)
		names := make([]string, seats)
		for s := range names {
			names[s] = mix[rng.Intn(len(mix))]
		}
		line, over := r.playRandom(t, r.spec(seed, settings), names, true)
		if over {
			finished++
			again, _ := r.playRandom(t, r.spec(seed, settings), names, false)
			require.Equal(t, string(line), string(again), "same seed, same players, same record")
		}
	}
	require.GreaterOrEqual(t, finished, (games+1)/2, "games that ended")
}

// playRandom plays one game and returns its record line once it is over.
func (r Table[A, V, G, S]) playRandom(t *testing.T, spec engine.Spec, names []string, check bool) ([]byte, bool) {
	seats := len(names)
	g, err := r.New(spec, seats)
	require.NoError(t, err)
	if check {
		again, err := r.New(spec, seats)
		require.NoError(t, err)
		require.Equal(t, r.State(g), r.State(again), "same spec, same deal")
	}
	rng := engine.NewRNG(spec.Seed)
	players := make([]engine.Player[A, V], seats)
	for s, name := range names {
		if name == "" {
			players[s] = anyLegal[A, V, G]{g, s, engine.NewRNG(rng.Uint64())}
			continue
		}
		players[s], err = r.NewPlayer(name, rng.Uint64())
		require.NoError(t, err)
	}
	for step := 0; ; step++ {
		if _, over := g.Over(); over {
			require.Equal(t, engine.NoSeat, g.Turn(), "no seat to act once the game is over")
			break
		}
		if step == r.MaxActions {
			if !r.MayNotEnd {
				t.Fatalf("%v with %v: no end after %d actions", spec, names, step)
			}
			return nil, false
		}
		if check {
			r.checkCards(t, g)
			if r.Check != nil {
				r.Check(t, g)
			}
			if step%4 == 0 {
				r.checkViews(t, g, rng)
			}
			r.checkRefusals(t, g, rng, step%8 == 0)
			if r.ViewLegal != nil && step%4 == 0 {
				for seat := engine.Spectator; seat < g.Seats(); seat++ {
					if got, want := r.ViewLegal(g.View(seat)), g.Legal(seat); !slices.Equal(got, want) {
						t.Fatalf("%v: seat %d's view says %v are legal, the game %v", spec, seat, got, want)
					}
				}
			}
		}
		seat := g.Turn()
		a := players[seat].Choose(g.View(seat))
		if err := g.Do(seat, a); err != nil {
			t.Fatalf("%v: seat %d (%q) chose %+v: %v", spec, seat, names[seat], a, err)
		}
	}
	if check {
		r.checkCards(t, g)
		r.checkViews(t, g, rng)
		replay, err := r.New(spec, seats)
		require.NoError(t, err)
		for _, h := range g.History() {
			if h.Seat != engine.NoSeat {
				require.NoError(t, replay.Do(h.Seat, h.Action))
			}
		}
		require.Equal(t, r.State(g), r.State(replay), "the history replays to the same state")
		require.Equal(t, g.History(), replay.History())
	}
	line, err := json.Marshal(r.Record(g, names))
	require.NoError(t, err)
	require.NoError(t, r.Replay(line), "%v", spec)
	return line, true
}

// checkRefusals tries, for the seat to act, every odd action Legal does
// not list, and for every other seat (and a spectator, and a seat that
// does not exist) one of the seat's legal actions; each must be refused
// with a sentence and leave the game as it was. With all, every legal
// action is tried on a copy and must be accepted.
func (r Table[A, V, G, S]) checkRefusals(t *testing.T, g G, rng *engine.RNG, all bool) {
	seat := g.Turn()
	legal := g.Legal(seat)
	if len(legal) == 0 {
		t.Fatalf("%v: a game in play with nothing legal for seat %d", g.Spec(), seat)
	}
	// History copies itself: its length is compared once, at the end.
	st, n := r.State(g), len(g.History())
	defer func() {
		if len(g.History()) != n {
			t.Fatalf("%v: a refused action went into the history", g.Spec())
		}
	}()
	refused := func(s int, a A) {
		err := g.Do(s, a)
		if err == nil || err.Error() == "" || r.State(g) != st {
			t.Fatalf("%v: seat %d's %+v was accepted (%v) or changed the game", g.Spec(), s, a, err)
		}
	}
	for _, a := range r.Odd(g, seat, rng) {
		if !slices.Contains(legal, a) {
			refused(seat, a)
		}
	}
	a := legal[rng.Intn(len(legal))]
	for s := engine.Spectator; s <= g.Seats(); s++ {
		if s == seat {
			continue
		}
		if s >= 0 && s < g.Seats() && len(g.Legal(s)) != 0 {
			t.Fatalf("%v: seat %d has legal actions on seat %d's turn", g.Spec(), s, seat)
		}
		refused(s, a)
	}
	if all {
		for _, a := range legal {
			h := r.Clone(g)
			if err := h.Do(seat, a); err != nil {
				t.Fatalf("%v: legal %+v refused: %v", g.Spec(), a, err)
			}
		}
	}
}

// checkCards fails unless every card is in play exactly Packs times.
func (r Table[A, V, G, S]) checkCards(t testing.TB, g G) {
	seen, hidden := r.Places(g, engine.Spectator)
	var n [256]int
	total := 0
	for _, cs := range append(seen, hidden...) {
		for _, c := range cs {
			if !c.Valid() {
				t.Fatalf("%v: %v is not a card", g.Spec(), c)
			}
			n[c]++
			total++
		}
	}
	if total != 52*r.Packs {
		t.Fatalf("%v: %d cards in play, not %d", g.Spec(), total, 52*r.Packs)
	}
	for _, c := range engine.Deck() {
		if n[c] != r.Packs {
			t.Fatalf("%v: %v is in play %d times", g.Spec(), c, n[c])
		}
	}
}

// checkViews fails if a view holds a card its seat may not see: each
// seat's (and a spectator's) view holds no more of any card than the
// places open to it (with ExactViews, exactly those), and while the game
// is in play, a copy of the game with the seat's unseen cards shuffled
// gives the seat the same view.
func (r Table[A, V, G, S]) checkViews(t testing.TB, g G, rng *engine.RNG) {
	for seat := engine.Spectator; seat < g.Seats(); seat++ {
		v := g.View(seat)
		seen, _ := r.Places(g, seat)
		var may [256]int
		for _, cs := range seen {
			for _, c := range cs {
				may[c]++
			}
		}
		var has [256]int
		for _, c := range ViewCards(v) {
			has[c]++
			if has[c] > may[c] {
				t.Fatalf("%v: the view of seat %d holds %v, which the seat may not see", g.Spec(), seat, c)
			}
		}
		if r.ExactViews && has != may {
			t.Fatalf("%v: the view of seat %d holds %v, but the seat may see %v", g.Spec(), seat, ViewCards(v), seen)
		}
		// Once the game is over, its scores may count the cards of hands
		// no one saw.
		if _, over := g.Over(); over {
			continue
		}
		if h, ok := r.Blind(g, seat, rng); ok && !reflect.DeepEqual(v, h.View(seat)) {
			t.Fatalf("%v: seat %d's view changes when the cards it cannot see are shuffled:\n%+v\n%+v", g.Spec(), seat, v, h.View(seat))
		}
	}
}

// ViewCards collects every card value anywhere in a view, by reflection,
// so that a field a game adds later is checked too.
func ViewCards(v any) []engine.Card {
	var out []engine.Card
	ct := reflect.TypeFor[engine.Card]()
	var walk func(reflect.Value)
	walk = func(x reflect.Value) {
		switch {
		case !x.IsValid():
		case x.Type() == ct:
			if c := engine.Card(x.Uint()); c != engine.NoCard {
				out = append(out, c)
			}
		case x.Kind() == reflect.Pointer || x.Kind() == reflect.Interface:
			if !x.IsNil() {
				walk(x.Elem())
			}
		case x.Kind() == reflect.Struct:
			for i := range x.NumField() {
				walk(x.Field(i))
			}
		case x.Kind() == reflect.Slice || x.Kind() == reflect.Array:
			for i := range x.Len() {
				walk(x.Index(i))
			}
		case x.Kind() == reflect.Map:
			it := x.MapRange()
			for it.Next() {
				walk(it.Key())
				walk(it.Value())
			}
		}
	}
	walk(reflect.ValueOf(v))
	return out
}

// ChoiceIgnoresUnseen checks "a computer player's choice never changes
// when the cards its seat cannot see are shuffled": in games seeded games,
// at one action in every, copies made by Blind give the seat to act the
// same view, and a fresh player of each strength with one seed chooses the
// same in both. Then, per game, players of each strength
// play on side by side in a game and its blind copy for as long as their
// views agree, so that a plan a player keeps between calls is checked too.
// It fails unless the shuffles changed hidden cards at all.
func (r Table[A, V, G, S]) ChoiceIgnoresUnseen(t *testing.T, games, every int) {
	changed := 0
	for seed := uint64(1); seed <= uint64(games); seed++ {
		rng := engine.NewRNG(seed * 131)
		seats := r.MinSeats + rng.Intn(r.MaxSeats-r.MinSeats+1)
		spec := r.spec(seed, r.randomSettings(t, rng))
		g, err := r.New(spec, seats)
		require.NoError(t, err)
		players := make([]engine.Player[A, V], seats)
		for s := range players {
			players[s], err = r.NewPlayer(r.Strengths[rng.Intn(len(r.Strengths))], rng.Uint64())
			require.NoError(t, err)
		}
		for n := 0; n < r.MaxActions; n++ {
			if _, over := g.Over(); over {
				break
			}
			seat := g.Turn()
			v := g.View(seat)
			if n%every == 0 {
				if h, ok := r.Blind(g, seat, rng); ok {
					if r.State(h) != r.State(g) {
						changed++
					}
					require.Equal(t, v, h.View(seat), "%v: the seat sees the same", spec)
					for i, name := range r.Strengths {
						pseed := seed*1000 + uint64(n*len(r.Strengths)+i)
						pa, _ := r.NewPlayer(name, pseed)
						pb, _ := r.NewPlayer(name, pseed)
						require.Equal(t, pa.Choose(v), pb.Choose(h.View(seat)), "%s, %v, action %d", name, spec, n)
					}
				}
			}
			require.NoError(t, g.Do(seat, players[seat].Choose(v)))
		}
		r.sideBySide(t, spec, seats, rng)
	}
	require.Positive(t, changed, "the shuffles changed hidden cards")
}

// sideBySide plays a few actions into a game, then lets players of each
// strength play on in it and in a blind copy while the views agree.
func (r Table[A, V, G, S]) sideBySide(t *testing.T, spec engine.Spec, seats int, rng *engine.RNG) {
	for i, name := range r.Strengths {
		g, err := r.New(spec, seats)
		require.NoError(t, err)
		warm, _ := r.NewPlayer(name, rng.Uint64())
		for range 2 * seats * (i + 1) {
			if g.Turn() == engine.NoSeat {
				return
			}
			require.NoError(t, g.Do(g.Turn(), warm.Choose(g.View(g.Turn()))))
		}
		seat := g.Turn()
		if seat == engine.NoSeat {
			return
		}
		h, ok := r.Blind(g, seat, rng)
		if !ok {
			continue
		}
		pseed := rng.Uint64()
		pa, _ := r.NewPlayer(name, pseed)
		pb, _ := r.NewPlayer(name, pseed)
		for n := 0; n < r.MaxActions && g.Turn() == seat && h.Turn() == seat; n++ {
			va, vb := g.View(seat), h.View(seat)
			if !reflect.DeepEqual(va, vb) {
				break // a card the seat could not see has turned up
			}
			a, b := pa.Choose(va), pb.Choose(vb)
			require.Equal(t, a, b, fmt.Sprintf("%s side by side, %v", name, spec))
			require.NoError(t, g.Do(seat, a))
			require.NoError(t, h.Do(seat, b))
		}
	}
}
