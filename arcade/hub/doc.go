// Package hub is the live layer of the arcade: who is online and what they
// are doing, invitations, invite codes, and the live rooms: races, and
// tables of the table games with their lobby list, computer players, turn
// clocks and snapshots.
//
// It knows nothing of SSH, Bubble Tea, the store or the terminal, and no
// game: a table plays any game whose kit (engine.TableKit) the wiring's
// lookup gives it, and a game's actions and views cross the hub as the
// bytes that kit encodes. Everything it takes and gives is a plain value
// (Person, Activity, Progress, RaceState, Result, Notice, TableState,
// TableResult, TableSnapshot), so that a room could later sit behind a
// message bus without the screens noticing.
//
// Each room is owned by one goroutine that takes commands on a channel. A
// member never receives state from that goroutine directly: the room puts
// each fresh value in the member's outbox (one slot, newest value wins) and a
// small goroutine per member hands it to the member's sink. A member whose
// screen is stuck therefore costs the room nothing but a replaced value.
//
// The hub's own state (presence, the registry of codes) sits behind one
// mutex held only for map work. The lobby list has a lock of its own and is
// an immutable snapshot every reader shares, rebuilt at most every
// relistEvery while tables change, so that a flood of tables never holds up
// a connection. The limits (limits.go) have a lock of their own too, and
// bound what one account or address can open or look up.
//
// Names given to the hub are validated account names; the hub never takes
// text typed by a client, and the only client text it reads at all is an
// invite code, which it checks against its own alphabet before echoing.
package hub
