package hub

import (
	crand "crypto/rand"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"sshuffle/engine"
)

// Person is an account as the hub knows it: its ID and its validated
// display name. Nobody's name reaches the hub from client text.
type Person struct {
	ID   string
	Name string
	// Addr is where the session connects from (an IPv4 address or an IPv6
	// /64), for the limits per address; the wiring fills it. The hub keeps
	// it out of every room and presence, so nobody else ever sees it.
	Addr string
	// Guest: a session without a key (Hub.Guest), who may only watch.
	Guest bool `json:",omitempty"`
	// Bot: the account is a program playing through the bot protocol
	// (the wiring reads the store's mark); screens mark its name.
	Bot bool `json:",omitempty"`
}

// public is the person as rooms and friends may see it.
func (p Person) public() Person {
	p.Addr = ""
	return p
}

// Config is what the wiring layer gives the hub. Every field may be left
// zero.
type Config struct {
	// Clock defaults to the wall clock.
	Clock Clock
	// Rand draws invite codes; it defaults to a ChaCha8 source seeded from
	// crypto/rand, because a code that could be predicted would let a
	// stranger walk into a private race.
	Rand Rand
	// Grace is how long an empty room stays open so that a player whose
	// connection dropped can come back, and how long a running race waits
	// for a dropped racer before counting them out. Default one minute.
	Grace time.Duration
	// OnResult receives every finished race. It runs on the race's
	// goroutine after the final standings have gone out, so it may take the
	// time a store write takes, but it must not call back into that race.
	OnResult func(Result)
	// MayInvite, when set, says whether from may invite to (the wiring asks
	// the store whether from follows to). It is called without any lock
	// of the hub held.
	MayInvite func(from, to string) bool
	// OnTableResult receives every finished game of a table. Like
	// OnResult it runs on the table's goroutine after the final views have
	// gone out, and must not call back into that table.
	OnTableResult func(TableResult)
	// Rating, when set, is an account's rating at a table game as players
	// read it ("1523", "1500?"), for the seats the lobby and the tables
	// show. Like OnTableResult it runs on a table's goroutine and may take
	// a store read: once for each person who takes a seat, and again
	// after each game of a rated table has gone to OnTableResult.
	Rating func(account, game string) string
	// SaveTable receives a table's snapshot as a game in play goes (when
	// the turn passes; on a node of several, after every action), to
	// store for a restart (RestoreTable); a nil snapshot says
	// the table needs no restoring any more (its match is over or it
	// ended). It runs on a goroutine of the table's own, one call at a
	// time, and a newer snapshot replaces one not yet handed over, so a
	// slow store costs the table nothing. Hub.Close waits for the last.
	SaveTable func(code string, snap *TableSnapshot)
	// TableKit finds a table game's kit by the game's name (the wiring
	// passes the catalogue's). The hub names no game: without it, no
	// table opens.
	TableKit func(game string) (engine.TableKit, bool)
	// Ended, when set, says whether a code no live room has belonged to a
	// room that ended where the hub cannot see it (before the server last
	// stopped, or a race it lost then), so that the code answers as ended.
	// A new room's code is never one it names. It is called with the hub's
	// lock held as a new room draws its code, so it must be quick and must
	// not call into the hub.
	Ended func(code string) bool
	// CodeEnded, when set, is told the code of each room that ends while
	// the hub runs (not of those Close shuts, which a restart restores or
	// settles), so that the wiring can keep it for Ended after a restart.
	// It runs on the room's goroutine as it ends, without any lock of the
	// hub held, and must not call back into the room.
	CodeEnded func(code string)
	// GameName names a deal's game in a sentence ("Klondike Draw 1"), for
	// invitations to races; the wiring passes the catalogue's titles.
	// Without it an invitation names the deal by its spec.
	GameName func(spec engine.Spec) string
	// Limits caps rooms, lobby actions and code lookups per account and
	// per address; zero fields take the defaults.
	Limits Limits
	// Log gets a line when a limit refuses someone, at most once a minute
	// per kind of limit, and one for each bad message from another node;
	// nil is slog.Default().
	Log *slog.Logger
	// Pool is the play-now pool's (pool.go): its waits, windows, and where
	// ratings come from.
	Pool PoolConfig
	// Relay, when set, puts this hub's rooms in a directory shared by
	// several nodes and lets its people join rooms other nodes own
	// (relay.go); nil keeps every room in this process.
	Relay Relay
	// LoadTable, with a relay, reads a table's snapshot (as SaveTable
	// stored it) from the store the nodes share, or nil when there is
	// none: what a node restores a table from when the node that held it
	// stopped (takeover.go). Without it such tables close.
	LoadTable func(code string) (*TableSnapshot, error)
	// RemoteCheck, with a relay, is how often this node checks that the
	// rooms elsewhere its members are in still live (0: DefaultRemoteCheck).
	RemoteCheck time.Duration
}

