package spider

import "sshuffle/engine"

// fourSuitFirst is the first round's budget: the eight four-suit sets at
// 200k positions each. Budgets up to it (the default one among them) run
// the first round alone, as before the second round was added.
const fourSuitFirst = 1_600_000

// fourSuitSecondNodes is the second round's budget at most; what a budget
// has beyond the first two rounds goes to the third.
const fourSuitSecondNodes = 2_400_000

// solveFourSuits runs three rounds: first the eight four-suit sets sharing
// up to fourSuitFirst positions; then, for the deals none of them wins,
// the searches of fourSuitSecond sharing up to fourSuitSecondNodes more.
// Those make macro moves (expandMacros): carrying a run through empty
// columns in one step takes them to other places than the first round's.
// The rest of the budget goes to the third round (solveJittered).
func solveFourSuits(g *Game, maxNodes int) engine.Result[engine.Action] {
	first := min(maxNodes, fourSuitFirst)
	second := min(maxNodes-first, fourSuitSecondNodes)
	res := solvePortfolio(g, first, fourSuitWeights)
	units := 0
	for _, l := range fourSuitSecond {
		units += l.units
	}
	unit := second / units
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
	if res.Outcome == engine.Undecided {
		more := solveJittered(g, maxNodes-first-second)
		more.Nodes += res.Nodes
		res = more
	}
	return res
}

// fourSuitJitterNodes is each third-round search's share.
const fourSuitJitterNodes = 250_000

// fourSuitJittered are the third round's searches: one weight set of the
// first round, the one that deals cheapest (a row costs 20, not 30), each
// with 0-8 added to a position's cost, drawn from the position's key and a
// seed (weights.jitter), so that ties and near ties fall another way and
// the search goes elsewhere from the same start. Which deals a seed wins
// is a matter of luck, but each wins many that every other search leaves.
// They were tried on the 85 deals of 1-1000 that the first two rounds and
// eight jittered searches of the first and second sets (at 300k positions
// each) left undecided: each of these seeds alone at 250k positions won
// 9-18 of them (seed 3, tried on the 36 of 1-400 only, 10 of those),
// where the first and second sets so jittered won 0-3 of the 36. The seeds
// are the first six tried, in order, none picked over another. After them
// come the first two of the jittered searches of the first and second sets
// that were the third round before (picked greedily on 1-200): on 1-200
// the six alone leave eight deals those had won.
var fourSuitJittered = []weights{
	jittered(fourSuitWeights[6], 8, 3),
	jittered(fourSuitWeights[6], 8, 4),
	jittered(fourSuitWeights[6], 8, 5),
	jittered(fourSuitWeights[6], 8, 6),
	jittered(fourSuitWeights[6], 8, 7),
	jittered(fourSuitWeights[6], 8, 8),
	jittered(fourSuitWeights[1], 3, 1),
	jittered(fourSuitWeights[0], 8, 2),
	// Budgets beyond 6 million positions go on with more seeds of the
	// seventh set, the next six in order (none picked over another).
	// They run only on deals the eight above leave undecided, so they
	// win deals without losing any.
	jittered(fourSuitWeights[6], 8, 9),
	jittered(fourSuitWeights[6], 8, 10),
	jittered(fourSuitWeights[6], 8, 11),
	jittered(fourSuitWeights[6], 8, 12),
	jittered(fourSuitWeights[6], 8, 13),
	jittered(fourSuitWeights[6], 8, 14),
}

func jittered(w weights, jitter int, seed uint64) weights {
	w.jitter, w.seed = jitter, seed
	return w
}

// solveJittered runs the searches of fourSuitJittered in turn, each with
// fourSuitJitterNodes, as many as maxNodes holds.
func solveJittered(g *Game, maxNodes int) engine.Result[engine.Action] {
	res := engine.Result[engine.Action]{Outcome: engine.Undecided}
	for _, w := range fourSuitJittered {
		if maxNodes < fourSuitJitterNodes {
			break
		}
		more := solveWith(g, fourSuitJitterNodes, w)
		maxNodes -= fourSuitJitterNodes
		more.Nodes += res.Nodes
		res = more
		if res.Outcome != engine.Undecided {
			break
		}
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
