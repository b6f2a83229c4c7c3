package hub

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"sshuffle/engine"
)

// Defaults of a table's timings. TABLEGAMES.md asks for a 60 s turn clock
// and for computer players a person can follow; ISSUE 14 for a seat kept
// three minutes for a player who dropped.
const (
	DefaultTurnClock = 60 * time.Second
	DefaultPace      = time.Second
	DefaultHold      = 3 * time.Minute
	DefaultBreak     = 5 * time.Second
	// MaxLog is how many lines of the table's log a state carries: what a
	// panel beside four seats at 80x24 has room for.
	MaxLog = 6
	// standIn is the strength of the computer that plays for a person
	// whose clock ran out or who dropped: the one TABLEGAMES.md names.
	standIn = "normal"
)

// Seat kinds as a record writes them.
const (
	PersonSeat = "person"
)

// Join asks: a seat number, or one of these.
const (
	AnySeat = -2               // a seat reserved for the joiner, else the first open one
	Watch   = engine.Spectator // no seat: see the public view
)

// TablePhase is where a table is.
type TablePhase int

const (
	TableSeating  TablePhase = iota // people take seats; the host starts
	TablePlaying                    // a game is on
	TableBetween                    // a game of a match is over; the next is dealt after a break
	TableFinished                   // the match is over; the host may ask for a rematch
	TableClosed
)

func (p TablePhase) String() string {
	return [...]string{"seating", "playing", "between games", "finished", "closed"}[p]
}

// SeatPlan is one seat as the host plans it: a computer player of the given
// strength, or a person's seat, open to anyone or reserved for one account.
type SeatPlan struct {
	Computer string // "easy", "normal", "hard"; "" for a person's seat
	Reserved Person // a person's seat kept for this account (ID set)
}

// TableConfig opens a table.
type TableConfig struct {
	Game     string // spite or kings
	Settings string // "k=v,..." of the game's Settings; defaults may be left out
	Seats    []SeatPlan
	Host     Person
	// Private tables are left out of the lobby list: they are joined by
	// code or invitation.
	Private bool
	// TurnClock is a person's time for a turn (0: one minute; negative:
	// no clock). When it runs out the computer plays that turn for them.
	TurnClock time.Duration
	// Pace is how long each computer action stays on screen before the
	// next (0: a second).
	Pace time.Duration
	// Hold is how long a dropped person keeps the seat, a computer playing
	// for them, before it goes to the computer for good (0: 3 minutes).
	Hold time.Duration
	// Break is the pause after a game of a match before the next deal.
	Break time.Duration
}

// SeatInfo is one seat as every member and the lobby see it.
type SeatInfo struct {
	Person   Person // who sits there (ID empty when open or a computer's)
	Computer string // the computer's strength, for a computer's seat
	Reserved Person // an open seat kept for this account
	Here     bool   // the person is connected
	// StandIn: a computer is playing for the absent person, who may
	// come back until HeldUntil.
	StandIn   bool
	HeldUntil time.Time
	// Gone: the person lost the seat (dropped past the hold, or left a
	// game in play); a computer plays it from now on.
	Gone bool
}

// Open reports a person's seat nobody has taken.
func (s SeatInfo) Open() bool { return s.Computer == "" && s.Person.ID == "" }

// TableInfo is a table as the lobby lists it.
type TableInfo struct {
	Code     string
	Game     string
	Settings string
	Phase    TablePhase
	Host     Person
	Seats    []SeatInfo
	Free     int // person's seats still open (reserved ones included)
	Watchers int
	Private  bool
	GameNo   int // from 0
	Opened   time.Time
}

// TableState is what a member is sent on every change. Seats, Watchers,
// Log, Totals and Result are shared by all the members' states, and View by
// every watcher's: read them, never write them. No value in it holds a card the member may
// not see, nor the deal's seed (from which every hidden card follows).
type TableState struct {
	Code     string
	Game     string
	Settings string
	Phase    TablePhase
	// Paused: the table was restored after a restart and waits for its
	// people (the seats not Here) until their hold runs out.
	Paused   bool
	Host     string // the host's account ID
	Seats    []SeatInfo
	Watchers []Person
	// You and Seat are the receiving member's; Seat is engine.Spectator
	// for a watcher.
	You  string
	Seat int
	// View is the game's view of Seat, encoded by the game's kit (decode
	// it with the kit of Game): a seated member's own, a watcher's the
	// public one. nil while seating.
	View []byte
	Turn int // the seat to act, engine.NoSeat when none
	// TurnLeft is what the person to act has left on the turn clock, as
	// of this state (0 when no clock runs); Auto says the clock ran out
	// and the computer is playing the rest of that turn.
	TurnLeft time.Duration
	Auto     bool
	Log      []string // the last few actions in words, oldest first
	GameNo   int      // the game of the match, from 0
	Totals   []int    // match totals counted so far
	// Result is the game's outcome once it is over (TableBetween, TableFinished).
	Result      *engine.TableResult
	MatchWinner int // once TableFinished: the match winner, or engine.NoSeat on a tie
	// Refused is the sentence for this member's last refused action, for
	// a screen that sent it without waiting for the reply.
	Refused string
	// Version is the room's: it grows with every state the room sends
	// anyone, so a member that sees a gap knows it missed one and may ask
	// for the whole state (TableMember.State).
	Version uint64
	Reason  string // why the table closed, when Phase is TableClosed
}

