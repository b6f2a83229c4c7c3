package arcade

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/internal/format"
	"sshuffle/store"
)

// playCommand: the commands that open the arcade on a screen of their own
// (ssh -t HOST join CODE, ssh -t HOST race [SPEC]) rather than print text.
func playCommand(args []string) bool {
	return len(args) > 0 && (args[0] == "join" || args[0] == "race" || args[0] == "table")
}

// tableRoute opens a table at once: table GAME [person|easy|normal|hard]...
// names the seats after the host's (default: one seat for a person).
func (s *Server) tableRoute(args []string) (*ui.Route, string) {
	usage := "Usage: ssh -t HOST table spite|kings [person|easy|normal|hard]... (the seats after yours)."
	if len(args) < 2 {
		return nil, usage
	}
	kit, ok := s.games.TableKit(args[1])
	if !ok {
		return nil, "There is no table game " + format.Clean(args[1], 40) + "; try spite or kings."
	}
	info := kit.Info()
	e, ok := s.games.Entry(info.Name)
	if !ok {
		return nil, usage
	}
	cfg := hub.TableConfig{Game: info.Name, Seats: []hub.SeatPlan{{}}}
	others := args[2:]
	if len(others) == 0 {
		others = []string{"person"}
	}
	for _, w := range others {
		switch {
		case w == "person":
			cfg.Seats = append(cfg.Seats, hub.SeatPlan{})
		case slices.Contains(info.Strengths, w):
			cfg.Seats = append(cfg.Seats, hub.SeatPlan{Computer: w})
		default:
			return nil, usage
		}
	}
	if len(cfg.Seats) < info.MinPlayers || len(cfg.Seats) > info.MaxPlayers {
		return nil, fmt.Sprintf("%s seats %d to %d players.", info.Title, info.MinPlayers, info.MaxPlayers)
	}
	return &ui.Route{Page: ui.Lobby, Game: e, OpenTable: &cfg}, ""
}

// firstRoute is the screen a play command opens, or a sentence saying why
// it cannot (the menu opens instead, showing it).
func (s *Server) firstRoute(args []string) (*ui.Route, string) {
	if !playCommand(args) {
		return nil, ""
	}
	switch args[0] {
	case "table":
		return s.tableRoute(args)
	case "join":
		if len(args) != 2 {
			return nil, "Usage: ssh -t HOST join CODE (the code of an invite line)."
		}
		return &ui.Route{Page: ui.Race, Code: args[1]}, ""
	}
	// race [GAME | SPEC | GAME NUMBER | today GAME]
	rest := args[1:]
	daily := false
	if len(rest) > 0 && rest[0] == "today" {
		daily, rest = true, rest[1:]
	}
	key := "klondike/draw1"
	var spec engine.Spec
	switch len(rest) {
	case 0:
	case 1:
		if sp, err := engine.ParseSpec(rest[0]); err == nil && !daily {
			e, canon, err := s.games.Lookup(sp)
			if err != nil || !e.Playable() {
				return nil, "There is no such deal to race: " + format.Clean(rest[0], 40) + "."
			}
			return &ui.Route{Page: ui.Race, Game: e, Spec: canon}, ""
		}
		key = rest[0]
	default:
		return nil, "Usage: ssh -t HOST race [GAME | GAME/…/NUMBER | today GAME]."
	}
	e, ok := s.games.Entry(key)
	if !ok || !e.Playable() {
		return nil, "There is no game " + format.Clean(key, 40) + " to race; try klondike/draw1."
	}
	return &ui.Route{Page: ui.Race, Game: e, Spec: spec, Daily: daily}, ""
}

// mayInvite: a player may invite only someone they follow.
func (s *Server) mayInvite(from, to string) bool {
	ids, err := s.store.Following(context.Background(), from)
	return err == nil && slices.Contains(ids, to)
}

// raceFinished stores a finished race: the race itself for every racer,
// and each racer's game as a result with its timeline (so it can be raced
// again as a ghost). On today's deal, a racer's first attempt counts as
// their ranked daily one. It runs on the race's goroutine.
func (s *Server) raceFinished(res hub.Result) {
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