// Room is what the hub keeps of any live room: a race or a table.
type Room interface {
	Code() string
	Kind() RoomKind
	// Done is closed once the room's goroutine has returned.
	Done() <-chan struct{}
	describe() string // "race of klondike/draw3/7", for invitations
	shut(reason string)
}

// RoomKind tells rooms apart.
type RoomKind int

const (
	RaceRoom RoomKind = iota + 1
	TableRoom
	// PoolRoom is the play-now pool's entry in a relay's directory: the
	// node that runs the pool for every node (poolacross.go).
	PoolRoom
)

func (k RoomKind) String() string {
	switch k {
	case RaceRoom:
		return "race"
	case TableRoom:
		return "table"
	case PoolRoom:
		return "pool"
	}
	return "room"
}

// Hub owns presence and the registry of live rooms. Its state sits behind
// one mutex, held only for map work: no sink, no room and no callback of
// the wiring is ever called while it is held (but Config.Ended, which must
// be a lookup, as a new room draws its code), and neither the lobby list,
// the limits nor presence readers take it.
type Hub struct {
	clock     Clock
	grace     time.Duration
	onResult  func(Result)
	mayInvite func(from, to string) bool
	ended     func(code string) bool
	codeEnded func(code string)
	gameName  func(spec engine.Spec) string

	// stopping is set once the server has begun to stop (Stopping).
	stopping atomic.Bool

	mu       sync.Mutex
	rand     Rand
	closed   bool
	rooms    map[string]Room
	expired  map[string]time.Time
	expiredQ []string // codes in the order they expired, to forget the oldest first
	accounts map[string]*account
	nextID   uint64
	owners   map[string]Person // a live room's code: who opened it (ID, Addr)
	opened   map[string]int    // "a:"+ID or "i:"+Addr: live rooms opened
	limits   *limiter
	// invitedTo is, for a live room's code, the accounts that were sent an
	// invitation to it: whose lists to clear when it ends, without walking
	// every account online while the lock is held.
	invitedTo map[string]map[string]struct{}

	onTableResult func(TableResult)
	ratingOf      func(account, game string) string
	saveTable     func(code string, snap *TableSnapshot)
	tableKitOf    func(game string) (engine.TableKit, bool)
	tableSpy      func(*Table) // tests only: sees the table before each state goes out
	lobby         lobby        // its own lock
	// presence holds, for each account online, its *Presence as last
	// published under mu by whatever changed it (a connection, an
	// activity, a choice about invitations). Values are never changed
	// once stored, so friends screens polling many accounts read them
	// without waiting on mu, which connecting and playing take.
	presence sync.Map
	// guests counts the guests made so far, for their IDs (guest.go).
	guests atomic.Uint64
	// pool is the play-now pool, its goroutine started on first use.
	pool *Pool

	relay Relay
	log   *slog.Logger
	rel   relayed // rooms across nodes (serve.go, remote.go)
	// takeOver claims a table whose node stopped renewing its lease
	// (takeover.go); nil without a relay.
	takeOver func(code string) (Room, error)
	// lost holds the codes of rooms another node took over from this
	// one, under mu: their end is not this node's to write.
	lost map[string]bool
	// changedAt is when each account online here last changed, to order
	// its activity here against its activity on other nodes.
	changedAt sync.Map
	dog       *watchdog // with a relay: checks the rooms elsewhere
}

// account is one online account: alive while any of its sessions is.
type account struct {
	person      Person
	sessions    []*Session
	invitations bool
	pending     []Invitation // invitations to this account, oldest first
}

