package ui

import "sshuffle/arcade/hub"

// Watcher is who the session's player is as a room's watcher: their
// Person when they have an account with a name, or else (a guest) the
// hub's guest for this session, made once so that every room the session
// watches knows it as one watcher. ok is false when the session can watch
// nothing: an account still without a name, or no hub.
func (e *Env) Watcher() (p hub.Person, ok bool) {
	if p, ok := e.Person(); ok {
		return p, true
	}
	if e.Player == nil || !e.Player.Guest || e.Hub == nil {
		return hub.Person{}, false
	}
	if e.guest.ID == "" {
		e.guest = e.Hub.Guest(e.Player.Addr)
	}
	return e.guest, true
}

// IsGuest says whether the session's player is a guest (no key), who may
// watch rooms and nothing more.
func (e *Env) IsGuest() bool { return e.Player != nil && e.Player.Guest }
