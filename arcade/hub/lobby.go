package hub

import (
	"cmp"
	"slices"
)

// TableList is the list of open tables as a lobby screen shows it. Tables is
// shared by every lobby watcher: read it, never write it.
type TableList struct {
	Tables  []TableInfo // listed tables, oldest first
	Version uint64
}

// lobby is the hub's listing of tables and who watches it; under Hub.mu.
type lobby struct {
	tables   map[string]TableInfo // every live table, private ones too
	list     []TableInfo          // the listed ones in lobby order, rebuilt on change
	version  uint64
	watchers map[*LobbyWatch]struct{}
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
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		w.out.Close()
		return w
	}
	if h.lobby.watchers == nil {
		h.lobby.watchers = map[*LobbyWatch]struct{}{}
	}
	h.lobby.watchers[w] = struct{}{}
	w.out.Put(TableList{Tables: h.lobby.list, Version: h.lobby.version})
	return w
}

// Close ends the subscription.
func (w *LobbyWatch) Close() {
	w.h.mu.Lock()
	delete(w.h.lobby.watchers, w)
	w.h.mu.Unlock()
	w.out.Close()
}

// Done is closed once the subscription's goroutine has returned.
func (w *LobbyWatch) Done() <-chan struct{} { return w.out.Done() }

// Tables lists the open (not private) tables, oldest first.
func (h *Hub) Tables() []TableInfo {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.lobby.list)
}

// SeatedAt lists the tables where the account holds a seat (private ones
// too): what a menu offers to rejoin after a drop or a restart.
func (h *Hub) SeatedAt(id string) []TableInfo {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []TableInfo
	for _, in := range h.lobby.tables {
		for _, s := range in.Seats {
			if s.Person.ID == id && !s.Gone {
				out = append(out, in)
				break
			}
		}
	}
	slices.SortFunc(out, lobbyOrder)
	return out
}

func lobbyOrder(a, b TableInfo) int {
	return cmp.Or(a.Opened.Compare(b.Opened), cmp.Compare(a.Code, b.Code))
}

// list records a table's new listing and tells the lobby's watchers.
func (h *Hub) list(in TableInfo) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.lobby.tables == nil {
		h.lobby.tables = map[string]TableInfo{}
	}
	old, had := h.lobby.tables[in.Code]
	h.lobby.tables[in.Code] = in
	if in.Private && (!had || old.Private) {
		return // nobody's list changes
	}
	h.relist()
}

func (h *Hub) unlist(code string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	in, had := h.lobby.tables[code]
	delete(h.lobby.tables, code)
	if had && !in.Private {
		h.relist()
	}
}

// relist rebuilds the shared list and puts it in every watcher's outbox.
// Put never blocks, so doing it under the lock is safe.
func (h *Hub) relist() {
	list := make([]TableInfo, 0, len(h.lobby.list)+1)
	for _, in := range h.lobby.tables {
		if !in.Private {
			list = append(list, in)
		}
	}
	slices.SortFunc(list, lobbyOrder)
	h.lobby.list = list
	h.lobby.version++
	l := TableList{Tables: list, Version: h.lobby.version}
	for w := range h.lobby.watchers {
		w.out.Put(l)
	}
}

func (h *Hub) closeLobby() {
	h.mu.Lock()
	ws := h.lobby.watchers
	h.lobby.watchers = nil
	h.mu.Unlock()
	for w := range ws {
		w.out.Close()
	}
}
