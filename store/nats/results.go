package nats

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"sshuffle/store"
)

// profile is one account's stats and daily streaks, every game key in one
// record: a result changes both, and one expected revision guards them.
type profile struct {
	Stats   map[string]store.Stats  `json:"stats,omitempty"`
	Streaks map[string]store.Streak `json:"streaks,omitempty"`
}

func profileKey(id string) string { return key("p", tok(id)) }

func resultKey(r store.Result) string {
	return key("r", tok(r.Account), hash(strconv.FormatInt(r.Finished.UnixNano(), 10), r.Spec))
}

// movesKey is the key of the moves of a result, beside it.
func movesKey(r store.Result) string {
	return key("m", tok(r.Account), hash(strconv.FormatInt(r.Finished.UnixNano(), 10), r.Spec))
}

func boardName(k, day string) string { return tok(k) + "." + dayTok(day) }

func dayTok(day string) string {
	if day == "" {
		return "="
	}
	return day // YYYY-MM-DD is key-safe
}

func boardKey(k, day, account string) string { return key("b", boardName(k, day), tok(account)) }

// rankKey is 33 bytes that sort in board order: won first, then higher
// points (if the result ranks by points), less time, fewer moves, earlier
// finish. It is the Badger backend's, so both order boards alike.
func rankKey(r store.Result) []byte {
	b := make([]byte, 33)
	if !r.Won {
		b[0] = 1
	}
	if r.ByPoints {
		binary.BigEndian.PutUint64(b[1:], math.MaxUint64-(uint64(int64(r.Score))^(1<<63)))
	}
	binary.BigEndian.PutUint64(b[9:], uint64(max(r.Elapsed, 0)))
	binary.BigEndian.PutUint64(b[17:], uint64(max(r.Moves, 0)))
	binary.BigEndian.PutUint64(b[25:], uint64(r.Finished.UnixNano())^(1<<63))
	return b
}

const rankLen = 33

// RecordResult stores a finished game with the account's stats, streak and
// board entries in one batch (see store.Results). The result's own key is
// written only if absent, so the same result again, even from two nodes at
// once, is kept once. When a board entry changed it returns once this
// handle's board index has it.
func (s *Store) RecordResult(ctx context.Context, r store.Result) error {
	if err := store.CheckResult(&r); err != nil {
		return err
	}
	caller := ctx
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	// The moves are kept apart from the result, which boards copy and
	// lists read many of at once.
	moves := resultMoves{Actions: r.Actions, Times: r.Times, Options: r.Options}
	r.Actions, r.Times, r.Options = nil, nil, nil
	val, err := encode("result", r)
	if err != nil {
		return err
	}
	var mv []byte
	if len(moves.Actions) > 0 {
		if mv, err = encode("moves of a result", moves); err != nil {
			return err
		}
	}
	rk := resultKey(r)
	defer s.lock(profileKey(r.Account))()
	boards := 0
	days := []string{""}
	if r.Daily && !r.Abandoned {
		days = append(days, r.Day)
	}
	keys := []string{rk, profileKey(r.Account)}
	if !r.Abandoned {
		for _, day := range days {
			keys = append(keys, boardKey(r.Key, day, r.Account))
		}
	}
	rank := rankKey(r)
	seq, err := s.update(ctx, s.records, func() ([]op, error) {
		boards = 0
		// Every key this result may change, read at once.
		es, err := s.records.getAll(ctx, keys...)
		if err != nil {
			return nil, err
		}
		re, pe := es[0], es[1]
		if re.found() {
			return nil, nil // recorded already
		}
		var p profile
		what := "stats of " + r.Account
		if pe.found() {
			if err := decode(pe.val, what, &p); err != nil {
				return nil, err
			}
		}
		addStats(&p, r)
		if r.Daily && r.Won {
			addStreak(&p, r)
		}
		pv, err := encode(what, p)
		if err != nil {
			return nil, err
		}
		ops := []op{re.set(val), pe.set(pv)}
		if mv != nil {
			ops = append(ops, put(movesKey(r), mv))
		}
		// Board entries go last: the batch's sequence is then theirs,
		// which the board index is waited on for.
		for _, be := range es[2:] {
			if be.found() && len(be.val) >= rankLen && bytes.Compare(rank, be.val[:rankLen]) >= 0 {
				continue // the entry there is as good or better
			}
			ops = append(ops, be.set(append(slices.Clip(rank), val...)))
			boards++
		}
		return ops, nil
	})
	if err != nil {
		return err
	}
	if boards > 0 {
		// The result is stored; the wait for this node's board index gets
		// a time of its own, for a write that outlasted a leader's
		// election has spent the operation's, and the watch restarts
		// only once the new leader answers.
		wctx, cancel := s.withTimeout(caller)
		defer cancel()
		return s.boards.wait(wctx, seq)
	}
	return nil
}

