package spider

import (
	"fmt"

	"sshuffle/engine"
)

// Hint suggests one move from what the player can see: it works on a copy
// of the table with every face-down card blanked out, and never looks at
// the stock's cards, so hidden cards cannot change it.
//
// It prefers, in order of weight: completing a run, turning up a card
// (from the column with fewest face-down cards), emptying a column, and
// joining a group to a card of its own suit. Moves that only trade one
// place for an equal one are not suggested on their own, but when no single
// move helps, the first move of the shortest sequence that turns up a card,
// completes a run or empties a column is (lookAhead). With nothing useful
// it suggests dealing a row, or filling an empty column so a row can be
// dealt.
func (g *Game) Hint() (engine.Action, string, bool) {
	p := g.p
	s := 0
	for c := 0; c < numCols; c++ {
		for i := 0; i < int(p.down[c]); i++ {
			p.cards[s+i] = engine.NoCard
		}
		s += int(p.n[c])
	}
	best, bestScore := engine.Action{}, 0
	why := ""
	p.legalMoves(func(from, i, to int) {
		sc, reason := hintScore(&p, from, i, to)
		if sc > bestScore {
			best, bestScore, why = mv0(from, i, to), sc, reason
		}
	})
	if bestScore > 0 {
		return best, why, true
	}
	if a, why, ok := lookAhead(&p); ok {
		return a, why, true
	}
	if p.canDeal() {
		return engine.Action{Kind: engine.Draw}, "Deal a row: no move improves the table", true
	}
	if p.rows > 0 && p.tableCount() >= numCols {
		// Fill an empty column with a card that is not held in a suited
		// group, taken from the tallest face-up part.
		bestLen := -1000
		p.legalMoves(func(from, i, to int) {
			if p.n[to] != 0 || i != int(p.n[from])-1 || p.n[from] < 2 {
				return
			}
			cs := p.col(from)
			l := int(p.n[from]) - int(p.down[from])
			if i > int(p.down[from]) && follows(cs[i-1], cs[i]) {
				l -= 100
			}
			if l > bestLen {
				best, bestLen = mv0(from, i, to), l
			}
		})
		if bestLen > -1000 {
			return best, "Fill the empty column so that you can deal a row", true
		}
	}
	return engine.Action{}, "", false
}

func mv0(from, i, to int) engine.Action {
	return engine.Action{Kind: engine.Move, From: PileColumn + from, Index: i, To: PileColumn + to}
}

// hintScore values a move by what it does to the seen table; 0 or less
// means it is not worth suggesting.
func hintScore(p *pos, from, i, to int) (int, string) {
	cs := p.col(from)
	lead := cs[i]
	group := groupName(cs[i:])
	t := p.top(to)
	score := 0
	why := ""
	var under engine.Card
	if i > int(p.down[from]) {
		under = cs[i-1]
	}
	switch {
	case under != engine.NoCard && follows(under, lead):
		score -= 60 // splits a suited group
	case under != engine.NoCard && under.Rank() == lead.Rank()+1:
		score -= 10 // leaves a link by rank
	}
	if t != engine.NoCard && t.Suit() == lead.Suit() {
		score += 30
		why = fmt.Sprintf("Move %s onto %s: same suit", group, t)
	} else if t != engine.NoCard {
		score += 10
		why = fmt.Sprintf("Move %s onto %s", group, t)
	} else {
		score -= 40 // uses up an empty column
		why = fmt.Sprintf("Move %s into the empty column", group)
	}
	q := *p
	if q.move(from, i, to) > 0 {
		return 1000, fmt.Sprintf("Move %s onto %s: it completes a run", group, t)
	}
	switch {
	case i > 0 && i == int(p.down[from]):
		score += 100 - 2*int(p.down[from])
		why += " to turn up a card"
	case i == 0 && t != engine.NoCard:
		score += 80
		why += " to empty a column"
	}
	// A move between two equal places is not progress.
	if score <= 0 {
		return 0, ""
	}
	return score, why
}

// lookAheadBudget caps lookAhead's positions: a few milliseconds.
const lookAheadBudget = 4000

// lookAhead searches breadth first over tableau moves on the seen table p
// (face-down cards blanked) for the nearest position with a card turned
// up, a run completed or more empty columns, and suggests the first move
// of the way there. A position with a card turned up is not searched on:
// the card is not seen yet.
func lookAhead(p *pos) (engine.Action, string, bool) {
	type node struct {
		p     pos
		first engine.Action
		group string
		moves int
	}
	down, runs, empty := p.faceDown(), p.runs, p.empties()
	seen := engine.NewSeenSet(lookAheadBudget)
	seen.Add(p.key())
	queue := []node{{p: *p}}
	for i := 0; i < len(queue) && len(queue) < lookAheadBudget; i++ {
		cur := &queue[i]
		var goal string
		var found node
		cur.p.legalMoves(func(from, idx, to int) {
			if goal != "" || (idx == 0 && cur.p.n[to] == 0) {
				return // moving a whole column into an empty one changes nothing
			}
			next := node{p: cur.p, first: cur.first, group: cur.group, moves: cur.moves + 1}
			if i == 0 {
				next.first = mv0(from, idx, to)
				next.group = groupName(cur.p.col(from)[idx:])
				if cur.p.n[to] == 0 {
					next.group += " into the empty column"
				} else {
					next.group += " onto " + cur.p.top(to).String()
				}
			}
			next.p.move(from, idx, to)
			switch {
			case next.p.runs > runs:
				goal = "complete a run"
			case next.p.faceDown() < down:
				goal = "turn up a card"
			case next.p.empties() > empty:
				goal = "empty a column"
			}
			if goal != "" {
				found = next
				return
			}
			if seen.Add(next.p.key()) {
				queue = append(queue, next)
			}
		})
		if goal != "" {
			return found.first, fmt.Sprintf("Move %s: with %d moves in all, that lets you %s", found.group, found.moves, goal), true
		}
	}
	return engine.Action{}, "", false
}
