package hub

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The member's side of a room across nodes. Hub.Room finds a code another
// node owns in the relay's directory and returns a *Table or *Race whose
// remote field is set: the same type the screens hold for a room here,
// whose methods send the typed commands to the owner instead of running
// them on a goroutine of this process. The owner pushes this node's
// members' states here; each lands in the member's own outbox, so a screen
// cannot tell where its room lives.

// remoteRoom is a room another node owns, as this node sees it.
type remoteRoom struct {
	entry RoomEntry
	once  sync.Once
	done  chan struct{} // closed once a member here sees the room closed
}

func (rr *remoteRoom) close() { rr.once.Do(func() { close(rr.done) }) }

// remoteMember is a member of a room elsewhere: its outbox here, and the
// version of the newest state it was put.
type remoteMember struct {
	h    *Hub
	id   string
	code string
	room *remoteRoom

	// Who joined and how, to join again when the room moves.
	person Person
	seat   int
	role   Role

	mu        sync.Mutex
	node      string // the room's owner as this member last reached it
	last      uint64
	closed    bool
	tout      *outbox[TableState]
	rout      *outbox[RaceState]
	lastTable TableState // the newest state put, for a closing state made here
	lastRace  RaceState
}

// findRemote looks code up in the relay's directory: ok is false when no
// node has it, and the hub answers as for any unknown code.
func (h *Hub) findRemote(code string) (Room, bool, error) {
	e, found, err := h.relay.Lookup(code)
	if err != nil {
		h.log.Warn("room directory not read", "code", code, "err", err)
		return nil, true, ErrUnreachable
	}
	if !found || e.Node == h.relay.Node() && !e.Ended && e.Live {
		// Ours and live but not in h.rooms: it is ending right now.
		return nil, false, nil
	}
	if e.Ended {
		return nil, true, refuse(ErrExpired, "The room %s has ended, and its code with it.", code)
	}
	if !e.Live {
		if e.Kind == TableRoom && h.takeOver != nil {
			if r, err := h.takeOver(code); err == nil {
				return r, true, nil
			}
		}
		return nil, true, refuse(ErrExpired, "The room %s has ended, and its code with it.", code)
	}
	rr := &remoteRoom{entry: e, done: make(chan struct{})}
	switch e.Kind {
	case TableRoom:
		return &Table{h: h, code: code, cfg: TableConfig{Game: e.Game}, remote: rr}, true, nil
	case RaceRoom:
		return &Race{h: h, code: code, spec: e.Spec, ranked: e.Ranked, remote: rr}, true, nil
	}
	return nil, false, nil
}

// ask sends a command to code's room and returns its answer.
func (h *Hub) ask(code string, req wireRequest) (wireReply, error) {
	req.V = WireFormat
	b, err := h.relay.Request(code, encode(req))
	if err != nil {
		if !errors.Is(err, ErrUnreachable) {
			h.log.Warn("room request failed", "code", code, "op", req.Op, "err", err)
		}
		return wireReply{}, ErrUnreachable
	}
	rep, err := decodeReply(b)
	if err != nil {
		h.log.Warn("bad room reply dropped", "code", code, "op", req.Op, "err", err)
		return wireReply{}, ErrUnreachable
	}
	return rep, rep.err()
}

// newRemote makes a member of a room elsewhere, listed before it joins so
// that a state pushed before the join's answer finds it.
func (h *Hub) newRemote(code string, room *remoteRoom, p Person) *remoteMember {
	h.rel.mu.Lock()
	defer h.rel.mu.Unlock()
	h.rel.seq++
	rm := &remoteMember{h: h, id: h.relay.Node() + "/" + strconv.FormatUint(h.rel.seq, 10), code: code, room: room,
		person: p, node: room.entry.Node}
	h.rel.remotes[rm.id] = rm
	return rm
}

// close ends the member here: its outbox takes nothing more.
func (rm *remoteMember) close() {
	rm.h.rel.mu.Lock()
	delete(rm.h.rel.remotes, rm.id)
	rm.h.rel.mu.Unlock()
	rm.mu.Lock()
	defer rm.mu.Unlock()
	rm.closeLocked()
}

