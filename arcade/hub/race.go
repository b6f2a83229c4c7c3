package hub

import (
	"slices"
	"strconv"
	"time"

	"sshuffle/engine"
)

const (
	// MaxRacers is the most racers a race holds, ghosts included: eight
	// lines still fit the panel beside a board at 80x24 when folded.
	MaxRacers = 8
	// MaxWatchers bounds a race's fan-out; watchers are cheap but not free.
	MaxWatchers = 64
	// CountdownFrom is where the 3-2-1 starts; each step is a second.
	CountdownFrom = 3
	// maxTimeline bounds the steps kept per racer for a later ghost. A
	// game that runs longer keeps its first steps and its last one.
	maxTimeline = 4096
)

// Role is how a member is in a race.
type Role int

const (
	Racer Role = iota + 1
	Watcher
)

// Phase is where a race is.
type Phase int

const (
	Lobby     Phase = iota // racers gather; the host starts
	Countdown              // 3-2-1; Count says which
	Running
	Finished
	Closed // the last state a member gets when the room ends under them
)

func (p Phase) String() string {
	return [...]string{"lobby", "countdown", "running", "finished", "closed"}[p]
}

// Status is one racer's state.
type Status int

const (
	Ready   Status = iota // in the lobby or the countdown
	Playing               // racing
	Won                   // every card home or cleared
	Over                  // the game ended without a win (no moves left)
	GaveUp
	Dropped // connection lost: out, unless they come back while the race runs
)

func (s Status) String() string {
	return [...]string{"ready", "playing", "won", "over", "gave up", "dropped"}[s]
}

// Out reports a status that holds no place.
func (s Status) Out() bool { return s == GaveUp || s == Dropped }

// Progress is what a racer's screen reports after each move. Save and
// Board are opaque to the hub: Save is what the screen needs to continue
// the game after a reconnect (it gets the last one back from Join), Board
// is what a watcher following this racer is shown. The hub shares both
// slices as given, so the screen must not change them afterwards. A nil
// Save or Board keeps the previous one.
type Progress struct {
	Home  int // cards home or cleared
	Total int // cards to get home or clear in this game
	Moves int
	// Score is the game's own score, for the stored result of a game
	// that ranks by points; the race itself is placed by Home and time.
	Score  int
	Status Status // Playing, Won, Over or GaveUp
	Save   []byte
	Board  []byte
}

// Step is one point of a racer's timeline, at race time At.
type Step struct {
	At     time.Duration
	Home   int
	Moves  int
	Status Status
}

// Run is a stored race or daily attempt to replay as a ghost: the
// timeline a RacerResult carries, kept by the wiring layer.
type Run struct {
	Person
	Spec  engine.Spec
	Total int
	Steps []Step // in time order; the last one's Status is how it ended
}

// Standing is one racer as every member sees them.
type Standing struct {
	Person
	Ghost  bool
	Host   bool
	Here   bool // connected now (a ghost always is)
	Status Status
	Home   int
	Total  int
	Moves  int
	Time   time.Duration // race time of their last report, or of their finish
	Place  int           // 1 for the winner; 0 for none (yet)
}

// RaceState is what a member is sent on every change. Racers and Watchers
// are shared by all the members' states: read them, never write them.
type RaceState struct {
	Code    string
	Spec    engine.Spec
	Ranked  bool
	Phase   Phase
	Count   int           // the countdown's number, 3, 2 or 1
	Elapsed time.Duration // race time when this state was made
	Host    string        // the host's account ID
	// Racers is in standing order: placed finishers first, then by cards
	// home, then those out.
	Racers   []Standing
	Watchers []Person
	// You and Role are the receiving member's.
	You       string
	Role      Role
	Following string // the racer this member follows, if any
	Board     []byte // that racer's last board
	// Version grows with every change of the room, so a screen can tell a
	// stale state and a test can count changes.
	Version uint64
	Reason  string // why the room closed, when Phase is Closed
	// Said is the quick phrase shown now, or nil (always nil for a member
	// who muted them).
	Said *Said
}

// Result is a finished race, for the wiring layer to store.
type Result struct {
	Code    string
	Spec    engine.Spec
	Ranked  bool
	Started time.Time
	Racers  []RacerResult // in finishing order, placed first
}

// RacerResult is one racer's outcome. Timeline is what a later ghost of
// this run replays (nil for a ghost, whose run is stored already).
type RacerResult struct {
	Person
	Ghost    bool
	Place    int
	Status   Status
	Time     time.Duration
	Moves    int
	Score    int
	Home     int
	Total    int
	Timeline []Step
	// Save is the racer's last Save (nil for a ghost): its moves, for
	// the racer's history.
	Save []byte
}

// RaceConfig opens a race.
type RaceConfig struct {
	Spec engine.Spec
	// Ranked marks a race on today's daily deal: the wiring counts a
	// racer's result as their ranked daily attempt if it is their first.
	Ranked bool
	// Host is who opens the race, for the caps on rooms and lobby
	// actions (empty: counted against nobody).
	Host Person
}

// Race is a race room. Its methods may be called from any goroutine.
type Race struct {
	h      *Hub
	code   string
	spec   engine.Spec
	ranked bool
	loop   loop

	// Everything below belongs to the room's goroutine.
	phase     Phase
	count     int
	started   time.Time
	stopped   time.Duration // race time at the finish
	racers    []*racer      // in the order they joined
	members   []*member     // in the order they joined
	host      string
	version   uint64
	tokens    uint64
	ghosts    int
	countdown alarm
	empty     alarm
	talk      talk
	ended     bool
	base      RaceState
}

