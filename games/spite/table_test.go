package spite

import (
	"slices"
	"testing"

	"sshuffle/engine"
	"sshuffle/internal/gametest"
)

// suite runs the checks every table game shares (internal/gametest).
var suite = gametest.Table[Action, View, *Game, state]{
	ViewLegal: View.Legal,
	Name:      Name, MinSeats: MinPlayers, MaxSeats: MaxPlayers, Settings: Settings,
	Strengths: Strengths, NewPlayer: NewPlayer,
	New:   New,
	State: func(g *Game) state { return g.st },
	Clone: func(g *Game) *Game {
		h := *g
		h.history = slices.Clone(g.history)
		return &h
	},
	Places: func(g *Game, seat int) (seen, hidden [][]engine.Card) { return g.st.places(seat) },
	Packs:  2,
	Blind: func(g *Game, seat int, rng *engine.RNG) (*Game, bool) {
		if seat == engine.Spectator {
			return nil, false
		}
		return blind(g, seat, rng), true
	},
	Odd: func(g *Game, seat int, _ *engine.RNG) []Action {
		return append(slices.Clone(oddActions), DiscardTo(g.st.hand[1-seat][0], 0))
	},
	Record:     func(g *Game, seats []string) any { return g.Record(seats) },
	Replay:     Replay,
	MaxActions: maxActions,
	MayNotEnd:  true,
	ExactViews: true,
}

func TestRandomPlay(t *testing.T) {
	games := 2000
	if testing.Short() || raceOn {
		games = 300
	}
	suite.RandomPlay(t, games)
}

func TestChoiceIgnoresUnseen(t *testing.T) {
	games := 150
	if testing.Short() || raceOn {
		games = 40
	}
	suite.ChoiceIgnoresUnseen(t, games, 3)
}