func (rm *remoteMember) closeLocked() {
	if rm.closed {
		return
	}
	rm.closed = true
	if rm.tout != nil {
		rm.tout.Close()
	}
	if rm.rout != nil {
		rm.rout.Close()
	}
}

// ask sends one of the member's commands.
func (rm *remoteMember) ask(req wireRequest) (wireReply, error) {
	req.Member = rm.id
	rm.mu.Lock()
	code := rm.code // set late for a seat the pool finds elsewhere
	rm.mu.Unlock()
	return rm.h.ask(code, req)
}

// onDeliver takes a push from a room's node.
func (h *Hub) onDeliver(b []byte) {
	p, err := decodePush(b)
	if err != nil {
		h.log.Warn("bad state push dropped", "err", err)
		return
	}
	if p.Pool != nil {
		h.rel.mu.Lock()
		pr := h.rel.waiting[p.Member]
		h.rel.mu.Unlock()
		if pr != nil {
			pr.put(*p.Pool, p.Seat)
		}
		return
	}
	h.rel.mu.Lock()
	rm := h.rel.remotes[p.Member]
	h.rel.mu.Unlock()
	if rm == nil {
		return // the member left here before the room heard
	}
	if p.Resync {
		go rm.resync()
		return
	}
	if gap := rm.put(p.Table, p.Race, p.Prev, false); gap {
		go rm.resync()
	}
}

// put gives the member a state if it is newer than the last it had, and
// says whether one pushed before it was lost on the way (prev is newer
// than the member's last). A whole state asked for after a gap replaces a
// pushed one of the same version: it is the room's own answer.
func (rm *remoteMember) put(ts *TableState, rs *RaceState, prev uint64, whole bool) (gap bool) {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if rm.closed {
		return false
	}
	var v uint64
	var closing bool
	switch {
	case ts != nil && rm.tout != nil:
		v, closing = ts.Version, ts.Phase == TableClosed
	case rs != nil && rm.rout != nil:
		v, closing = rs.Version, rs.Phase == Closed
	default:
		rm.h.log.Warn("state push of the wrong kind dropped", "member", rm.id)
		return false
	}
	if (v < rm.last || v == rm.last && !whole) && !closing {
		return false // older than one it has: a resync overtook it
	}
	gap = prev > rm.last
	rm.last = v
	if ts != nil {
		rm.lastTable = *ts
		rm.tout.Put(*ts)
	} else {
		rm.lastRace = *rs
		rm.rout.Put(*rs)
	}
	if closing {
		rm.room.close()
		rm.closeLocked()
		go func() {
			rm.h.rel.mu.Lock()
			delete(rm.h.rel.remotes, rm.id)
			rm.h.rel.mu.Unlock()
		}()
		return false
	}
	return gap
}

// reconnectResync is how long after its link came back a node asks its
// members' rooms again: the servers take a moment to learn where its
// subscriptions are now, and a push sent in that moment is lost too.
const reconnectResync = time.Second

// afterReconnect asks, for every member here of a room elsewhere, its
// whole state: a push sent while this node was cut off never came, and
// nothing else would say so until the room's next change. And it tells
// every member elsewhere of a room here to ask for theirs: a push this
// node sent as its link broke may have gone with it.
func (h *Hub) afterReconnect() {
	for range 2 {
		h.rel.mu.Lock()
		rms := make([]*remoteMember, 0, len(h.rel.remotes))
		for _, rm := range h.rel.remotes {
			rms = append(rms, rm)
		}
		served := make([]string, 0, len(h.rel.served))
		for id := range h.rel.served {
			served = append(served, id)
		}
		prs := make([]*poolRemote, 0, len(h.rel.waiting))
		for _, pr := range h.rel.waiting {
			prs = append(prs, pr)
		}
		h.rel.mu.Unlock()
		for _, pr := range prs {
			go pr.recheck()
		}
		for _, rm := range rms {
			if rm.owner() != "" && rm.codeSet() {
				go rm.resync()
			}
		}
		for _, id := range served {
			node, _, _ := strings.Cut(id, "/")
			if err := h.relay.Deliver(node, encode(wirePush{V: WireFormat, Member: id, Resync: true})); err != nil {
				h.log.Warn("resync not asked for", "node", node, "member", id, "err", err)
			}
		}
		time.Sleep(reconnectResync)
	}
}

