package hub

import (
	"errors"

	"sshuffle/engine"
)

// Relay is where rooms live when the arcade runs on several nodes. The
// node that opens a room owns it (its goroutine runs there, as on one
// machine); a member on another node reaches it through the relay with the
// hub's typed commands (wire.go), and the owner pushes that member's states
// back to the member's node. The hub encodes and decodes every message
// itself: a relay moves bytes and keeps the directory of codes, and names
// no hub type but RoomEntry.
//
// A hub without a relay (Config.Relay nil) keeps every room in its own
// process, which is the whole arcade on one machine.
type Relay interface {
	// Node is this node's name, unique among the nodes.
	Node() string

	// Claim makes code this node's: it fails with ErrCodeTaken when any
	// node holds or held the code (the directory keeps ended codes for a
	// while, so an old invite line never leads to a stranger's room).
	// While the room lives the relay renews this node's lease on it; lost
	// is called once if the lease is lost (another node took the room over
	// after this one was cut off), and the hub then closes its copy.
	Claim(code string, e RoomEntry, lost func()) error
	// Takeover makes code this node's when its entry is missing, is this
	// node's already (a restart), or its owner's lease has lapsed; it
	// fails when another node holds the lease, or wins the race to take
	// it over (the directory's write is at the revision read). lost is as
	// for Claim.
	Takeover(code string, e RoomEntry, lost func()) error
	// Hold renews this node's lease on code now, at the revision it wrote
	// last, before a table's snapshot is saved. It fails with ErrLeaseLost
	// (and calls the claim's lost) when another node took the room over,
	// or when the lease could not be renewed for longer than it lasts; with
	// another error when the renewal failed but the lease may still hold.
	Hold(code string) error
	// Lookup reads a code's entry; found is false when no node has it.
	Lookup(code string) (e RoomEntry, found bool, err error)
	// Release says the room ended on this node: its entry is marked ended
	// and its lease no longer renewed.
	Release(code string) error

	// Serve answers the requests sent to code's room with handle until
	// stop is called. handle's reply goes back to the requester.
	Serve(code string, handle func(req []byte) []byte) (stop func(), err error)
	// Request sends req to code's room, on whichever node serves it, and
	// returns its reply; ErrUnreachable when nobody answers in time.
	Request(code string, req []byte) ([]byte, error)
	// Deliver sends msg to node, where the hub's Listen handler gets it.
	// Deliveries from one node to another arrive in the order sent, but
	// may be lost: every push carries versions so a gap is seen.
	Deliver(node string, msg []byte) error
	// Listen gives handle every message delivered to this node; the hub
	// calls it once, in New.
	Listen(handle func(msg []byte)) error
	// Alive says whether node is up and reachable now.
	Alive(node string) bool
	// ListenReconnects has handle called each time this node's link to
	// the others comes back after it was lost (its NATS server died, say):
	// pushes sent to it meanwhile are lost, and the hub asks its members'
	// rooms for their whole states. The hub calls it once, in New.
	ListenReconnects(handle func()) error

	// SetPresence records how account id stands on this node (nil: it has
	// no session here any more). The relay publishes it to the other nodes
	// and keeps it fresh while it holds; it never blocks, because the hub
	// calls it with its lock held.
	SetPresence(id string, presence []byte)
	// Presences is what the other nodes last published of account id,
	// leaving out records too old to be true (a node that died).
	Presences(id string) [][]byte
	// Invite sends msg to the nodes where account id has a session and
	// returns the first answer; ErrUnreachable when none answers.
	Invite(id string, msg []byte) ([]byte, error)
	// Notify sends msg to the nodes where account id has a session,
	// without an answer.
	Notify(id string, msg []byte) error
	// ListenInvitations gives handle every Invite and Notify for any
	// account; ok says this node answers (it has the account online), and
	// reply is then the answer. The hub calls it once, in New.
	ListenInvitations(handle func(id string, msg []byte) (reply []byte, ok bool)) error

	// SetListing publishes the listing of a table this node owns, for
	// the other nodes' lobbies (nil: the table is gone). Like SetPresence
	// it never blocks: the hub calls it with its lobby's lock held.
	SetListing(code string, listing []byte)
	// Listings is what the other nodes last published of their tables,
	// leaving out listings too old to be true (a node that died).
	Listings() [][]byte
	// ListenListings has changed called whenever the other nodes'
	// listings may have changed, aging out included; the hub calls it
	// once, in New.
	ListenListings(changed func()) error
}

// RoomEntry is a code's line in the relay's directory: what kind of room
// it is and which node owns it, and what another node needs to show the
// room before joining it.
type RoomEntry struct {
	Kind RoomKind `json:"kind"`
	Node string   `json:"node"`
	What string   `json:"what"` // the room as an invitation names it
	// Game is a table's game; Spec and Ranked are a race's.
	Game   string      `json:"game,omitempty"`
	Spec   engine.Spec `json:"spec"`
	Ranked bool        `json:"ranked,omitempty"`
	// Ended: the room is over. Live: its owner's lease holds (the relay
	// fills it on Lookup; a room whose owner stopped renewing is not live).
	Ended bool `json:"ended,omitempty"`
	Live  bool `json:"-"`
}

var (
	// ErrCodeTaken is a relay's answer to a Claim of a code another room
	// has or had; the hub draws another.
	ErrCodeTaken = errors.New("That code is taken.")
	// ErrUnreachable is a relay's answer when a room's node does not
	// answer: the node is gone or cut off.
	ErrUnreachable = errors.New("The server that holds this room does not answer; try again in a moment.")
	// ErrHeldElsewhere refuses to restore a table another node holds (or
	// won the race to take over); its snapshot is that node's to keep.
	ErrHeldElsewhere = errors.New("That room is held by another server.")
	// ErrLeaseLost is a relay's answer to Hold when the room is no longer
	// this node's (taken over, or its lease lapsed); any other error of
	// Hold is NATS not taking writes for a moment.
	ErrLeaseLost = errors.New("This room is no longer this server's.")
)
