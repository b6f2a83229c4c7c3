package race

import (
	"fmt"
	"slices"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/store"
)

// addGhost puts the next stored run of this deal in the race: the best
// of the players the host follows, then the day's best.
func (s *raceScreen) addGhost() {
	runs, err := GhostRuns(s.env, s.st.Spec)
	if err != nil {
		s.setMsg(ui.ToneErr, "Stored runs could not be read just now.")
		return
	}
	if s.ghosts >= len(runs) {
		s.setMsg(ui.ToneInfo, "No stored run of this deal to race: ghosts come from your friends' games and the day's best.")
		return
	}
	run := runs[s.ghosts]
	if err := s.m.AddGhost(run); err != nil {
		s.setMsg(ui.ToneErr, err.Error())
		return
	}
	s.ghosts++
	s.setMsg(ui.ToneOK, fmt.Sprintf("Added the ghost of %s's run.", run.Name))
}

// GhostRuns are the stored runs of spec a race can replay, best first: the
// runs of the players e's player follows, then the day's board. Only
// results that kept their timeline qualify.
func GhostRuns(e *ui.Env, spec engine.Spec) ([]hub.Run, error) {
	var found []store.Result
	seen := map[string]bool{}
	add := func(r store.Result) {
		if r.Spec != spec.String() || len(r.Timeline) == 0 || r.Total <= 0 || seen[r.Account] || r.Account == e.Player.ID {
			return
		}
		seen[r.Account] = true
		found = append(found, r)
	}
	ids, err := e.Store.Following(e.Ctx(), e.Player.ID)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		rs, err := e.Store.Results(e.Ctx(), id, 200)
		if err != nil {
			return nil, err
		}
		var best *store.Result
		for i, r := range rs {
			if r.Spec == spec.String() && len(r.Timeline) > 0 && (best == nil || better(r, *best)) {
				best = &rs[i]
			}
		}
		if best != nil {
			add(*best)
		}
	}
	friends := len(found)
	if day := store.Day(e.Now()); true {
		rows, err := e.Store.Board(e.Ctx(), spec.Key(), day, 20)
		if err == nil {
			for _, r := range rows {
				add(r)
			}
		}
	}
	slices.SortStableFunc(found[:friends], func(a, b store.Result) int {
		if better(a, b) {
			return -1
		}
		if better(b, a) {
			return 1
		}
		return 0
	})
	var runs []hub.Run
	for _, r := range found {
		if run, ok := runOf(r, spec); ok {
			runs = append(runs, run)
		}
	}
	return runs, nil
}

func better(a, b store.Result) bool {
	if a.Won != b.Won {
		return a.Won
	}
	return a.Elapsed < b.Elapsed
}

// runOf turns a stored result into a run the hub can replay. The name is
// the one the store recorded for the account: a validated name.
func runOf(r store.Result, spec engine.Spec) (hub.Run, bool) {
	run := hub.Run{Person: hub.Person{ID: r.Account, Name: r.Name}, Spec: spec, Total: r.Total}
	for _, st := range r.Timeline {
		run.Steps = append(run.Steps, hub.Step{At: st.At, Home: min(st.Home, r.Total), Moves: st.Moves, Status: hub.Playing})
	}
	if len(run.Steps) == 0 || len(run.Steps) > 4096 {
		return run, false
	}
	last := &run.Steps[len(run.Steps)-1]
	switch {
	case r.Won && last.Home == r.Total:
		last.Status = hub.Won
	default:
		last.Status = hub.Over
	}
	for i := 1; i < len(run.Steps); i++ {
		if run.Steps[i].At < run.Steps[i-1].At {
			return run, false
		}
	}
	return run, true
}
