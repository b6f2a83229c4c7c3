// Package gametest holds the rule checks that more than one game package
// runs the same way: for solitaires (Rules), random play with undo and
// replay, fuzzed actions, hints that must not see hidden cards, and the card
// bookkeeping behind them; for table games (Table), random play with every
// seat's view checked against what it may see, refusals, replays and
// records, and computer players that cannot be swayed by unseen cards.
// Only tests import it.
package gametest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// Rules is what the checks need from one game package. S is the game's
// whole position, score and counters included, as a comparable value: the
// checks compare it to tell "unchanged" and "restored" exactly, which the
// piles alone (hiding face-down cards) could not.
type Rules[G engine.Solitaire, S comparable] struct {
	Spec  func(seed uint64) engine.Spec
	New   func(engine.Spec) (G, error)
	State func(G) S
	// Check fails t if an invariant of every position is broken (each card
	// in exactly one place, at least).
	Check func(testing.TB, G)
	// Legal lists every action Do accepts now.
	Legal func(G) []engine.Action
	// Odd are actions a client could send that Do must always refuse.
	Odd []engine.Action
	// Solve and SolveGame are the package's solver: from a deal, and on
	// from a game in play.
	Solve     func(engine.Spec, int) engine.Result[engine.Action]
	SolveGame func(G, int) engine.Result[engine.Action]
	// NothingLegalWhenOver: a won or stuck game has no legal action. Not
	// so in Pyramid, where Stuck covers a stock that still turns but can
	// never offer a pair.
	NothingLegalWhenOver bool
}

// RandomPlay plays deals 1..1000 (1..200 with -short) at random, up to steps
// actions each, and checks that a deal depends only on its seed; that odd
// actions are refused and change nothing; that a game with no legal action
// is won or stuck (and, with NothingLegalWhenOver, the other way round);
// that Undo restores the exact position before the action it takes back;
// that Moves counts the actions kept; and that the history replays on a
// fresh deal to the same position and piles. pick chooses among the legal
// actions; nil picks uniformly.
func (r Rules[G, S]) RandomPlay(t *testing.T, steps int, pick func(*engine.RNG, []engine.Action) engine.Action) {
	if pick == nil {
		pick = func(rng *engine.RNG, as []engine.Action) engine.Action { return as[rng.Intn(len(as))] }
	}
	games := 1000
	if testing.Short() {
		games = 200
	}
	for seed := uint64(1); seed <= uint64(games); seed++ {
		g, err := r.New(r.Spec(seed))
		require.NoError(t, err)
		again, _ := r.New(r.Spec(seed))
		require.Equal(t, r.State(g), r.State(again), "same seed, same deal")
		rng := engine.NewRNG(seed)
		// Kept here rather than read from the game, so that Undo is checked
		// against what the position really was.
		var before []S
		for range steps {
			r.Check(t, g)
			r.refusesOdd(t, g)
			as := r.Legal(g)
			if r.NothingLegalWhenOver {
				require.Equal(t, len(as) == 0, g.Won() || g.Stuck(), "no move iff over")
			}
			if len(as) == 0 {
				require.True(t, g.Won() || g.Stuck(), "no legal action, so the game is over")
				break
			}
			if rng.Intn(6) == 0 && len(before) > 0 {
				prev := before[len(before)-1]
				before = before[:len(before)-1]
				require.True(t, g.Undo())
				if r.State(g) != prev {
					t.Fatal("undo did not restore the state")
				}
				continue
			}
			a := pick(rng, as)
			st, moves := r.State(g), g.Moves()
			require.NoError(t, g.Do(a))
			// Plain ifs here: each require call walks the stack for
			// t.Helper, which made this loop twice as slow.
			if g.Moves() != moves+1 || len(g.History()) != moves+1 {
				t.Fatalf("%d moves and %d actions in the history after move %d", g.Moves(), len(g.History()), moves+1)
			}
			require.True(t, g.Undo())
			if r.State(g) != st || g.Moves() != moves {
				t.Fatal("undo did not restore the exact state and move count")
			}
			require.NoError(t, g.Do(a))
			before = append(before, st)
		}
		replay, _ := r.New(r.Spec(seed))
		for _, a := range g.History() {
			require.NoError(t, replay.Do(a))
		}
		require.Equal(t, r.State(g), r.State(replay), "history replays to the same game")
		require.Equal(t, g.Piles(), replay.Piles())
	}
}

func (r Rules[G, S]) refusesOdd(t *testing.T, g G) {
	for _, a := range r.Odd {
		st := r.State(g)
		if g.Do(a) == nil || r.State(g) != st {
			t.Fatalf("odd action %+v accepted or changed the game", a)
		}
	}
}