// New makes a hub.
func New(cfg Config) *Hub {
	h := &Hub{
		clock:         cfg.Clock,
		grace:         cfg.Grace,
		onResult:      cfg.OnResult,
		mayInvite:     cfg.MayInvite,
		ended:         cfg.Ended,
		codeEnded:     cfg.CodeEnded,
		gameName:      cfg.GameName,
		onTableResult: cfg.OnTableResult,
		ratingOf:      cfg.Rating,
		saveTable:     cfg.SaveTable,
		tableKitOf:    cfg.TableKit,
		rand:          cfg.Rand,
		rooms:         map[string]Room{},
		expired:       map[string]time.Time{},
		accounts:      map[string]*account{},
		owners:        map[string]Person{},
		opened:        map[string]int{},
		invitedTo:     map[string]map[string]struct{}{},
		relay:         cfg.Relay,
		lost:          map[string]bool{},
	}
	h.rel.served = map[string]*served{}
	h.rel.remotes = map[string]*remoteMember{}
	h.rel.stops = map[string]func(){}
	h.rel.pooled = map[string]*PoolMember{}
	h.rel.waiting = map[string]*poolRemote{}
	h.rel.seatedFor = map[string]poolSeat{}
	if h.clock == nil {
		h.clock = RealClock{}
	}
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	h.log = log
	h.limits = newLimiter(h.clock, log, cfg.Limits)
	h.lobby.init(h)
	h.pool = newPool(h, cfg.Pool)
	if h.grace <= 0 {
		h.grace = time.Minute
	}
	if h.rand == nil {
		var seed [32]byte
		_, _ = crand.Read(seed[:]) // crypto/rand.Read does not fail on supported systems
		h.rand = rand.NewChaCha8(seed)
	}
	if h.relay != nil {
		if err := h.relay.Listen(h.onDeliver); err != nil {
			log.Error("pushes from other nodes will not arrive", "err", err)
		}
		if err := h.relay.ListenInvitations(h.onNotice); err != nil {
			log.Error("invitations from other nodes will not arrive", "err", err)
		}
		if err := h.relay.ListenReconnects(func() { go h.afterReconnect() }); err != nil {
			log.Error("states lost while this node was cut off will not be asked for again", "err", err)
		}
		h.startWatchdog(cfg.RemoteCheck)
		if cfg.LoadTable != nil {
			h.takeOver = h.takeOverTable(cfg.LoadTable)
		}
	}
	return h
}

// register gives a new room a code unique among live rooms and unlike any
// recently ended one. by is who opens it: the room counts against their
// caps while it lives.
func (h *Hub) register(by Person, make func(code string) Room) (Room, error) {
	if h.relay != nil {
		return h.registerAcross(by, make)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrHubClosed
	}
	if by.Guest {
		return nil, ErrGuest
	}
	if err := h.mayOpen(by); err != nil {
		return nil, err
	}
	h.forgetExpired()
	for {
		code := drawCode(h.rand)
		if _, live := h.rooms[code]; live {
			continue
		}
		if _, gone := h.expired[code]; gone {
			continue
		}
		if h.ended != nil && h.ended(code) {
			continue // ended before a restart: its invite lines say so still
		}
		r := make(code)
		h.rooms[code] = r
		h.own(code, by)
		return r, nil
	}
}

// registerCode gives a restored room the code it had before the restart.
func (h *Hub) registerCode(code string, make func(code string) Room) (Room, error) {
	if h.relay != nil {
		return h.registerCodeAcross(code, make)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrHubClosed
	}
	if _, live := h.rooms[code]; live {
		return nil, refuse(ErrBadSnapshot, "The code %s is in use by another room.", code)
	}
	delete(h.expired, code) // its queue entry, if any, finds nothing to forget
	r := make(code)
	h.rooms[code] = r
	return r, nil
}

// registerCodeAcross is registerCode on a node of several: the code is
// taken over in the directory first (its lease lapsed, or it was this
// node's before a restart), then served.
func (h *Hub) registerCodeAcross(code string, make func(code string) Room) (Room, error) {
	r := make(code)
	if err := h.relay.Takeover(code, entryOf(r, h.relay.Node()), h.lostRoom(code)); err != nil {
		h.log.Info("table not restored here", "code", code, "err", err)
		return nil, refuse(ErrHeldElsewhere, "The room %s is held by another server.", code)
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, ErrHubClosed
	}
	if _, live := h.rooms[code]; live {
		h.mu.Unlock()
		return nil, refuse(ErrBadSnapshot, "The code %s is in use by another room.", code)
	}
	delete(h.expired, code)
	delete(h.lost, code)
	h.rooms[code] = r
	h.mu.Unlock()
	h.serveRoom(r)
	return r, nil
}

