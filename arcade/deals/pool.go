// Package deals supplies the deals players are dealt: a random one from a
// game's range, a solver-won one from the pools the background search keeps
// filled, and today's deal of each game, chosen once and kept in the store.
package deals

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"sync"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/reports"
)

// wonSeeds are the deals a kept solver report lists as won.
func wonSeeds(key string) []uint64 {
	r, ok := reports.For(key)
	if !ok {
		return nil
	}
	return r.Won
}

// solveFunc is a game package's solver: it sees every card.
type solveFunc = games.Solver

// poolSize is how many solver-won deals each pool keeps ready.
const poolSize = 16

// Pools keeps, per game and settings, a few deals that the solver has won,
// so that "New game" with "Winnable deals only" on never waits. One
// goroutine refills them all, one deal at a time, so it never takes more
// than one core from the players. Until a pool has its first deal, a deal
// comes from the game's list of solver-won seeds kept in the repo.
type Pools struct {
	mu    sync.Mutex
	pools map[string]*pool
	wake  chan struct{}
	log   *slog.Logger
	bg    Runner // shared with the players' hints; nil: no cap
	rate  ratings
}

// Runner runs a search when the server has room for it (see
// ui.Searcher): it returns false without running fn once done is closed.
type Runner interface {
	Run(kind string, done <-chan struct{}, fn func()) bool
}

// Share makes the pools' searches wait for the server's search slots, the
// ones the players' hints use, so the pools never crowd the players out.
func (p *Pools) Share(r Runner) { p.bg = r }

type pool struct {
	entry    games.Entry
	spec     engine.Spec // game and variant; the seed varies
	solve    solveFunc
	budget   int // positions per try
	ready    []readyDeal
	fallback []uint64
}

// readyDeal is a deal the solver won, with the rating that search gives it
// (the search Rate runs), kept for whoever takes the deal: a race on it
// shows its difficulty at once.
type readyDeal struct {
	seed uint64
	d    Difficulty
}

// NewPools makes a pool for every entry of the catalogue that deals
// winnable deals.
func NewPools(c *games.Catalogue, log *slog.Logger) *Pools {
	p := &Pools{pools: map[string]*pool{}, wake: make(chan struct{}, 1), log: log}
	for _, g := range c.Entries() {
		if g.Game.Solve == nil || !g.Variant.Winnable {
			continue
		}
		p.pools[g.Key()] = &pool{
			entry: g,
			spec:  engine.Spec{Game: g.Game.Name, Variant: g.Variant.Name, Winnable: true},
			solve: func(s engine.Spec, n int) engine.Result[engine.Action] {
				r, _ := solveAside(g.Game, s, n, nil)
				return r
			},
			budget:   g.Game.Nodes,
			fallback: wonSeeds(g.Key()),
		}
	}
	return p
}

// Take returns a solver-won deal of the key's game, at once.
func (p *Pools) Take(key string) (engine.Spec, bool) {
	if p == nil {
		return engine.Spec{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	pl := p.pools[key]
	if pl == nil {
		return engine.Spec{}, false
	}
	spec := pl.spec
	switch {
	case len(pl.ready) > 0:
		spec.Seed = pl.ready[0].seed
		p.rate.keep(spec, pl.ready[0].d)
		pl.ready = pl.ready[1:]
	case len(pl.fallback) > 0:
		spec.Seed = pl.fallback[rand.IntN(len(pl.fallback))]
	default:
		return engine.Spec{}, false
	}
	select {
	case p.wake <- struct{}{}:
	default:
	}
	return spec, true
}

// Run refills the pools until ctx ends.
func (p *Pools) Run(ctx context.Context) {
	for {
		key, pl := p.hungriest()
		if pl == nil {
			select {
			case <-ctx.Done():
				return
			case <-p.wake:
				continue
			}
		}
		if ctx.Err() != nil {
			return
		}
		spec := pl.spec
		spec.Seed = NewSeed(pl.entry)
		var r engine.Result[engine.Action]
		if !p.run(ctx, func() { r = pl.solve(spec, pl.budget) }) {
			return
		}
		if r.Outcome != engine.Solved {
			continue
		}
		p.mu.Lock()
		pl.ready = append(pl.ready, readyDeal{seed: spec.Seed, d: difficultyOf(r)})
		p.mu.Unlock()
		p.log.Debug("winnable deal found", "key", key, "seed", spec.Seed, "nodes", r.Nodes)
	}
}

// hungriest is the pool with the fewest deals ready, if any is short.
func (p *Pools) hungriest() (string, *pool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var bestKey string
	var best *pool
	for k, pl := range p.pools {
		if len(pl.ready) < poolSize && (best == nil || len(pl.ready) < len(best.ready) || (len(pl.ready) == len(best.ready) && k < bestKey)) {
			bestKey, best = k, pl
		}
	}
	return bestKey, best
}

// Ready reports how many deals the key's pool holds, for tests and logs.
func (p *Pools) Ready(key string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pl := p.pools[key]; pl != nil {
		return len(pl.ready)
	}
	return 0
}

func (p *Pools) run(ctx context.Context, fn func()) bool {
	if p.bg == nil {
		fn()
		return true
	}
	return p.bg.Run("pool", ctx.Done(), fn)
}
