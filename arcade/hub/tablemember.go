package hub

import (
	"errors"
	"slices"
)

// A member's handle on a table: the commands a member sends the room, each
// run on the room's goroutine and answered there.

// TableMember is one member's handle on a table. Its methods fail with
// ErrReplaced once the same account has joined from another session.
type TableMember struct {
	table  *Table
	person Person
	token  uint64
	seat   int
	rm     *remoteMember // set when the table lives on another node
}

func (m *TableMember) Table() *Table { return m.table }

func (m *TableMember) Person() Person { return m.person }

// Seat is the member's seat, or engine.Spectator for a watcher.
func (m *TableMember) Seat() int { return m.seat }

// Join puts p at the table. A person who holds a seat (after a drop, a
// restart, or from a second session, which takes over from the first) gets
// it back whatever is asked. Otherwise seat is a seat number, AnySeat, or
// Watch; a seat can be taken only while the table is seating. sink follows
// the outbox rules and gets the first state at once.
func (t *Table) Join(p Person, seat int, sink func(TableState)) (*TableMember, error) {
	if p.Guest && seat != Watch {
		return nil, ErrGuest
	}
	if err := t.h.action(p); err != nil {
		return nil, err
	}
	if t.remote != nil {
		return t.joinRemote(p.public(), seat, sink)
	}
	return t.joinLocal(p, seat, sink)
}

// joinLocal is Join past the checks made where the person is connected,
// on the table's own node.
func (t *Table) joinLocal(p Person, seat int, sink func(TableState)) (*TableMember, error) {
	p = p.public()
	out := newOutbox(sink)
	m, err := call(&t.loop, func() (*TableMember, error) { return t.join(p, seat, out) })
	if err != nil {
		out.Close()
		return nil, err
	}
	return m, nil
}

// Do makes an action for the member's seat: the action as the game's kit
// encodes it. A refused action (bytes that are no action of the game, or
// one the rules refuse) changes nothing; its sentence is returned and also
// put in this member's next state, and in no one else's.
func (m *TableMember) Do(action []byte) error {
	if m.rm != nil {
		return m.remoteDo(wireRequest{Op: opDo, Action: action})
	}
	var seq uint64
	err := m.do(func(t *Table, me *tmember) error {
		err := t.guarded(func() error { return t.act(me, action) })
		seq = t.saveSeq
		return err
	})
	if err == nil && m.table.h.relay != nil {
		// On a node of several, an action counts once its snapshot is
		// in the shared store: if this node dies now, the node that
		// takes the table over restores it with this action in.
		m.table.waitSaved(seq)
	}
	return err
}

// State is the member's whole state as the room has it now, with the
// version of the last state the room sent anyone. Pushed states are the
// newest-wins kind, so a member never needs this to catch up with its own
// outbox; it is for a member that lost states on the way (one on another
// machine, say) and sees a gap in the versions.
func (m *TableMember) State() (TableState, error) {
	if m.rm != nil {
		return m.remoteState()
	}
	var st TableState
	err := m.do(func(t *Table, me *tmember) error {
		st = t.stateFor(me, t.shared())
		return nil
	})
	return st, err
}

// Start deals the first game; only the host may, once every person's seat
// is taken by someone here.
func (m *TableMember) Start() error {
	if m.rm != nil {
		return m.remoteDo(wireRequest{Op: opStart}) // the room's node counts the action
	}
	if err := m.table.h.action(m.person); err != nil {
		return err
	}
	return m.do(func(t *Table, me *tmember) error { return t.start(me) })
}

// Rematch says yes to the rematch offered once the match is over: it is
// dealt, to the same seats, when every person seated has said yes (at a
// table of computers only, when its host has). A seat a person lost
// during the match opens again, and the table goes back to seating.
func (m *TableMember) Rematch() error {
	if m.rm != nil {
		return m.remoteDo(wireRequest{Op: opRematch})
	}
	if err := m.table.h.action(m.person); err != nil {
		return err
	}
	return m.do(func(t *Table, me *tmember) error { return t.answer(me, true) })
}

// Decline says no to the rematch, which closes the table for everyone
// with a sentence naming who declined.
func (m *TableMember) Decline() error {
	if m.rm != nil {
		return m.remoteDo(wireRequest{Op: opDecline})
	}
	return m.do(func(t *Table, me *tmember) error { return t.answer(me, false) })
}

// Leave is the player choosing to go. A seated person leaving a game in
// play gives the seat to the computer for good; while seating, the seat
// opens again; once the match is over, it is a no to the rematch. Leaving
// a table that has closed already is no error: the member is out of it.
func (m *TableMember) Leave() error {
	if m.rm != nil {
		return gone(m.remoteDo(wireRequest{Op: opLeave}))
	}
	return gone(m.do(func(t *Table, me *tmember) error { return t.leave(me, false) }))
}

// Drop is the connection going: a seated person keeps the seat for the
// table's hold time, a computer playing for them, and may Join again.
// Once the match is over, it is a no to the rematch.
func (m *TableMember) Drop() error {
	if m.rm != nil {
		return gone(m.remoteDo(wireRequest{Op: opDrop}))
	}
	return gone(m.do(func(t *Table, me *tmember) error { return t.leave(me, true) }))
}

// gone is err, less the closing of the room: whoever leaves a closed room
// is out of it as they asked.
func gone(err error) error {
	if errors.Is(err, ErrClosed) {
		return nil
	}
	return err
}

func (m *TableMember) do(f func(t *Table, me *tmember) error) error {
	t := m.table
	_, err := call(&t.loop, func() (struct{}, error) {
		i := slices.IndexFunc(t.members, func(x *tmember) bool { return x.ID == m.person.ID })
		switch {
		case i < 0:
			return struct{}{}, ErrNotMember
		case t.members[i].token != m.token:
			return struct{}{}, ErrReplaced
		}
		return struct{}{}, f(t, t.members[i])
	})
	return err
}
