//lint:file-ignore ST1005 these errors are the sentences players read, capitalised and punctuated as the house rules ask

package hub

import (
	"errors"
	"strconv"
)

// Guests: a session without a key has no account, so nothing of theirs is
// kept and nobody can find them; they may still watch a race or a table.
// The hub gives each guest an ID of its own (rooms tell members apart by
// ID) and the same name for all of them, its own words, so that nothing a
// guest's client sends reaches another screen. A guest may watch and
// nothing else: no seat, no racing, no room of their own.

// GuestName is how a guest is shown to everyone else in a room.
const GuestName = "a guest"

// ErrGuest refuses a guest anything but watching.
var ErrGuest = errors.New("Guests can only watch: connect with an SSH key (ssh-keygen -t ed25519) to play.")

// guestPrefix starts every guest's ID; an account's ID is its key's
// fingerprint ("SHA256:..."), so the two never meet.
const guestPrefix = "guest:"

// Guest is a new guest connecting from addr (for the limits per address),
// with an ID no other person has. Each session makes one and keeps it.
func (h *Hub) Guest(addr string) Person {
	n := h.guests.Add(1)
	return Person{ID: guestPrefix + strconv.FormatUint(n, 10), Name: GuestName, Addr: addr, Guest: true}
}