func addStats(p *profile, r store.Result) {
	if p.Stats == nil {
		p.Stats = map[string]store.Stats{}
	}
	st := p.Stats[r.Key]
	// Best score and best time come from won games: a lost or abandoned
	// game may score well on the way and still be no achievement.
	if r.Won && (st.Won == 0 || r.Score > st.BestScore) {
		st.BestScore = r.Score
	}
	st.Played++
	if r.Abandoned {
		st.Abandoned++
	}
	if r.Won {
		st.Won++
		if st.BestTime == 0 || (r.Elapsed > 0 && r.Elapsed < st.BestTime) {
			st.BestTime = r.Elapsed
		}
	}
	st.TotalTime += max(r.Elapsed, 0)
	if r.Finished.After(st.Last) {
		st.Last = r.Finished
	}
	p.Stats[r.Key] = st
}

// addStreak counts a won daily deal: a win for the day counted already, or
// for an earlier day, changes nothing; the day after the last counts one
// more; any later day starts again at 1.
func addStreak(p *profile, r store.Result) {
	if p.Streaks == nil {
		p.Streaks = map[string]store.Streak{}
	}
	st := p.Streaks[r.Key]
	day, _ := time.Parse(time.DateOnly, r.Day)
	switch {
	case st.LastDay == "":
		st.Current = 1
	case r.Day <= st.LastDay:
		return
	case store.Day(day.AddDate(0, 0, -1)) == st.LastDay:
		st.Current++
	default:
		st.Current = 1
	}
	st.LastDay = r.Day
	st.Best = max(st.Best, st.Current)
	p.Streaks[r.Key] = st
}

func (s *Store) profile(ctx context.Context, account string) (profile, error) {
	var p profile
	_, err := s.records.getJSON(ctx, profileKey(account), "stats of "+account, &p)
	return p, err
}

// Stats returns the account's stats for every key it has played.
func (s *Store) Stats(ctx context.Context, account string) (map[string]store.Stats, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	p, err := s.profile(ctx, account)
	if err != nil {
		return nil, err
	}
	out := map[string]store.Stats{}
	for k, st := range p.Stats {
		out[k] = st
	}
	return out, nil
}

// StatsFor returns the account's stats for key; zero if never played.
func (s *Store) StatsFor(ctx context.Context, account, key string) (store.Stats, error) {
	if err := store.CheckID(account); err != nil {
		return store.Stats{}, err
	}
	if err := store.CheckKey(key); err != nil {
		return store.Stats{}, err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return store.Stats{}, err
	}
	defer done()
	p, err := s.profile(ctx, account)
	return p.Stats[key], err
}

// Streak is the account's daily streak for key as of today.
func (s *Store) Streak(ctx context.Context, account, key string, today time.Time) (store.Streak, error) {
	if err := store.CheckID(account); err != nil {
		return store.Streak{}, err
	}
	if err := store.CheckKey(key); err != nil {
		return store.Streak{}, err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return store.Streak{}, err
	}
	defer done()
	p, err := s.profile(ctx, account)
	if err != nil {
		return store.Streak{}, err
	}
	st := p.Streaks[key]
	if st.LastDay != store.Day(today) && st.LastDay != store.Day(today.UTC().AddDate(0, 0, -1)) {
		st.Current = 0
	}
	return st, nil
}

// Results returns up to n of the account's results, newest first. It
// reads all of the account's results: an account's history is listed
// whole and sorted here.
func (s *Store) Results(ctx context.Context, account string, n int) ([]store.Result, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	n = min(max(n, 0), store.MaxBoard)
	out := []store.Result{}
	if n == 0 {
		return out, nil
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	es, err := s.records.list(ctx, key("r", tok(account), "*"))
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		var r store.Result
		if err := decode(e.val, fmt.Sprintf("result %s of %s", e.key, account), &r); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	// Newest first; at one time, the Badger backend's order (spec, last first).
	slices.SortFunc(out, func(a, b store.Result) int {
		if c := b.Finished.Compare(a.Finished); c != 0 {
			return c
		}
		return strings.Compare(b.Spec, a.Spec)
	})
	return out[:min(n, len(out))], nil
}

// byTimeThen sorts newest first, then by tie.
func byTimeThen[T any](xs []T, at func(T) time.Time, tie func(a, b T) int) {
	slices.SortFunc(xs, func(a, b T) int {
		return cmp.Or(at(b).Compare(at(a)), tie(a, b))
	})
}
