package spite

import (
	"fmt"
	"slices"

	"sshuffle/engine"
)

// Strengths are the computer players NewPlayer makes.
var Strengths = []string{"easy", "normal", "hard"}

// NewPlayer returns a computer player of the given strength with its own
// seeded randomness. It sees views only.
func NewPlayer(strength string, seed uint64) (engine.Player[Action, View], error) {
	rng := engine.NewRNG(seed)
	switch strength {
	case "easy":
		return &easy{rng: rng}, nil
	case "normal":
		return &normal{}, nil
	case "hard":
		return newHard(rng, hardSamples), nil
	}
	return nil, fmt.Errorf("there is no %q computer player: try easy, normal or hard", strength)
}

// easy plays its pay-off top whenever it can, and otherwise plays a
// random card that fits or ends its turn with a random discard, each half
// the time: a beginner who sees the goal but not the way there.
type easy struct{ rng *engine.RNG }

func (p *easy) Choose(v View) Action {
	as := legalFromView(v)
	if len(as) == 0 {
		return Action{}
	}
	var plays, ends []Action
	for _, a := range as {
		switch {
		case a.Do == Play && a.From == FromPayoff:
			return a
		case a.Do == Play:
			plays = append(plays, a)
		default:
			ends = append(ends, a)
		}
	}
	if len(plays) > 0 && (len(ends) == 0 || p.rng.Intn(2) == 0) {
		return plays[p.rng.Intn(len(plays))]
	}
	return ends[p.rng.Intn(len(ends))]
}

// normal is a steady club player without foresight: the pay-off top when
// it fits, a King only when it lets the pay-off top go next, every other
// card that fits (side stacks first, to free what lies under), and a
// discard that builds side stacks downward. It never thinks about what it
// leaves the opponent.
type normal struct{}

func (normal) Choose(v View) Action {
	as := legalFromView(v)
	if len(as) == 0 {
		return Action{}
	}
	me := v.Players[v.Seat]
	top := me.PayoffTop
	for _, a := range as {
		if a.Do == Play && a.From == FromPayoff {
			return a
		}
	}
	card := func(a Action) engine.Card {
		if a.From == FromSide {
			st := me.Sides[a.Side]
			return st[len(st)-1]
		}
		return a.Card
	}
	var best Action
	bestRank := engine.Rank(99)
	for _, a := range as {
		if a.Do != Play {
			continue
		}
		c := card(a)
		if c.Rank() == engine.King {
			// Worth it only if the pay-off top follows at once.
			if top.Rank() != engine.King && v.Need(a.To)+1 == top.Rank() {
				return a
			}
			continue
		}
		if a.From == FromSide {
			return a
		}
		if c.Rank() < bestRank {
			best, bestRank = a, c.Rank()
		}
	}
	if bestRank != 99 {
		return best
	}
	if len(v.Hand) == 0 {
		return Action{Do: Pass}
	}
	// Discard the highest card that is not a King onto the side stack that
	// suits it best: one rank above it or the same rank, else an empty
	// stack, else the stack with the highest top.
	c := v.Hand[0]
	for _, h := range v.Hand {
		if c.Rank() == engine.King || (h.Rank() != engine.King && h.Rank() > c.Rank()) {
			c = h
		}
	}
	bestSide, bestScore := 0, -1000
	for s, st := range me.Sides {
		score := 0
		switch {
		case len(st) == 0:
			score = 50
		case st[len(st)-1].Rank() == c.Rank()+1 || st[len(st)-1].Rank() == c.Rank():
			score = 100
		default:
			score = int(st[len(st)-1].Rank())
		}
		if score > bestScore {
			bestSide, bestScore = s, score
		}
	}
	return DiscardTo(c, bestSide)
}

// handRanks counts cards by rank.
type rankCount [14]int8

func countRanks(cs []engine.Card) rankCount {
	var n rankCount
	for _, c := range cs {
		n[c.Rank()]++
	}
	return n
}

// unseen lists the cards seat v.Seat cannot see: two packs less every card
// in its view. They are the opponent's hand, the stock and the pay-off
// cards under the tops, in some order the seat does not know.
func unseen(v View) []engine.Card {
	var n [64]int
	for _, c := range engine.Deck() {
		n[c] = 2
	}
	take := func(cs []engine.Card) {
		for _, c := range cs {
			n[c]--
		}
	}
	take(v.Hand)
	take(v.Recycle)
	for _, st := range v.Stacks {
		take(st)
	}
	for _, p := range v.Players {
		if p.PayoffTop != engine.NoCard {
			n[p.PayoffTop]--
		}
		for _, st := range p.Sides {
			take(st)
		}
	}
	var out []engine.Card
	for _, c := range engine.Deck() {
		for range n[c] {
			out = append(out, c)
		}
	}
	return slices.Clip(out)
}
