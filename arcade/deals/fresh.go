package deals

import (
	"math/rand/v2"

	"sshuffle/engine"
	"sshuffle/games"
)

// NewSeed picks a random deal from the game's range.
func NewSeed(g games.Entry) uint64 {
	r := g.Game.Deals
	for {
		if n := r.First + rand.Uint64N(r.Last-r.First+1); r.Contains(n) {
			return n
		}
	}
}

// Fresh picks the next deal of a game for a player: a solver-won one when
// the game offers that and the player has it on.
func Fresh(pools *Pools, g games.Entry, opts games.Options) engine.Spec {
	if g.Variant.Winnable && opts.On(games.Winnable.Key) {
		if spec, ok := pools.Take(g.Key()); ok {
			return spec
		}
	}
	return g.Spec(NewSeed(g))
}