// unregister is called by a room's goroutine as it ends.
func (h *Hub) unregister(code string) {
	ended, lost := false, false
	defer func() { // after the unlock below
		// A room shut by Close is settled by a restart, and one another
		// node took over is that node's: neither ends in the directory.
		h.unserveRoom(code, ended && !lost)
		if ended && !lost && h.codeEnded != nil {
			h.codeEnded(code)
		}
	}()
	h.mu.Lock()
	defer h.mu.Unlock()
	ended = !h.closed
	lost = h.lost[code]
	delete(h.lost, code)
	delete(h.rooms, code)
	h.disown(code)
	h.expired[code] = h.clock.Now()
	h.expiredQ = append(h.expiredQ, code)
	h.forgetExpired()
	for id := range h.invitedTo[code] {
		if a, ok := h.accounts[id]; ok {
			a.pending = slices.DeleteFunc(a.pending, func(inv Invitation) bool { return inv.Code == code })
		}
	}
	delete(h.invitedTo, code)
}

func (h *Hub) forgetExpired() {
	now := h.clock.Now()
	n := 0
	for n < len(h.expiredQ) {
		c := h.expiredQ[n]
		if len(h.expiredQ)-n <= expiredMax && now.Sub(h.expired[c]) < expiredFor {
			break
		}
		delete(h.expired, c)
		n++
	}
	if n > 0 {
		h.expiredQ = slices.Delete(h.expiredQ, 0, n)
	}
}

// Room finds a live room by its code as a player typed it. The error says
// whether the code is malformed, unknown or expired.
func (h *Hub) Room(text string) (Room, error) {
	code, err := NormalizeCode(text)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	r, live := h.rooms[code]
	h.mu.Unlock()
	if live {
		return r, nil
	}
	if h.relay != nil {
		if r, ok, err := h.findRemote(code); ok {
			return r, err
		}
	}
	return nil, h.missing(code)
}

// missing is the answer for a code that names no live room of the kind
// asked for. A live room of another kind gets the same answer as a code
// nobody holds, so that guessing learns nothing from the sentence. Called
// without mu (the Ended hook needs no lock here).
func (h *Hub) missing(code string) error {
	h.mu.Lock()
	_, expired := h.expired[code]
	h.mu.Unlock()
	if expired || (h.ended != nil && h.ended(code)) {
		return refuse(ErrExpired, "The room %s has ended, and its code with it.", code)
	}
	return refuse(ErrNoRoom, "No room has the code %s; check the letters.", code)
}

// Race finds a live race by its code.
func (h *Hub) Race(text string) (*Race, error) {
	r, err := h.Room(text)
	if err != nil {
		return nil, err
	}
	race, ok := r.(*Race)
	if !ok {
		return nil, h.wrongKind(r.Code())
	}
	return race, nil
}

func (h *Hub) wrongKind(code string) error { return h.missing(code) }

// Rooms is how many rooms are live.
func (h *Hub) Rooms() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.rooms)
}

// codes lists the live codes, for the tests' invariants.
func (h *Hub) codes() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]string, 0, len(h.rooms))
	for c := range h.rooms {
		out = append(out, c)
	}
	return out
}

// Stopping says the server has begun to stop, before its sessions end:
// a person whose connection goes from then on keeps the seat as it is (no
// hold, no computer standing in, no host passed, nothing in the table's
// log), since every table is kept for the next start as it stands and
// waits there for its people anyway.
func (h *Hub) Stopping() { h.stopping.Store(true) }

// Close ends every room (their members get a closing state, which their
// drains deliver as their sinks allow) and every session's outbox, and
// waits until every room's goroutine has returned.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	rooms := make([]Room, 0, len(h.rooms))
	for _, r := range h.rooms {
		rooms = append(rooms, r)
	}
	var sessions []*Session
	for _, a := range h.accounts {
		sessions = append(sessions, a.sessions...)
	}
	h.mu.Unlock()
	// The pool first: it opens tables, and none may open after the rooms
	// are shut.
	h.pool.close()
	h.stopServingPool()
	for _, r := range rooms {
		r.shut("The arcade is shutting down.")
		<-r.Done()
	}
	for _, s := range sessions {
		s.Close()
	}
	h.stopWatchdog()
	h.closePoolRemotes()
	h.closeRemotes()
	h.closeLobby()
}

// Activity is what a session is doing, as its screens tell the hub.
type Activity struct {
	Doing Doing
	Game  string // the game's name, when playing, racing or at a table
	Room  string // the room's code, when in one
	// Watchable says others may join the room as watchers.
	Watchable bool
}

// Doing is the kind of thing a session is doing.
type Doing int

