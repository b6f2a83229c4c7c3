package freecell

import "sshuffle/engine"

// Hint is filled in by the solver.
func (g *Game) Hint() (engine.Action, string, bool) { return engine.Action{}, "", false }
