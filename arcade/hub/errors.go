//lint:file-ignore ST1005 these errors are the sentences players read, capitalised and punctuated as the house rules ask (DESIGN.md, "Illegal move")

package hub

import (
	"errors"
	"fmt"
)

// Every error the hub returns to a player is one sentence a screen can
// print as it is. The sentinels let the wiring tell cases apart with
// errors.Is (say, to retry a join as a watcher after ErrStarted); the text a
// player sees may name people or codes, and those come from validated
// names and the hub's own alphabet only.
var (
	ErrBadCode        = errors.New("An invite code is five letters, like KQTWX.")
	ErrNoRoom         = errors.New("No room has that code; check the letters.")
	ErrExpired        = errors.New("That room has ended, and its code with it.")
	ErrClosed         = errors.New("This room has ended.")
	ErrHubClosed      = errors.New("The arcade is shutting down; no new rooms can open.")
	ErrFull           = errors.New("This race is full; you can watch it instead.")
	ErrWatchersFull   = errors.New("This race has as many watchers as it can take.")
	ErrStarted        = errors.New("This race has already started; you can watch it instead.")
	ErrNotHost        = errors.New("Only the host can do that.")
	ErrNotRacer       = errors.New("Only a racer can do that; you are watching.")
	ErrNotMember      = errors.New("You are not in this room.")
	ErrReplaced       = errors.New("You opened this room in another session, so this one has left it.")
	ErrNotRunning     = errors.New("The race is not running.")
	ErrAlreadyStarted = errors.New("The race has already started.")
	ErrDone           = errors.New("Your race is over; your result stands.")
	ErrBadProgress    = errors.New("That progress report does not add up.")
	ErrNoRacer        = errors.New("No racer by that name is in this race.")
	ErrBadRun         = errors.New("That run cannot be replayed.")
	ErrSelf           = errors.New("You cannot invite yourself.")
	ErrNotFollowing   = errors.New("You can invite only players you follow.")
	ErrOffline        = errors.New("That player is offline.")
	ErrInvitesOff     = errors.New("That player has invitations turned off.")
	ErrAlreadyInvited = errors.New("You have already invited that player to this room.")
	ErrNoInvitation   = errors.New("That invitation is no longer open.")

	// Tables.
	ErrBadTable     = errors.New("That table cannot be opened.")
	ErrTableStarted = errors.New("This table has started; you can watch it instead.")
	ErrTableFull    = errors.New("Every seat at this table is taken; you can watch instead.")
	ErrNoSeat       = errors.New("There is no such seat at this table.")
	ErrSeatTaken    = errors.New("That seat is taken.")
	ErrSeatsOpen    = errors.New("The table is waiting for its players.")
	ErrNotSeated    = errors.New("You are watching; only the players at the table can move.")
	ErrNotYourTurn  = errors.New("It is not your turn.")
	ErrNotPlaying   = errors.New("No game is being played at this table.")
	ErrBadSnapshot  = errors.New("That table snapshot cannot be restored.")
	ErrTableBroke   = errors.New("Something went wrong at this table, and it has closed; sorry.")

	// Limits (limits.go).
	ErrTooManyRooms   = errors.New("You have too many rooms open; close one first.")
	ErrTooFast        = errors.New("That is faster than the lobby goes; wait a moment and try again.")
	ErrTooManyLookups = errors.New("Too many codes tried; wait a few seconds and try again.")
)

// refusal is a sentinel with a more particular sentence ("Ann is offline.").
type refusal struct {
	kind error
	text string
}

func (r *refusal) Error() string        { return r.text }
func (r *refusal) Is(target error) bool { return target == r.kind }
func (r *refusal) Unwrap() error        { return r.kind }

func refuse(kind error, format string, args ...any) error {
	return &refusal{kind: kind, text: fmt.Sprintf(format, args...)}
}

// TurnOf is the room's refusal of a move made out of turn: whose turn it
// is. A screen that checks before it sends shows the same sentence.
func TurnOf(name string) error { return refuse(ErrNotYourTurn, "It is %s's turn.", name) }
