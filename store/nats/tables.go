package nats

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"sshuffle/store"
)

func tableGameKey(account string, g store.TableGame) string {
	// The deal (the spec's seed) tells a rematch's games from the first
	// match's, whose numbers they repeat.
	return key("g", tok(account), hash(g.Code, g.Spec, strconv.Itoa(g.GameNo)))
}

func tableStatsKey(account string) string { return key("t", tok(account)) }
func snapshotKey(code string) string      { return key("q", tok(code)) }

// RecordTableGame keeps a finished game for each person seated at it and
// counts it in their stats, in one batch. Each person's copy is written
// only if absent, so the same game again counts once.
func (s *Store) RecordTableGame(ctx context.Context, g store.TableGame) error {
	if err := store.CheckTableGame(g); err != nil {
		return err
	}
	g.Finished, g.Started = g.Finished.UTC(), g.Started.UTC()
	people := 0
	for _, x := range g.Seats {
		if x.Account != "" {
			people++
		}
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	var locks []string
	for _, x := range g.Seats {
		if x.Account != "" {
			locks = append(locks, tableStatsKey(x.Account))
			if g.Rated {
				locks = append(locks, ratingKey(x.Account, g.Game))
			}
		}
	}
	defer s.lock(locks...)()
	_, err = s.update(ctx, s.records, func() ([]op, error) {
		// Who has the game on their record already: they are not counted
		// again (and a rated game moves no rating of theirs again).
		fresh := map[string]entry{}
		for _, x := range g.Seats {
			if x.Account == "" {
				continue
			}
			if _, ok := fresh[x.Account]; ok {
				continue
			}
			ge, err := s.records.get(ctx, tableGameKey(x.Account, g))
			if err != nil {
				return nil, err
			}
			if !ge.found() {
				fresh[x.Account] = ge
			}
		}
		if len(fresh) == 0 {
			return nil, nil
		}
		g := g // a run again starts from the caller's game
		var ops []op
		if g.Rated {
			counted := map[string]bool{}
			for a := range fresh {
				counted[a] = true
			}
			rops, err := s.rateTableGame(ctx, &g, counted)
			if err != nil {
				return nil, err
			}
			ops = append(ops, rops...)
		}
		val, err := encode("table game "+g.Code, g)
		if err != nil {
			return nil, err
		}
		for i, x := range g.Seats {
			ge, ok := fresh[x.Account]
			if x.Account == "" || !ok {
				continue
			}
			delete(fresh, x.Account) // an account in two seats counts once, as its first
			all := map[string]store.TableStats{}
			what := "table stats of " + x.Account
			te, err := s.records.getJSON(ctx, tableStatsKey(x.Account), what, &all)
			if err != nil {
				return nil, err
			}
			if all == nil {
				all = map[string]store.TableStats{}
			}
			st := all[g.Game]
			st.Game = g.Game
			st.Played++
			if g.Winner == i {
				st.Won++
			}
			if g.MatchEnd {
				st.Matches++
				if g.MatchWinner == i {
					st.MatchesWon++
				}
			}
			if people > 1 {
				st.AgainstPeople++
			}
			all[g.Game] = st
			tv, err := encode(what, all)
			if err != nil {
				return nil, err
			}
			ops = append(ops, ge.set(val), te.set(tv))
		}
		return ops, nil
	})
	return err
}

// TableGames returns up to n of the account's table games, newest first.
func (s *Store) TableGames(ctx context.Context, account string, n int) ([]store.TableGame, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	n = min(max(n, 0), store.MaxBoard)
	out := []store.TableGame{}
	if n == 0 {
		return out, nil
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	es, err := s.records.list(ctx, key("g", tok(account), "*"))
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		var g store.TableGame
		if err := decode(e.val, "a table game of "+account, &g); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	byTimeThen(out, func(g store.TableGame) time.Time { return g.Finished }, func(a, b store.TableGame) int {
		ka := a.Code + "\x00" + strconv.Itoa(a.GameNo) + "\x00" + a.Spec
		kb := b.Code + "\x00" + strconv.Itoa(b.GameNo) + "\x00" + b.Spec
		return strings.Compare(kb, ka)
	})
	return out[:min(n, len(out))], nil
}

// TableStats returns the account's stats per table game, by game name.
func (s *Store) TableStats(ctx context.Context, account string) ([]store.TableStats, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	all := map[string]store.TableStats{}
	if _, err := s.records.getJSON(ctx, tableStatsKey(account), "table stats of "+account, &all); err != nil {
		return nil, err
	}
	out := []store.TableStats{}
	for _, st := range all {
		out = append(out, st)
	}
	slices.SortFunc(out, func(a, b store.TableStats) int { return strings.Compare(a.Game, b.Game) })
	return out, nil
}

// PutTable keeps a table's snapshot under its code.
func (s *Store) PutTable(ctx context.Context, code string, snapshot []byte) error {
	if err := store.CheckTableCode(code); err != nil {
		return err
	}
	if len(snapshot) == 0 || len(snapshot) > store.MaxTableRecord {
		return fmt.Errorf("%w: snapshot of table %s", store.ErrInvalid, code)
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	_, err = s.saves.write(ctx, []op{put(snapshotKey(code), slices.Clone(snapshot))})
	return err
}

// DeleteTable forgets a table's snapshot; none is no error.
func (s *Store) DeleteTable(ctx context.Context, code string) error {
	if err := store.CheckTableCode(code); err != nil {
		return err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	return s.deleteKey(ctx, s.saves, snapshotKey(code))
}

// SavedTables returns every snapshot by code.
func (s *Store) SavedTables(ctx context.Context) (map[string][]byte, error) {
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	es, err := s.saves.list(ctx, "q.*")
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, e := range es {
		code, err := lastPart(e.key)
		if err != nil {
			return nil, err
		}
		out[code] = e.val
	}
	return out, nil
}

var _ store.GuardedTables = (*Store)(nil)

// TableRevision is the revision of code's snapshot key: its stream
// sequence, which a write at that revision expects (0: never written).
func (s *Store) TableRevision(ctx context.Context, code string) (uint64, error) {
	if err := store.CheckTableCode(code); err != nil {
		return 0, err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer done()
	e, err := s.saves.get(ctx, snapshotKey(code))
	return e.rev, err
}

// PutTableAt keeps code's snapshot if its key is still at rev.
func (s *Store) PutTableAt(ctx context.Context, code string, snapshot []byte, rev uint64) (uint64, error) {
	if err := store.CheckTableCode(code); err != nil {
		return 0, err
	}
	if len(snapshot) == 0 || len(snapshot) > store.MaxTableRecord {
		return 0, fmt.Errorf("%w: snapshot of table %s", store.ErrInvalid, code)
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer done()
	k := snapshotKey(code)
	snapshot = slices.Clone(snapshot)
	seq, resent, err := s.saves.writeTrying(ctx, []op{{key: k, val: snapshot, rev: rev, cond: true}})
	if errors.Is(err, errConflict) {
		if resent {
			// Sent again after no answer, it may have met itself.
			if e, rerr := s.saves.get(ctx, k); rerr == nil && e.found() && bytes.Equal(e.val, snapshot) {
				return e.rev, nil
			}
		}
		return 0, fmt.Errorf("snapshot of table %s: %w", code, store.ErrStale)
	}
	return seq, err
}

// DeleteTableAt forgets code's snapshot if its key is still at rev.
func (s *Store) DeleteTableAt(ctx context.Context, code string, rev uint64) error {
	if err := store.CheckTableCode(code); err != nil {
		return err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	k := snapshotKey(code)
	_, resent, err := s.saves.writeTrying(ctx, []op{{key: k, del: true, rev: rev, cond: true}})
	if errors.Is(err, errConflict) {
		if resent {
			if e, rerr := s.saves.get(ctx, k); rerr == nil && e.gone {
				return nil
			}
		}
		return fmt.Errorf("snapshot of table %s: %w", code, store.ErrStale)
	}
	return err
}