const (
	AtMenu Doing = iota
	InGame       // a solitaire, alone
	Racing
	Watching
	AtTable
	LookingForGame // waiting in the play-now pool
)

func (d Doing) String() string {
	switch d {
	case InGame:
		return "playing"
	case Racing:
		return "racing"
	case Watching:
		return "watching"
	case AtTable:
		return "at a table"
	case LookingForGame:
		return "looking for a game"
	}
	return "at the menu"
}

// Presence is one account as its friends see it.
type Presence struct {
	Person
	Online      bool
	Sessions    int
	Activity    Activity // of the session that last changed what it does
	Invitations bool     // accepts invitations
}

// Presence reports each of the given accounts, in the order given. The
// wiring asks the store whom a player follows and passes those IDs; an
// account that is offline comes back with Online false and only its ID
// (the store has its name).
func (h *Hub) Presence(ids ...string) []Presence {
	out := make([]Presence, len(ids))
	for i, id := range ids {
		var here *Presence
		if p, ok := h.presence.Load(id); ok {
			here = p.(*Presence)
		}
		switch {
		case h.relay != nil:
			out[i] = h.withElsewhere(id, here)
		case here != nil:
			out[i] = *here
		default:
			out[i].ID = id
		}
	}
	return out
}

// publish stores the account's presence as it is now; under h.mu.
func (h *Hub) publish(id string) {
	a, ok := h.accounts[id]
	if !ok {
		h.presence.Delete(id)
		h.tellPresence(id, nil)
		return
	}
	p := &Presence{Person: a.person, Online: true, Sessions: len(a.sessions), Invitations: a.invitations}
	var latest *Session
	for _, s := range a.sessions {
		if latest == nil || s.changed > latest.changed {
			latest = s
		}
	}
	p.Activity = latest.activity
	h.presence.Store(id, p)
	h.tellPresence(id, p)
}

