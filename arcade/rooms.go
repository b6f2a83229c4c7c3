package arcade

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"sshuffle/arcade/command"
	"sshuffle/arcade/hub"
	"sshuffle/arcade/save"
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/store"
)

// The hub's rooms reach the store through the server: who may invite whom,
// and what a finished race leaves behind. The play commands that open a
// room are in arcade/command.

// firstRoute is the screen a play command opens, or a sentence saying why
// it cannot (the menu opens instead, showing it).
func (s *Server) firstRoute(args []string) (*ui.Route, string) {
	return command.PlayRoute(s.games, args)
}

// mayInvite: a player may invite only someone they follow, or a bot:
// answering challenges is what a bot is for.
func (s *Server) mayInvite(from, to string) bool {
	if bot, err := s.store.IsBot(context.Background(), to); err == nil && bot {
		return true
	}
	ids, err := s.store.Following(context.Background(), from)
	return err == nil && slices.Contains(ids, to)
}

// raceFinished stores a finished race: the race itself for every racer,
// and each racer's game as a result with its timeline (so it can be raced
// again as a ghost). On today's deal, a racer's first attempt counts as
// their ranked daily one. It runs on the race's goroutine. The race's
// record for a restart (liveraces.go) goes after.
func (s *Server) raceFinished(res hub.Result) {
	// It ended as races end: its record goes once the result is stored.
	defer s.races.end(res.Code)
	ctx := context.Background() // the race is over; its racers may be gone
	now := s.cfg.Now().UTC()
	e, _, err := s.games.Lookup(res.Spec)
	if err != nil {
		s.log.Error("race result of an unknown game", "spec", res.Spec.String())
		return
	}
	rec := store.RaceRecord{
		Code: res.Code, Spec: res.Spec.String(), Key: res.Spec.Key(), Ranked: res.Ranked,
		Started: res.Started, Finished: now,
	}
	day := store.Day(now)
	for _, r := range res.Racers {
		rr := store.RaceRacer{Name: r.Name, Ghost: r.Ghost, Place: r.Place, Status: r.Status.String(),
			Time: r.Time, Moves: r.Moves, Home: r.Home, Total: r.Total}
		if !r.Ghost {
			rr.Account = r.ID
		}
		rec.Racers = append(rec.Racers, rr)
		if r.Ghost || r.Moves == 0 {
			continue
		}
		result := store.Result{
			Account: r.ID, Name: r.Name, Spec: res.Spec.String(), Key: res.Spec.Key(),
			Won: r.Status == hub.Won, Moves: r.Moves, Score: r.Score, Elapsed: r.Time, Finished: now,
			ByPoints: e.Game.Points, Total: r.Total,
		}
		for _, st := range r.Timeline {
			result.Timeline = append(result.Timeline, store.Step{At: st.At, Home: st.Home, Moves: st.Moves})
		}
		result.Actions, result.Options = raceMoves(r.Save)
		result.Times = raceTimes(result.Timeline, len(result.Actions))
		if res.Ranked {
			if _, _, err := s.store.Rank(ctx, r.ID, res.Spec.Key(), day); errors.Is(err, store.ErrNotFound) {
				result.Daily, result.Day = true, day
			}
		}
		if err := s.store.RecordResult(ctx, result); err != nil {
			s.log.Error("recording a race result", "account", r.ID, "error", err.Error())
		}
	}
	if err := s.store.RecordRace(ctx, rec); err != nil {
		s.log.Error("recording a race", "code", res.Code, "error", err.Error())
	}
}

// gameName is the hub's GameName: the game of a deal by its title as it
// reads in a sentence, or the deal's key for a game this server lacks.
func (s *Server) gameName(spec engine.Spec) string {
	if e, _, err := s.games.Lookup(spec); err == nil {
		return ui.GameName(e)
	}
	return spec.Key()
}

// raceMoves are the moves of a racer's last save, and the options they
// were made with, for the racer's history; none when the save does not
// read or holds more moves than a result keeps.
func raceMoves(data []byte) ([]engine.Action, map[string]bool) {
	if data == nil {
		return nil, nil
	}
	var g save.Game
	if json.Unmarshal(data, &g) != nil || g.V != save.Version || len(g.Actions) == 0 || len(g.Actions) > store.MaxActions {
		return nil, nil
	}
	return g.Actions, g.Options
}

// raceTimes are when each of a racer's n kept moves was made, from their
// timeline (a step a move, with the move count after it): an undo drops
// the undone move's time, as the solitaire screen's own record does. None
// when the timeline does not count the moves one by one (a game whose
// move count is not its history's length).
func raceTimes(steps []store.Step, n int) []time.Duration {
	if n == 0 {
		return nil
	}
	var times []time.Duration
	for _, st := range steps {
		if st.Moves < 0 || st.Moves > n {
			return nil
		}
		times = times[:min(len(times), st.Moves)]
		for len(times) < st.Moves {
			times = append(times, st.At)
		}
	}
	if len(times) != n {
		return nil
	}
	return times
}
