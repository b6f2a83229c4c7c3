package arcade

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"sshuffle/arcade/hub"
	"sshuffle/engine"
	"sshuffle/store"
)

// tableFinished stores a finished table game: the record on every seated
// person's account, with their stats and the match so far. It runs on the
// table's goroutine (the hub allows a store write there).
func (s *Server) tableFinished(res hub.TableResult) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	g := store.TableGame{
		Code: res.Code, Game: res.Spec.Game, Spec: res.Spec.String(), GameNo: res.GameNo,
		Record: json.RawMessage(res.Record), Winner: res.Outcome.Winner, Points: res.Outcome.Points,
		LowWins: res.Outcome.LowWins, Totals: res.Totals, MatchEnd: res.MatchEnd, MatchWinner: res.MatchWinner,
		Started: res.Started, Finished: res.Ended,
	}
	if g.Finished.IsZero() {
		g.Finished = s.cfg.Now()
	}
	for i, x := range res.Seats {
		// The seat as the table named it, so that the people a
		// computer played find it in their records as they met it.
		name := x.Name
		if name == "" {
			name = x.Person.Name
		}
		if name == "" && x.Strength != hub.PersonSeat {
			name = engine.ComputerName(x.Strength, i)
		}
		g.Seats = append(g.Seats, store.TableSeat{Account: x.Person.ID, Name: name, Strength: x.Strength,
			StoodIn: x.StoodIn, Gone: x.Gone})
	}
	if res.Rated {
		s.rate(&g, res)
	}
	if err := s.store.RecordTableGame(ctx, g); err != nil {
		s.log.Error("recording a table game", "code", res.Code, "game", res.GameNo, "error", err.Error())
		return
	}
	s.bots.stored.put(g, s.cfg.Now())
}

// saveTable keeps (or forgets, on nil) a table's snapshot for a restart.
// It runs on the table's save goroutine.
func (s *Server) saveTable(code string, snap *hub.TableSnapshot) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if snap == nil {
		if err := s.store.DeleteTable(ctx, code); err != nil {
			s.log.Error("forgetting a table's snapshot", "code", code, "error", err.Error())
		}
		return
	}
	data, err := json.Marshal(snap)
	if err == nil {
		err = s.store.PutTable(ctx, code, data)
	}
	if err != nil {
		s.log.Error("saving a table's snapshot", "code", code, "error", err.Error())
	}
}

// restoreTables brings back the tables that were in play when the server
// last stopped; their people rejoin their seats (by code or from the menu).
// A snapshot that cannot be restored is logged and forgotten.
func (s *Server) restoreTables() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	saved, err := s.store.SavedTables(ctx)
	if err != nil {
		s.log.Error("reading saved tables", "error", err.Error())
		return
	}
	var snaps []hub.TableSnapshot
	for code, data := range saved {
		var snap hub.TableSnapshot
		if err := json.Unmarshal(data, &snap); err != nil {
			s.log.Error("a saved table does not read", "code", code, "error", err.Error())
			_ = s.store.DeleteTable(ctx, code)
			continue
		}
		snaps = append(snaps, snap)
	}
	tables, bad := s.hub.RestoreTables(snaps)
	for code, err := range bad {
		if errors.Is(err, hub.ErrHeldElsewhere) {
			continue // live on another node of the cluster, which keeps its snapshot
		}
		s.log.Error("a saved table could not be restored", "code", code, "error", err.Error())
		_ = s.store.DeleteTable(ctx, code)
	}
	if len(tables) > 0 {
		s.log.Info("tables restored", "tables", len(tables))
	}
}

// loadTable reads one table's snapshot from the store, for a node of a
// cluster taking over a table whose node stopped; nil when there is none.
func (s *Server) loadTable(code string) (*hub.TableSnapshot, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	saved, err := s.store.SavedTables(ctx)
	if err != nil {
		return nil, err
	}
	data, ok := saved[code]
	if !ok {
		return nil, nil
	}
	var snap hub.TableSnapshot
	if err := json.Unmarshal(data, &snap); err != nil {
		return nil, err
	}
	return &snap, nil
}