// Online lists everyone online, for an operator's view; friends screens
// use Presence.
func (h *Hub) Online() []Presence {
	var out []Presence
	h.presence.Range(func(_, v any) bool {
		out = append(out, *v.(*Presence))
		return true
	})
	slices.SortFunc(out, func(a, b Presence) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// Session is one connection of an account. Invitations and answers to
// them reach it through its outbox, on whatever screen it is showing.
type Session struct {
	h        *Hub
	person   Person
	out      *outbox[Notice]
	activity Activity // under h.mu
	changed  uint64   // under h.mu: when activity was set, on the hub's counter
	closed   bool     // under h.mu
}

// Connect puts a session of p online. invitations is the player's stored
// preference; the latest session's word counts for the account. sink gets
// the session's notices and follows the outbox rules.
func (h *Hub) Connect(p Person, invitations bool, sink func(Notice)) *Session {
	s := &Session{h: h, person: p.public(), out: newOutbox(sink)}
	h.mu.Lock()
	defer h.mu.Unlock()
	a, ok := h.accounts[p.ID]
	if !ok {
		a = &account{}
		h.accounts[p.ID] = a
	}
	a.person = p.public() // a rename shows at the next connection
	a.invitations = invitations
	a.sessions = append(a.sessions, s)
	h.nextID++
	s.changed = h.nextID
	h.publish(p.ID)
	return s
}

// Person is whom the session belongs to.
func (s *Session) Person() Person { return s.person }

// SetActivity records what the session is doing now.
func (s *Session) SetActivity(act Activity) {
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if s.closed {
		return
	}
	h.nextID++
	s.activity, s.changed = act, h.nextID
	h.publish(s.person.ID)
}

// SetInvitations turns invitations to this account on or off. Turning
// them off clears the ones waiting.
func (s *Session) SetInvitations(on bool) {
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if a, ok := h.accounts[s.person.ID]; ok && !s.closed {
		a.invitations = on
		if !on {
			a.pending = nil
		}
		h.publish(s.person.ID)
	}
}

// Close takes the session offline; the account stays online while another
// of its sessions is. It does not leave rooms: the screens do that (Drop on
// a lost connection), because only they know which rooms the session is in.
func (s *Session) Close() {
	h := s.h
	h.mu.Lock()
	if !s.closed {
		s.closed = true
		if a, ok := h.accounts[s.person.ID]; ok {
			a.sessions = slices.DeleteFunc(a.sessions, func(x *Session) bool { return x == s })
			if len(a.sessions) == 0 {
				delete(h.accounts, s.person.ID)
			}
			h.publish(s.person.ID)
		}
	}
	h.mu.Unlock()
	s.out.Close()
}

// Done is closed once the session's notice goroutine has returned.
func (s *Session) Done() <-chan struct{} { return s.out.Done() }

// Invitation asks one player into one room.
type Invitation struct {
	ID   uint64
	From Person
	To   Person
	Code string
	Kind RoomKind
	What string // "race of klondike/draw3/7"
	Sent time.Time
}

// NoticeKind says what a notice is about.
type NoticeKind int

const (
	Invited  NoticeKind = iota + 1 // someone invites this session's player
	Accepted                       // someone accepted this player's invitation
	Declined                       // someone declined it
)

// Notice is what a session's outbox carries: the invitation concerned and
// a line to show, made from validated names and hub text only. Newest wins
// in the outbox, so a screen that wants every open invitation asks
// Invitations.
type Notice struct {
	Kind       NoticeKind
	Invitation Invitation
	Text       string
}

// maxPending bounds the invitations waiting for one player, so that a
// flood of them costs a bounded amount of memory; the oldest go first.
const maxPending = 16

// Invite asks to (a validated account, as the wiring found it) into the
// live room with the given code.
func (s *Session) Invite(to Person, code string) error {
	room, err := s.h.Room(code)
	if err != nil {
		return err
	}
	if to.ID == s.person.ID {
		return ErrSelf
	}
	if s.h.mayInvite != nil && !s.h.mayInvite(s.person.ID, to.ID) {
		return refuse(ErrNotFollowing, "You can invite only players you follow, and you do not follow %s.", to.Name)
	}
	h := s.h
	h.mu.Lock()
	if _, live := h.rooms[room.Code()]; !live && !remote(room) {
		h.mu.Unlock()
		return refuse(ErrExpired, "The room %s has ended, and its code with it.", room.Code())
	}
	inv := Invitation{From: s.person, To: to, Code: room.Code(), Kind: room.Kind(), What: room.describe(), Sent: h.clock.Now()}
	text := s.person.Name + " invites you to a " + inv.What + "."
	a, ok := h.accounts[to.ID]
	if !ok {
		h.mu.Unlock()
		return h.inviteElsewhere(to, inv, text)
	}
	defer h.mu.Unlock()
	return h.addInvitation(a, inv, text)
}

// remote reports a room another node owns.
func remote(r Room) bool {
	switch room := r.(type) {
	case *Table:
		return room.remote != nil
	case *Race:
		return room.remote != nil
	}
	return false
}

// Invitations lists the invitations waiting for this session's player,
// oldest first.
func (s *Session) Invitations() []Invitation {
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if a, ok := h.accounts[s.person.ID]; ok {
		return slices.Clone(a.pending)
	}
	return nil
}

// Answer accepts or declines an invitation. Accepting returns the room's
// code, which the wiring joins as it would a pasted invite line; the
// inviter hears either way, if online.
func (s *Session) Answer(id uint64, accept bool) (string, error) {
	h := s.h
	h.mu.Lock()
	a, ok := h.accounts[s.person.ID]
	if !ok {
		h.mu.Unlock()
		return "", ErrNoInvitation
	}
	i := slices.IndexFunc(a.pending, func(inv Invitation) bool { return inv.ID == id })
	if i < 0 {
		h.mu.Unlock()
		return "", ErrNoInvitation
	}
	inv := a.pending[i]
	a.pending = slices.Delete(a.pending, i, i+1)
	_, live := h.rooms[inv.Code]
	h.mu.Unlock()
	if !live && h.relay != nil {
		// A room on another node: the directory knows whether it lives.
		r, err := h.Room(inv.Code)
		live = err == nil && remote(r)
	}
	if !live {
		return "", refuse(ErrExpired, "The room %s has ended, and its code with it.", inv.Code)
	}
	n := Notice{Kind: Declined, Invitation: inv, Text: inv.To.Name + " declined your invitation."}
	if accept {
		n = Notice{Kind: Accepted, Invitation: inv, Text: inv.To.Name + " accepted your invitation."}
	}
	h.mu.Lock()
	from, here := h.accounts[inv.From.ID]
	if here {
		for _, fs := range from.sessions {
			fs.out.Put(n)
		}
	}
	h.mu.Unlock()
	if !here {
		h.answerElsewhere(n)
	}
	if !accept {
		return "", nil
	}
	return inv.Code, nil
}

func describeSpec(kind RoomKind, spec engine.Spec) string {
	return kind.String() + " of " + spec.String()
}
