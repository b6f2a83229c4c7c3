package solitaire

import (
	"fmt"
	"runtime/debug"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/board"
	"sshuffle/engine"
)

// pick is the one gesture: with nothing held it takes up the card (or taps
// the stock); with a card held it drops it on the pile; on the same card
// again it sends it home.
func (s *gameScreen) pick(h board.Hit) tea.Cmd {
	if !h.OK {
		s.sel = board.Hit{}
		return nil
	}
	piles := s.piles()
	if h.Pile < 0 || h.Pile >= len(piles) {
		return nil
	}
	p := piles[h.Pile]
	if s.sel.OK {
		from := s.sel
		s.sel = board.Hit{}
		if from.Pile == h.Pile {
			return s.do(engine.Action{Kind: engine.Auto, From: from.Pile, Index: from.Index})
		}
		return s.do(engine.Action{Kind: engine.Move, From: from.Pile, Index: from.Index, To: h.Pile})
	}
	switch {
	case p.Kind == engine.Stock:
		return s.do(engine.Action{Kind: engine.Draw})
	case len(p.Cards) == 0 || h.Index < 0:
		s.setMsg(ui.ToneWarn, "There is no card there to pick up.")
	case h.Index < p.FaceDown:
		s.setMsg(ui.ToneWarn, "That card is face down.")
	default:
		s.sel = h
	}
	return nil
}

func (s *gameScreen) hitAt(x, y int) board.Hit { return s.canvas.At(x, y-s.boardTop) }

func (s *gameScreen) click(x, y int) tea.Cmd {
	h := s.hitAt(x, y)
	s.msg = ""
	if !h.OK {
		s.sel = board.Hit{}
		return nil
	}
	s.cursor = h
	wasHeld := s.sel.OK
	cmd := s.pick(h)
	if !wasHeld && s.sel.OK {
		s.drag = h // a press that took a card: a release elsewhere drops it
	} else {
		s.drag = board.Hit{}
	}
	return cmd
}

func (s *gameScreen) release(x, y int) tea.Cmd {
	from := s.drag
	s.drag = board.Hit{}
	if !from.OK || !s.sel.OK {
		return nil
	}
	h := s.hitAt(x, y)
	if !h.OK || h.Pile == from.Pile {
		return nil // a plain click: the card stays held
	}
	s.cursor = h
	return s.pick(h)
}

// do applies an action and reports the outcome.
func (s *gameScreen) do(a engine.Action) tea.Cmd {
	err := s.g.Do(a)
	s.changed()
	if err != nil {
		s.setMsg(ui.ToneErr, err.Error())
		return nil
	}
	if !s.keep() {
		s.g.Undo() // taken over just now: the other session has the game
		s.changed()
		return nil
	}
	s.clampCursor()
	s.step()
	if s.g.Won() {
		return s.win()
	}
	if s.info.Game.StuckAside {
		return s.stuckLater()
	}
	if s.g.Stuck() {
		s.setMsg(ui.ToneWarn, stuckText)
	}
	return nil
}

const stuckText = "No move can change this position: u undo, r restart, n new deal."

// replayed rebuilds the game from its deal and history, for work done off
// the screen's goroutine that must not touch the live game.
func (s *gameScreen) replayed() func() (engine.Solitaire, bool) {
	spec, hist, opts, newGame := s.g.Spec(), s.g.History(), s.opts, s.info.Game.New
	return func() (engine.Solitaire, bool) {
		g, err := newGame(spec, opts)
		if err != nil {
			return nil, false
		}
		for _, a := range hist {
			if g.Do(a) != nil {
				return nil, false
			}
		}
		return g, true
	}
}

