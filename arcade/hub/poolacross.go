package hub

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The play-now pool on a node of several. One node runs the pool for
// every node (its goroutine, as on one machine), holding a lease on the
// directory's entry poolCode as an owner holds its rooms'. A player on
// another node waits in it through the relay: the pool's node keeps a
// waiter for them, pushes their pool states to their node, and seats them,
// as anyone, at a table it opens, whose states reach their node as a
// member elsewhere's do. The first node asked for a game while no node
// holds the pool's lease (none yet, or its node died and the lease lapsed)
// takes the pool on; the one that held it, if it comes back, finds its
// lease lost and tells its waiters to ask again.

// poolCode is the pool's entry in the rooms' directory: no code a player
// can type (codes are five capital letters), so no room ever has it.
const poolCode = "play-now"

// PoolMoved is why a player waiting on another node is out of the pool
// when the pool's node stops or hands the pool over.
const PoolMoved = "The play-now pool moved to another server; ask to play now again."

// poolSeatKept is how long the pool's node remembers where it seated a
// player of another node, for that node to ask after a cut.
const poolSeatKept = time.Minute

// poolSeat is where the pool seated a player of another node.
type poolSeat struct {
	code string
	seat int
	at   time.Time
}

// poolShutting is why everyone is out of the pool when its node closes.
const poolShutting = "The arcade is shutting down."

// poolNode is the node that runs the pool, taking it on when none does.
func (h *Hub) poolNode() (string, error) {
	me := h.relay.Node()
	h.rel.poolMu.Lock()
	defer h.rel.poolMu.Unlock()
	h.rel.mu.Lock()
	held := h.rel.poolStop != nil
	h.rel.mu.Unlock()
	if held {
		return me, nil
	}
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		return "", ErrHubClosed
	}
	e, found, err := h.relay.Lookup(poolCode)
	if err != nil {
		h.log.Warn("pool's entry not read", "err", err)
		return "", ErrUnreachable
	}
	if found && e.Live && e.Node != me {
		return e.Node, nil
	}
	entry := RoomEntry{Kind: PoolRoom, Node: me, What: "the play-now pool"}
	if err := h.relay.Takeover(poolCode, entry, h.lostPool); err != nil {
		// Another node won the race to take it on: that one runs it.
		if e, found, lerr := h.relay.Lookup(poolCode); lerr == nil && found && e.Live && e.Node != me {
			return e.Node, nil
		}
		h.log.Warn("play-now pool not taken on", "err", err)
		return "", ErrUnreachable
	}
	stop, err := h.relay.Serve(poolCode, h.handlePool)
	if err != nil {
		// Its people here may use it still; those elsewhere are told
		// the server does not answer.
		h.log.Warn("play-now pool not served to other nodes", "err", err)
		stop = func() {}
	}
	h.rel.mu.Lock()
	h.rel.poolStop = stop
	h.rel.mu.Unlock()
	h.log.Info("this node runs the play-now pool")
	return me, nil
}

// lostPool: another node took the pool over while this one was cut off.
// Everyone waiting here is out, and asks again to find the new pool.
func (h *Hub) lostPool() {
	h.stopServingPool()
	p := h.pool
	p.mu.Lock()
	started := p.started && !p.closed
	p.mu.Unlock()
	if !started {
		return
	}
	_ = p.loop.wait(func() {
		for _, w := range p.waiting {
			p.closeWaiter(w, PoolMoved)
		}
		p.waiting = nil
		p.settle()
	})
}

