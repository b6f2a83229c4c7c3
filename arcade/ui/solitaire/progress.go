package solitaire

import (
	"time"

	"sshuffle/engine"
	"sshuffle/store"
)

// maxSteps bounds the timeline kept with a result (as the hub bounds its
// own): a longer game keeps its first steps and its last one.
const maxSteps = store.MaxTimeline

// step adds the position now to the timeline.
func (s *gameScreen) step() {
	st := store.Step{At: s.elapsed(), Home: homeOf(s.piles()), Moves: s.g.Moves()}
	// The time of each move of the history, for a replay at the real
	// pace: an undo drops the undone move's; the moves of a resumed
	// game before this session take the time it was resumed at.
	n := len(s.g.History())
	if n < len(s.times) {
		s.times = s.times[:n]
	}
	for len(s.times) < n {
		s.times = append(s.times, st.At)
	}
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

// moves are the game's moves and their times as a result keeps them: none
// past store.MaxActions.
func (s *gameScreen) moves() ([]engine.Action, []time.Duration) {
	hist := s.g.History()
	if len(hist) == 0 || len(hist) > store.MaxActions {
		return nil, nil
	}
	acts := append([]engine.Action(nil), hist...)
	if len(s.times) != len(acts) {
		return acts, nil
	}
	return acts, append([]time.Duration(nil), s.times...)
}

// options are the game's options as a result keeps them with its moves.
func (s *gameScreen) options(acts []engine.Action) map[string]bool {
	if acts == nil || len(s.opts) == 0 {
		return nil
	}
	out := make(map[string]bool, len(s.opts))
	for k, v := range s.opts {
		out[k] = v
	}
	return out
}