// TableResult is one finished game of a table, for the wiring to store.
type TableResult struct {
	Code     string
	Spec     engine.Spec // the match's spec: its seed dealt game 0
	GameNo   int
	Seats    []ResultSeat
	Record   []byte // the game as one TABLEGAMES.md record line (no newline)
	Outcome  engine.TableResult
	Totals   []int // match totals including this game
	MatchEnd bool  // this game ended the match
	// MatchWinner is the match's winner once MatchEnd (engine.NoSeat on
	// a tie).
	MatchWinner int
	Started     time.Time
	Ended       time.Time
}

// ResultSeat is one seat of a finished game.
type ResultSeat struct {
	Person   Person // empty for a computer's seat
	Strength string // "person", or the computer's strength
	// StoodIn: a computer played some of this person's turns (a clock
	// ran out or the person dropped); Gone: the seat went to the computer
	// for good during the game.
	StoodIn bool
	Gone    bool
}

// Table is a table room. Its methods may be called from any goroutine.
type Table struct {
	h      *Hub
	code   string
	kit    engine.TableKit
	cfg    TableConfig // normalized
	opened time.Time
	loop   loop
	done   chan struct{}
	saves  *Outbox[tableSave]
	spy    func(*Table)

	// Everything below belongs to the room's goroutine.
	phase    TablePhase
	seats    []*tseat
	members  []*tmember
	host     string
	tokens   uint64
	version  uint64
	spec     engine.Spec
	match    engine.TableMatch
	game     engine.TableGame // the game shown: the current one, or the one just over
	gameNo   int
	started  time.Time
	log      []string
	result   *engine.TableResult
	turnSeat int
	deadline time.Time     // when the turn clock of the person to act runs out
	left     time.Duration // the turn clock's remainder while paused
	auto     bool
	paused   bool
	pace     alarm
	clock    alarm
	brk      alarm
	empty    alarm
	ended    bool
	broken   bool // a game package panicked: its game is not to be read again
	listed   TableInfo
}

type tseat struct {
	plan     SeatPlan
	person   Person
	computer string // strength when the seat is a computer's (its plan's, or standIn once gone)
	player   engine.TablePlayer
	standIn  engine.TablePlayer
	here     bool
	hold     alarm
	until    time.Time
	gone     bool
	stoodIn  bool // this game
	goneNow  bool // went to the computer during this game
}

type tmember struct {
	Person
	seat    int
	token   uint64
	out     *Outbox[TableState]
	refused string
	sent    uint64 // the version of the last state put in out
}

type tableSave struct {
	code string
	snap *TableSnapshot
	rec  any // the snapshot's record, marshalled on the save goroutine
}

func (c *TableConfig) normalize(k engine.TableKit) error {
	info := k.Info()
	canon, err := engine.NormalizeSettings(c.Settings, info.Settings)
	if err != nil {
		return refuse(ErrBadTable, "That table's settings do not work: %v.", err)
	}
	c.Settings = canon
	if n := len(c.Seats); n < info.MinPlayers || n > info.MaxPlayers {
		if info.MinPlayers == info.MaxPlayers {
			return refuse(ErrBadTable, "%s is for %d players.", info.Title, info.MinPlayers)
		}
		return refuse(ErrBadTable, "%s is for %d to %d players.", info.Title, info.MinPlayers, info.MaxPlayers)
	}
	c.Seats = slices.Clone(c.Seats)
	for i, s := range c.Seats {
		if s.Computer != "" && !slices.Contains(info.Strengths, s.Computer) {
			return refuse(ErrBadTable, "A computer player is %s, not %q.", strings.Join(info.Strengths, ", "), s.Computer)
		}
		if s.Computer != "" {
			c.Seats[i].Reserved = Person{}
		}
		for _, o := range c.Seats[:i] {
			if s.Reserved.ID != "" && o.Reserved.ID == s.Reserved.ID {
				return refuse(ErrBadTable, "%s has two seats reserved.", s.Reserved.Name)
			}
		}
	}
	if c.TurnClock == 0 {
		c.TurnClock = DefaultTurnClock
	}
	if c.Pace <= 0 {
		c.Pace = DefaultPace
	}
	if c.Hold <= 0 {
		c.Hold = DefaultHold
	}
	if c.Break <= 0 {
		c.Break = DefaultBreak
	}
	return nil
}

