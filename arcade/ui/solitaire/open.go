package solitaire

import (
	"errors"

	"sshuffle/arcade/deals"
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
	switch {
	case r.Spec.Seed != 0:
		s, err := dealSpec(e, r.Game, r.Spec)
		if err != nil {
			return nil, err
		}
		s.daily, s.day = r.Daily, r.Day
		return s, nil
	case r.Fresh:
		return dealNew(e, r.Game)
	}
	return openGame(e, r.Game)
}

// openGame resumes the player's saved game of this kind, or deals a new one.
func openGame(e *ui.Env, info games.Entry) (*gameScreen, error) {
	if !e.Player.Guest {
		data, err := e.Store.GetSave(e.Ctx(), e.Player.ID, info.Key())
		switch {
		case err == nil:
			g, sv, err := decodeSave(data, info.Game.New)
			if err == nil {
				s := newGameScreen(e, info, g, sv.Options)
				s.prior = sv.Elapsed
				s.hints = min(sv.Hints, ui.HintsPerGame)
				s.setMsg(msgInfo, "Resumed your saved game. n deals a new one.")
				return s, nil
			}
			e.Log.Warn("unreadable save", "account", e.Player.ID, "key", info.Key(), "error", err.Error())
			s, err2 := dealNew(e, info)
			if err2 != nil {
				return nil, err2
			}
			s.setMsg(msgWarn, "Your saved game could not be restored ("+err.Error()+"); here is a new deal.")
			return s, nil
		case !errors.Is(err, store.ErrNotFound):
			e.Log.Error("reading save", "error", err.Error())
		}
	}
	return dealNew(e, info)
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

// dailySaveKey keeps today's deal in progress apart from the player's other
// game of the same kind, so neither overwrites the other.
func dailySaveKey(key string) string { return key + "#daily" }

// openDaily opens today's deal of a game, resuming the player's game of it.
func openDaily(e *ui.Env, info games.Entry) (*gameScreen, error) {
	spec, day, err := deals.Today(e.Ctx(), e.Store, e.Pools, info, e.Now())
	if err != nil {
		return nil, err
	}
	if !e.Player.Guest {
		data, err := e.Store.GetSave(e.Ctx(), e.Player.ID, dailySaveKey(info.Key()))
		if err == nil {
			if g, sv, err := decodeSave(data, info.Game.New); err == nil && g.Spec() == spec {
				s := newGameScreen(e, info, g, sv.Options)
				s.daily, s.day = true, day
				s.prior, s.hints = sv.Elapsed, min(sv.Hints, ui.HintsPerGame)
				s.setMsg(msgInfo, "Resumed today's deal.")
				return s, nil
			}
		} else if !errors.Is(err, store.ErrNotFound) {
			e.Log.Error("reading daily save", "error", err.Error())
		}
	}
	s, err := dealSpec(e, info, spec)
	if err != nil {
		return nil, err
	}
	s.daily, s.day = true, day
	s.setMsg(msgInfo, "Today's deal: the same for everyone. Win it to keep your streak.")
	return s, nil
}
