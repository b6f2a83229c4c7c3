package hub

import (
	"encoding/json"
	"errors"
	"fmt"
)

// The wire form of the room protocol: what a member on one node sends a
// room on another, what the room answers, and what it pushes. It is JSON,
// each message carrying WireFormat in "v"; a node drops (with a log line)
// any message it cannot decode or whose format it does not know, so a bad
// or foreign message costs one lost request, never a panic. A game's
// actions and views travel as the bytes its kit encodes (base64 in JSON),
// exactly as they cross the hub on one machine. docs/architecture.md
// ("Rooms across nodes") describes the messages.

// WireFormat is the version of the room protocol's messages.
const WireFormat = 1

// The commands a member sends a room ("op" of a request).
const (
	opJoin    = "join"
	opInfo    = "info"    // a table as the lobby lists it
	opPreview = "preview" // a race as an outsider sees it
	opState   = "state"   // the member's whole state, after a gap in versions
	opLeave   = "leave"
	opDrop    = "drop"
	opStart   = "start"
	opDo      = "do"
	opRematch = "rematch"
	opDecline = "decline"
	opSay     = "say"
	opMute    = "mute"
	opReport  = "report"
	opFollow  = "follow"
	opGhost   = "ghost"

	// To the play-now pool's node (poolacross.go).
	opPoolJoin   = "pool-join"
	opPoolAccept = "pool-accept"
	opPoolKeep   = "pool-keep"
	opPoolLeave  = "pool-leave"
	opPoolState  = "pool-state" // after a cut: still waiting, or seated where
)

// wireRequest is one command to a room. Member names the member's handle
// on its own node ("NODE/n"); Node is where its states are pushed.
type wireRequest struct {
	V        int       `json:"v"`
	Op       string    `json:"op"`
	Member   string    `json:"member,omitempty"`
	Node     string    `json:"node,omitempty"`
	Person   Person    `json:"person"`
	Seat     int       `json:"seat,omitempty"`
	Role     Role      `json:"role,omitempty"`
	Action   []byte    `json:"action,omitempty"`
	N        int       `json:"n,omitempty"`
	On       bool      `json:"on,omitempty"`
	Progress *Progress `json:"progress,omitempty"`
	Run      *Run      `json:"run,omitempty"`
	Racer    string    `json:"racer,omitempty"`
	// Pool is a player's entry to the play-now pool (opPoolJoin).
	Pool *wirePoolJoin `json:"pool,omitempty"`
}

// wirePoolJoin is what the pool's node needs of a player on another node:
// what they want, their rating as their node read it, the computer players
// they may be offered, and the handle their node gave their seat's states.
type wirePoolJoin struct {
	Want      PoolWant       `json:"want"`
	Rating    float64        `json:"rating"`
	Deviation float64        `json:"deviation"`
	Computers []wireComputer `json:"computers"`
	Seat      string         `json:"seat"`
}

type wireComputer struct {
	Strength string  `json:"strength"`
	Rating   float64 `json:"rating"`
}

// wireReply is a room's answer. Err is the sentence a player reads and
// Kind the sentinel's own sentence, so that errors.Is works on the
// member's node as it does on the owner's.
type wireReply struct {
	V      int         `json:"v"`
	Err    string      `json:"err,omitempty"`
	Kind   string      `json:"kind,omitempty"`
	Seat   int         `json:"seat,omitempty"`
	Role   Role        `json:"role,omitempty"`
	Resume []byte      `json:"resume,omitempty"`
	Table  *TableState `json:"table,omitempty"`
	Race   *RaceState  `json:"race,omitempty"`
	Info   *TableInfo  `json:"info,omitempty"`
	// Code is the table a player leaving the pool had been seated at.
	Code string `json:"code,omitempty"`
}

// wirePush is a state the owner pushes to a member on another node. Prev
// is the version of the state pushed to this member before it (0 for the
// first): a member whose last state is older than Prev missed one on the
// way and asks for its whole state.
type wirePush struct {
	V      int         `json:"v"`
	Member string      `json:"member"`
	Prev   uint64      `json:"prev"`
	Table  *TableState `json:"table,omitempty"`
	Race   *RaceState  `json:"race,omitempty"`
	// Pool is a play-now pool's state; Seat, once it says seated, the
	// member's seat at the table the pool found.
	Pool *PoolState `json:"pool,omitempty"`
	Seat int        `json:"seat,omitempty"`
	// Resync, with no state: the room's node was cut off a moment, and
	// pushes it sent meanwhile may be lost; the member asks for its whole
	// state.
	Resync bool `json:"resync,omitempty"`
}

// sentinels are the errors whose kind survives the trip across nodes.
var sentinels = []error{
	ErrBadCode, ErrNoRoom, ErrExpired, ErrClosed, ErrHubClosed, ErrFull, ErrWatchersFull, ErrStarted, ErrNotHost,
	ErrNotRacer, ErrNotMember, ErrReplaced, ErrNotRunning, ErrAlreadyStarted, ErrDone, ErrBadProgress, ErrNoRacer,
	ErrBadRun, ErrSelf, ErrNotFollowing, ErrOffline, ErrInvitesOff, ErrAlreadyInvited, ErrNoInvitation,
	ErrBadTable, ErrTableStarted, ErrTableFull, ErrNoSeat, ErrSeatTaken, ErrSeatsOpen, ErrNotSeated,
	ErrNotYourTurn, ErrNotPlaying, ErrBadSnapshot, ErrTableBroke, ErrTooManyRooms, ErrTooFast, ErrTooManyLookups,
	ErrNoPhrase, ErrPhraseTooSoon, ErrGuest, ErrUnreachable, ErrHeldElsewhere,
}

// replyErr fills the reply's error from err.
func (r *wireReply) setErr(err error) {
	if err == nil {
		return
	}
	r.Err = err.Error()
	for _, s := range sentinels {
		if errors.Is(err, s) {
			r.Kind = s.Error()
			return
		}
	}
}

// err is the reply's error as the member's node returns it.
func (r *wireReply) err() error {
	if r.Err == "" {
		return nil
	}
	for _, s := range sentinels {
		if s.Error() == r.Kind {
			return &refusal{kind: s, text: r.Err}
		}
	}
	return errors.New(r.Err)
}

func encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("hub: a wire message does not encode: %v", err)) // not reached: plain values
	}
	return b
}

// decode reads a message and checks its format.
func decode[T any](b []byte, v *T, format func(*T) int) error {
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("undecodable message: %w", err)
	}
	if f := format(v); f != WireFormat {
		return fmt.Errorf("message of format %d, not %d", f, WireFormat)
	}
	return nil
}

func decodeRequest(b []byte) (wireRequest, error) {
	var r wireRequest
	err := decode(b, &r, func(r *wireRequest) int { return r.V })
	return r, err
}

func decodeReply(b []byte) (wireReply, error) {
	var r wireReply
	err := decode(b, &r, func(r *wireReply) int { return r.V })
	return r, err
}

func decodePush(b []byte) (wirePush, error) {
	var p wirePush
	if err := decode(b, &p, func(p *wirePush) int { return p.V }); err != nil {
		return p, err
	}
	n := 0
	for _, set := range []bool{p.Table != nil, p.Race != nil, p.Pool != nil, p.Resync} {
		if set {
			n++
		}
	}
	if n != 1 {
		return p, errors.New("a push carries one table state, race state or pool state, or asks for a resync")
	}
	return p, nil
}