// Program is a fuzz target: it plays prog on the deal of seed, three bytes
// an action (kind, from, to; a first byte 9 undoes instead), and checks that
// a refused action leaves the game as it was with a sentence for the
// player, that Check holds after every step, and that nothing panics.
func (r Rules[G, S]) Program(t *testing.T, seed uint64, prog []byte) {
	g, err := r.New(r.Spec(seed))
	require.NoError(t, err)
	for i := 0; i+2 < len(prog); i += 3 {
		if prog[i] == 9 {
			g.Undo()
			continue
		}
		a := engine.Action{Kind: engine.ActionKind(prog[i] % 4), From: int(int8(prog[i+1])), To: int(int8(prog[i+2]))}
		st := r.State(g)
		if err := g.Do(a); err != nil {
			require.Equal(t, st, r.State(g))
			require.NotEmpty(t, err.Error())
		}
		r.Check(t, g)
		g.Piles()
		g.Hint()
		g.Stuck()
	}
}

// HintIgnoresUnseen follows the hints on deals 1..300 for up to steps
// actions and checks before each that tries copies of the game, made by
// blind with the cards the player has not seen shuffled, get the same hint.
// blind reports false when the player has seen every card.
func (r Rules[G, S]) HintIgnoresUnseen(t *testing.T, steps, tries int, blind func(G, *engine.RNG) (G, bool)) {
	for seed := uint64(1); seed <= 300; seed++ {
		g, _ := r.New(r.Spec(seed))
		rng := engine.NewRNG(seed * 7)
		for range steps {
			a, why, ok := g.Hint()
			for range tries {
				h, unseen := blind(g, rng)
				if !unseen {
					break
				}
				a2, why2, ok2 := h.Hint()
				require.Equal(t, ok, ok2)
				require.Equal(t, a, a2)
				require.Equal(t, why, why2)
			}
			if !ok {
				break
			}
			require.NoError(t, g.Do(a), why)
		}
	}
}

// SolveReplays solves deals 1..seeds within nodes positions each and checks
// that every solved line replays through New and Do to a win, and that
// SolveGame from halfway along the line finds a way on to a win. It
// returns how many deals were solved.
func (r Rules[G, S]) SolveReplays(t *testing.T, seeds, nodes int) int {
	won := 0
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		res := r.Solve(r.Spec(seed), nodes)
		if res.Outcome != engine.Solved {
			continue
		}
		won++
		g, _ := r.New(r.Spec(seed))
		playToWin(t, g, res.Moves, seed)
		h, _ := r.New(r.Spec(seed))
		half := len(res.Moves) / 2
		for _, a := range res.Moves[:half] {
			require.NoError(t, h.Do(a))
		}
		rest := r.SolveGame(h, nodes)
		require.Equal(t, engine.Solved, rest.Outcome, "seed %d from move %d", seed, half)
		playToWin(t, h, rest.Moves, seed)
	}
	return won
}

func playToWin(t *testing.T, g engine.Solitaire, moves []engine.Action, seed uint64) {
	t.Helper()
	for _, a := range moves {
		require.NoError(t, g.Do(a))
	}
	require.True(t, g.Won(), "seed %d", seed)
}

// OneDeck checks that the cards in places (NoCard entries left out) and the
// gone ones removed from play make up one deck: each card once, 52 in all.
func OneDeck(t testing.TB, gone int, places ...[]engine.Card) {
	t.Helper()
	var seen [256]bool
	n := 0
	for _, cs := range places {
		for _, c := range cs {
			if c == engine.NoCard {
				continue
			}
			if !c.Valid() {
				t.Fatalf("%v is not a card of the deck", c)
			}
			if seen[c] {
				t.Fatalf("card %v is in two places", c)
			}
			seen[c] = true
			n++
		}
	}
	if n+gone != 52 {
		t.Fatalf("%d cards in play and %d gone", n, gone)
	}
}

// Arrange builds the 52 cards of a one-deck deal for tests: the card named
// in slots at each index, the stock cards from cards[51] down (the first
// named is the first dealt from the stock), and every other place the
// unused cards in deck order.
func Arrange(t testing.TB, slots map[int]string, stock string) []engine.Card {
	t.Helper()
	cards := make([]engine.Card, 52)
	used := map[engine.Card]bool{}
	for i, s := range slots {
		c := engine.MustCards(s)[0]
		require.False(t, used[c], "card %v twice", c)
		cards[i], used[c] = c, true
	}
	for j, c := range engine.MustCards(stock) {
		require.False(t, used[c], "card %v twice", c)
		cards[51-j], used[c] = c, true
	}
	var rest []engine.Card
	for _, c := range engine.Deck() {
		if !used[c] {
			rest = append(rest, c)
		}
	}
	for i := range cards {
		if cards[i] == engine.NoCard {
			cards[i], rest = rest[0], rest[1:]
		}
	}
	return cards
}