// OpenTable opens a table with a fresh code. The host is then expected to
// Join it; like a race, it closes by itself if nobody joins within the
// hub's grace period.
func (h *Hub) OpenTable(cfg TableConfig) (*Table, error) {
	k, ok := h.tableKit(cfg.Game)
	if !ok {
		return nil, refuse(ErrBadTable, "There is no table game called %q.", cfg.Game)
	}
	if err := cfg.normalize(k); err != nil {
		return nil, err
	}
	room, err := h.register(func(code string) Room { return h.newTable(code, k, cfg) })
	if err != nil {
		return nil, err
	}
	t := room.(*Table)
	t.startLoop(func() {
		t.publish()
		t.changed()
		t.checkEmpty()
	})
	return t, nil
}

// tableKit is the kit of a table game, from the wiring's lookup.
func (h *Hub) tableKit(game string) (engine.TableKit, bool) {
	if h.tableKitOf == nil {
		return nil, false
	}
	return h.tableKitOf(game)
}

func (h *Hub) newTable(code string, k engine.TableKit, cfg TableConfig) *Table {
	t := &Table{h: h, code: code, kit: k, cfg: cfg, opened: h.clock.Now(), loop: newLoop(), done: make(chan struct{}),
		spy: h.tableSpy, turnSeat: engine.NoSeat, host: cfg.Host.ID}
	if h.saveTable != nil {
		save := h.saveTable
		t.saves = NewOutbox(func(s tableSave) {
			if s.snap != nil {
				// JSON is made here rather than on the table's goroutine,
				// and only for the snapshots the store gets: a newer one
				// replaces an older before it is ever marshalled.
				rec, err := json.Marshal(s.rec)
				if err != nil {
					return // not reached: records are plain values
				}
				s.snap.Record = rec
			}
			save(s.code, s.snap)
		})
	}
	for _, p := range cfg.Seats {
		t.seats = append(t.seats, &tseat{plan: p, computer: p.Computer})
	}
	return t
}

func (t *Table) startLoop(first func()) {
	go func() {
		t.loop.run(func() bool { return t.ended })
		if t.saves != nil {
			// The last snapshot is written before the room counts as
			// gone, so a shutdown that waits for the rooms loses none.
			t.saves.Close()
			<-t.saves.Done()
		}
		close(t.done)
	}()
	_ = t.loop.wait(first)
}

// Table finds a live table by its code.
func (h *Hub) Table(text string) (*Table, error) {
	r, err := h.Room(text)
	if err != nil {
		return nil, err
	}
	t, ok := r.(*Table)
	if !ok {
		return nil, refuse(ErrNoRoom, "The code %s is for a %s, not a table.", r.Code(), r.Kind())
	}
	return t, nil
}

func (t *Table) Code() string          { return t.code }
func (t *Table) Kind() RoomKind        { return TableRoom }
func (t *Table) Game() string          { return t.cfg.Game }
func (t *Table) Done() <-chan struct{} { return t.done }

func (t *Table) describe() string {
	return "table of " + t.kit.Info().Title + settingsWords(t.cfg.Settings)
}

func settingsWords(s string) string {
	if s == "" {
		return ""
	}
	return " (" + strings.ReplaceAll(s, ",", ", ") + ")"
}

func (t *Table) shut(reason string) { _ = t.loop.wait(func() { t.end(reason, false) }) }

// Info is the table as the lobby lists it.
func (t *Table) Info() (TableInfo, error) {
	return call(&t.loop, func() (TableInfo, error) { return t.info(), nil })
}

// TableMember is one member's handle on a table. Its methods fail with
// ErrReplaced once the same account has joined from another session.
type TableMember struct {
	table  *Table
	person Person
	token  uint64
	seat   int
}

func (m *TableMember) Table() *Table  { return m.table }
func (m *TableMember) Person() Person { return m.person }

// Seat is the member's seat, or engine.Spectator for a watcher.
func (m *TableMember) Seat() int { return m.seat }

// Join puts p at the table. A person who holds a seat (after a drop, a
// restart, or from a second session, which takes over from the first) gets
// it back whatever is asked. Otherwise seat is a seat number, AnySeat, or
// Watch; a seat can be taken only while the table is seating. sink follows
// the Outbox rules and gets the first state at once.
func (t *Table) Join(p Person, seat int, sink func(TableState)) (*TableMember, error) {
	out := NewOutbox(sink)
	m, err := call(&t.loop, func() (*TableMember, error) { return t.join(p, seat, out) })
	if err != nil {
		out.Close()
		return nil, err
	}
	return m, nil
}

// Do makes an action for the member's seat: the action as the game's kit
// encodes it. A refused action (bytes that are no action of the game, or
// one the rules refuse) changes nothing; its sentence is returned and also
// put in this member's next state, and in no one else's.
func (m *TableMember) Do(action []byte) error {
	return m.do(func(t *Table, me *tmember) error { return t.guarded(func() error { return t.act(me, action) }) })
}