func (h *Hub) stopServingPool() {
	if h.relay == nil {
		return
	}
	h.rel.mu.Lock()
	stop := h.rel.poolStop
	h.rel.poolStop = nil
	h.rel.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// handlePool answers a request of a player on another node to the pool.
func (h *Hub) handlePool(b []byte) []byte {
	rep := wireReply{V: WireFormat}
	req, err := decodeRequest(b)
	if err != nil {
		h.log.Warn("bad pool request dropped", "err", err)
		rep.setErr(ErrUnreachable)
		return encode(rep)
	}
	if req.Op == opPoolJoin {
		rep.setErr(h.poolJoinFrom(req))
		return encode(rep)
	}
	h.rel.mu.Lock()
	m := h.rel.pooled[req.Member]
	seated, wasSeated := h.rel.seatedFor[req.Member]
	h.rel.mu.Unlock()
	if m == nil && req.Op == opPoolState && wasSeated {
		rep.Code, rep.Seat = seated.code, seated.seat
		return encode(rep)
	}
	if m == nil {
		rep.setErr(refuse(ErrNotMember, "You are not waiting to play now."))
		return encode(rep)
	}
	switch req.Op {
	case opPoolAccept:
		rep.setErr(m.Accept())
	case opPoolKeep:
		rep.setErr(m.KeepWaiting())
	case opPoolState:
		// Still waiting: the pool's next tick says the rest.
	case opPoolLeave:
		h.rel.mu.Lock()
		delete(h.rel.pooled, req.Member)
		h.rel.mu.Unlock()
		if tm := m.Leave(); tm != nil {
			rep.Code, rep.Seat = tm.Table().Code(), tm.Seat()
		}
	default:
		h.log.Warn("unknown pool command dropped", "op", req.Op)
		rep.setErr(ErrUnreachable)
	}
	return encode(rep)
}

// poolJoinFrom puts a player of another node in the pool here.
func (h *Hub) poolJoinFrom(req wireRequest) error {
	if req.Pool == nil || req.Member == "" || req.Pool.Seat == "" || req.Person.Guest {
		return ErrUnreachable
	}
	want, info, err := h.poolWant(req.Pool.Want)
	if err != nil {
		return err
	}
	w := &waiter{person: req.Person, want: want, key: want.Game + "/" + strconv.Itoa(want.Players),
		rating: req.Pool.Rating, deviation: req.Pool.Deviation, seatID: req.Pool.Seat}
	for _, c := range req.Pool.Computers {
		w.comps = append(w.comps, poolComputer{strength: c.Strength, rating: c.Rating})
	}
	if len(w.comps) == 0 {
		w.comps = []poolComputer{{strength: info.StandInStrength()}}
	}
	member := req.Member
	w.out = newOutbox(pusher(h, req.Node, member,
		func(st *PoolState) wirePush {
			p := wirePush{Pool: st}
			if st.Table != nil {
				p.Seat = st.Table.Seat()
			}
			if st.Phase != PoolWaiting {
				h.rel.mu.Lock()
				delete(h.rel.pooled, member)
				if st.Table != nil {
					now := time.Now()
					for id, s := range h.rel.seatedFor {
						if now.Sub(s.at) > poolSeatKept {
							delete(h.rel.seatedFor, id)
						}
					}
					h.rel.seatedFor[member] = poolSeat{code: st.Code, seat: st.Table.Seat(), at: now}
				}
				h.rel.mu.Unlock()
			}
			return p
		},
		func(st *PoolState) uint64 { return st.Version }))
	w.seat = pusher(h, req.Node, req.Pool.Seat,
		func(st *TableState) wirePush { return wirePush{Table: st} },
		func(st *TableState) uint64 { return st.Version })
	// Listed before it joins: a state pushed at once may say seated, and
	// then takes it off the list again.
	m, err := h.pool.enter(w)
	if err != nil {
		return err
	}
	h.rel.mu.Lock()
	if m.Table() == nil {
		h.rel.pooled[member] = m
	}
	h.rel.mu.Unlock()
	return nil
}

// poolRemote is, on a player's node, their place in a pool another node
// runs: their pool states arrive here, and their seat's states, once the
// pool seats them, through seat (a member of a room elsewhere, as any).
type poolRemote struct {
	h      *Hub
	id     string
	node   string // the pool's
	person Person
	game   string
	out    *outbox[PoolState]
	seat   *remoteMember
	handle *PoolMember

	mu     sync.Mutex
	last   uint64
	closed bool
	table  *TableMember
}

// playNowElsewhere puts w in the pool node runs.
func (h *Hub) playNowElsewhere(node string, w *waiter, title string, sink func(PoolState), seat func(TableState)) (*PoolMember, error) {
	me := h.relay.Node()
	room := &remoteRoom{entry: RoomEntry{Kind: TableRoom, Node: node, Game: w.want.Game, What: "table of " + title},
		done: make(chan struct{})}
	// The seat's member is known before the pool has a table for it
	// (code ""), so that the table's first states find it.
	rm := h.newRemote("", room, w.person)
	rm.mu.Lock()
	rm.tout, rm.seat = newOutbox(seat), AnySeat
	rm.mu.Unlock()
	pr := &poolRemote{h: h, node: node, person: w.person.public(), game: w.want.Game, out: newOutbox(sink), seat: rm}
	pr.handle = &PoolMember{person: pr.person, rp: pr}
	h.rel.mu.Lock()
	h.rel.seq++
	pr.id = me + "/" + strconv.FormatUint(h.rel.seq, 10)
	h.rel.waiting[pr.id] = pr
	h.rel.mu.Unlock()
	comps := make([]wireComputer, 0, len(w.comps))
	for _, c := range w.comps {
		comps = append(comps, wireComputer{Strength: c.strength, Rating: c.rating})
	}
	_, err := h.ask(poolCode, wireRequest{Op: opPoolJoin, Member: pr.id, Node: me, Person: w.person,
		Pool: &wirePoolJoin{Want: w.want, Rating: w.rating, Deviation: w.deviation, Computers: comps, Seat: rm.id}})
	if err != nil {
		pr.mu.Lock()
		pr.closeLocked()
		pr.mu.Unlock()
		rm.close()
		return nil, err
	}
	return pr.handle, nil
}

func (pr *poolRemote) ask(op string) error {
	_, err := pr.h.ask(poolCode, wireRequest{Op: op, Member: pr.id})
	return err
}

// put takes a pool state pushed from the pool's node.
func (pr *poolRemote) put(st PoolState, seat int) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.closed || st.Version <= pr.last {
		return
	}
	pr.last = st.Version
	switch st.Phase {
	case PoolSeated:
		st.Table = pr.seated(st.Code, seat)
		pr.out.Put(st)
		pr.closeLocked()
	case PoolClosed:
		pr.out.Put(st)
		pr.closeLocked()
		pr.seat.close()
	default:
		pr.out.Put(st)
	}
}

