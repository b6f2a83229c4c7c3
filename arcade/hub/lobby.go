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

// relistBusy is relistEvery once relistMany tables or more are listed:
// every lobby screen walks the whole list at each relisting, so on a busy
// server (tables changing all the time) the lobbies' cost grows with the
// tables times the relistings; a list a quarter of a second old is still
// as good as a new one to a person reading it.
const (
	relistBusy = 250 * time.Millisecond
	relistMany = 100
)

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

	// On a node of several: relay publishes this node's listings and
	// reads the other nodes'; remote is theirs (private ones too) as the
	// last rebuild read them, by code, and cache the decoded listings by
	// their bytes, so that an unchanged listing is not decoded again and a
	// rebuild that finds nothing new publishes nothing. local says a
	// table of this node changed since the last rebuild.
	relay  Relay
	log    func(msg string, args ...any)
	clock  Clock
	remote map[string]TableInfo
	cache  map[string]wireListing // by the bytes it was decoded from
	local  bool

	// snap is the list in lobby order: immutable, shared by every reader.
	snap atomic.Pointer[TableList]
	// spy, in tests only, is called by each rebuild before it sorts.
	spy func()
}

func (l *lobby) init(h *Hub) {
	l.tables = map[string]TableInfo{}
	l.watchers = map[*LobbyWatch]struct{}{}
	l.remote = map[string]TableInfo{}
	l.cache = map[string]wireListing{}
	l.snap.Store(&TableList{})
	l.relay, l.log, l.clock = h.relay, h.log.Warn, h.clock
	if l.relay == nil {
		return
	}
	err := l.relay.ListenListings(func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.schedule()
	})
	if err != nil {
		h.log.Error("tables of other nodes will not be listed", "err", err)
	}
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

// TableList is the list as the lobby watchers get it, shared: read only.
func (h *Hub) TableList() TableList { return *h.lobby.snap.Load() }

// Tables lists the open (not private) tables, oldest first, as of the last
// rebuild of the list: on a node of several, the other nodes' too.
func (h *Hub) Tables() []TableInfo {
	return slices.Clone(h.lobby.snap.Load().Tables)
}

// SeatedAt lists the tables where the account holds a seat (private ones
// too), on any node: what a menu offers to rejoin after a drop or a
// restart.
func (h *Hub) SeatedAt(id string) []TableInfo {
	l := &h.lobby
	l.mu.Lock()
	var out []TableInfo
	seated := func(in TableInfo) {
		for _, s := range in.Seats {
			if s.Person.ID == id && !s.Gone {
				out = append(out, in)
				break
			}
		}
	}
	for _, in := range l.tables {
		seated(in)
	}
	for code, in := range l.remote {
		if _, own := l.tables[code]; !own {
			seated(in)
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
	var b []byte
	if l.relay != nil {
		b = encode(wireListing{V: WireFormat, Info: in, Listed: l.clock.Now()})
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.relay != nil {
		// Private ones too: the others' SeatedAt finds seats there.
		l.relay.SetListing(in.Code, b)
	}
	old, had := l.tables[in.Code]
	l.tables[in.Code] = in
	if in.Private && (!had || old.Private) {
		return // nobody's list changes
	}
	l.local = true
	l.schedule()
}

func (h *Hub) unlist(code string) {
	l := &h.lobby
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.relay != nil {
		l.relay.SetListing(code, nil)
	}
	in, had := l.tables[code]
	delete(l.tables, code)
	if had && !in.Private {
		l.local = true
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
	every := relistEvery
	if len(l.tables)+len(l.remote) >= relistMany {
		every = relistBusy
	}
	time.AfterFunc(every, l.rebuild)
}

// rebuild sorts a new list, off every lock, and puts it in every watcher's
// outbox. Put never blocks, so doing that under the lobby's lock is safe.
func (l *lobby) rebuild() {
	var listings [][]byte
	if l.relay != nil {
		listings = l.relay.Listings() // off the lock: the relay takes its own
	}
	l.mu.Lock()
	l.dirty = false
	remoteChanged := l.relay != nil && l.readRemote(listings)
	if !l.local && !remoteChanged {
		// Only the other nodes' listings could have changed, and none
		// did (a periodic look, or a rewrite of the same listing).
		l.scheduled = false
		l.mu.Unlock()
		return
	}
	l.local = false
	list := make([]TableInfo, 0, len(l.snap.Load().Tables)+1)
	for _, in := range l.tables {
		if !in.Private {
			list = append(list, in)
		}
	}
	for code, in := range l.remote {
		if _, own := l.tables[code]; !own && !in.Private {
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

// wireListing is a table's listing as its node publishes it for the
// others' lobbies. Listed orders two nodes' listings of one table: the
// node that took it over lists it after its dead owner last did.
type wireListing struct {
	V      int       `json:"v"`
	Info   TableInfo `json:"info"`
	Listed time.Time `json:"listed"`
}

func decodeListing(b []byte) (wireListing, error) {
	var w wireListing
	err := decode(b, &w, func(w *wireListing) int { return w.V })
	if err == nil {
		_, err = NormalizeCode(w.Info.Code)
	}
	return w, err
}

// readRemote takes the other nodes' listings as the relay has them now,
// and says whether any changed since the last read; under mu. Of two
// listings of one table (its dead owner's not aged out yet, and the new
// owner's), the later listed wins.
func (l *lobby) readRemote(listings [][]byte) bool {
	cache := make(map[string]wireListing, len(listings))
	remote := make(map[string]TableInfo, len(listings))
	listed := make(map[string]time.Time, len(listings))
	for _, b := range listings {
		raw := string(b)
		w, seen := l.cache[raw]
		if !seen {
			var err error
			if w, err = decodeListing(b); err != nil {
				l.log("bad table listing dropped", "err", err)
				w = wireListing{} // kept as bad, so it is logged once
			}
		}
		cache[raw] = w
		if w.V == 0 {
			continue
		}
		if at, two := listed[w.Info.Code]; two && !w.Listed.After(at) {
			continue
		}
		remote[w.Info.Code], listed[w.Info.Code] = w.Info, w.Listed
	}
	changed := len(cache) != len(l.cache)
	for raw := range cache {
		if changed {
			break
		}
		_, changed = l.cache[raw]
		changed = !changed
	}
	l.cache, l.remote = cache, remote
	return changed
}