type racer struct {
	Person
	ghost    bool
	run      *Run
	next     int // the ghost's next step
	step     alarm
	status   Status
	home     int
	total    int
	moves    int
	score    int
	time     time.Duration
	place    int
	save     []byte
	board    []byte
	here     bool
	drop     alarm
	counted  bool // dropped for longer than the grace: out, as far as the finish is concerned
	timeline []Step
}

type member struct {
	Person
	role   Role
	token  uint64
	out    *outbox[RaceState]
	follow string
	mute   bool // hears no quick phrases
}

// NewRace opens a race with a fresh code. It closes by itself if nobody
// joins within the hub's grace period.
func (h *Hub) NewRace(cfg RaceConfig) (*Race, error) {
	if err := h.action(cfg.Host); err != nil {
		return nil, err
	}
	room, err := h.register(cfg.Host, func(code string) Room {
		return &Race{h: h, code: code, spec: cfg.Spec, ranked: cfg.Ranked, loop: newLoop()}
	})
	if err != nil {
		return nil, err
	}
	r := room.(*Race)
	go r.loop.run(func() bool { return r.ended })
	_ = r.loop.wait(func() {
		r.changed()
		r.checkEmpty()
	})
	return r, nil
}

func (r *Race) Code() string          { return r.code }
func (r *Race) Kind() RoomKind        { return RaceRoom }
func (r *Race) Spec() engine.Spec     { return r.spec }
func (r *Race) Ranked() bool          { return r.ranked }
func (r *Race) Done() <-chan struct{} { return r.loop.done }

// describe names the race for an invitation: today's deal, or the deal's
// number, of the game by its name.
func (r *Race) describe() string {
	if r.h.gameName == nil {
		return describeSpec(RaceRoom, r.spec)
	}
	name := r.h.gameName(r.spec)
	if r.ranked {
		return "race of today's " + name
	}
	return "race of " + name + ", deal #" + strconv.FormatUint(r.spec.Seed, 10)
}

func (r *Race) shut(reason string) { _ = r.loop.wait(func() { r.end(reason) }) }

// State is the race as an outsider would watch it (no You), for a preview
// before joining.
func (r *Race) State() (RaceState, error) {
	return call(&r.loop, func() (RaceState, error) { return r.base, nil })
}

// RaceMember is one member's handle on a race. Its methods fail with
// ErrReplaced once the same account has joined from another session.
type RaceMember struct {
	race   *Race
	person Person
	token  uint64
	role   Role
	save   []byte
}

// Join puts p in the race. A racer coming back (after a drop, or from a
// second session, which takes over from the first) gets their place back
// whatever role they ask for, and Resume returns the last Save they
// reported. A new racer can join until the race starts; after that
// ErrStarted says to watch instead. sink follows the outbox rules and gets
// the first state at once.
func (r *Race) Join(p Person, role Role, sink func(RaceState)) (*RaceMember, error) {
	if p.Guest && role != Watcher {
		return nil, ErrGuest
	}
	if err := r.h.action(p); err != nil {
		return nil, err
	}
	p = p.public()
	out := newOutbox(sink)
	m, err := call(&r.loop, func() (*RaceMember, error) { return r.join(p, role, out) })
	if err != nil {
		out.Close()
		return nil, err
	}
	return m, nil
}

func (m *RaceMember) Race() *Race    { return m.race }
func (m *RaceMember) Role() Role     { return m.role }
func (m *RaceMember) Person() Person { return m.person }

// Resume is the Save last reported before this member joined (nil for a
// new racer): what the screen restores the game from.
func (m *RaceMember) Resume() []byte { return m.save }

// State is the room's whole state as this member is sent it, at the
// room's version now: what a member that missed a pushed state (its
// version jumped) asks for to catch up. It fails as the member's other
// requests do once the member has left or been replaced.
func (m *RaceMember) State() (RaceState, error) {
	var st RaceState
	err := m.do(func(r *Race, me *member) error {
		st = r.stateFor(me)
		return nil
	})
	return st, err
}

// Start begins the countdown; only the host may.
func (m *RaceMember) Start() error {
	if err := m.race.h.action(m.person); err != nil {
		return err
	}
	return m.do(func(r *Race, me *member) error { return r.start(me) })
}

// Report records the racer's progress after a move.
func (m *RaceMember) Report(p Progress) error {
	return m.do(func(r *Race, me *member) error { return r.report(me, p) })
}

// Follow shows the given racer's board to this member; "" stops.
func (m *RaceMember) Follow(racerID string) error {
	return m.do(func(r *Race, me *member) error { return r.follow(me, racerID) })
}

// AddGhost puts a stored run in the race as a ghost racer; only the host
// may, and only in the lobby.
func (m *RaceMember) AddGhost(run Run) error {
	return m.do(func(r *Race, me *member) error { return r.addGhost(me, run) })
}

// Leave is the player choosing to go: a racer leaving a running race has
// given up. The member's outbox closes and gets nothing more.
func (m *RaceMember) Leave() error {
	return m.do(func(r *Race, me *member) error { return r.leave(me, false) })
}

// Drop is the connection going: a racer is shown out but may Join again
// while the race runs, and their game continues where it was.
func (m *RaceMember) Drop() error {
	return m.do(func(r *Race, me *member) error { return r.leave(me, true) })
}

func (m *RaceMember) do(f func(r *Race, me *member) error) error {
	r := m.race
	_, err := call(&r.loop, func() (struct{}, error) {
		i := slices.IndexFunc(r.members, func(x *member) bool { return x.ID == m.person.ID })
		switch {
		case i < 0:
			return struct{}{}, ErrNotMember
		case r.members[i].token != m.token:
			return struct{}{}, ErrReplaced
		}
		return struct{}{}, f(r, r.members[i])
	})
	return err
}
