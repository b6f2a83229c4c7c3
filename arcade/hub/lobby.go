package hub

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// TableList is the list of open tables as a lobby screen shows it. Tables is
// shared by every lobby watcher: read it, never write it.
type TableList struct {
	Tables  []TableInfo // listed tables, oldest first
	Version uint64
}

// relistEvery is how often at most the lobby list is rebuilt while tables
// change: a list a twentieth of a second old is as good as a new one to a
// person reading it, and a burst of changes then costs one sort, not one
// per change.
const relistEvery = 50 * time.Millisecond

// lobby is the hub's listing of tables and who watches it. It has a lock
// of its own, never the hub's, so that tables changing (and their list
// being rebuilt) never hold up a connection or a presence.
type lobby struct {
	mu        sync.Mutex
	tables    map[string]TableInfo // every live table, private ones too
	watchers  map[*LobbyWatch]struct{}
	scheduled bool // a rebuild is due or running
	dirty     bool // a change since the running rebuild copied the tables
	closed    bool
	version   uint64 // of the last list published; the rebuild's alone, under mu

	// snap is the list in lobby order: immutable, shared by every reader.
	snap atomic.Pointer[TableList]
	// spy, in tests only, is called by each rebuild before it sorts.
	spy func()
}

func (l *lobby) init() {
	l.tables = map[string]TableInfo{}
	l.watchers = map[*LobbyWatch]struct{}{}
	l.snap.Store(&TableList{})
}

// LobbyWatch is a lobby screen's subscription: it gets the list at once and
// after every change of a table's seats, phase, host or watchers.
type LobbyWatch struct {
	h   *Hub
	out *outbox[TableList]
}

// WatchLobby subscribes sink (outbox rules) to the lobby list.
func (h *Hub) WatchLobby(sink func(TableList)) *LobbyWatch {
	w := &LobbyWatch{h: h, out: newOutbox(sink)}
	l := &h.lobby
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		w.out.Close()
		return w
	}
	l.watchers[w] = struct{}{}
	w.out.Put(*l.snap.Load())
	return w
}

// Close ends the subscription.
func (w *LobbyWatch) Close() {
	l := &w.h.lobby
	l.mu.Lock()
	delete(l.watchers, w)
	l.mu.Unlock()
	w.out.Close()
}

// Done is closed once the subscription's goroutine has returned.
func (w *LobbyWatch) Done() <-chan struct{} { return w.out.Done() }

// Tables lists the open (not private) tables, oldest first, as of the last
// rebuild of the list.
func (h *Hub) Tables() []TableInfo {
	return slices.Clone(h.lobby.snap.Load().Tables)
}

// SeatedAt lists the tables where the account holds a seat (private ones
// too): what a menu offers to rejoin after a drop or a restart.
func (h *Hub) SeatedAt(id string) []TableInfo {
	l := &h.lobby
	l.mu.Lock()
	var out []TableInfo
	for _, in := range l.tables {
		for _, s := range in.Seats {
			if s.Person.ID == id && !s.Gone {
				out = append(out, in)
				break
			}
		}
	}
	l.mu.Unlock()
	slices.SortFunc(out, lobbyOrder)
	return out
}

func lobbyOrder(a, b TableInfo) int {
	return cmp.Or(a.Opened.Compare(b.Opened), cmp.Compare(a.Code, b.Code))
}

// list records a table's new listing; the list is rebuilt soon after.
func (h *Hub) list(in TableInfo) {
	l := &h.lobby
	l.mu.Lock()
	defer l.mu.Unlock()
	old, had := l.tables[in.Code]
	l.tables[in.Code] = in
	if in.Private && (!had || old.Private) {
		return // nobody's list changes
	}
	l.schedule()
}

func (h *Hub) unlist(code string) {
	l := &h.lobby
	l.mu.Lock()
	defer l.mu.Unlock()
	in, had := l.tables[code]
	delete(l.tables, code)
	if had && !in.Private {
		l.schedule()
	}
}

// schedule has the list rebuilt in relistEvery, unless a rebuild is due
// already: changes in between are all in that one. Called with mu held.
func (l *lobby) schedule() {
	l.dirty = true
	if l.scheduled || l.closed {
		return
	}
	l.scheduled = true
	time.AfterFunc(relistEvery, l.rebuild)
}

// rebuild sorts a new list, off every lock, and puts it in every watcher's
// outbox. Put never blocks, so doing that under the lobby's lock is safe.
func (l *lobby) rebuild() {
	l.mu.Lock()
	l.dirty = false
	list := make([]TableInfo, 0, len(l.snap.Load().Tables)+1)
	for _, in := range l.tables {
		if !in.Private {
			list = append(list, in)
		}
	}
	l.mu.Unlock()
	if l.spy != nil {
		l.spy()
	}
	slices.SortFunc(list, lobbyOrder)
	l.mu.Lock()
	defer l.mu.Unlock()
	// Rebuilds never overlap, so versions grow in the order lists are
	// made: a change made while this one sorted schedules the next only
	// now.
	l.scheduled = false
	if l.closed {
		return
	}
	if l.dirty {
		l.schedule()
	}
	l.version++
	tl := &TableList{Tables: list, Version: l.version}
	l.snap.Store(tl)
	for w := range l.watchers {
		w.out.Put(*tl)
	}
}

func (h *Hub) closeLobby() {
	l := &h.lobby
	l.mu.Lock()
	ws := l.watchers
	l.watchers = map[*LobbyWatch]struct{}{}
	l.closed = true
	l.mu.Unlock()
	for w := range ws {
		w.out.Close()
	}
}
