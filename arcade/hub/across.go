package hub

import (
	"errors"
	"time"
)

// Opening rooms on a node of several: a code is drawn here and then
// claimed in the relay's directory, which is what keeps it unique across
// the nodes.

// registerAcross is register with a relay. The claim is a network write,
// so it is made without the hub's lock; two rooms of this node drawing
// one code are told apart by the claim as two nodes' are.
func (h *Hub) registerAcross(by Person, make func(code string) Room) (Room, error) {
	for {
		h.mu.Lock()
		if err := h.mayRegister(by); err != nil {
			h.mu.Unlock()
			return nil, err
		}
		h.forgetExpired()
		code := drawCode(h.rand)
		_, live := h.rooms[code]
		_, gone := h.expired[code]
		ended := h.ended != nil && h.ended(code)
		h.mu.Unlock()
		if live || gone || ended {
			continue
		}
		r := make(code)
		err := h.relay.Claim(code, entryOf(r, h.relay.Node()), h.lostRoom(code))
		if errors.Is(err, ErrCodeTaken) {
			continue
		}
		if err != nil {
			h.log.Warn("room code not claimed", "err", err)
			return nil, ErrUnreachable
		}
		h.mu.Lock()
		if err := h.mayRegister(by); err != nil {
			h.mu.Unlock()
			_ = h.relay.Release(code)
			return nil, err
		}
		h.rooms[code] = r
		h.own(code, by)
		h.mu.Unlock()
		h.serveRoom(r)
		return r, nil
	}
}

// mayRegister is register's checks of who opens a room; under mu.
func (h *Hub) mayRegister(by Person) error {
	if h.closed {
		return ErrHubClosed
	}
	if by.Guest {
		return ErrGuest
	}
	return h.mayOpen(by)
}

// entryOf is a room's line in the directory.
func entryOf(r Room, node string) RoomEntry {
	e := RoomEntry{Kind: r.Kind(), Node: node, What: r.describe()}
	switch room := r.(type) {
	case *Table:
		e.Game = room.cfg.Game
	case *Race:
		e.Spec, e.Ranked = room.spec, room.ranked
	}
	return e
}

// lostRoom is what the relay calls when another node took code over from
// this one (this node was cut off past its lease): the copy here closes
// without writing the room's end, which is the new owner's to write.
func (h *Hub) lostRoom(code string) func() {
	return func() {
		h.mu.Lock()
		r, live := h.rooms[code]
		if live {
			h.lost[code] = true
		}
		h.mu.Unlock()
		if live {
			go r.shut("This room moved to another server; join it again with its code.")
		}
	}
}

// holdRetry is the pause between tries; holdFor bounds hold's retries: a relay's lease lapses well before,
// and Hold then says so; this is for one that never does.
const (
	holdRetry = 250 * time.Millisecond
	holdFor   = time.Minute
)

// hold renews this node's lease on code before something only the room's
// owner may write (a table's snapshot, a game's result). A renewal that
// fails while the lease may still hold (NATS electing a new leader stalls
// writes for seconds) is tried again: giving up would leave an action
// acknowledged but not stored, or a game unrecorded. It fails only when
// the room is no longer this node's.
func (h *Hub) hold(code string) error {
	start := time.Now()
	warned := false
	for {
		err := h.relay.Hold(code)
		if err == nil || errors.Is(err, ErrLeaseLost) || time.Since(start) > holdFor {
			return err
		}
		if !warned {
			h.log.Warn("room lease not renewed yet; trying again", "code", code, "err", err)
			warned = true
		}
		time.Sleep(holdRetry)
	}
}