// stuckLater checks for a stuck position in the background. Only the
// newest check of a session runs: one waiting for the session's search
// slot when a newer move arrives gives up without searching.
func (s *gameScreen) stuckLater() tea.Cmd {
	rebuild, moves := s.replayed(), len(s.g.History())
	b := s.env.Background()
	gen := b.StuckGen.Add(1)
	return recovering(s.env, "stuck check", stuckMsg{screen: s, moves: moves}, func() tea.Msg {
		var m tea.Msg
		s.env.Search("stuck", func() bool { return b.StuckGen.Load() == gen }, func() {
			g, ok := rebuild()
			m = stuckMsg{screen: s, moves: moves, stuck: ok && g.Stuck()}
		})
		return m
	})
}

// recovering runs cmd, and if it panics logs the panic with its stack and
// returns failed instead. Bubble Tea would also catch it, but print it
// raw to the server's stderr and end the player's session; this keeps the
// session and the log's format.
func recovering(e *ui.Env, what string, failed tea.Msg, cmd func() tea.Msg) tea.Cmd {
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				e.Log.Error(what+" panic", "player", e.Player.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				msg = failed
			}
		}()
		return cmd()
	}
}

// hint asks the game for a hint. A solver-backed hint (HintAside) can take a
// moment, so it runs on a copy of the game rebuilt from its history, off the
// screen's goroutine; the screen stays live and drops the answer if the
// position changed meanwhile.
func (s *gameScreen) hint() tea.Cmd {
	if s.hints >= ui.HintsPerGame {
		s.setMsg(ui.ToneWarn, "No hints left in this game.")
		return nil
	}
	if !s.info.Game.HintAside {
		a, why, ok := s.g.Hint()
		s.showHint(a, why, ok)
		return nil
	}
	b := s.env.Background()
	pos := s.position()
	if h, ok := b.Hints[pos]; ok {
		// The same position was searched already: the answer is kept, and
		// showing it again costs no hint.
		if h.Shown && h.OK {
			s.showHintAgain(h.A, h.Why)
			return nil
		}
		b.Hints[pos] = ui.HintAnswer{A: h.A, Why: h.Why, OK: h.OK, Shown: true}
		s.showHint(h.A, h.Why, h.OK)
		return nil
	}
	if !b.HintBusy.CompareAndSwap(false, true) {
		s.setMsg(ui.ToneInfo, "Still looking for a hint…")
		return nil
	}
	rebuild, moves := s.replayed(), len(s.g.History())
	s.setMsg(ui.ToneInfo, "Looking for a hint…")
	return recovering(s.env, "hint", hintMsg{screen: s, moves: moves, pos: pos, failed: true}, func() tea.Msg {
		defer b.HintBusy.Store(false)
		m := hintMsg{screen: s, moves: moves, pos: pos, failed: true}
		s.env.Search("hint", nil, func() {
			m.failed = false
			if g, ok := rebuild(); ok {
				m.a, m.why, m.ok = g.Hint()
			}
		})
		return m
	})
}

// position names the deal and the moves that led to the current position.
func (s *gameScreen) position() string {
	return s.g.Spec().String() + fmt.Sprint(s.g.History())
}

func (s *gameScreen) showHintAgain(a engine.Action, why string) {
	hints := s.hints
	s.showHint(a, why, true)
	s.hints = hints
	s.setMsg(ui.ToneOK, fmt.Sprintf("Hint %d/%d (again): %s", s.hints, ui.HintsPerGame, why))
}

func (s *gameScreen) showHint(a engine.Action, why string, ok bool) {
	if !ok {
		s.setMsg(ui.ToneInfo, "No hint found here (that one was free).")
		return
	}
	s.hints++
	s.sel = board.Hit{}
	piles := s.piles()
	if a.Kind == engine.Draw {
		for i, p := range piles {
			if p.Kind == engine.Stock {
				s.cursor = board.Hit{Pile: i, Index: len(p.Cards) - 1, OK: true}
			}
		}
	} else if a.From >= 0 && a.From < len(piles) {
		s.cursor = board.Hit{Pile: a.From, Index: a.Index, OK: true}
	}
	s.setMsg(ui.ToneOK, fmt.Sprintf("Hint %d/%d: %s", s.hints, ui.HintsPerGame, why))
}