// State is the member's whole state as the room has it now, with the
// version of the last state the room sent anyone. Pushed states are the
// newest-wins kind, so a member never needs this to catch up with its own
// outbox; it is for a member that lost states on the way (one on another
// machine, say) and sees a gap in the versions.
func (m *TableMember) State() (TableState, error) {
	var st TableState
	err := m.do(func(t *Table, me *tmember) error {
		st = t.stateFor(me, t.shared())
		return nil
	})
	return st, err
}

// Start deals the first game; only the host may, once every person's seat
// is taken by someone here.
func (m *TableMember) Start() error {
	return m.do(func(t *Table, me *tmember) error { return t.start(me) })
}

// Rematch deals a new match to the same seats once the match is over; only
// the host may. It starts at once if everyone seated is here, and goes back
// to seating otherwise.
func (m *TableMember) Rematch() error {
	return m.do(func(t *Table, me *tmember) error { return t.rematch(me) })
}

// Leave is the player choosing to go. A seated person leaving a game in
// play gives the seat to the computer for good; while seating, the seat
// opens again.
func (m *TableMember) Leave() error {
	return m.do(func(t *Table, me *tmember) error { return t.leave(me, false) })
}

// Drop is the connection going: a seated person keeps the seat for the
// table's hold time, a computer playing for them, and may Join again.
func (m *TableMember) Drop() error {
	return m.do(func(t *Table, me *tmember) error { return t.leave(me, true) })
}

func (m *TableMember) do(f func(t *Table, me *tmember) error) error {
	t := m.table
	_, err := call(&t.loop, func() (struct{}, error) {
		i := slices.IndexFunc(t.members, func(x *tmember) bool { return x.ID == m.person.ID })
		switch {
		case i < 0:
			return struct{}{}, ErrNotMember
		case t.members[i].token != m.token:
			return struct{}{}, ErrReplaced
		}
		return struct{}{}, f(t, t.members[i])
	})
	return err
}

// The rest runs on the room's goroutine.

func (t *Table) seatOf(id string) int {
	for i, s := range t.seats {
		if s.person.ID == id && !s.gone {
			return i
		}
	}
	return -1
}

func (t *Table) name(seat int) string {
	if seat < 0 || seat >= len(t.seats) {
		return "nobody"
	}
	if n := t.seats[seat].person.Name; n != "" {
		return n
	}
	return "computer " + strconv.Itoa(seat+1)
}

func (t *Table) names() []string {
	out := make([]string, len(t.seats))
	for i := range t.seats {
		out[i] = t.name(i)
	}
	return out
}

func (t *Table) watchers() int {
	n := 0
	for _, m := range t.members {
		if m.seat == Watch {
			n++
		}
	}
	return n
}

func (t *Table) join(p Person, want int, out *Outbox[TableState]) (*TableMember, error) {
	seat := t.seatOf(p.ID)
	prev := slices.IndexFunc(t.members, func(x *tmember) bool { return x.ID == p.ID })
	if seat < 0 {
		switch {
		case want == Watch:
			if prev < 0 && t.watchers() >= MaxWatchers {
				return nil, refuse(ErrWatchersFull, "This table has as many watchers as it can take.")
			}
			seat = Watch
		case t.phase != TableSeating:
			return nil, refuse(ErrTableStarted, "This table has started; you can watch it instead.")
		case want == AnySeat:
			seat = t.freeSeat(p.ID)
			if seat < 0 {
				return nil, refuse(ErrTableFull, "Every seat at this table is taken; you can watch instead.")
			}
		case want < 0 || want >= len(t.seats):
			return nil, refuse(ErrNoSeat, "This table has seats 1 to %d.", len(t.seats))
		default:
			s := t.seats[want]
			switch {
			case s.computer != "":
				return nil, refuse(ErrSeatTaken, "Seat %d is a computer player's.", want+1)
			case s.person.ID != "":
				return nil, refuse(ErrSeatTaken, "%s sits in seat %d.", s.person.Name, want+1)
			case s.plan.Reserved.ID != "" && s.plan.Reserved.ID != p.ID:
				return nil, refuse(ErrSeatTaken, "Seat %d is kept for %s.", want+1, s.plan.Reserved.Name)
			}
			seat = want
		}
	}
	if prev >= 0 {
		// The same account from another session: the newer one takes
		// over, as a player whose old connection has not yet timed out
		// expects.
		old := t.members[prev]
		t.members = slices.Delete(t.members, prev, prev+1)
		t.version++
		st := t.stateFor(old, t.shared())
		st.Phase, st.Reason = TableClosed, ErrReplaced.Error()
		old.out.Put(st)
		old.out.Close()
	}
	if seat >= 0 {
		s := t.seats[seat]
		s.person, s.here = p, true
		s.hold.stop()
		s.until = time.Time{}
		if t.host == "" {
			t.host = p.ID
		}
	}
	t.tokens++
	me := &tmember{Person: p, seat: seat, token: t.tokens, out: out}
	t.members = append(t.members, me)
	t.checkPaused()
	t.checkEmpty()
	t.publish()
	t.step()
	t.changed()
	return &TableMember{table: t, person: p, token: me.token, seat: seat}, nil
}

