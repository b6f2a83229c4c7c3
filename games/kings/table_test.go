package kings

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/internal/gametest"
)

// suite runs the checks every table game shares (internal/gametest).
var suite = gametest.Table[Action, View, *Game, state]{
	ViewLegal: View.Legal,
	Name:      Name, MinSeats: MinPlayers, MaxSeats: MaxPlayers, Settings: Settings,
	Strengths: Strengths, NewPlayer: NewPlayer,
	// hard is the slow one: fewer of them keeps the test short.
	SeatMix: []string{"easy", "easy", "normal", "normal", "hard", ""},
	New:     New,
	State:   func(g *Game) state { return g.st },
	Clone: func(g *Game) *Game {
		h := *g
		h.hist = slices.Clone(g.hist)
		return &h
	},
	Places: func(g *Game, seat int) (seen, hidden [][]engine.Card) {
		st := &g.st
		for s := range int(st.players) {
			if s == seat {
				seen = append(seen, st.hands[s].cards())
			} else {
				hidden = append(hidden, st.hands[s].cards())
			}
		}
		for p := range st.board {
			seen = append(seen, st.board[p].cards())
		}
		return seen, append(hidden, st.stock[:st.nStock])
	},
	Packs: 1,
	Blind: blind,
	Odd: func(_ *Game, _ int, rng *engine.RNG) []Action {
		var out []Action
		for range 2 {
			a := Action{Do: Kind(rng.Intn(4)), Card: engine.CardFromIndex(rng.Intn(52)), From: Place(rng.Intn(9)), To: Place(rng.Intn(9))}
			// Legal lists actions in their canonical form; Do reads only
			// the fields of the kind.
			out = append(out, a.canonical())
		}
		return out
	},
	Record: func(g *Game, seats []string) any { return g.Record(seats) },
	Replay: Replay,
	Check: func(t testing.TB, g *Game) {
		checkCards(t, g)
		checkViews(t, g)
		// The players' own generator offers only legal actions and, with
		// equal empty places folded, misses none.
		s := g.Turn()
		if s == engine.NoSeat {
			return
		}
		legal := g.Legal(s)
		v := g.View(s)
		p := apos{b: v.boardOf(), hand: maskOf(v.Hand)}
		moves := p.moves(g.kingsAtOnce, nil)
		for _, b := range moves {
			require.NoError(t, g.check(s, b), "generated %v", b)
		}
		require.Equal(t, len(moves) == 0, len(legal) == 1 && legal[0].Do == End || len(legal) == 0)
	},
	MaxActions: maxActions,
	ExactViews: true,
}

func TestRandomPlay(t *testing.T) {
	games := 1000
	if raceEnabled || testing.Short() {
		games = 150
	}
	suite.RandomPlay(t, games)
}

func TestChoiceIgnoresUnseen(t *testing.T) {
	games := 100
	if raceEnabled || testing.Short() {
		games = 25
	}
	suite.ChoiceIgnoresUnseen(t, games, 4)
}
