package command

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"sshuffle/arcade/deals"
	"sshuffle/arcade/save"
	"sshuffle/store"
)

func init() {
	register(command{names: []string{"daily"}, help: "today's deals, how yours went, streaks", run: daily})
}

// The caller's status on today's deal of a game.
const (
	notStarted = "not_started"
	inProgress = "in_progress"
	won        = "won"
	lost       = "lost" // given up: dealt again or left for another deal
)

type dailyValue struct {
	Day string `json:"day"` // the UTC day of today's deals: "2026-11-30"
	// NextDeal is when the next day's deals come (UTC midnight) and
	// NextDealInSeconds how long that is from now.
	NextDeal          time.Time   `json:"next_deal"`
	NextDealInSeconds int64       `json:"next_deal_in_seconds"`
	Guest             bool        `json:"guest"` // a guest's statuses are all not_started: nothing is kept
	Games             []dailyGame `json:"games"`
}

type dailyGame struct {
	Game   string `json:"game"` // the game's key: "klondike/draw1"
	Title  string `json:"title"`
	Spec   string `json:"spec"`   // today's deal
	Status string `json:"status"` // not_started, in_progress, won, lost
	Streak streak `json:"streak"`
	// Difficulty is the solver's rating of the deal; absent for a game
	// without a solver.
	Difficulty *deals.Difficulty `json:"difficulty,omitempty"`
}

func (v dailyValue) Text() string {
	var b strings.Builder
	left := time.Duration(v.NextDealInSeconds) * time.Second
	fmt.Fprintf(&b, "Today's deals (%s UTC); the next ones in %dh%02dm.\n", v.Day, int(left.Hours()), int(left.Minutes())%60)
	fmt.Fprintf(&b, "%-22s %-26s %-12s %-7s %s\n", "game", "deal", "you", "streak", "difficulty")
	for _, g := range v.Games {
		d := "-"
		if g.Difficulty != nil {
			d = g.Difficulty.Name
		}
		fmt.Fprintf(&b, "%-22s %-26s %-12s %-7s %s\n", g.Title, g.Spec, strings.ReplaceAll(g.Status, "_", " "),
			fmt.Sprintf("%d/%d", g.Streak.Current, g.Streak.Best), d)
	}
	b.WriteString("streak: days in a row today's deal was won, now/best. Play one: connect and press t on a game.\n")
	return b.String()
}

func daily(r Request, name string, args []string) (value, error) {
	rest, err := flags(name, args, nil, nil)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, refuse(name, "%s takes no words after it", name)
	}
	now := r.Now().UTC()
	next := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC)
	v := dailyValue{Day: store.Day(now), NextDeal: next, NextDealInSeconds: seconds(next.Sub(now)), Guest: r.ID == "", Games: []dailyGame{}}
	var recent []store.Result
	if r.ID != "" {
		// Newest first: today's results are at the front, and no one
		// finishes this many of them in a day.
		if recent, err = r.Store.Results(r.ctx(), r.ID, 500); err != nil {
			return nil, fail("today's deals", err)
		}
	}
	for _, e := range r.Games.Entries() {
		if !e.Playable() {
			continue
		}
		spec, _, err := deals.Today(r.ctx(), r.Store, r.Pools, e, now)
		if err != nil {
			return nil, fail("today's deals", err)
		}
		g := dailyGame{Game: e.Key(), Title: e.Title(), Spec: spec.String(), Status: notStarted}
		if d, ok := r.Pools.Difficulty(e, spec, r.ctx().Done()); ok {
			g.Difficulty = &d
		}
		if r.ID != "" {
			for _, res := range recent {
				if res.Daily && res.Day == v.Day && res.Key == e.Key() {
					if res.Won {
						g.Status = won
						break
					}
					g.Status = lost
				}
			}
			if g.Status != won {
				data, err := r.Store.GetSave(r.ctx(), r.ID, save.DailyKey(e.Key()))
				switch {
				case err == nil:
					if sp, err := save.Spec(data); err == nil && sp == spec {
						g.Status = inProgress
					}
				case !errors.Is(err, store.ErrNotFound):
					return nil, fail("today's deals", err)
				}
			}
			sk, err := r.Store.Streak(r.ctx(), r.ID, e.Key(), now)
			if err != nil {
				return nil, fail("today's deals", err)
			}
			g.Streak = streak{Current: sk.Current, Best: sk.Best}
		}
		v.Games = append(v.Games, g)
	}
	return v, nil
}
