package nats

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"sshuffle/engine"
	"sshuffle/store"
)

// A history is read from the records already kept: the account's results
// (r.), races (c.) and table games (g.), listed whole and merged here
// (their keys are hashes, not times, so no key order helps). Nothing more
// is written for it but a result's moves (m.), beside the result.

// resultMoves are the moves of a result, kept under movesKey.
type resultMoves struct {
	Actions []engine.Action `json:"actions"`
	Times   []time.Duration `json:"times,omitempty"`
	Options map[string]bool `json:"options,omitempty"`
}

// historyLists reads the account's records of the kinds asked for, at
// once: results, races and table games.
func (s *Store) historyLists(ctx context.Context, account string, kinds ...string) (map[string][]entry, error) {
	prefixes := map[string]string{store.HistorySolitaire: "r", store.HistoryRace: "c", store.HistoryTable: "g"}
	out := make(map[string][]entry, len(kinds))
	errs := make([]error, len(kinds))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, kind := range kinds {
		wg.Go(func() {
			es, err := s.records.list(ctx, key(prefixes[kind], tok(account), "*"))
			mu.Lock()
			out[kind], errs[i] = es, err
			mu.Unlock()
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// historyEntry decodes a record of a kind into its history entry.
func historyEntry(kind string, e entry, account string) (store.HistoryEntry, error) {
	h := store.HistoryEntry{Kind: kind}
	what := fmt.Sprintf("%s %s of %s", kind, e.key, account)
	switch kind {
	case store.HistorySolitaire:
		var r store.Result
		if err := decode(e.val, what, &r); err != nil {
			return h, err
		}
		h.ID, h.Game, h.Finished, h.Result = store.ResultID(r), store.GameOfKey(r.Key), r.Finished, &r
	case store.HistoryRace:
		var r store.RaceRecord
		if err := decode(e.val, what, &r); err != nil {
			return h, err
		}
		h.ID, h.Game, h.Finished, h.Race = store.RaceID(r), store.GameOfKey(r.Key), r.Finished, &r
	default:
		var g store.TableGame
		if err := decode(e.val, what, &g); err != nil {
			return h, err
		}
		h.ID, h.Game, h.Finished, h.Table = store.TableGameID(g), g.Game, g.Finished, &g
	}
	return h, nil
}

// raceResultKey is the key of account's result of a race (the race
// recorded it finished when the race did, on its deal).
func raceResultKey(account string, race store.RaceRecord) string {
	return resultKey(store.Result{Account: account, Finished: race.Finished, Spec: race.Spec})
}

// History returns the account's finished games, newest first.
func (s *Store) History(ctx context.Context, account string, q store.HistoryQuery) ([]store.HistoryEntry, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	if q.After != "" {
		if _, _, ok := store.ParseHistoryID(q.After); !ok {
			return nil, fmt.Errorf("%w: history id %q", store.ErrInvalid, q.After)
		}
	}
	if len(q.Game) > store.MaxKeyLen {
		return nil, fmt.Errorf("%w: game name", store.ErrInvalid)
	}
	n := min(max(q.N, 0), store.MaxBoard)
	out := []store.HistoryEntry{}
	if n == 0 {
		return out, nil
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	lists, err := s.historyLists(ctx, account, store.HistorySolitaire, store.HistoryRace, store.HistoryTable)
	if err != nil {
		return nil, err
	}
	results := map[string]store.HistoryEntry{}
	for _, e := range lists[store.HistorySolitaire] {
		h, err := historyEntry(store.HistorySolitaire, e, account)
		if err != nil {
			return nil, err
		}
		results[e.key] = h
	}
	wanted := func(h store.HistoryEntry) bool {
		return (q.After == "" || h.ID < q.After) && (q.Game == "" || h.Game == q.Game) &&
			(q.Since.IsZero() || !h.Finished.Before(q.Since))
	}
	for _, e := range lists[store.HistoryRace] {
		h, err := historyEntry(store.HistoryRace, e, account)
		if err != nil {
			return nil, err
		}
		// The race's result is listed as the race's, not apart.
		rk := raceResultKey(account, *h.Race)
		if r, ok := results[rk]; ok {
			h.Result = r.Result
			delete(results, rk)
		}
		if wanted(h) {
			out = append(out, h)
		}
	}
	for _, h := range results {
		if wanted(h) {
			out = append(out, h)
		}
	}
	for _, e := range lists[store.HistoryTable] {
		h, err := historyEntry(store.HistoryTable, e, account)
		if err != nil {
			return nil, err
		}
		if wanted(h) {
			out = append(out, h)
		}
	}
	// Ids start with the finishing time: their order is the history's.
	slices.SortFunc(out, func(a, b store.HistoryEntry) int { return strings.Compare(b.ID, a.ID) })
	return out[:min(n, len(out))], nil
}

// withMoves adds the moves kept beside r.
func (s *Store) withMoves(ctx context.Context, r *store.Result) error {
	var m resultMoves
	e, err := s.records.getJSON(ctx, movesKey(*r), "the moves of a result of "+r.Account, &m)
	if err != nil || !e.found() {
		return err
	}
	r.Actions, r.Times, r.Options = m.Actions, m.Times, m.Options
	return nil
}

// HistoryGame returns the account's game with this id, whole.
func (s *Store) HistoryGame(ctx context.Context, account, id string) (store.HistoryEntry, error) {
	if err := store.CheckID(account); err != nil {
		return store.HistoryEntry{}, err
	}
	kind, _, ok := store.ParseHistoryID(id)
	if !ok {
		return store.HistoryEntry{}, fmt.Errorf("%w: history id %q", store.ErrInvalid, id)
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return store.HistoryEntry{}, err
	}
	defer done()
	lists, err := s.historyLists(ctx, account, kind)
	if err != nil {
		return store.HistoryEntry{}, err
	}
	for _, e := range lists[kind] {
		h, err := historyEntry(kind, e, account)
		if err != nil {
			return store.HistoryEntry{}, err
		}
		if h.ID != id {
			continue
		}
		switch kind {
		case store.HistorySolitaire:
			if err := s.withMoves(ctx, h.Result); err != nil {
				return store.HistoryEntry{}, err
			}
		case store.HistoryRace:
			for _, x := range h.Race.Racers {
				if x.Ghost || x.Account == "" {
					continue
				}
				var r store.Result
				re, err := s.records.getJSON(ctx, raceResultKey(x.Account, *h.Race), "the race result of "+x.Account, &r)
				if err != nil {
					return store.HistoryEntry{}, err
				}
				if !re.found() {
					continue
				}
				if err := s.withMoves(ctx, &r); err != nil {
					return store.HistoryEntry{}, err
				}
				if x.Account == account {
					own := r
					h.Result = &own
				}
				h.Racers = append(h.Racers, r)
			}
		}
		return h, nil
	}
	return store.HistoryEntry{}, fmt.Errorf("history game %s of %s: %w", id, account, store.ErrNotFound)
}
