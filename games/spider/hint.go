package spider

import "sshuffle/engine"

func (g *Game) Hint() (engine.Action, string, bool) { return engine.Action{}, "", false }