func (rm *remoteMember) codeSet() bool {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	return rm.code != ""
}

// resync asks for the member's whole state after a gap.
func (rm *remoteMember) resync() {
	rep, err := rm.ask(wireRequest{Op: opState})
	if err != nil {
		return
	}
	rm.put(rep.Table, rep.Race, 0, true)
}

// Tables elsewhere.

func (t *Table) joinRemote(p Person, seat int, sink func(TableState)) (*TableMember, error) {
	rm := t.h.newRemote(t.code, t.remote, p)
	rm.tout = newOutbox(sink)
	rep, err := rm.ask(wireRequest{Op: opJoin, Node: t.h.relay.Node(), Person: p, Seat: seat})
	if err != nil {
		rm.close()
		return nil, err
	}
	rm.seat = AnySeat // joining again, a person with a seat gets it back whatever is asked
	if rep.Seat == Watch {
		rm.seat = Watch
	}
	return &TableMember{table: t, person: p, seat: rep.Seat, rm: rm}, nil
}

func (t *Table) infoRemote() (TableInfo, error) {
	rep, err := t.h.ask(t.code, wireRequest{Op: opInfo})
	if err != nil {
		return TableInfo{}, err
	}
	if rep.Info == nil {
		return TableInfo{}, ErrUnreachable
	}
	return *rep.Info, nil
}

// remoteDo is a table member's command to a room elsewhere.
func (m *TableMember) remoteDo(req wireRequest) error {
	_, err := m.rm.ask(req)
	if req.Op == opLeave || req.Op == opDrop {
		m.rm.close()
	}
	return err
}

func (m *TableMember) remoteState() (TableState, error) {
	rep, err := m.rm.ask(wireRequest{Op: opState})
	if err != nil {
		return TableState{}, err
	}
	if rep.Table == nil {
		return TableState{}, ErrUnreachable
	}
	return *rep.Table, nil
}

// Races elsewhere.

func (r *Race) joinRemote(p Person, role Role, sink func(RaceState)) (*RaceMember, error) {
	rm := r.h.newRemote(r.code, r.remote, p)
	rm.rout = newOutbox(sink)
	rep, err := rm.ask(wireRequest{Op: opJoin, Node: r.h.relay.Node(), Person: p, Role: role})
	if err != nil {
		rm.close()
		return nil, err
	}
	rm.role = rep.Role
	return &RaceMember{race: r, person: p, role: rep.Role, save: rep.Resume, rm: rm}, nil
}

func (r *Race) previewRemote() (RaceState, error) {
	rep, err := r.h.ask(r.code, wireRequest{Op: opPreview})
	if err != nil {
		return RaceState{}, err
	}
	if rep.Race == nil {
		return RaceState{}, ErrUnreachable
	}
	return *rep.Race, nil
}

func (m *RaceMember) remoteDo(req wireRequest) error {
	_, err := m.rm.ask(req)
	if req.Op == opLeave || req.Op == opDrop {
		m.rm.close()
	}
	return err
}

func (m *RaceMember) remoteState() (RaceState, error) {
	rep, err := m.rm.ask(wireRequest{Op: opState})
	if err != nil {
		return RaceState{}, err
	}
	if rep.Race == nil {
		return RaceState{}, ErrUnreachable
	}
	return *rep.Race, nil
}

// closeRemotes, as the hub closes, drops this node's members from rooms
// elsewhere (their people keep their seats for the hold, as after any
// lost connection) and closes their outboxes.
func (h *Hub) closeRemotes() {
	h.rel.mu.Lock()
	var rms []*remoteMember
	for _, rm := range h.rel.remotes {
		rms = append(rms, rm)
	}
	h.rel.mu.Unlock()
	// At once, not one after another: a room whose node is gone makes
	// its drop wait for the relay's timeout.
	var wg sync.WaitGroup
	for _, rm := range rms {
		wg.Go(func() {
			_, _ = rm.ask(wireRequest{Op: opDrop})
			rm.close()
		})
	}
	wg.Wait()
}
