package hub

import (
	"encoding/json"
	"sync"
	"time"

	"sshuffle/engine"
)

// SnapshotFormat is the version of TableSnapshot's form.
const SnapshotFormat = 1

// TableSnapshot is a table in play, as the wiring stores it to restore
// after a restart: the current game as its record so far (the
// docs/tablegames.md form, with an unfinished result), which the game package
// replays from its start, plus what the room adds: seats, settings, the
// match so far and the clocks. It holds every hidden card (the record's
// start) and the seed: it is for the store, never for a screen.
type TableSnapshot struct {
	Format    int            `json:"format"`
	Code      string         `json:"code"`
	Game      string         `json:"game"`
	Settings  string         `json:"settings"`
	Seed      uint64         `json:"seed"` // the match's: it deals the games still to come
	Host      Person         `json:"host"`
	Private   bool           `json:"private,omitempty"`
	Rated     bool           `json:"rated,omitempty"`
	Seats     []SnapshotSeat `json:"seats"`
	TurnClock time.Duration  `json:"turnClock"`
	Pace      time.Duration  `json:"pace"`
	Speed     Speed          `json:"speed,omitempty"` // absent in older snapshots: steady
	Hold      time.Duration  `json:"hold"`
	Break     time.Duration  `json:"break"`
	GameNo    int            `json:"gameNo"`
	Totals    []int          `json:"totals"`
	// Record is the current game so far; its "seats" are the record's
	// seat words and carry no names.
	Record json.RawMessage `json:"record"`
	// TurnLeft is what the person to act had left on the turn clock;
	// Auto, that it had run out and the computer was playing their turn.
	TurnLeft time.Duration `json:"turnLeft"`
	Auto     bool          `json:"auto,omitempty"`
	Log      []string      `json:"log,omitempty"`
	Opened   time.Time     `json:"opened"`
	Started  time.Time     `json:"started"` // when the current game was dealt
	Saved    time.Time     `json:"saved"`
}

// SnapshotSeat is one seat of a snapshot.
type SnapshotSeat struct {
	Computer string `json:"computer,omitempty"` // the plan's computer strength
	Person   Person `json:"person"`
	Reserved Person `json:"reserved"`
	Gone     bool   `json:"gone,omitempty"` // the person lost the seat to the computer
}

// save hands the table's snapshot to the wiring, through an outbox: a slow
// store never holds up the table, and a newer snapshot replaces one not yet
// written, which is all a restart needs.
func (t *Table) save() {
	if t.saves == nil || t.match == nil {
		return
	}
	g := t.match.Game()
	gameNo := t.gameNo
	if t.phase == TableBetween {
		gameNo++ // the match has dealt the next game already
	}
	seats := make([]string, len(t.seats))
	snap := &TableSnapshot{Seats: make([]SnapshotSeat, 0, len(t.seats)),
		Format: SnapshotFormat, Code: t.code, Game: t.cfg.Game, Settings: t.cfg.Settings, Seed: t.spec.Seed,
		Host: t.hostPerson(), Private: t.cfg.Private, Rated: t.cfg.Rated, TurnClock: t.cfg.TurnClock, Pace: t.cfg.Pace, Speed: t.cfg.Speed, Hold: t.cfg.Hold,
		Break: t.cfg.Break, GameNo: gameNo, Totals: t.match.Totals(), Log: t.log, Opened: t.opened, Started: t.started,
		Saved: t.h.clock.Now(), Auto: t.auto,
	}
	for i, s := range t.seats {
		snap.Seats = append(snap.Seats, SnapshotSeat{Computer: s.plan.Computer, Person: s.person, Reserved: s.plan.Reserved, Gone: s.gone})
		seats[i] = PersonSeat
		if s.computer != "" {
			seats[i] = s.computer
		}
	}
	switch {
	case t.phase == TablePlaying && t.paused:
		snap.TurnLeft = t.left
	case t.phase == TablePlaying && !t.deadline.IsZero():
		snap.TurnLeft = max(t.deadline.Sub(t.h.clock.Now()), 0)
	default:
		snap.TurnLeft = t.cfg.TurnClock
	}
	t.saveSeq++
	t.savedTurn, t.unsaved = g.Turn(), false
	t.saves.Put(tableSave{seq: t.saveSeq, code: t.code, snap: snap, rec: g.Record(seats)})
}

// saveAction saves the table after an accepted action when the action
// passed the turn. On one server a snapshot is for the next start, which
// a stop (SIGTERM) writes in full; what a crash of the machine may lose is
// the turn in play, and it resumes at that turn's start. A turn is often
// several actions (cards to the centre, then a discard), and a snapshot
// is the whole game so far: saving at each one made most of the store's
// writes on a busy server, and with them its flushes and much of its
// garbage. On a node of several, an action counts only once its snapshot
// is in the shared store (TableMember.Do waits for it), so every action
// is saved there.
func (t *Table) saveAction() {
	if t.h.relay == nil && t.game.Turn() == t.savedTurn {
		t.unsaved = true
		return
	}
	t.save()
}

// keptJSON is a record value that is its JSON already (a kit that keeps
// its games' records as they go hands such values): its bytes are taken
// as they are, in a buffer of their size, rather than through
// encoding/json, which would check and copy them again.
type keptJSON interface {
	JSONLen() int
	AppendJSON(dst []byte) []byte
}

// recordJSON is json.Marshal(rec).
func recordJSON(rec any) ([]byte, error) {
	if k, ok := rec.(keptJSON); ok {
		return k.AppendJSON(make([]byte, 0, k.JSONLen())), nil
	}
	return json.Marshal(rec)
}

// unsave tells the wiring the table needs no restoring any more.
func (t *Table) unsave() {
	if t.saves != nil {
		t.saveSeq++
		t.saves.Put(tableSave{seq: t.saveSeq, code: t.code})
	}
}

