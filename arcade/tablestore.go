package arcade

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
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
	if g, ok := s.store.(store.GuardedTables); ok {
		s.saveTableAt(ctx, g, code, snap)
		return
	}
	if snap == nil {
		if err := s.store.DeleteTable(ctx, code); err != nil {
			s.log.Error("forgetting a table's snapshot", "code", code, "error", err.Error())
		}
		return
	}
	data, err := encodeSnapshot(snap)
	if err == nil {
		err = s.store.PutTable(ctx, code, data)
	}
	if err != nil {
		s.log.Error("saving a table's snapshot", "code", code, "error", err.Error())
	}
}

// restBufs are buffers for a snapshot's JSON without its record.
var restBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// recordNull is how a snapshot without its record marshals the record.
var recordNull = []byte(`"record":null`)

// encodeSnapshot is json.Marshal(snap), byte for byte, without
// encoding/json scanning and copying the record again (RawMessage is
// checked and compacted as it is written): the hub made the record with
// json.Marshal, and it is most of a snapshot's bytes. The rest is
// marshalled with the record left out, and the record put in its place;
// no other "record" key is in a snapshot, and a string's quotes are
// escaped, so its place is found by its key.
func encodeSnapshot(snap *hub.TableSnapshot) ([]byte, error) {
	if len(snap.Record) == 0 {
		return json.Marshal(snap)
	}
	rest := *snap
	rest.Record = nil
	// The rest is written into a buffer kept for the next snapshot: only
	// the snapshot itself is a new slice.
	buf := restBufs.Get().(*bytes.Buffer)
	defer restBufs.Put(buf)
	buf.Reset()
	if err := json.NewEncoder(buf).Encode(&rest); err != nil {
		return nil, err
	}
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n")) // Encode ends the value with a newline; Marshal does not
	i := bytes.Index(b, recordNull)
	if i < 0 || bytes.Contains(b[i+1:], recordNull) {
		return json.Marshal(snap) // not reached: the form has one record
	}
	at := i + len(recordNull) - len("null")
	out := make([]byte, 0, len(b)-len("null")+len(snap.Record))
	out = append(out, b[:at]...)
	out = append(out, snap.Record...)
	return append(out, b[i+len(recordNull):]...), nil
}

// tableRevisions are the revisions of the table snapshots this node
// wrote last, by code, for a store that several nodes share: a table's
// next snapshot is written at it, so that a node that lost the table to
// another (cut off past its lease) fails its save rather than overwrite
// the new owner's snapshot.
type tableRevisions struct {
	mu sync.Mutex
	at map[string]tableRev
}

type tableRev struct {
	rev  uint64
	lost bool // another node wrote the table since: this node writes it no more
}

func (r *tableRevisions) get(code string) (tableRev, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.at[code]
	return v, ok
}

func (r *tableRevisions) set(code string, v tableRev) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.at == nil {
		r.at = map[string]tableRev{}
	}
	r.at[code] = v
}

func (r *tableRevisions) forget(code string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.at, code)
}

// saveTableAt is saveTable on a store with GuardedTables.
func (s *Server) saveTableAt(ctx context.Context, g store.GuardedTables, code string, snap *hub.TableSnapshot) {
	at, known := s.tableRevs.get(code)
	if at.lost {
		if snap == nil {
			s.tableRevs.forget(code) // the table is gone from here
		}
		return
	}
	if !known {
		// This node's first write of the table (new, restored or taken
		// over): the table is this node's now, so it writes over what
		// is kept; its later writes expect what it wrote.
		rev, err := g.TableRevision(ctx, code)
		if err != nil {
			s.log.Error("saving a table's snapshot", "code", code, "error", err.Error())
			return
		}
		at.rev = rev
	}
	if snap == nil {
		s.tableRevs.forget(code)
		err := g.DeleteTableAt(ctx, code, at.rev)
		if errors.Is(err, store.ErrStale) {
			s.log.Warn("table snapshot not forgotten: another node has written it since", "code", code)
		} else if err != nil {
			s.log.Error("forgetting a table's snapshot", "code", code, "error", err.Error())
		}
		return
	}
	data, err := encodeSnapshot(snap)
	var rev uint64
	if err == nil {
		rev, err = g.PutTableAt(ctx, code, data, at.rev)
	}
	switch {
	case errors.Is(err, store.ErrStale):
		s.tableRevs.set(code, tableRev{lost: true})
		s.log.Warn("table snapshot not saved: another node has written it since, and the table is that node's", "code", code)
	case err != nil:
		// The write may have landed all the same (an answer lost): the
		// next save reads the revision afresh rather than fail against
		// this node's own write.
		s.tableRevs.forget(code)
		s.log.Error("saving a table's snapshot", "code", code, "error", err.Error())
	default:
		s.tableRevs.set(code, tableRev{rev: rev})
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
