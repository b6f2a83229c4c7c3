package hub

import (
	"slices"
	"strings"
	"time"

	"sshuffle/engine"
)

// Defaults of a table's timings. docs/tablegames.md asks for a 60 s turn clock
// and for computer players a person can follow; a player who dropped gets
// three minutes to come back, long enough to reconnect after a network blip
// or a laptop lid.
const (
	DefaultTurnClock = 60 * time.Second
	DefaultPace      = time.Second
	DefaultHold      = 3 * time.Minute
	DefaultBreak     = 5 * time.Second
	// DefaultRematchWait is how long the people seated have to answer the
	// rematch offered at the end of a match: long enough to read the
	// result and decide, short enough that nobody waits on a player who
	// walked away.
	DefaultRematchWait = time.Minute
	// MaxLog is how many lines of the table's log a state carries: what a
	// panel beside four seats at 80x24 has room for.
	MaxLog = 6
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
	TableFinished                   // the match is over; a rematch is offered to everyone seated
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
	Game     string // the game's name, as its kit knows it
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
	// next at the steady Speed (0: a second).
	Pace time.Duration
	// Speed is the pace the host chose ("": Steady).
	Speed Speed
	// Hold is how long a dropped person keeps the seat, a computer playing
	// for them, before it goes to the computer for good (0: 3 minutes).
	Hold time.Duration
	// Break is the pause after a game of a match before the next deal.
	Break time.Duration
	// RematchWait is how long the rematch offered at the end of a match
	// stays open (0: a minute); unanswered, the table closes.
	RematchWait time.Duration
	// Rated tables move their people's ratings with every game they
	// finish (TableResult.Rated); casual ones change nothing.
	Rated bool
}

// SeatInfo is one seat as every member and the lobby see it.
type SeatInfo struct {
	// Name is what the table calls the seat in its log and results: the
	// person's name, or the computer player's; "" for an open seat.
	Name     string
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
	// Rating is the seat's rating at the table's game as players read it
	// ("1523", "1500?" while provisional): the person's (from
	// Config.Rating), or the computer's fixed one; "" when unknown.
	Rating string
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
	Speed    Speed // the computer players' pace
	Rated    bool
}

// TableState is what a member is sent on every change. Seats, Watchers,
// Log, Totals, Result and Rematch are shared by all the members' states, and View by
// every watcher's: read them, never write them. No value in it holds a card the member may
// not see, nor the deal's seed (from which every hidden card follows).
type TableState struct {
	Code     string
	Game     string
	Settings string
	Speed    Speed // the computer players' pace
	Rated    bool
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
	// Rematch is the offer open once the match is over (TableFinished),
	// nil otherwise.
	Rematch *RematchOffer
	// Refused is the sentence for this member's last refused action, for
	// a screen that sent it without waiting for the reply.
	Refused string
	// Version is the room's: it grows with every state the room sends
	// anyone, so a member that sees a gap knows it missed one and may ask
	// for the whole state (TableMember.State).
	Version uint64
	Reason  string // why the table closed, when Phase is TableClosed
	// Said is the quick phrase shown now, or nil (always nil for a member
	// who muted them).
	Said *Said
}

// RematchOffer is the rematch asked of everyone seated when a match ends.
// It starts once all have said yes (computer players say yes at once); a
// no from anyone, or no answer in time, closes the table. At a table of
// computers only, the host answers for it.
type RematchOffer struct {
	Yes     []bool        // by seat: said yes
	Waiting []string      // the names of those still to answer, in seat order
	Left    time.Duration // the time left to answer, as of this state
}

// TableResult is one finished game of a table, for the wiring to store.
type TableResult struct {
	Code     string
	Spec     engine.Spec // the match's spec: its seed dealt game 0
	GameNo   int
	Seats    []ResultSeat
	Record   []byte // one docs/tablegames.md record line (no newline)
	Outcome  engine.TableResult
	Totals   []int // match totals including this game
	MatchEnd bool  // this game ended the match
	// MatchWinner is the match's winner once MatchEnd (engine.NoSeat on
	// a tie).
	MatchWinner int
	Started     time.Time
	Ended       time.Time
	// Rated: the table is rated, so this game moves its people's ratings.
	Rated bool
}