// freeSeat is the seat kept for id, else the first open one, else -1.
func (t *Table) freeSeat(id string) int {
	for i, s := range t.seats {
		if s.computer == "" && s.person.ID == "" && s.plan.Reserved.ID == id {
			return i
		}
	}
	for i, s := range t.seats {
		if s.computer == "" && s.person.ID == "" && s.plan.Reserved.ID == "" {
			return i
		}
	}
	return -1
}

func (t *Table) leave(me *tmember, drop bool) error {
	t.members = slices.DeleteFunc(t.members, func(x *tmember) bool { return x == me })
	me.out.Close()
	if me.seat >= 0 {
		s := t.seats[me.seat]
		s.here = false
		switch {
		case t.phase == TableSeating || t.phase == TableFinished:
			s.person = Person{}
		case drop:
			s.until = t.h.clock.Now().Add(t.cfg.Hold)
			s.hold.set(&t.loop, t.h.clock, t.cfg.Hold, func() { t.lose(s, "did not come back in time") })
		default:
			t.lose(s, "left the table")
		}
	}
	if t.host == me.ID {
		// The host's part goes to someone seated and here, if anyone is.
		t.host = ""
		for _, x := range t.seats {
			if x.here {
				t.host = x.person.ID
				break
			}
		}
	}
	t.checkEmpty()
	t.publish()
	t.step()
	t.changed()
	return nil
}

// lose gives a person's seat to the computer for good.
func (t *Table) lose(s *tseat, why string) {
	if s.gone || s.person.ID == "" {
		return
	}
	s.hold.stop()
	s.gone, s.goneNow, s.here, s.until = true, true, false, time.Time{}
	s.computer = standIn
	t.addLog(s.person.Name + " " + why + "; a computer plays the seat from now on")
	t.checkPaused()
	t.checkEmpty()
	t.publish()
	t.step()
	t.changed()
}

func (t *Table) hostPerson() Person {
	if i := t.seatOf(t.host); i >= 0 {
		return t.seats[i].person
	}
	for _, m := range t.members {
		if m.ID == t.host {
			return m.Person
		}
	}
	if t.host == t.cfg.Host.ID {
		return t.cfg.Host
	}
	return Person{}
}

func (t *Table) hostName() string {
	if p := t.hostPerson(); p.Name != "" {
		return p.Name
	}
	return "nobody"
}

func (t *Table) start(me *tmember) error {
	if me.ID != t.host {
		return refuse(ErrNotHost, "Only the host, %s, can start the table.", t.hostName())
	}
	if t.phase != TableSeating {
		return refuse(ErrAlreadyStarted, "The table has already started.")
	}
	var missing []string
	for i, s := range t.seats {
		switch {
		case s.computer != "":
		case s.person.ID == "" && s.plan.Reserved.ID != "":
			missing = append(missing, s.plan.Reserved.Name)
		case s.person.ID == "":
			missing = append(missing, "seat "+strconv.Itoa(i+1))
		case !s.here:
			missing = append(missing, s.person.Name)
		}
	}
	if len(missing) > 0 {
		return refuse(ErrSeatsOpen, "The table is waiting for %s.", strings.Join(missing, ", "))
	}
	return t.deal()
}

// deal starts a new match on a fresh seed. The seed is drawn from the
// hub's unpredictable source, not counted on from the last one: anyone who
// learnt a finished game's seed could otherwise work out the next deal.
func (t *Table) deal() error {
	t.h.mu.Lock()
	seed := t.h.rand.Uint64()
	t.h.mu.Unlock()
	spec := engine.Spec{Game: t.cfg.Game, Settings: t.cfg.Settings, Seed: seed}
	m, err := t.kit.NewMatch(spec, len(t.seats))
	if err != nil {
		return refuse(ErrBadTable, "The table cannot deal: %v.", err)
	}
	t.spec, t.match, t.gameNo = spec, m, 0
	for i, s := range t.seats {
		if s.gone {
			// A new match gives a lost seat back to its plan: a person's
			// seat is open again at the next seating.
			s.gone, s.person, s.computer = false, Person{}, s.plan.Computer
		}
		s.player, s.standIn = nil, nil
		if s.computer != "" {
			if s.player, err = t.kit.NewPlayer(s.computer, playerSeed(seed, i, 1)); err != nil {
				return refuse(ErrBadTable, "The table cannot seat a computer: %v.", err)
			}
		}
	}
	t.beginGame()
	return nil
}

func playerSeed(seed uint64, seat, kind int) uint64 {
	return engine.NewRNG(seed ^ uint64(seat+1)*0x9e3779b97f4a7c15 ^ uint64(kind)*0xd1b54a32d192ed03).Uint64()
}

