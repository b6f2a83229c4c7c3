package hub

import (
	"sync"
)

// The owner's side of a room across nodes: the room's node answers the
// commands members elsewhere send it, through the same methods a member
// on this node calls, and pushes each such member's states to its node.

// served is a member on another node as the room's node keeps it: the
// handle its commands go through.
type served struct {
	code  string
	table *TableMember
	race  *RaceMember
}

// relayed is the hub's state of rooms across nodes, under its own lock so
// that no request waits on the hub's.
type relayed struct {
	mu      sync.Mutex
	served  map[string]*served       // member ID -> its handle, for members elsewhere in rooms here
	remotes map[string]*remoteMember // member ID -> this node's members of rooms elsewhere
	stops   map[string]func()        // code -> stop serving it
	seq     uint64                   // member IDs drawn

	// The play-now pool across nodes (poolacross.go): poolStop stops
	// serving it while this node runs it; pooled are the players of other
	// nodes waiting in it, by their handle; waiting are this node's
	// players waiting in another node's pool. poolMu serialises taking
	// the pool on.
	poolMu   sync.Mutex
	poolStop func()
	pooled   map[string]*PoolMember
	waiting  map[string]*poolRemote
	// seatedFor keeps, a while, where the pool seated each player of
	// another node, for one whose node missed it (opPoolState).
	seatedFor map[string]poolSeat
}

// serveRoom starts answering a new room's requests; a hub without a relay
// does nothing.
func (h *Hub) serveRoom(r Room) {
	if h.relay == nil {
		return
	}
	stop, err := h.relay.Serve(r.Code(), func(b []byte) []byte { return h.handle(r, b) })
	if err != nil {
		h.log.Warn("room not served to other nodes", "code", r.Code(), "err", err)
		return
	}
	h.rel.mu.Lock()
	h.rel.stops[r.Code()] = stop
	h.rel.mu.Unlock()
}

// unserveRoom stops a room's requests and forgets its members elsewhere,
// as it ends. It runs on the room's goroutine.
func (h *Hub) unserveRoom(code string, release bool) {
	if h.relay == nil {
		return
	}
	h.rel.mu.Lock()
	stop := h.rel.stops[code]
	delete(h.rel.stops, code)
	for id, s := range h.rel.served {
		if s.code == code {
			delete(h.rel.served, id)
		}
	}
	h.rel.mu.Unlock()
	if stop != nil {
		stop()
	}
	if release {
		if err := h.relay.Release(code); err != nil {
			h.log.Warn("room's end not written to the directory", "code", code, "err", err)
		}
	}
}

// handle answers one request to room r.
func (h *Hub) handle(r Room, b []byte) []byte {
	req, err := decodeRequest(b)
	if err != nil {
		h.log.Warn("bad room request dropped", "code", r.Code(), "err", err)
		rep := wireReply{V: WireFormat}
		rep.setErr(ErrUnreachable)
		return encode(rep)
	}
	rep := wireReply{V: WireFormat}
	switch room := r.(type) {
	case *Table:
		h.handleTable(room, req, &rep)
	case *Race:
		h.handleRace(room, req, &rep)
	}
	return encode(rep)
}

func (h *Hub) servedMember(code, id string) *served {
	h.rel.mu.Lock()
	defer h.rel.mu.Unlock()
	s := h.rel.served[id]
	if s == nil || s.code != code {
		return nil
	}
	return s
}

func (h *Hub) serve(id string, s *served) {
	h.rel.mu.Lock()
	h.rel.served[id] = s
	h.rel.mu.Unlock()
}

func (h *Hub) unserve(id string) {
	h.rel.mu.Lock()
	delete(h.rel.served, id)
	h.rel.mu.Unlock()
}

// pusher is the sink of a member elsewhere: each state the room puts in
// its outbox goes to its node, with the version of the one before.
func pusher[S any](h *Hub, node, id string, wrap func(*S) wirePush, version func(*S) uint64) func(S) {
	var prev uint64
	return func(st S) {
		p := wrap(&st)
		p.V, p.Member, p.Prev = WireFormat, id, prev
		prev = version(&st)
		if err := h.relay.Deliver(node, encode(p)); err != nil {
			h.log.Warn("state not delivered", "node", node, "member", id, "err", err)
		}
	}
}

func (h *Hub) handleTable(t *Table, req wireRequest, rep *wireReply) {
	switch req.Op {
	case opJoin:
		sink := pusher(h, req.Node, req.Member,
			func(st *TableState) wirePush { return wirePush{Table: st} },
			func(st *TableState) uint64 { return st.Version })
		m, err := t.joinLocal(req.Person, req.Seat, sink)
		if err != nil {
			rep.setErr(err)
			return
		}
		h.serve(req.Member, &served{code: t.code, table: m})
		rep.Seat = m.seat
		return
	case opInfo:
		in, err := t.Info()
		rep.setErr(err)
		if err == nil {
			rep.Info = &in
		}
		return
	}
	s := h.servedMember(t.code, req.Member)
	if s == nil || s.table == nil {
		rep.setErr(ErrNotMember)
		return
	}
	m := s.table
	var err error
	switch req.Op {
	case opState:
		var st TableState
		if st, err = m.State(); err == nil {
			rep.Table = &st
		}
	case opDo:
		err = m.Do(req.Action)
	case opStart:
		err = m.Start()
	case opRematch:
		err = m.Rematch()
	case opDecline:
		err = m.Decline()
	case opSay:
		err = m.Say(req.N)
	case opMute:
		err = m.Mute(req.On)
	case opLeave:
		err = m.Leave()
		h.unserve(req.Member)
	case opDrop:
		err = m.Drop()
		h.unserve(req.Member)
	default:
		h.log.Warn("unknown table command dropped", "op", req.Op)
		err = ErrUnreachable
	}
	rep.setErr(err)
}

func (h *Hub) handleRace(r *Race, req wireRequest, rep *wireReply) {
	switch req.Op {
	case opJoin:
		sink := pusher(h, req.Node, req.Member,
			func(st *RaceState) wirePush { return wirePush{Race: st} },
			func(st *RaceState) uint64 { return st.Version })
		m, err := r.joinLocal(req.Person, req.Role, sink)
		if err != nil {
			rep.setErr(err)
			return
		}
		h.serve(req.Member, &served{code: r.code, race: m})
		rep.Role, rep.Resume = m.role, m.save
		return
	case opPreview:
		st, err := r.State()
		rep.setErr(err)
		if err == nil {
			rep.Race = &st
		}
		return
	}
	s := h.servedMember(r.code, req.Member)
	if s == nil || s.race == nil {
		rep.setErr(ErrNotMember)
		return
	}
	m := s.race
	var err error
	switch req.Op {
	case opState:
		var st RaceState
		if st, err = m.State(); err == nil {
			rep.Race = &st
		}
	case opStart:
		err = m.Start()
	case opReport:
		if req.Progress == nil {
			err = ErrBadProgress
			break
		}
		err = m.Report(*req.Progress)
	case opFollow:
		err = m.Follow(req.Racer)
	case opGhost:
		if req.Run == nil {
			err = ErrBadRun
			break
		}
		err = m.AddGhost(*req.Run)
	case opSay:
		err = m.Say(req.N)
	case opMute:
		err = m.Mute(req.On)
	case opLeave:
		err = m.Leave()
		h.unserve(req.Member)
	case opDrop:
		err = m.Drop()
		h.unserve(req.Member)
	default:
		h.log.Warn("unknown race command dropped", "op", req.Op)
		err = ErrUnreachable
	}
	rep.setErr(err)
}