// RestoreTable rebuilds a table from its snapshot, under the same code, so
// that invite lines and "join CODE" still lead to it. The table waits,
// paused, for its people to Join again; a seat whose person is not back
// within the table's hold time goes to the computer for good, and play
// resumes once everyone is back or gone.
func (h *Hub) RestoreTable(snap TableSnapshot) (*Table, error) {
	if snap.Format != SnapshotFormat {
		return nil, refuse(ErrBadSnapshot, "A table snapshot of format %d cannot be read (want %d).", snap.Format, SnapshotFormat)
	}
	k, ok := h.tableKit(snap.Game)
	if !ok {
		return nil, refuse(ErrBadSnapshot, "The snapshot is of %q, which is no table game.", snap.Game)
	}
	cfg := TableConfig{
		Game: snap.Game, Settings: snap.Settings, Host: snap.Host, Private: snap.Private, Rated: snap.Rated,
		TurnClock: snap.TurnClock, Pace: snap.Pace, Speed: snap.Speed, Hold: snap.Hold, Break: snap.Break,
	}
	for _, s := range snap.Seats {
		cfg.Seats = append(cfg.Seats, SeatPlan{Computer: s.Computer, Reserved: s.Reserved})
	}
	if err := cfg.normalize(k); err != nil {
		return nil, refuse(ErrBadSnapshot, "The snapshot's table does not open: %v", err)
	}
	spec := engine.Spec{Game: snap.Game, Settings: cfg.Settings, Seed: snap.Seed}
	m, err := k.ResumeMatch(spec, snap.GameNo, snap.Totals, snap.Record)
	if err != nil {
		return nil, refuse(ErrBadSnapshot, "The snapshot's game does not replay: %v", err)
	}
	if _, over := m.Game().Over(); over {
		return nil, refuse(ErrBadSnapshot, "The snapshot's game is over already.")
	}
	code, err := NormalizeCode(snap.Code)
	if err != nil {
		return nil, err
	}
	room, err := h.registerCode(code, func(code string) Room { return h.newTable(code, k, cfg) })
	if err != nil {
		return nil, err
	}
	t := room.(*Table)
	t.startLoop(func() { err = t.resume(snap, spec, m) })
	if err != nil {
		t.shut("")
		return nil, err
	}
	return t, nil
}

func (t *Table) resume(snap TableSnapshot, spec engine.Spec, m engine.TableMatch) error {
	t.spec, t.match, t.gameNo = spec, m, snap.GameNo
	t.opened = snap.Opened
	t.log = snap.Log
	for i, s := range t.seats {
		ss := snap.Seats[i]
		s.person, s.gone = ss.Person, ss.Gone
		if ss.Gone {
			s.computer = t.kit.Info().StandInStrength()
		}
		if s.computer != "" {
			p, err := t.kit.NewPlayer(s.computer, playerSeed(spec.Seed, i, 1))
			if err != nil {
				return refuse(ErrBadSnapshot, "The snapshot's computer player: %v", err)
			}
			s.player = p
		}
		if s.computer == "" && s.person.ID == "" {
			return refuse(ErrBadSnapshot, "Seat %d of the snapshot has nobody in it.", i+1)
		}
		if s.computer == "" {
			// Everyone was cut off by the restart, through no fault of
			// their own: each gets the full hold to come back.
			s.until = t.h.clock.Now().Add(t.cfg.Hold)
			s.hold.set(&t.loop, t.h.clock, t.cfg.Hold, func() { t.lose(s, "did not come back after the restart") })
		}
	}
	t.phase, t.game = TablePlaying, m.Game()
	t.started = snap.Started
	t.paused, t.left = true, snap.TurnLeft
	if snap.Auto {
		t.left = 0
	}
	t.addLog("the table is back after a restart; waiting for its players")
	t.checkPaused()
	t.publish()
	t.changed()
	t.checkEmpty()
	t.step()
	return nil
}

// RestoreTables restores every snapshot the wiring kept, for the start of
// the server; it returns the tables restored and, apart, the snapshots
// that could not be (with why), which the wiring may drop.
func (h *Hub) RestoreTables(snaps []TableSnapshot) ([]*Table, map[string]error) {
	var out []*Table
	bad := map[string]error{}
	for _, s := range snaps {
		t, err := h.RestoreTable(s)
		if err != nil {
			bad[s.Code] = err
			continue
		}
		out = append(out, t)
	}
	return out, bad
}

// savedMark is how far a table's snapshots have been handed to the
// wiring, for an action that waits until its own is.
type savedMark struct {
	mu  sync.Mutex
	seq uint64
	ch  chan struct{} // closed at the next mark
}

func (s *savedMark) mark(seq uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if seq > s.seq {
		s.seq = seq
	}
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
}

// saveWait bounds how long an action waits for its snapshot: a store that
// does not answer in that time has failed, and the action stands anyway.
const saveWait = 10 * time.Second

// waitSaved returns once the snapshot numbered seq (or a newer one) has
// been handed to the wiring, or the table has ended.
func (t *Table) waitSaved(seq uint64) {
	if t.saves == nil {
		return
	}
	deadline := time.NewTimer(saveWait)
	defer deadline.Stop()
	for {
		t.saved.mu.Lock()
		if t.saved.seq >= seq {
			t.saved.mu.Unlock()
			return
		}
		if t.saved.ch == nil {
			t.saved.ch = make(chan struct{})
		}
		ch := t.saved.ch
		t.saved.mu.Unlock()
		select {
		case <-ch:
		case <-t.done:
			return
		case <-deadline.C:
			t.h.log.Warn("an action's table snapshot was not saved in time", "code", t.code)
			return
		}
	}
}
