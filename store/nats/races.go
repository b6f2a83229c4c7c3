package nats

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"sshuffle/store"
)

func raceKey(account string, r store.RaceRecord) string {
	return key("c", tok(account), hash(strconv.FormatInt(r.Finished.UnixNano(), 10), r.Code))
}

// RecordRace keeps a race for each human racer in it, in one batch; the
// same race again writes the same records over themselves.
func (s *Store) RecordRace(ctx context.Context, r store.RaceRecord) error {
	if err := store.CheckSpec(r.Spec); err != nil {
		return err
	}
	if err := store.CheckKey(r.Key); err != nil {
		return err
	}
	if r.Code == "" || len(r.Code) > 16 || len(r.Racers) == 0 || len(r.Racers) > store.MaxRaceRacers || r.Finished.IsZero() {
		return fmt.Errorf("%w: race record %q", store.ErrInvalid, r.Code)
	}
	r.Finished, r.Started = r.Finished.UTC(), r.Started.UTC()
	for _, x := range r.Racers {
		if len(x.Name) > 64 || (!x.Ghost && store.CheckID(x.Account) != nil) {
			return fmt.Errorf("%w: a racer of race %s", store.ErrInvalid, r.Code)
		}
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	v, err := encode("race "+r.Code, r)
	if err != nil {
		return err
	}
	var ops []op
	seen := map[string]bool{}
	for _, x := range r.Racers {
		if x.Ghost || seen[x.Account] {
			continue
		}
		seen[x.Account] = true
		ops = append(ops, put(raceKey(x.Account, r), v))
	}
	_, err = s.records.write(ctx, ops)
	return err
}

// Races returns up to n of the account's races, newest first.
func (s *Store) Races(ctx context.Context, account string, n int) ([]store.RaceRecord, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	n = min(max(n, 0), store.MaxBoard)
	out := []store.RaceRecord{}
	if n == 0 {
		return out, nil
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	es, err := s.records.list(ctx, key("c", tok(account), "*"))
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		var r store.RaceRecord
		if err := decode(e.val, fmt.Sprintf("race %s of %s", e.key, account), &r); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	byTimeThen(out, func(r store.RaceRecord) time.Time { return r.Finished },
		func(a, b store.RaceRecord) int { return strings.Compare(b.Code, a.Code) })
	return out[:min(n, len(out))], nil
}

// The live races, in the saves bucket: a racer's line and their save are
// in one stream, so the revision of each says which was written last
// (LoseRaces compares them). The live races are this node's: a race is not
// handed over when its node stops (its racers were on it), so a node
// starting settles its own races, never another node's running ones.
func (s *Store) liveKey(code string) string { return key("l", tok(s.opts.Node), tok(code)) }
func (s *Store) racerKey(code, account string) string {
	return key("h", tok(s.opts.Node), tok(code), tok(account))
}
func endedKey(code string) string                 { return key("z", tok(code)) }
func (s *Store) racersPattern(code string) string { return key("h", tok(s.opts.Node), tok(code), "*") }
func liveWhat(code string) string                 { return "live race " + code }
func racerWhat(code, account string) string       { return "racer " + account + " of live race " + code }
func endedWhat(code string) string                { return "ended code " + code }
func checkLiveCode(code string) error             { return store.CheckField("race code", code, 16) }
func (s *Store) liveHeads(ctx context.Context) ([]entry, error) {
	return s.saves.list(ctx, key("l", tok(s.opts.Node), "*"))
}

type liveHead struct {
	Code    string    `json:"code"`
	Spec    string    `json:"spec"`
	Key     string    `json:"key"`
	Started time.Time `json:"started"`
}

type endedRace struct {
	Until time.Time `json:"until"`
}

func checkLiveRace(r store.LiveRace) error {
	if err := checkLiveCode(r.Code); err != nil {
		return err
	}
	if err := store.CheckSpec(r.Spec); err != nil {
		return err
	}
	if err := store.CheckKey(r.Key); err != nil {
		return err
	}
	if len(r.Racers) > store.MaxRaceRacers {
		return fmt.Errorf("%w: live race %s has %d racers", store.ErrInvalid, r.Code, len(r.Racers))
	}
	size := 0
	seen := map[string]bool{}
	for _, x := range r.Racers {
		if err := store.CheckID(x.Account); err != nil {
			return err
		}
		if seen[x.Account] || x.Moves < 0 {
			return fmt.Errorf("%w: a racer of live race %s", store.ErrInvalid, r.Code)
		}
		seen[x.Account] = true
		size += len(x.Save)
	}
	if size > store.MaxLiveRace {
		return fmt.Errorf("%w: live race %s of %d bytes (max %d)", store.ErrInvalid, r.Code, size, store.MaxLiveRace)
	}
	return nil
}

// racerLines reads a race's racers' lines by account.
func (s *Store) racerLines(ctx context.Context, code string) (map[string]entry, error) {
	es, err := s.saves.list(ctx, s.racersPattern(code))
	if err != nil {
		return nil, err
	}
	out := make(map[string]entry, len(es))
	for _, e := range es {
		acc, err := lastPart(e.key)
		if err != nil {
			return nil, err
		}
		out[acc] = e
	}
	return out, nil
}

// PutLiveRace keeps a race in play, in one batch. A racer's line that is
// the same as the one kept is not written again, so that its revision
// stays the time it last changed.
func (s *Store) PutLiveRace(ctx context.Context, r store.LiveRace) error {
	if err := checkLiveRace(r); err != nil {
		return err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	head, err := encode(liveWhat(r.Code), liveHead{Code: r.Code, Spec: r.Spec, Key: r.Key, Started: r.Started.UTC()})
	if err != nil {
		return err
	}
	lines := make(map[string][]byte, len(r.Racers))
	for _, x := range r.Racers {
		if lines[x.Account], err = encode(racerWhat(r.Code, x.Account), x); err != nil {
			return err
		}
	}
	_, err = s.update(ctx, s.saves, func() ([]op, error) {
		kept, err := s.racerLines(ctx, r.Code)
		if err != nil {
			return nil, err
		}
		ops := []op{put(s.liveKey(r.Code), head)}
		for acc, e := range kept {
			if _, ok := lines[acc]; !ok {
				ops = append(ops, e.del())
			}
		}
		for acc, b := range lines {
			old, ok := kept[acc]
			switch {
			case ok && string(old.val) == string(b):
			case ok:
				ops = append(ops, old.set(b))
			default:
				ops = append(ops, create(s.racerKey(r.Code, acc), b))
			}
		}
		return ops, nil
	})
	return err
}

// KeepLiveRaces puts races and forgets the races of gone, each in a
// batch of its own: a batch here is a round trip to the cluster, not a
// sync of a local disk, and each race's lines are compared and set on
// their own revisions. Errors are joined; the others are still written.
func (s *Store) KeepLiveRaces(ctx context.Context, races []store.LiveRace, gone []string) error {
	var errs []error
	for _, c := range gone {
		if err := s.DeleteLiveRace(ctx, c); err != nil {
			errs = append(errs, err)
		}
	}
	for _, r := range races {
		if err := s.PutLiveRace(ctx, r); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// DeleteLiveRace forgets a race that ended as races end.
func (s *Store) DeleteLiveRace(ctx context.Context, code string) error {
	if err := checkLiveCode(code); err != nil {
		return err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	_, err = s.update(ctx, s.saves, func() ([]op, error) { return s.dropLiveRace(ctx, code) })
	return err
}

// dropLiveRace says what deletes a race and its lines.
func (s *Store) dropLiveRace(ctx context.Context, code string) ([]op, error) {
	var ops []op
	head, err := s.saves.get(ctx, s.liveKey(code))
	if err != nil {
		return nil, err
	}
	if head.found() {
		ops = append(ops, head.del())
	}
	lines, err := s.racerLines(ctx, code)
	if err != nil {
		return nil, err
	}
	for _, e := range lines {
		ops = append(ops, e.del())
	}
	return ops, nil
}

// readLiveRace reads one race and its racers (by account, in order), with
// each racer's line as read.
func (s *Store) readLiveRace(ctx context.Context, code string, head entry) (store.LiveRace, []entry, error) {
	var h liveHead
	if err := decode(head.val, liveWhat(code), &h); err != nil {
		return store.LiveRace{}, nil, err
	}
	r := store.LiveRace{Code: code, Spec: h.Spec, Key: h.Key, Started: h.Started}
	lines, err := s.racerLines(ctx, code)
	if err != nil {
		return store.LiveRace{}, nil, err
	}
	accs := make([]string, 0, len(lines))
	for acc := range lines {
		accs = append(accs, acc)
	}
	slices.Sort(accs)
	var es []entry
	for _, acc := range accs {
		var x store.LiveRacer
		if err := decode(lines[acc].val, racerWhat(code, acc), &x); err != nil {
			return store.LiveRace{}, nil, err
		}
		if x.Account != acc {
			return store.LiveRace{}, nil, fmt.Errorf("%w: racer %s of live race %s names %q", store.ErrCorrupt, acc, code, x.Account)
		}
		r.Racers = append(r.Racers, x)
		es = append(es, lines[acc])
	}
	if store.CheckKey(r.Key) != nil || store.CheckSpec(r.Spec) != nil {
		return store.LiveRace{}, nil, fmt.Errorf("%w: live race %s has no game", store.ErrCorrupt, code)
	}
	return r, es, nil
}

// codes lists the codes of es (keys <letter>.<code>), in order.
func codes(es []entry) ([]string, map[string]entry, error) {
	by := make(map[string]entry, len(es))
	var out []string
	for _, e := range es {
		c, err := lastPart(e.key)
		if err != nil {
			return nil, nil, err
		}
		by[c] = e
		out = append(out, c)
	}
	slices.Sort(out)
	return out, by, nil
}

// LiveRaces returns the races kept, in code order; one that cannot be read
// is logged and left out.
func (s *Store) LiveRaces(ctx context.Context) ([]store.LiveRace, error) {
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	heads, err := s.liveHeads(ctx)
	if err != nil {
		return nil, err
	}
	cs, by, err := codes(heads)
	if err != nil {
		return nil, err
	}
	out := []store.LiveRace{}
	for _, code := range cs {
		r, _, err := s.readLiveRace(ctx, code, by[code])
		if errors.Is(err, store.ErrCorrupt) {
			s.log.Error("store: a live race does not read; left out", "code", code, "error", err.Error())
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// LoseRaces settles every race kept as lost, one batch each (see
// store.LiveRaces).
func (s *Store) LoseRaces(ctx context.Context, now, until time.Time) ([]store.LostRace, error) {
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	heads, err := s.liveHeads(ctx)
	if err != nil {
		return nil, err
	}
	cs, _, err := codes(heads)
	if err != nil {
		return nil, err
	}
	ended, err := encode("ended race", endedRace{Until: until.UTC()})
	if err != nil {
		return nil, err
	}
	out := []store.LostRace{}
	for _, code := range cs {
		var lost store.LostRace
		var bad error
		_, err := s.update(ctx, s.saves, func() ([]op, error) {
			lost, bad = store.LostRace{}, nil
			head, err := s.saves.get(ctx, s.liveKey(code))
			if err != nil {
				return nil, err
			}
			if !head.found() {
				return nil, nil // settled by another node
			}
			var ops []op
			r, lines, err := s.readLiveRace(ctx, code, head)
			switch {
			case errors.Is(err, store.ErrCorrupt):
				bad = err
			case err != nil:
				return nil, err
			default:
				lost.LiveRace = r
				for i, x := range r.Racers {
					if x.Done || x.Moves == 0 || len(x.Save) == 0 {
						continue
					}
					sv, err := s.saves.get(ctx, saveKey(x.Account, r.Key))
					if err != nil {
						return nil, err
					}
					// A save written after the racer's line last changed is
					// a game played since: it is the newer, and stays.
					if sv.found() && sv.rev > lines[i].rev {
						continue
					}
					ops = append(ops, sv.set(slices.Clone(x.Save)))
					lost.Kept = append(lost.Kept, x.Account)
				}
			}
			ee, err := s.saves.get(ctx, endedKey(code))
			if err != nil {
				return nil, err
			}
			ops = append(ops, ee.set(ended))
			drop, err := s.dropLiveRace(ctx, code)
			if err != nil {
				return nil, err
			}
			return append(ops, drop...), nil
		})
		if err != nil {
			return out, err
		}
		if bad != nil {
			s.log.Error("store: a lost race does not read; its code is ended, its games are not kept", "code", code,
				"error", bad.Error())
			continue
		}
		if lost.Code != "" {
			out = append(out, lost)
		}
	}
	// Forget the codes whose time is past.
	es, err := s.saves.list(ctx, "z.*")
	if err != nil {
		return out, err
	}
	var past []op
	for _, e := range es {
		var x endedRace
		if json.Unmarshal(e.val, &x) != nil || !x.Until.After(now) {
			past = append(past, e.del())
		}
	}
	for len(past) > 0 {
		n := min(len(past), 500)
		if _, err := s.saves.write(ctx, past[:n]); err != nil && !errors.Is(err, errConflict) {
			return out, err
		}
		past = past[n:]
	}
	return out, nil
}

// EndCode keeps a room's code as ended until until (see store.LiveRaces).
func (s *Store) EndCode(ctx context.Context, code string, until time.Time) error {
	if err := checkLiveCode(code); err != nil {
		return err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	v, err := encode(endedWhat(code), endedRace{Until: until.UTC()})
	if err != nil {
		return err
	}
	_, err = s.update(ctx, s.saves, func() ([]op, error) {
		e, err := s.saves.get(ctx, endedKey(code))
		if err != nil {
			return nil, err
		}
		var x endedRace
		if e.found() {
			// One that does not read is replaced: it says nothing else.
			_ = json.Unmarshal(e.val, &x)
		}
		if x.Until.After(until) {
			return nil, nil
		}
		return []op{e.set(v)}, nil
	})
	return err
}

// EndedRaces returns the codes kept as ended at now.
func (s *Store) EndedRaces(ctx context.Context, now time.Time) (map[string]time.Time, error) {
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	es, err := s.saves.list(ctx, "z.*")
	if err != nil {
		return nil, err
	}
	out := map[string]time.Time{}
	for _, e := range es {
		code, err := lastPart(e.key)
		if err != nil {
			s.log.Error("store: an ended code's key does not read; left out", "key", e.key)
			continue
		}
		var x endedRace
		if err := decode(e.val, endedWhat(code), &x); err != nil {
			s.log.Error("store: an ended race does not read; left out", "code", code, "error", err.Error())
			continue
		}
		if x.Until.After(now) {
			out[code] = x.Until
		}
	}
	return out, nil
}
