package solitaire

import (
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/save"
	"sshuffle/arcade/ui"
	"sshuffle/store"
)

// result is the game as the store records it; a game that is not won is
// recorded only when the player leaves it for another deal (abandoned).
func (s *gameScreen) result(won bool) store.Result {
	spec := s.g.Spec()
	acts, times := s.moves()
	return store.Result{
		Actions: acts, Times: times, Options: s.options(acts),
		Account: s.env.Player.ID, Name: s.env.Player.Name,
		Spec: spec.String(), Key: spec.Key(), Won: won,
		Score: s.g.Score(), Moves: s.g.Moves(), Elapsed: s.elapsed().Round(time.Second),
		Finished: s.env.Now().UTC(), Daily: s.daily, Day: s.day, ByPoints: s.info.Game.Points,
		Abandoned: !won, Total: s.total, Timeline: s.steps,
	}
}

// record stores a finished game; it returns only once the store has it.
func (s *gameScreen) record(won bool) error {
	if s.env.GameFinished != nil {
		s.env.GameFinished(s.info.Key(), won)
	}
	if s.env.Player.Guest {
		return nil
	}
	r := s.result(won)
	if err := s.env.Store.RecordResult(s.env.Ctx(), r); err != nil {
		s.env.Log.Error("recording result", "account", r.Account, "spec", r.Spec, "error", err.Error())
		return err
	}
	if err := s.env.Store.DeleteSave(s.env.Ctx(), s.env.Player.ID, s.saveKey()); err != nil && !errors.Is(err, store.ErrNotFound) {
		s.env.Log.Warn("deleting save", "error", err.Error())
	}
	return nil
}

func (s *gameScreen) win() tea.Cmd {
	s.done = true
	if s.moved != nil {
		return nil // the race records it
	}
	defer s.hold.Release()
	r := s.result(true)
	err := s.record(true)
	return s.env.Go(ui.Route{Page: ui.Won, Game: s.info, Result: r, Err: err})
}

// redeal abandons the current game (recorded as played if a move was made)
// and asks for r, a deal of this game.
func (s *gameScreen) redeal(r ui.Route) tea.Cmd {
	// Deal first: a deal number the game refuses must leave this game as
	// it was, not count it as lost.
	if _, err := s.info.Game.New(r.Spec, ui.LoadOptions(s.env, s.info)); err != nil {
		s.setMsg(ui.ToneErr, err.Error())
		return nil
	}
	if s.g.Moves() > 0 {
		_ = s.record(false)
	} else if s.saved {
		// Undone back to move 0: the save of this game must not outlive it.
		if err := s.env.Store.DeleteSave(s.env.Ctx(), s.env.Player.ID, s.saveKey()); err != nil {
			s.env.Log.Warn("deleting save", "error", err.Error())
		}
	}
	s.done = true
	s.hold.Release()
	r.Page, r.Game = ui.Play, s.info
	return s.env.Go(r)
}

// restart deals the same deal again; today's deal stays today's deal.
func (s *gameScreen) restart() tea.Cmd {
	return s.redeal(ui.Route{Spec: s.g.Spec(), Daily: s.daily, Day: s.day})
}

func (s *gameScreen) leave() tea.Cmd {
	err := s.trySave()
	s.done = true
	r := ui.Route{Page: ui.Menu}
	if err != nil {
		r.Note = notSaved
	}
	return s.env.Go(r)
}

// notSaved is what a player is told when the store refused a write; the
// log has the reason.
const notSaved = "Not saved: the server could not store your game just now (the error is logged). Try again later."

// Save keeps a game in progress so the player finds it again.
func (s *gameScreen) Save() { _ = s.trySave() }

// trySave saves the game exactly as it is: at move 0 too, when an older
// save of it would come back instead.
func (s *gameScreen) trySave() error {
	if s.done || s.env.Player.Guest || s.g.Won() {
		return nil
	}
	defer s.hold.Release()
	if len(s.g.History()) == 0 && !s.saved {
		return nil
	}
	data, err := save.Encode(s.g, s.opts, s.elapsed(), s.hints)
	if err == nil {
		s.hold.Write(func() { err = s.env.Store.PutSave(s.env.Ctx(), s.env.Player.ID, s.saveKey(), data) })
	}
	if err != nil {
		s.env.Log.Error("saving game", "account", s.env.Player.ID, "error", err.Error())
		return err
	}
	s.saved = true
	return nil
}

// keep hands the game's latest save to its hold after a move, so a
// second session taking it over gets every move; false (and the move
// must be taken back) when it was taken over already.
func (s *gameScreen) keep() bool {
	if s.hold == nil {
		return true
	}
	data, err := save.Encode(s.g, s.opts, s.elapsed(), s.hints)
	if err != nil {
		s.env.Log.Error("encoding game", "account", s.env.Player.ID, "error", err.Error())
		return true
	}
	if !s.hold.Keep(data) {
		s.checkTaken()
		return false
	}
	return true
}

// saveKey is where this game is kept while in progress.
func (s *gameScreen) saveKey() string {
	if s.daily {
		return save.DailyKey(s.info.Key())
	}
	return s.info.Key()
}