func (t *Table) beginGame() {
	t.phase, t.game, t.result = TablePlaying, t.match.Game(), nil
	t.started = t.h.clock.Now()
	t.turnSeat, t.auto = engine.NoSeat, false
	for _, s := range t.seats {
		s.stoodIn, s.goneNow = false, false
	}
	t.addLog("game " + strconv.Itoa(t.gameNo+1) + " is dealt; " + t.name(t.game.Turn()) + " plays first")
	// step first: it starts the turn clock the states then show.
	t.step()
	t.publish()
	t.changed()
	t.save()
}

func (t *Table) rematch(me *tmember) error {
	if me.ID != t.host {
		return refuse(ErrNotHost, "Only the host, %s, can ask for a rematch.", t.hostName())
	}
	if t.phase != TableFinished {
		return refuse(ErrNotPlaying, "A rematch comes once the match is over.")
	}
	for _, s := range t.seats {
		if s.gone {
			s.gone, s.person, s.computer = false, Person{}, s.plan.Computer
		}
	}
	t.phase = TableSeating
	t.game, t.match, t.result = nil, nil, nil
	if err := t.start(me); err != nil {
		t.addLog("a rematch is asked for: " + err.Error())
		t.publish()
		t.changed()
	}
	return nil
}

func (t *Table) act(me *tmember, a []byte) error {
	err := t.refusal(me)
	if err == nil {
		if err = t.game.Do(me.seat, a); err == nil {
			me.refused = ""
			t.acted()
			return nil
		}
		if t.game.NotYourTurn(err) {
			err = refuse(ErrNotYourTurn, "It is %s's turn.", t.name(t.game.Turn()))
		}
	}
	// Only the one who tried hears of it; the table did not change.
	t.version++
	me.refused = err.Error()
	t.put(me, t.stateFor(me, t.shared()))
	return err
}

func (t *Table) refusal(me *tmember) error {
	if me.seat < 0 {
		return refuse(ErrNotSeated, "You are watching; only the players at the table can move.")
	}
	switch t.phase {
	case TableSeating:
		return refuse(ErrNotPlaying, "The game has not started yet.")
	case TableBetween:
		return refuse(ErrNotPlaying, "That game is over; the next one is being dealt.")
	case TableFinished:
		return refuse(ErrNotPlaying, "The match is over.")
	}
	if t.paused {
		return refuse(ErrNotPlaying, "The table is waiting for everyone to come back.")
	}
	if turn := t.game.Turn(); turn != me.seat {
		return refuse(ErrNotYourTurn, "It is %s's turn.", t.name(turn))
	}
	if t.auto {
		return refuse(ErrNotYourTurn, "Your time ran out: the computer is playing this turn for you.")
	}
	return nil
}

// acted follows every accepted action: the log, the views, the snapshot,
// and the next thing the table waits for.
func (t *Table) acted() {
	t.addLog(t.game.Describe(t.names())...)
	if _, over := t.game.Over(); over {
		t.gameOver()
		return
	}
	t.step()
	t.changed()
	t.save()
}

func (t *Table) addLog(lines ...string) {
	if len(lines) == 0 {
		return
	}
	// A new slice each time: the old one is shared by states already out.
	n := min(len(t.log)+len(lines), MaxLog)
	log := make([]string, 0, n)
	all := append(slices.Clone(t.log), lines...)
	log = append(log, all[len(all)-n:]...)
	t.log = log
}

// step sets the one timer the table waits on: a computer's next action at
// the table's pace, or the turn clock of the person to act.
func (t *Table) step() {
	if t.ended || t.phase != TablePlaying || t.paused {
		t.pace.stop()
		t.clock.stop()
		return
	}
	turn := t.game.Turn()
	if turn == engine.NoSeat {
		return
	}
	s := t.seats[turn]
	if turn != t.turnSeat {
		t.turnSeat, t.auto = turn, false
		t.deadline = time.Time{}
		if s.computer == "" && t.cfg.TurnClock > 0 {
			t.deadline = t.h.clock.Now().Add(t.cfg.TurnClock)
		}
		t.pace.stop()
	}
	if s.computer != "" || !s.here || t.auto {
		t.clock.stop()
		if !t.pace.pending() {
			t.pace.set(&t.loop, t.h.clock, t.cfg.Pace, func() { _ = t.guarded(t.computerMove) })
		}
		return
	}
	t.pace.stop()
	if t.deadline.IsZero() {
		t.clock.stop()
		return
	}
	if !t.clock.pending() {
		t.clock.set(&t.loop, t.h.clock, t.deadline.Sub(t.h.clock.Now()), func() {
			t.auto = true
			t.seats[t.turnSeat].stoodIn = true
			t.addLog(t.name(t.turnSeat) + "'s time ran out; the computer plays the turn")
			t.changed()
			t.step()
		})
	}
}

