package hub

import (
	"strings"
	"sync"
	"time"

	"sshuffle/engine"
)

// A node's death, as the other nodes see it. Each node checks, every
// RemoteCheck, the directory entries of the rooms elsewhere its members
// are in. A race whose node stopped renewing its lease is over for them:
// they are sent a closing state saying so (each racer's game is their
// own and goes on). A table is not lost with its node: its snapshot is in
// the shared store, so the first node to see the lease lapsed takes the
// room over (a revision-checked write of its entry) and restores it paused,
// as a restart does; every node with members there joins them again to
// wherever the table now lives, and the people on the dead node find their
// seats when they come back through the balancer with the code.

// DefaultRemoteCheck is how often a node checks the rooms elsewhere its
// members are in: as often as an owner renews its lease.
const DefaultRemoteCheck = 5 * time.Second

// RaceGone is the sentence a racer on another node reads when the race's
// node stops: the race is over for the others, and the racer's own game
// goes on, as a game of their own.
const RaceGone = "The server holding this race has stopped, so the race is over; your own game goes on."

// TableMoved is the reason in the closing state of a member whose table
// could not be found again after its node stopped.
const TableMoved = "The server holding this table has stopped; join it again with its code in a moment to find your seat."

type watchdog struct {
	every time.Duration
	stop  chan struct{}
	done  chan struct{}
	once  sync.Once
	// taking serialises takeovers on this node, so that a code looked up
	// while the watchdog takes it over is not taken twice.
	taking sync.Mutex
}

func (h *Hub) startWatchdog(every time.Duration) {
	if every <= 0 {
		every = DefaultRemoteCheck
	}
	h.dog = &watchdog{every: every, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(h.dog.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-h.dog.stop:
				return
			case <-t.C:
				h.checkRemotes()
			}
		}
	}()
}

func (h *Hub) stopWatchdog() {
	if h.dog == nil {
		return
	}
	h.dog.once.Do(func() { close(h.dog.stop) })
	<-h.dog.done
}

// takeOverTable restores a table whose node's lease lapsed, from the
// snapshot load finds in the shared store.
func (h *Hub) takeOverTable(load func(code string) (*TableSnapshot, error)) func(code string) (Room, error) {
	return func(code string) (Room, error) {
		h.dog.taking.Lock()
		defer h.dog.taking.Unlock()
		h.mu.Lock()
		r, live := h.rooms[code]
		h.mu.Unlock()
		if live {
			return r, nil // taken over here a moment ago
		}
		snap, err := load(code)
		if err != nil {
			return nil, err
		}
		if snap == nil {
			return nil, refuse(ErrExpired, "The room %s has ended, and its code with it.", code)
		}
		t, err := h.RestoreTable(*snap)
		if err != nil {
			return nil, err
		}
		h.log.Info("table taken over from a node that stopped", "code", code)
		return t, nil
	}
}

// checkServed drops the members of this node's rooms whose node is gone:
// their people lost their connections with it, as far as the room can
// tell, and get what a lost connection gets (a held seat, a racer counted
// out after the grace), so that a room never waits on them for ever.
func (h *Hub) checkServed() {
	if !h.relay.Alive(h.relay.Node()) {
		return // this node is the one cut off: the others are not to blame
	}
	h.rel.mu.Lock()
	byNode := map[string][]string{}
	for id := range h.rel.served {
		node, _, _ := strings.Cut(id, "/")
		byNode[node] = append(byNode[node], id)
	}
	h.rel.mu.Unlock()
	for node, ids := range byNode {
		if node == h.relay.Node() || h.relay.Alive(node) {
			continue
		}
		h.log.Warn("a node is gone; its people in rooms here are dropped", "node", node, "members", len(ids))
		for _, id := range ids {
			h.rel.mu.Lock()
			s := h.rel.served[id]
			delete(h.rel.served, id)
			h.rel.mu.Unlock()
			switch {
			case s == nil:
			case s.table != nil:
				_ = s.table.Drop()
			case s.race != nil:
				_ = s.race.Drop()
			}
		}
	}
}

// checkRemotes is one round of the watchdog.
func (h *Hub) checkRemotes() {
	h.checkServed()
	h.checkPool()
	h.rel.mu.Lock()
	byCode := map[string][]*remoteMember{}
	for _, rm := range h.rel.remotes {
		if rm.code == "" {
			continue // a seat the pool elsewhere has not found yet
		}
		byCode[rm.code] = append(byCode[rm.code], rm)
	}
	h.rel.mu.Unlock()
	for code, rms := range byCode {
		h.checkRemote(code, rms)
	}
}

func (h *Hub) checkRemote(code string, rms []*remoteMember) {
	e, found, err := h.relay.Lookup(code)
	if err != nil {
		return // NATS is not answering: the next round asks again
	}
	switch {
	case !found || e.Ended:
		// Its closing state was lost on the way.
		for _, rm := range rms {
			rm.closeWith(ErrClosed.Error())
		}
		return
	case e.Live:
		for _, rm := range rms {
			if rm.owner() != e.Node {
				rm.rejoin(e)
			}
		}
		return
	case e.Kind == RaceRoom:
		for _, rm := range rms {
			rm.closeWith(RaceGone)
		}
		return
	}
	if h.takeOver != nil {
		// Another node may win; the lookup below says who.
		if _, err := h.takeOver(code); err != nil {
			h.log.Info("table not taken over here", "code", code, "err", err)
		}
	}
	if e2, found, err := h.relay.Lookup(code); err == nil && found && e2.Live {
		for _, rm := range rms {
			rm.rejoin(e2)
		}
		return
	}
	for _, rm := range rms {
		rm.closeWith(TableMoved)
	}
}

func (rm *remoteMember) owner() string {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	return rm.node
}

// rejoin joins the member again to its room, now owned by e.Node, under
// the same handle: the screen keeps its outbox and its member, and the
// room gives the person their seat back.
func (rm *remoteMember) rejoin(e RoomEntry) {
	rm.mu.Lock()
	if rm.closed {
		rm.mu.Unlock()
		return
	}
	rm.node, rm.last = e.Node, 0 // a restored room counts its versions afresh
	req := wireRequest{Op: opJoin, Node: rm.h.relay.Node(), Person: rm.person, Seat: rm.seat, Role: rm.role}
	rm.mu.Unlock()
	if _, err := rm.ask(req); err != nil {
		rm.closeWith(TableMoved)
	}
}

// closeWith sends the member a closing state with reason, made from the
// last state it had, and closes it.
func (rm *remoteMember) closeWith(reason string) {
	rm.mu.Lock()
	if rm.closed {
		rm.mu.Unlock()
		return
	}
	if rm.tout != nil {
		st := rm.lastTable
		st.Phase, st.Reason, st.Version = TableClosed, reason, rm.last+1
		st.Turn, st.Rematch = engine.NoSeat, nil
		rm.tout.Put(st)
	} else {
		st := rm.lastRace
		st.Phase, st.Reason, st.Version = Closed, reason, rm.last+1
		rm.rout.Put(st)
	}
	rm.mu.Unlock()
	rm.room.close()
	rm.close()
}
