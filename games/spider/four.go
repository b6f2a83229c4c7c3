package spider

import "sshuffle/engine"

// fourSuitFirst is the first round's budget: the eight four-suit sets at
// 200k positions each. Budgets up to it (the default one among them) run
// the first round alone, as before the second round was added.
const fourSuitFirst = 1_600_000

// solveFourSuits runs two rounds: first the eight four-suit sets sharing
// up to fourSuitFirst positions, then, for the deals none of them wins,
// the searches of fourSuitSecond sharing the rest of the budget. Those
// make macro moves (expandMacros): carrying a run through empty columns
// in one step takes them to other places than the first round's.
func solveFourSuits(g *Game, maxNodes int) engine.Result[engine.Action] {
	first := min(maxNodes, fourSuitFirst)
	res := solvePortfolio(g, first, fourSuitWeights)
	units := 0
	for _, l := range fourSuitSecond {
		units += l.units
	}
	unit := (maxNodes - first) / units
	for _, l := range fourSuitSecond {
		if res.Outcome != engine.Undecided || unit == 0 {
			break
		}
		w := l.w
		w.macros = true
		var more engine.Result[engine.Action]
		if l.climb {
			more = solveClimb(g, l.units*unit, w)
		} else {
			more = solveWith(g, l.units*unit, w)
		}
		more.Nodes += res.Nodes
		res = more
	}
	return res
}

// fourSuitSecond is the second round for four suits, picked greedily on
// the 28 deals of 1-30 and 1001-1060 that the first round leaves
// undecided, each candidate alone at 250k positions (the two-suit sets
// with macro moves, best-first and climbing): these seven win 12 of them,
// all within 220k positions. At 4 million positions in all a unit is
// 104k.
var fourSuitSecond = []struct {
	w     weights
	units int
	climb bool
}{
	{suitedWeights[15], 4, true},
	{suitedWeights[15], 4, false},
	{suitedWeights[10], 3, false},
	{suitedWeights[13], 3, false},
	{suitedWeights[1], 3, false},
	{suitedWeights[0], 3, false},
	{suitedWeights[12], 3, false},
}
