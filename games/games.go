// Package games lists the solitaires by name, for the command line and the
// arcade: one place that knows which packages exist and how to reach their
// deal text and solver.
package games

import (
	"sshuffle/engine"
	"sshuffle/games/freecell"
	"sshuffle/games/klondike"
	"sshuffle/games/pyramid"
	"sshuffle/games/spider"
	"sshuffle/games/tripeaks"
)

// Solver is a package's solver: it sees every card.
type Solver func(engine.Spec, int) engine.Result[engine.Action]

// Entry is one solitaire.
type Entry struct {
	// Text prints a deal's opening layout.
	Text func(engine.Spec) (string, error)
	// Solve and Nodes: the solver and a budget (in positions) that decides
	// nearly every deal in about two seconds of one core at most (of each
	// core, for SolveOn).
	Solve Solver
	Nodes int
	// SolveOn searches one deal on several goroutines, with a budget
	// counting the positions of all of them; nil where the solver has no
	// such search.
	SolveOn func(spec engine.Spec, nodes, threads int) engine.Result[engine.Action]
}

// All maps a game's name (engine.Spec.Game) to its entry.
var All = map[string]Entry{
	"klondike": {Text: klondike.Text, Solve: klondike.Solve, Nodes: klondike.DefaultNodes, SolveOn: klondike.SolveOn},
	"freecell": {Text: freecell.Text, Solve: freecell.Solve, Nodes: 2_000_000},
	"spider":   {Text: spider.Text, Solve: spider.Solve, Nodes: spider.DefaultNodes},
	"tripeaks": {Text: tripeaks.Text, Solve: tripeaks.Solve, Nodes: 1_000_000},
	"pyramid":  {Text: pyramid.Text, Solve: pyramid.Solve, Nodes: 1_000_000},
}
