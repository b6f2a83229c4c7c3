package solitaire

import (
	"sshuffle/engine"
	"sshuffle/store"
)

// maxSteps bounds the timeline kept with a result (as the hub bounds its
// own): a longer game keeps its first steps and its last one.
const maxSteps = store.MaxTimeline

// step adds the position now to the timeline.
func (s *gameScreen) step() {
	st := store.Step{At: s.elapsed(), Home: homeOf(s.piles()), Moves: s.g.Moves()}
	if len(s.steps) < maxSteps {
		s.steps = append(s.steps, st)
	} else {
		s.steps[len(s.steps)-1] = st
	}
	if s.moved != nil {
		s.moved()
	}
}

// homeOf counts the cards home (on a foundation) or, in a game without
// foundations (Pyramid, TriPeaks), cleared from the layout.
func homeOf(piles []engine.Pile) int {
	n, slots := 0, false
	for _, p := range piles {
		switch p.Kind {
		case engine.Foundation:
			n += len(p.Cards)
		case engine.Slot:
			slots = true
		}
	}
	if slots {
		return totalOf(piles) - onLayout(piles)
	}
	return n
}

func onLayout(piles []engine.Pile) int {
	n := 0
	for _, p := range piles {
		if p.Kind == engine.Slot {
			n += len(p.Cards)
		}
	}
	return n
}

// totalOf is how many cards homeOf counts to: every card, or in a game
// without foundations every place of the layout (an empty place stays a
// pile).
func totalOf(piles []engine.Pile) int {
	n, slots := 0, 0
	for _, p := range piles {
		n += len(p.Cards)
		if p.Kind == engine.Slot {
			slots++
		}
	}
	if slots > 0 {
		return slots
	}
	return n
}