// computerMove plays one action for the seat to act: its computer player,
// or for a person, the stand-in.
// guarded runs f so that a panic in a game package (its rules or a
// computer player) ends this table and not the server: the room's
// goroutine is no session's, so no middleware would recover it.
func (t *Table) guarded(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			t.broken = true
			err = ErrTableBroke
			t.end(ErrTableBroke.Error(), true)
		}
	}()
	return f()
}

func (t *Table) computerMove() error {
	if t.phase != TablePlaying || t.paused {
		return nil
	}
	seat := t.game.Turn()
	if seat == engine.NoSeat {
		return nil
	}
	s := t.seats[seat]
	p := s.player
	if s.computer == "" || s.gone {
		if s.standIn == nil {
			pl, err := t.kit.NewPlayer(standIn, playerSeed(t.spec.Seed, seat, 2))
			if err != nil {
				t.end(ErrTableBroke.Error(), true)
				return nil
			}
			s.standIn = pl
		}
		p = s.standIn
		s.stoodIn = true
	}
	// A computer player that chooses an illegal action is a bug in a game
	// package; Play makes a legal action instead rather than stall the
	// table with everyone waiting, and fails only when there is none.
	if err := t.game.Play(seat, p); err != nil {
		t.end(ErrTableBroke.Error(), true)
		return nil
	}
	t.acted()
	return nil
}

func (t *Table) gameOver() {
	t.pace.stop()
	t.clock.stop()
	res, _ := t.game.Over()
	t.result = &res
	t.turnSeat, t.auto, t.deadline = engine.NoSeat, false, time.Time{}
	seats := make([]string, len(t.seats))
	rs := make([]ResultSeat, len(t.seats))
	for i, s := range t.seats {
		switch {
		case s.plan.Computer != "":
			rs[i] = ResultSeat{Strength: s.plan.Computer}
		case s.gone && !s.goneNow:
			// Lost in an earlier game of the match: a computer's all along.
			rs[i] = ResultSeat{Strength: s.computer}
		default:
			rs[i] = ResultSeat{Person: s.person, Strength: PersonSeat, StoodIn: s.stoodIn, Gone: s.goneNow}
		}
		seats[i] = rs[i].Strength
	}
	rec, err := json.Marshal(t.game.Record(seats))
	more := t.match.Next()
	out := TableResult{
		Code: t.code, Spec: t.spec, GameNo: t.gameNo, Seats: rs, Record: rec, Outcome: res,
		Totals: t.match.Totals(), MatchEnd: !more, MatchWinner: engine.NoSeat, Started: t.started, Ended: t.h.clock.Now(),
	}
	if !more {
		out.MatchWinner = t.match.Winner()
	}
	t.addLog(t.outcomeWords(res))
	if more {
		t.phase = TableBetween
		t.brk.set(&t.loop, t.h.clock, t.cfg.Break, func() {
			t.gameNo++
			t.beginGame()
		})
		t.save()
	} else {
		t.phase = TableFinished
		t.unsave()
	}
	t.publish()
	t.changed()
	if err == nil && t.h.onTableResult != nil {
		t.h.onTableResult(out)
	}
}

func (t *Table) outcomeWords(res engine.TableResult) string {
	switch {
	case res.Winner == engine.NoSeat && res.LowWins:
		return "the hand ends with nobody out"
	case res.Winner == engine.NoSeat:
		return "the game ends in a draw"
	case res.LowWins:
		return t.name(res.Winner) + " went out and wins the hand"
	}
	return t.name(res.Winner) + " wins the game"
}

// checkPaused resumes a restored table once its people are back or their
// hold has run out.
func (t *Table) checkPaused() {
	if !t.paused {
		return
	}
	for _, s := range t.seats {
		if s.computer == "" && !s.here && !s.gone {
			return
		}
	}
	t.paused = false
	t.turnSeat = engine.NoSeat
	t.step()
	// step set a full clock for the new turn; the person to act gets what
	// they had left when the table was saved.
	if !t.deadline.IsZero() {
		t.clock.stop()
		if t.left > 0 {
			t.deadline = t.h.clock.Now().Add(t.left)
		} else {
			t.auto = true
		}
		t.step()
	}
}

// checkEmpty ends a table nobody is at after the grace period. A seat held
// for a dropped person counts as someone there: they may still come back.
func (t *Table) checkEmpty() {
	busy := len(t.members) > 0
	for _, s := range t.seats {
		if s.hold.pending() {
			busy = true
		}
	}
	if busy {
		t.empty.stop()
		return
	}
	if !t.empty.pending() {
		t.empty.set(&t.loop, t.h.clock, t.h.grace, func() {
			t.empty.stop()
			t.checkEmptyNow()
		})
	}
}

func (t *Table) checkEmptyNow() {
	if len(t.members) > 0 {
		return
	}
	for _, s := range t.seats {
		if s.hold.pending() {
			return
		}
	}
	t.end("", true)
}

