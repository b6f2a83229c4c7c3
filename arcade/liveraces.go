package arcade

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"sshuffle/arcade/ui/race"
	"sshuffle/store"
)

// A race lives in its room's goroutine only, so a server that stops in the
// middle of one loses it. While a race runs, its racers' screens hand each
// game to the raceKeeper, which keeps a small record of the race in the
// store; a race that ends as races end takes its record with it. At the
// next start, any record left is a race the server lost: its code answers
// that the room has ended, and each racer's game in progress becomes their
// saved game of it (store.LiveRaces).

const (
	// keepEvery is how often a race's record is written at most, moves
	// or not: what a crash may cost a racer is the moves of the last ten
	// seconds of their game (a restart saves every game first). Every
	// racer's line changes between two writes, so the records are most of
	// what a server full of races writes: at 3 s, 2,000 racers wrote about
	// half a megabyte a second, a memtable to flush every fifteen seconds,
	// each flush a stall of the one core. A racer finishing is written at
	// once (it says their game is no longer one to keep).
	keepEvery = 10 * time.Second
	// keepRounds is how many times in keepEvery the keeper looks for
	// races due.
	keepRounds = 12
	// endedFor is how long a lost race's code answers as ended, as long
	// as the hub remembers the codes of rooms that ended under it.
	endedFor = 24 * time.Hour
	// lateFor is how long the keeper remembers a race it saw end, to drop
	// a racer's report that was on its way as the race ended (the screen
	// hands it over just after the room took it).
	lateFor = time.Minute
)

// raceKeeper writes the records of the live races off the rooms' and
// sessions' goroutines: keep and end only note what changed, and one
// goroutine of its own writes, in the order things happened to each race.
type raceKeeper struct {
	st    store.LiveRaces
	log   *slog.Logger
	every time.Duration

	mu    sync.Mutex
	races map[string]*keptRace
	ended map[string]time.Time // races seen to end, by when
	kick  chan struct{}
	stop  chan struct{}
	done  chan struct{}
}

type keptRace struct {
	rec    store.LiveRace
	dirty  bool
	urgent bool
	ended  bool
	last   time.Time // last written
}

func newRaceKeeper(st store.LiveRaces, log *slog.Logger, every time.Duration) *raceKeeper {
	k := &raceKeeper{
		st: st, log: log, every: every,
		races: map[string]*keptRace{},
		ended: map[string]time.Time{},
		kick:  make(chan struct{}, 1),
		stop:  make(chan struct{}),
		done:  make(chan struct{}),
	}
	go k.run()
	return k
}

