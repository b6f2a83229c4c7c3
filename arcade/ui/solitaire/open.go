package solitaire

import (
	"errors"

	"sshuffle/arcade/deals"
	"sshuffle/arcade/save"
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/store"
)

// Open builds the screen a Play or Daily route asks for.
func Open(e *ui.Env, r ui.Route) (ui.Screen, error) {
	if r.Page == ui.Daily {
		return openDaily(e, r.Game)
	}
	var s *gameScreen
	var err error
	switch {
	case r.Spec.Seed != 0:
		s, err = dealSpec(e, r.Game, r.Spec)
		if err == nil {
			s.daily, s.day = r.Daily, r.Day
		}
	case r.Fresh:
		s, err = dealNew(e, r.Game)
	default:
		return openGame(e, r.Game)
	}
	if err != nil {
		return nil, err
	}
	// A new deal replaces the game of its kind: it takes the hold, so a
	// session still playing the old one stops saving over it.
	s.hold, _ = e.Holds.Take(e.Player.ID, s.saveKey())
	return s, nil
}

// readSave is the account's game at key: the latest from a session that
// held it until now (every move it made, saved or not), else the store's.
func readSave(e *ui.Env, key string) (*ui.Hold, []byte, error) {
	if e.Player.Guest {
		return nil, nil, store.ErrNotFound
	}
	hold, latest := e.Holds.Take(e.Player.ID, key)
	if latest != nil {
		return hold, latest, nil
	}
	data, err := e.Store.GetSave(e.Ctx(), e.Player.ID, key)
	return hold, data, err
}

// openGame resumes the player's saved game of this kind, or deals a new one.
func openGame(e *ui.Env, info games.Entry) (*gameScreen, error) {
	hold, data, err := readSave(e, info.Key())
	switch {
	case err == nil:
		g, sv, err := save.Decode(data, info.Game.New)
		if err == nil {
			s := newGameScreen(e, info, g, sv.Options)
			s.prior = sv.Elapsed
			s.hints = min(sv.Hints, ui.HintsPerGame)
			s.hold, s.saved = hold, true
			s.setMsg(ui.ToneInfo, "Resumed your saved game. n deals a new one.")
			return s, nil
		}
		e.Log.Warn("unreadable save", "account", e.Player.ID, "key", info.Key(), "error", err.Error())
		s, err2 := dealNew(e, info)
		if err2 != nil {
			return nil, err2
		}
		// saved: the damaged save is replaced even at move 0.
		s.hold, s.saved = hold, true
		s.setMsg(ui.ToneWarn, "Your saved game could not be restored ("+err.Error()+"); here is a new deal.")
		return s, nil
	case !errors.Is(err, store.ErrNotFound):
		e.Log.Error("reading save", "error", err.Error())
	}
	s, err := dealNew(e, info)
	if err != nil {
		return nil, err
	}
	s.hold = hold
	return s, nil
}

func dealNew(e *ui.Env, info games.Entry) (*gameScreen, error) {
	return dealSpec(e, info, deals.Fresh(e.Pools, info, ui.LoadOptions(e, info)))
}

func dealSpec(e *ui.Env, info games.Entry, spec engine.Spec) (*gameScreen, error) {
	opts := ui.LoadOptions(e, info)
	g, err := info.Game.New(spec, opts)
	if err != nil {
		return nil, err
	}
	return newGameScreen(e, info, g, opts), nil
}

// openDaily opens today's deal of a game, resuming the player's game of it.
func openDaily(e *ui.Env, info games.Entry) (*gameScreen, error) {
	spec, day, err := deals.Today(e.Ctx(), e.Store, e.Pools, info, e.Now())
	if err != nil {
		return nil, err
	}
	hold, data, err := readSave(e, save.DailyKey(info.Key()))
	if err == nil {
		if g, sv, err := save.Decode(data, info.Game.New); err == nil && g.Spec() == spec {
			s := newGameScreen(e, info, g, sv.Options)
			s.daily, s.day, s.hold, s.saved = true, day, hold, true
			s.prior, s.hints = sv.Elapsed, min(sv.Hints, ui.HintsPerGame)
			s.setMsg(ui.ToneInfo, "Resumed today's deal.")
			return s, nil
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		e.Log.Error("reading daily save", "error", err.Error())
	}
	s, err := dealSpec(e, info, spec)
	if err != nil {
		return nil, err
	}
	s.daily, s.day, s.hold = true, day, hold
	text := "Today's deal: the same for everyone. Win it to keep your streak."
	if d, ok := e.Pools.Rated(spec); ok {
		text += " Difficulty: " + d.Text() + "."
	}
	s.setMsg(ui.ToneInfo, text)
	return s, nil
}
