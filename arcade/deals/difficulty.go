package deals

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/store"
)

// Level is a named step of difficulty.
type Level int

const (
	Unrated  Level = iota
	Easy           // the solver walked straight through
	Medium         // some searching
	Hard           // a lot of searching
	VeryHard       // a great deal, or more than the solver's budget
)

func (l Level) String() string {
	return [...]string{"unrated", "easy", "medium", "hard", "very hard"}[l]
}

// Difficulty is a deal as the solver found it: the length of its solution
// and how many positions it searched to find it. The level comes from how
// many positions the search took per move of the solution: a deal the
// search walks straight through is easy, one it must back out of again
// and again is hard.
type Difficulty struct {
	Level     Level  `json:"level"`
	Name      string `json:"name"` // Level's name: "easy", "medium", "hard", "very hard"
	Moves     int    `json:"solution_moves,omitempty"`
	Positions int    `json:"positions_searched"`
	// Solved is false when the solver gave up within its budget (the deal
	// is rated very hard) or proved the deal cannot be won.
	Solved   bool `json:"solved"`
	Winnable bool `json:"winnable"` // false only when the search proved it cannot be won
}

// Text is the difficulty in a few words, for the screens.
func (d Difficulty) Text() string {
	switch {
	case d.Level == Unrated:
		return "rating…"
	case !d.Winnable:
		return "cannot be won (the solver searched it through)"
	case !d.Solved:
		return fmt.Sprintf("%s (the solver gave up after %d positions)", d.Name, d.Positions)
	}
	return fmt.Sprintf("%s (solver: %d moves, %d positions searched)", d.Name, d.Moves, d.Positions)
}

// levelOf is the step for a search of nodes positions to a solution of
// moves moves.
func levelOf(moves, nodes int) Level {
	per := float64(nodes) / float64(max(moves, 1))
	switch {
	case per < 2:
		return Easy
	case per < 50:
		return Medium
	case per < 1000:
		return Hard
	}
	return VeryHard
}

// Rate runs the game's solver on spec with its usual budget. It takes
// up to about two seconds of one core, in short stretches that let the
// server's other work go first (see solveAside); callers run it aside.
func Rate(g games.Entry, spec engine.Spec) (Difficulty, bool) {
	return rateUnless(g, spec, nil)
}

// rateUnless is Rate, given up (ok false) once done closes where the
// solver can stop.
func rateUnless(g games.Entry, spec engine.Spec, done <-chan struct{}) (Difficulty, bool) {
	if g.Game == nil || g.Game.Solve == nil {
		return Difficulty{}, false
	}
	r, ok := solveAside(g.Game, spec, g.Game.Nodes, done)
	if !ok {
		return Difficulty{}, false
	}
	return difficultyOf(r), true
}

// difficultyOf is the rating of a search's result.
func difficultyOf(r engine.Result[engine.Action]) Difficulty {
	d := Difficulty{Positions: r.Nodes, Winnable: r.Outcome != engine.Impossible}
	switch r.Outcome {
	case engine.Solved:
		d.Solved, d.Moves, d.Level = true, len(r.Moves), levelOf(len(r.Moves), r.Nodes)
	default:
		d.Level = VeryHard
	}
	d.Name = d.Level.String()
	return d
}

// solveAside runs g's solver on spec, pausing between short stretches
// where the solver can: Go has no priorities, and with one core for the
// whole server (GOMAXPROCS=1) a search left alone holds it for a whole
// preemption slice (10 ms) at a time while every screen waits. Yielding
// puts the search behind whatever else is ready, so it takes only the
// time the screens leave. Once done closes, a paced search stops there
// (ok false): nobody wants its answer any more.
func solveAside(g *games.Game, spec engine.Spec, nodes int, done <-chan struct{}) (engine.Result[engine.Action], bool) {
	if g.SolvePaced != nil {
		return g.SolvePaced(spec, nodes, func() bool {
			runtime.Gosched()
			return !unwanted(done)
		})
	}
	return g.Solve(spec, nodes), true
}

// ratings keeps the difficulty of every deal rated, by spec; today's deals
// are few, so the map stays small (it is emptied when it grows past them).
type ratings struct {
	mu   sync.Mutex
	done map[engine.Spec]Difficulty
	busy map[engine.Spec]chan struct{}
}

const maxRatings = 256

// Rated is the kept difficulty of spec, if it was rated.
func (p *Pools) Rated(spec engine.Spec) (Difficulty, bool) {
	if p == nil {
		return Difficulty{}, false
	}
	p.rate.mu.Lock()
	defer p.rate.mu.Unlock()
	d, ok := p.rate.done[spec]
	return d, ok
}

// Difficulty rates spec (once: concurrent callers wait for the one search,
// and later ones get the kept answer). It runs the search in the server's
// search slots when the pools share them, so ratings never crowd out the
// players' hints; ok is false when the game has no solver, or the search
// was given up because done closed first (the rating is no longer
// wanted: a race left its lobby before it was rated).
func (p *Pools) Difficulty(g games.Entry, spec engine.Spec, done <-chan struct{}) (Difficulty, bool) {
	if p == nil {
		return Rate(g, spec)
	}
	r := &p.rate
	for {
		if unwanted(done) {
			return Difficulty{}, false
		}
		r.mu.Lock()
		if d, ok := r.done[spec]; ok {
			r.mu.Unlock()
			return d, true
		}
		if wait, ok := r.busy[spec]; ok {
			r.mu.Unlock()
			select {
			case <-wait:
			case <-done:
				return Difficulty{}, false
			}
			continue
		}
		if r.busy == nil {
			r.busy = map[engine.Spec]chan struct{}{}
		}
		ch := make(chan struct{})
		r.busy[spec] = ch
		r.mu.Unlock()

		var d Difficulty
		ok := false
		run := func() {
			// A slot and done may come at once, and select picks
			// either: done is asked again once the slot is had.
			if !unwanted(done) {
				d, ok = rateUnless(g, spec, done)
			}
		}
		if p.bg != nil {
			p.bg.Run("difficulty", done, run)
		} else {
			run()
		}
		r.mu.Lock()
		delete(r.busy, spec)
		if ok {
			r.keepLocked(spec, d)
		}
		r.mu.Unlock()
		close(ch)
		return d, ok
	}
}

// unwanted says whether done has closed: the rating is no longer wanted.
func unwanted(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// keep keeps the rating of spec.
func (r *ratings) keep(spec engine.Spec, d Difficulty) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.keepLocked(spec, d)
}

func (r *ratings) keepLocked(spec engine.Spec, d Difficulty) {
	if r.done == nil || len(r.done) >= maxRatings {
		r.done = map[engine.Spec]Difficulty{}
	}
	r.done[spec] = d
}

// RateToday rates today's deal of every game with a solver, one at a time
// in the search slots; the server runs it in the background so that the
// menu and the daily command find the ratings made.
func (p *Pools) RateToday(ctx context.Context, st store.Dailies, c *games.Catalogue, now time.Time) {
	for _, g := range c.Entries() {
		if ctx.Err() != nil {
			return
		}
		if !g.Playable() || g.Game.Solve == nil {
			continue
		}
		if spec, _, err := Today(ctx, st, p, g, now); err == nil {
			p.Difficulty(g, spec, ctx.Done())
		}
	}
}