// keep notes a racer's game; the record is written within keepEvery, or
// at once when the racer's race is over.
func (k *raceKeeper) keep(g race.Kept) {
	if g.Account == "" || g.Code == "" {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, gone := k.ended[g.Code]; gone {
		return
	}
	r, ok := k.races[g.Code]
	if !ok {
		r = &keptRace{rec: store.LiveRace{Code: g.Code, Spec: g.Spec.String(), Key: g.Key, Started: g.Started.UTC()}}
		k.races[g.Code] = r
	}
	line := store.LiveRacer{Account: g.Account, Save: g.Save, Moves: g.Moves, Done: g.Done}
	if i := slices.IndexFunc(r.rec.Racers, func(x store.LiveRacer) bool { return x.Account == g.Account }); i >= 0 {
		if r.rec.Racers[i].Done {
			return // a finished racer's game stays finished
		}
		r.rec.Racers[i] = line
	} else {
		r.rec.Racers = append(r.rec.Racers, line)
	}
	r.dirty = true
	if g.Done {
		r.urgent = true
		k.poke()
	}
}

// end forgets a race that ended as races end (its result is stored).
func (k *raceKeeper) end(code string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	now := time.Now()
	for c, at := range k.ended {
		if now.Sub(at) > lateFor {
			delete(k.ended, c)
		}
	}
	k.ended[code] = now
	if r, ok := k.races[code]; ok {
		r.ended = true
		k.poke()
	}
}

func (k *raceKeeper) poke() {
	select {
	case k.kick <- struct{}{}:
	default:
	}
}

func (k *raceKeeper) run() {
	defer close(k.done)
	// Each race is written when its own keepEvery has passed, so the
	// keeper looks often: races started at different times keep their
	// writes apart instead of all falling due on one tick.
	t := time.NewTicker(max(k.every/keepRounds, time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-k.stop:
			k.write(true)
			return
		case <-t.C:
		case <-k.kick:
		}
		k.write(false)
	}
}

// write writes what is due, every race's record when all is set, in one
// call to the store.
func (k *raceKeeper) write(all bool) {
	var (
		puts []store.LiveRace
		gone []string
	)
	now := time.Now()
	k.mu.Lock()
	for code, r := range k.races {
		switch {
		case r.ended:
			delete(k.races, code)
			if !r.last.IsZero() {
				gone = append(gone, code)
			}
		case r.dirty && (all || r.urgent || now.Sub(r.last) >= k.every):
			rec := r.rec
			rec.Racers = slices.Clone(r.rec.Racers)
			puts = append(puts, rec)
			r.dirty, r.urgent, r.last = false, false, now
		}
	}
	k.mu.Unlock()
	if len(puts) == 0 && len(gone) == 0 {
		return
	}
	slices.SortFunc(puts, func(a, b store.LiveRace) int { return strings.Compare(a.Code, b.Code) })
	slices.Sort(gone)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := k.st.KeepLiveRaces(ctx, puts, gone); err != nil {
		k.log.Error("keeping the records of live races", "races", len(puts), "ended", len(gone), "error", err.Error())
	}
}

// close writes what is left and stops; safe to call twice.
func (k *raceKeeper) close() {
	k.mu.Lock()
	select {
	case <-k.stop:
	default:
		close(k.stop)
	}
	k.mu.Unlock()
	<-k.done
}

// settleLostRaces makes every race left in the store from the last run a
// lost race (store.LiveRaces.LoseRaces) and reads the codes of lost races
// still answered as ended. It runs in New, before the hub takes a lookup.
func (s *Server) settleLostRaces() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	now := s.cfg.Now()
	lost, err := s.store.LoseRaces(ctx, now, now.Add(endedFor))
	if err != nil {
		s.log.Error("settling the races lost at the last stop", "error", err.Error())
	}
	s.lostNotes = map[string]string{}
	for _, r := range lost {
		s.log.Warn("a race was lost when the server stopped; its code is ended", "code", r.Code, "spec", r.Spec,
			"racers", len(r.Racers), "games_kept", len(r.Kept))
		title := r.Key
		if e, ok := s.games.Entry(r.Key); ok {
			title = e.Title()
		}
		// Short enough for the menu's line at 80 columns.
		for _, x := range r.Racers {
			s.lostNotes[x.Account] = "Race " + r.Code + " ended in a server restart, before its results."
		}
		for _, acc := range r.Kept {
			s.lostNotes[acc] = "Race " + r.Code + " ended in a server restart; your " + title + " game is saved."
		}
	}
	ended, err := s.store.EndedRaces(ctx, now)
	if err != nil {
		s.log.Error("reading the codes of lost races", "error", err.Error())
	}
	s.lostRaces = ended
}

// raceEnded is the hub's Ended: a code of a race lost at the last stop, or
// of a race or table that ended before it (codeEnded), answers as ended
// while it is kept so. The map is only read after New.
func (s *Server) raceEnded(code string) bool {
	until, ok := s.lostRaces[code]
	return ok && s.cfg.Now().Before(until)
}

// codeEnded is the hub's CodeEnded: a room's code stays ended for a day
// past a restart, as it does in the hub until then, so that a race's and a
// table's codes answer alike whenever they ended.
func (s *Server) codeEnded(code string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.store.EndCode(ctx, code, s.cfg.Now().Add(endedFor)); err != nil {
		s.log.Error("keeping an ended code", "code", code, "error", err.Error())
	}
}

// lostRaceNote is what the menu tells a racer of a race lost at the last
// stop, once (kept in memory only: a notice, not a record).
func (s *Server) lostRaceNote(account string) string {
	s.lostMu.Lock()
	defer s.lostMu.Unlock()
	note := s.lostNotes[account]
	delete(s.lostNotes, account)
	return note
}