// end closes the room. gone says the table is over for good, so its saved
// snapshot goes too; a shutdown keeps it, to be restored at the next start.
func (t *Table) end(reason string, gone bool) {
	if t.ended {
		return
	}
	t.ended = true
	t.pace.stop()
	t.clock.stop()
	t.brk.stop()
	t.empty.stop()
	for _, s := range t.seats {
		s.hold.stop()
	}
	t.version++
	sh := t.shared()
	for _, m := range t.members {
		st := t.stateFor(m, sh)
		st.Phase, st.Reason = TableClosed, reason
		m.out.Put(st)
		m.out.Close()
	}
	t.members = nil
	if gone {
		t.unsave()
	}
	t.h.unlist(t.code)
	t.h.unregister(t.code)
}

func (t *Table) info() TableInfo {
	in := TableInfo{
		Code: t.code, Game: t.cfg.Game, Settings: t.cfg.Settings, Phase: t.phase, Private: t.cfg.Private,
		Seats: t.seatInfos(), Watchers: t.watchers(), GameNo: t.gameNo, Opened: t.opened,
	}
	if t.ended {
		in.Phase = TableClosed
	}
	in.Host = t.hostPerson()
	for _, s := range in.Seats {
		if s.Open() {
			in.Free++
		}
	}
	return in
}

func (t *Table) seatInfos() []SeatInfo {
	out := make([]SeatInfo, len(t.seats))
	for i, s := range t.seats {
		out[i] = SeatInfo{Person: s.person, Computer: s.computer, Here: s.here, Gone: s.gone,
			StandIn: s.person.ID != "" && !s.here && !s.gone && t.phase != TableSeating, HeldUntil: s.until}
		if s.person.ID == "" && s.computer == "" {
			out[i].Reserved = s.plan.Reserved
		}
	}
	return out
}

// publish tells the hub's lobby about a change of seats, phase, host or
// watchers. Actions in play do not change the listing, so the lobby's
// watchers hear nothing of them.
func (t *Table) publish() {
	in := t.info()
	if tableInfoEqual(in, t.listed) {
		return
	}
	t.listed = in
	t.h.list(in)
}

func tableInfoEqual(a, b TableInfo) bool {
	return a.Code == b.Code && a.Phase == b.Phase && a.Host == b.Host && a.Watchers == b.Watchers &&
		a.GameNo == b.GameNo && a.Free == b.Free && slices.Equal(a.Seats, b.Seats)
}

type tableShared struct {
	seats    []SeatInfo
	watchers []Person
	public   []byte
	views    [][]byte
	turn     int
	left     time.Duration
	totals   []int
}

func (t *Table) shared() *tableShared {
	sh := &tableShared{seats: t.seatInfos(), turn: engine.NoSeat}
	for _, m := range t.members {
		if m.seat == Watch {
			sh.watchers = append(sh.watchers, m.Person)
		}
	}
	if t.game != nil && !t.broken {
		sh.views = make([][]byte, len(t.seats))
		if t.phase == TablePlaying {
			sh.turn = t.game.Turn()
		}
		sh.totals = t.match.Totals()
	}
	if !t.deadline.IsZero() && t.phase == TablePlaying && !t.auto {
		if t.paused {
			sh.left = t.left
		} else {
			sh.left = max(t.deadline.Sub(t.h.clock.Now()), 0)
		}
	}
	return sh
}

// changed pushes the new state to every member. Each view is built once,
// and only for a seat somebody is looking at.
func (t *Table) changed() {
	t.version++
	sh := t.shared()
	if t.spy != nil && !t.broken {
		t.spy(t)
	}
	for _, m := range t.members {
		t.put(m, t.stateFor(m, sh))
	}
}

func (t *Table) put(m *tmember, st TableState) {
	m.sent = st.Version
	m.out.Put(st)
}

func (t *Table) stateFor(m *tmember, sh *tableShared) TableState {
	st := TableState{
		Code: t.code, Game: t.cfg.Game, Settings: t.cfg.Settings, Phase: t.phase, Paused: t.paused,
		Host: t.host, Seats: sh.seats, Watchers: sh.watchers, You: m.ID, Seat: m.seat, Turn: sh.turn,
		TurnLeft: sh.left, Auto: t.auto, Log: t.log, GameNo: t.gameNo, Totals: sh.totals, Result: t.result,
		MatchWinner: engine.NoSeat, Refused: m.refused, Version: t.version,
	}
	if t.phase == TableFinished && !t.broken {
		st.MatchWinner = t.match.Winner()
	}
	if t.game != nil && !t.broken {
		if m.seat >= 0 {
			if sh.views[m.seat] == nil {
				sh.views[m.seat] = t.game.View(m.seat)
			}
			st.View = sh.views[m.seat]
		} else {
			if sh.public == nil {
				sh.public = t.game.View(engine.Spectator)
			}
			st.View = sh.public
		}
	}
	return st
}
