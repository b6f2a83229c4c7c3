package arcade

import (
	"sshuffle/engine"
)

// gameInfo is one line of the menu.
type gameInfo struct {
	Title   string
	Game    string
	Variant string
	// New deals a game with the player's options; nil means the game is
	// listed but not built yet.
	New     func(engine.Spec, options) (engine.Solitaire, error)
	Options []option
	// Points: the game has a points table, so leaderboards rank by points
	// before time.
	Points bool
	// Solve is the game's solver (it sees every card); WinnableOnly means
	// the "Winnable deals only" option applies, dealing only solver-won
	// deals when on.
	Solve        solveFunc
	WinnableOnly bool
	Blurb        string
	Rules        string
	Strategy     string
}

// Key is the game-and-settings key used for stats, saves and boards.
func (g gameInfo) Key() string {
	return engine.Spec{Game: g.Game, Variant: g.Variant}.Key()
}

// adapt turns a package's typed constructor into the interface form without
// the typed-nil trap (a nil *Game inside a non-nil interface).
func adapt[G engine.Solitaire](f func(engine.Spec) (G, error)) func(engine.Spec, options) (engine.Solitaire, error) {
	return func(s engine.Spec, _ options) (engine.Solitaire, error) {
		g, err := f(s)
		if err != nil {
			return nil, err
		}
		return g, nil
	}
}

func findGame(key string) (gameInfo, bool) {
	for _, g := range catalogue {
		if g.Key() == key {
			return g, true
		}
	}
	return gameInfo{}, false
}
