package ui

import "sync"

// Holds knows which session holds each account's game of each kind, so
// that two sessions of one account never play one game apart: opening it
// in a second session takes it over, with every move the first made, and
// the first can no longer save over it. One per server.
type Holds struct {
	mu sync.Mutex
	by map[string]*Hold
}

// NewHolds is an empty registry.
func NewHolds() *Holds { return &Holds{by: map[string]*Hold{}} }

// Hold is one session's hold on a game. A nil Hold (a guest, or no
// registry) holds nothing and is never taken over.
type Hold struct {
	holds *Holds
	key   string
	mu    sync.Mutex // held while the game is written, so a take waits for it
	taken bool
	data  []byte // the game's latest save, nil before its first move here
}

// Take holds the account's game at key (a save key) for a new screen. If
// another screen held it, that one is taken over, and its latest save
// comes back (nil when it made no move since it was read from the store,
// so the store's copy is current).
func (p *Holds) Take(account, key string) (*Hold, []byte) {
	if p == nil || account == "" {
		return nil, nil
	}
	pl := &Hold{holds: p, key: account + "\x00" + key}
	p.mu.Lock()
	old := p.by[pl.key]
	p.by[pl.key] = pl
	p.mu.Unlock()
	if old == nil {
		return pl, nil
	}
	old.mu.Lock()
	defer old.mu.Unlock()
	old.taken = true
	return pl, old.data
}

// Keep records data as the game's latest save after a move; false when
// the game was taken over, and then the move must not stand.
func (pl *Hold) Keep(data []byte) bool {
	if pl == nil {
		return true
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.taken {
		return false
	}
	pl.data = data
	return true
}

// Write runs write (storing the save) unless the game was taken over;
// a take waits for it to finish, so it reads what was written.
func (pl *Hold) Write(write func()) bool {
	if pl == nil {
		write()
		return true
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.taken {
		return false
	}
	write()
	return true
}

// Taken reports whether another session took the game over.
func (pl *Hold) Taken() bool {
	if pl == nil {
		return false
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	return pl.taken
}

// Release gives the game up (it was saved, finished or dealt again): the
// next screen to open it reads the store.
func (pl *Hold) Release() {
	if pl == nil {
		return
	}
	pl.holds.mu.Lock()
	defer pl.holds.mu.Unlock()
	if pl.holds.by[pl.key] == pl {
		delete(pl.holds.by, pl.key)
	}
}