// seated makes the member's handle on the table the pool seated them at;
// under pr.mu.
func (pr *poolRemote) seated(code string, seat int) *TableMember {
	if pr.table != nil {
		return pr.table
	}
	rm, h := pr.seat, pr.h
	h.rel.mu.Lock()
	rm.mu.Lock()
	rm.code = code
	rm.mu.Unlock()
	h.rel.mu.Unlock()
	t := &Table{h: h, code: code, cfg: TableConfig{Game: pr.game}, remote: rm.room}
	pr.table = &TableMember{table: t, person: pr.person, seat: seat, rm: rm}
	pr.handle.mu.Lock()
	pr.handle.table = pr.table
	pr.handle.mu.Unlock()
	return pr.table
}

// closeLocked ends the member's place here; under pr.mu.
func (pr *poolRemote) closeLocked() {
	if pr.closed {
		return
	}
	pr.closed = true
	pr.out.Close()
	pr.h.rel.mu.Lock()
	delete(pr.h.rel.waiting, pr.id)
	pr.h.rel.mu.Unlock()
}

// leave takes the member out of the pool elsewhere; the seat, when the
// pool had found one, is returned as Leave returns it.
func (pr *poolRemote) leave() *TableMember {
	rep, err := pr.h.ask(poolCode, wireRequest{Op: opPoolLeave, Member: pr.id})
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if err == nil && rep.Code != "" {
		pr.seated(rep.Code, rep.Seat)
	}
	pr.closeLocked()
	if pr.table == nil {
		pr.seat.close()
	}
	return pr.table
}

// recheck asks the pool's node, after this node's link came back, whether
// the member still waits: a push saying it was seated (or is out) may have
// been lost meanwhile.
func (pr *poolRemote) recheck() {
	pr.mu.Lock()
	closed := pr.closed
	pr.mu.Unlock()
	if closed {
		return
	}
	rep, err := pr.h.ask(poolCode, wireRequest{Op: opPoolState, Member: pr.id})
	switch {
	case errors.Is(err, ErrNotMember):
		pr.closeWith(err.Error())
	case err == nil && rep.Code != "":
		pr.mu.Lock()
		if pr.closed || pr.table != nil {
			pr.mu.Unlock()
			return
		}
		pr.last++
		st := PoolState{Phase: PoolSeated, Game: pr.game, Code: rep.Code, Version: pr.last}
		st.Table = pr.seated(rep.Code, rep.Seat)
		pr.out.Put(st)
		pr.closeLocked()
		pr.mu.Unlock()
		// The seat's states were lost with it.
		pr.seat.resync()
	}
}

// closeWith tells the member the pool is gone.
func (pr *poolRemote) closeWith(reason string) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.closed {
		return
	}
	pr.last++
	pr.out.Put(PoolState{Phase: PoolClosed, Game: pr.game, Reason: reason, Version: pr.last})
	pr.closeLocked()
	pr.seat.close()
}

// checkPool is the watchdog's look at the pool: this node's players
// waiting in another node's pool are told when that node is gone, and
// players of a node that is gone are taken out of the pool here.
func (h *Hub) checkPool() {
	h.rel.mu.Lock()
	var prs []*poolRemote
	for _, pr := range h.rel.waiting {
		prs = append(prs, pr)
	}
	pooled := map[string]*PoolMember{}
	for id, m := range h.rel.pooled {
		pooled[id] = m
	}
	h.rel.mu.Unlock()
	alive := map[string]bool{}
	up := func(node string) bool {
		if a, ok := alive[node]; ok {
			return a
		}
		alive[node] = h.relay.Alive(node)
		return alive[node]
	}
	for _, pr := range prs {
		if !up(pr.node) {
			pr.closeWith(PoolMoved)
		}
	}
	for id, m := range pooled {
		if node, _, _ := strings.Cut(id, "/"); !up(node) {
			h.rel.mu.Lock()
			delete(h.rel.pooled, id)
			h.rel.mu.Unlock()
			if tm := m.Leave(); tm != nil {
				_ = tm.Drop()
			}
		}
	}
}

// closePoolRemotes, as the hub closes, takes this node's players out of
// the pool elsewhere.
func (h *Hub) closePoolRemotes() {
	h.rel.mu.Lock()
	var prs []*poolRemote
	for _, pr := range h.rel.waiting {
		prs = append(prs, pr)
	}
	h.rel.mu.Unlock()
	var wg sync.WaitGroup
	for _, pr := range prs {
		wg.Go(func() {
			if tm := pr.leave(); tm != nil {
				_ = tm.Drop()
			}
		})
	}
	wg.Wait()
}