// ResultSeat is one seat of a finished game.
type ResultSeat struct {
	Person   Person // empty for a computer's seat
	Name     string // the seat as the table showed it: the person's name, or the computer's
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
	saves  *outbox[tableSave]
	saved  savedMark // the last snapshot handed to the wiring
	spy    func(*Table)

	// Everything below belongs to the room's goroutine.
	saveSeq  uint64 // snapshots put in saves
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
	pace     alarm // a computer's next turn (think.go)
	thinking bool  // a computer's choice is in the making off the room's goroutine
	clock    alarm
	brk      alarm
	empty    alarm
	talk     talk
	ended    bool
	broken   bool // a game package panicked: its game is not to be read again
	listed   TableInfo
	// savedTurn is whose turn it was at the last snapshot; unsaved says
	// actions have been played since it (saveAction).
	savedTurn int
	unsaved   bool
	// seatsShared is the seats as last handed out (seatsNow); seatsScratch,
	// where the seats now are written to compare with them.
	seatsShared, seatsScratch []SeatInfo
	// The rematch offered once a match is over: who said yes by seat (nil
	// when none is open), the host's yes at a table of computers only,
	// and when the offer lapses.
	offer     []bool
	offerHost bool
	offerEnd  time.Time
	lapse     alarm
	// ratings caches the people's rating labels by account, read through
	// Config.Rating as they sit and again after each game is recorded.
	ratings map[string]string

	remote *remoteRoom // set when the table lives on another node
}

type tseat struct {
	plan     SeatPlan
	person   Person
	computer string // strength when the seat is a computer's (its plan's, or the kit's stand-in once gone)
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
	out     *outbox[TableState]
	refused string
	sent    uint64 // the version of the last state put in out
	mute    bool   // hears no quick phrases
}

type tableSave struct {
	seq  uint64 // the table's count of snapshots put, this one's
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
	sp, err := ParseSpeed(string(c.Speed))
	if err != nil {
		return err
	}
	c.Speed = sp
	if c.Hold <= 0 {
		c.Hold = DefaultHold
	}
	if c.Break <= 0 {
		c.Break = DefaultBreak
	}
	if c.RematchWait <= 0 {
		c.RematchWait = DefaultRematchWait
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
	by := cfg.Host
	cfg.Host = by.public()
	if err := h.action(by); err != nil {
		return nil, err
	}
	room, err := h.register(by, func(code string) Room { return h.newTable(code, k, cfg) })
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
		t.saves = newOutbox(func(s tableSave) {
			if s.snap != nil {
				// JSON is made here rather than on the table's goroutine,
				// and only for the snapshots the store gets: a newer one
				// replaces an older before it is ever marshalled.
				rec, err := recordJSON(s.rec)
				if err != nil {
					return // not reached: records are plain values
				}
				s.snap.Record = rec
			}
			if s.snap != nil && h.relay != nil {
				// Only the room's owner may write its snapshot: one cut
				// off past its lease has been replaced by another node,
				// whose snapshots this one must not overwrite.
				if err := h.hold(s.code); err != nil {
					h.log.Warn("table snapshot not saved: the room is no longer this node's", "code", s.code, "err", err)
					t.saved.mark(s.seq)
					return
				}
			}
			save(s.code, s.snap)
			t.saved.mark(s.seq)
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
		return nil, h.wrongKind(r.Code())
	}
	return t, nil
}

func (t *Table) Code() string { return t.code }

func (t *Table) Kind() RoomKind { return TableRoom }

func (t *Table) Game() string { return t.cfg.Game }

func (t *Table) Done() <-chan struct{} {
	if t.remote != nil {
		return t.remote.done
	}
	return t.done
}

func (t *Table) describe() string {
	if t.remote != nil {
		return t.remote.entry.What
	}
	return "table of " + t.kit.Info().Title + settingsWords(t.cfg.Settings)
}

func settingsWords(s string) string {
	if s == "" {
		return ""
	}
	return " (" + strings.ReplaceAll(s, ",", ", ") + ")"
}

func (t *Table) shut(reason string) {
	if t.remote == nil {
		_ = t.loop.wait(func() { t.end(reason, false) })
	}
}

// Info is the table as the lobby lists it.
func (t *Table) Info() (TableInfo, error) {
	if t.remote != nil {
		return t.infoRemote()
	}
	return call(&t.loop, func() (TableInfo, error) { return t.info(), nil })
}
