package hub

import (
	"cmp"
	"slices"
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
}

// RaceConfig opens a race.
type RaceConfig struct {
	Spec engine.Spec
	// Ranked marks a race on today's daily deal: the wiring counts a
	// racer's result as their ranked daily attempt if it is their first.
	Ranked bool
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
	out    *Outbox[RaceState]
	follow string
}

// NewRace opens a race with a fresh code. It closes by itself if nobody
// joins within the hub's grace period.
func (h *Hub) NewRace(cfg RaceConfig) (*Race, error) {
	room, err := h.register(func(code string) Room {
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
func (r *Race) describe() string      { return describeSpec(RaceRoom, r.spec) }

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
// ErrStarted says to watch instead. sink follows the Outbox rules and gets
// the first state at once.
func (r *Race) Join(p Person, role Role, sink func(RaceState)) (*RaceMember, error) {
	out := NewOutbox(sink)
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

// The rest runs on the room's goroutine.

func (r *Race) racer(id string) *racer {
	for _, rc := range r.racers {
		if !rc.ghost && rc.ID == id {
			return rc
		}
	}
	return nil
}

func (r *Race) join(p Person, role Role, out *Outbox[RaceState]) (*RaceMember, error) {
	if role != Racer {
		role = Watcher
	}
	rc := r.racer(p.ID)
	prev := slices.IndexFunc(r.members, func(x *member) bool { return x.ID == p.ID })
	// Refuse before taking over, so a failed join leaves the older session
	// where it was.
	switch {
	case rc != nil:
		role = Racer
	case role == Racer && r.phase == Running:
		return nil, ErrStarted
	case role == Racer && r.phase == Finished:
		return nil, refuse(ErrStarted, "This race is over; you can see its results as a watcher.")
	case role == Racer && len(r.racers) >= MaxRacers:
		return nil, refuse(ErrFull, "This race is full (%d racers); you can watch it instead.", MaxRacers)
	case role == Watcher && prev < 0 && r.watchers() >= MaxWatchers:
		return nil, ErrWatchersFull
	}
	if prev >= 0 {
		// The same account from another session: the newer one takes over,
		// as a player whose old connection has not yet timed out expects.
		old := r.members[prev]
		r.members = slices.Delete(r.members, prev, prev+1)
		r.version++ // the closing state is a change for the old screen like any other
		st := r.stateFor(old)
		st.Phase, st.Reason, st.Version = Closed, ErrReplaced.Error(), r.version
		old.out.Put(st)
		old.out.Close()
	}
	var save []byte
	switch {
	case rc != nil:
		rc.Person, rc.here = p, true
		rc.drop.stop()
		rc.counted = false
		if rc.status == Dropped {
			if r.phase == Running {
				rc.status = Playing
			} else if r.phase == Countdown {
				rc.status = Ready
			}
		}
		save = rc.save
	case role == Racer:
		r.racers = append(r.racers, &racer{Person: p, here: true})
		if r.host == "" {
			r.host = p.ID
		}
	}
	r.tokens++
	me := &member{Person: p, role: role, token: r.tokens, out: out}
	r.members = append(r.members, me)
	r.checkEmpty()
	r.changed()
	return &RaceMember{race: r, person: p, token: me.token, role: role, save: save}, nil
}

func (r *Race) watchers() int {
	n := 0
	for _, m := range r.members {
		if m.role == Watcher {
			n++
		}
	}
	return n
}

func (r *Race) leave(me *member, drop bool) error {
	r.members = slices.DeleteFunc(r.members, func(x *member) bool { return x == me })
	me.out.Close()
	if rc := r.racer(me.ID); rc != nil && me.role == Racer {
		rc.here = false
		switch {
		case r.phase == Lobby, r.phase == Countdown && !drop:
			r.racers = slices.DeleteFunc(r.racers, func(x *racer) bool { return x == rc })
		case r.phase == Countdown || r.phase == Running:
			if drop {
				if rc.status == Ready || rc.status == Playing {
					rc.status = Dropped
					rc.drop.set(&r.loop, r.h.clock, r.h.grace, func() {
						rc.counted = true
						r.checkFinish()
						r.changed()
					})
				}
			} else if rc.status == Playing || rc.status == Dropped {
				rc.status = GaveUp
				rc.time = r.elapsed()
				r.record(rc)
			}
		}
		if r.host == me.ID {
			r.host = ""
			for _, x := range r.racers {
				if !x.ghost && x.here {
					r.host = x.ID
					break
				}
			}
		}
		if r.phase == Countdown && r.humans() == 0 {
			r.countdown.stop()
			r.phase, r.count = Lobby, 0
		}
	}
	r.checkFinish()
	r.checkEmpty()
	r.changed()
	return nil
}

func (r *Race) humans() int {
	n := 0
	for _, rc := range r.racers {
		if !rc.ghost {
			n++
		}
	}
	return n
}

func (r *Race) hostName() string {
	if rc := r.racer(r.host); rc != nil {
		return rc.Name
	}
	return "nobody yet"
}

func (r *Race) start(me *member) error {
	if me.ID != r.host {
		return refuse(ErrNotHost, "Only the host, %s, can start the race.", r.hostName())
	}
	if r.phase != Lobby {
		return ErrAlreadyStarted
	}
	r.phase, r.count = Countdown, CountdownFrom
	r.countdown.set(&r.loop, r.h.clock, time.Second, r.tick)
	r.changed()
	return nil
}

func (r *Race) tick() {
	r.count--
	if r.count > 0 {
		r.countdown.set(&r.loop, r.h.clock, time.Second, r.tick)
		r.changed()
		return
	}
	// Everyone's clock starts here: race times are read from this instant
	// on the room's clock, not from any racer's screen.
	r.phase, r.started = Running, r.h.clock.Now()
	for _, rc := range r.racers {
		if rc.status == Ready {
			rc.status = Playing
		}
		if rc.ghost {
			r.scheduleGhost(rc)
		}
	}
	r.checkFinish()
	r.changed()
}

func (r *Race) elapsed() time.Duration {
	switch r.phase {
	case Running:
		return r.h.clock.Now().Sub(r.started)
	case Finished:
		return r.stopped
	}
	return 0
}

func (r *Race) record(rc *racer) {
	s := Step{At: rc.time, Home: rc.home, Moves: rc.moves, Status: rc.status}
	if len(rc.timeline) < maxTimeline {
		rc.timeline = append(rc.timeline, s)
	} else {
		rc.timeline[len(rc.timeline)-1] = s
	}
}

func validProgress(p Progress) bool {
	switch {
	case p.Total <= 0, p.Home < 0, p.Home > p.Total, p.Moves < 0:
		return false
	case p.Status == Won:
		return p.Home == p.Total
	}
	return p.Status == Playing || p.Status == Over || p.Status == GaveUp
}

func (r *Race) report(me *member, p Progress) error {
	rc := r.racer(me.ID)
	if rc == nil || me.role != Racer {
		return ErrNotRacer
	}
	switch r.phase {
	case Lobby, Countdown:
		return refuse(ErrNotRunning, "The race has not started yet.")
	case Finished:
		return refuse(ErrNotRunning, "The race is over.")
	}
	if rc.status != Playing {
		return ErrDone
	}
	if !validProgress(p) {
		return ErrBadProgress
	}
	rc.home, rc.total, rc.moves, rc.status, rc.score = p.Home, p.Total, p.Moves, p.Status, p.Score
	rc.time = r.elapsed()
	if p.Save != nil {
		rc.save = p.Save
	}
	if p.Board != nil {
		rc.board = p.Board
	}
	r.record(rc)
	r.placeIfWon(rc)
	r.checkFinish()
	r.changed()
	return nil
}

func (r *Race) placeIfWon(rc *racer) {
	if rc.status != Won || rc.place != 0 {
		return
	}
	n := 0
	for _, x := range r.racers {
		if x.status == Won && x.place > 0 {
			n++
		}
	}
	rc.place = n + 1
}

func (r *Race) follow(me *member, id string) error {
	if id != "" && !slices.ContainsFunc(r.racers, func(x *racer) bool { return x.ID == id }) {
		return ErrNoRacer
	}
	me.follow = id
	// Only this member's view changes, so only they are sent it; the
	// version still moves, so that it grows with every state anyone gets.
	r.version++
	r.base.Version = r.version
	me.out.Put(r.stateFor(me))
	return nil
}

func (r *Race) addGhost(me *member, run Run) error {
	if me.ID != r.host {
		return refuse(ErrNotHost, "Only the host, %s, can add a ghost.", r.hostName())
	}
	if r.phase != Lobby {
		return ErrAlreadyStarted
	}
	if run.Spec != r.spec {
		return refuse(ErrBadRun, "That run is of %s, not of this race's deal.", run.Spec)
	}
	if !validRun(run) {
		return ErrBadRun
	}
	if len(r.racers) >= MaxRacers {
		return refuse(ErrFull, "This race is full (%d racers).", MaxRacers)
	}
	r.ghosts++
	run.Steps = slices.Clone(run.Steps) // the caller's slice may be reused; the room replays its own
	rc := &racer{
		Person: Person{ID: "ghost-" + itoa(r.ghosts), Name: run.Name},
		ghost:  true, run: &run, here: true, total: run.Total,
	}
	r.racers = append(r.racers, rc)
	r.changed()
	return nil
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

func validRun(run Run) bool {
	if run.Total <= 0 || len(run.Steps) == 0 || len(run.Steps) > maxTimeline {
		return false
	}
	var at time.Duration
	for i, s := range run.Steps {
		p := Progress{Home: s.Home, Total: run.Total, Moves: s.Moves, Status: s.Status}
		if s.At < at || !validProgress(p) || (s.Status != Playing && i != len(run.Steps)-1) {
			return false
		}
		at = s.At
	}
	return true
}

// scheduleGhost sets the ghost's next step at its own pace from the start,
// measured from the start rather than the previous step, so a late tick
// does not delay every step after it.
func (r *Race) scheduleGhost(rc *racer) {
	if rc.next >= len(rc.run.Steps) {
		return
	}
	d := rc.run.Steps[rc.next].At - r.elapsed()
	rc.step.set(&r.loop, r.h.clock, d, func() {
		r.advanceGhost(rc, r.elapsed())
		r.scheduleGhost(rc)
		r.checkFinish()
		r.changed()
	})
}

// advanceGhost applies the ghost's steps up to race time upTo.
func (r *Race) advanceGhost(rc *racer, upTo time.Duration) {
	for rc.next < len(rc.run.Steps) && rc.run.Steps[rc.next].At <= upTo {
		s := rc.run.Steps[rc.next]
		rc.next++
		rc.home, rc.moves, rc.status, rc.time = s.Home, s.Moves, s.Status, s.At
		r.placeIfWon(rc)
	}
}

// checkFinish ends the race once no human racer can still move: each has
// won, ended, given up, or been dropped for longer than the grace.
func (r *Race) checkFinish() {
	if r.phase != Running {
		return
	}
	for _, rc := range r.racers {
		if rc.ghost {
			continue
		}
		if rc.status == Playing || rc.status == Ready || (rc.status == Dropped && !rc.counted) {
			return
		}
	}
	r.finish()
}

func (r *Race) finish() {
	r.stopped = r.elapsed()
	r.phase = Finished
	for _, rc := range r.racers {
		rc.drop.stop()
		if rc.ghost {
			// Nobody is left to race the ghost, but it still takes the place
			// its run earned: play it out to the end.
			rc.step.stop()
			r.advanceGhost(rc, time.Duration(1<<62))
			if rc.status == Playing || rc.status == Ready {
				rc.status = GaveUp
			}
		}
	}
	order := r.order()
	place := 0
	for _, rc := range order {
		if rc.status == Won || rc.status == Over {
			place++
			rc.place = place
		}
	}
	r.changed()
	res := Result{Code: r.code, Spec: r.spec, Ranked: r.ranked, Started: r.started}
	for _, rc := range order {
		rr := RacerResult{
			Person: rc.Person, Ghost: rc.ghost, Place: rc.place, Status: rc.status,
			Time: rc.time, Moves: rc.moves, Score: rc.score, Home: rc.home, Total: rc.total,
		}
		if !rc.ghost {
			rr.Timeline = rc.timeline
		}
		res.Racers = append(res.Racers, rr)
	}
	if r.h.onResult != nil {
		r.h.onResult(res)
	}
	r.checkEmpty()
}

// order is the standing: winners by time (then by who reported first),
// then those still playing or ended without a win by cards home, then
// those waiting in the lobby, then those out; joining order breaks ties.
func (r *Race) order() []*racer {
	rank := func(s Status) int {
		switch s {
		case Won:
			return 0
		case Playing, Over:
			return 1
		case Ready:
			return 2
		}
		return 3
	}
	out := slices.Clone(r.racers)
	slices.SortStableFunc(out, func(a, b *racer) int {
		if c := cmp.Compare(rank(a.status), rank(b.status)); c != 0 {
			return c
		}
		switch a.status {
		case Won:
			return cmp.Or(cmp.Compare(a.time, b.time), cmp.Compare(a.place, b.place))
		case Ready:
			return 0
		}
		return cmp.Or(cmp.Compare(b.home, a.home), cmp.Compare(a.time, b.time))
	})
	return out
}

// checkEmpty closes a finished room nobody is in, and gives any other room
// nobody is in a grace period to be rejoined.
func (r *Race) checkEmpty() {
	if len(r.members) > 0 {
		r.empty.stop()
		return
	}
	if r.phase == Finished {
		r.end("")
		return
	}
	if !r.empty.pending() {
		r.empty.set(&r.loop, r.h.clock, r.h.grace, func() {
			if len(r.members) == 0 {
				if r.phase == Running {
					r.finish()
				}
				r.end("")
			}
		})
	}
}

func (r *Race) end(reason string) {
	if r.ended {
		return
	}
	r.ended = true
	r.countdown.stop()
	r.empty.stop()
	for _, rc := range r.racers {
		rc.drop.stop()
		rc.step.stop()
	}
	r.version++
	for _, m := range r.members {
		st := r.stateFor(m)
		st.Phase, st.Reason, st.Version = Closed, reason, r.version
		m.out.Put(st)
		m.out.Close()
	}
	r.members = nil
	r.h.unregister(r.code)
}

// changed pushes the room's new state to every member. The shared part is
// built once; each member's copy differs only in a few fields.
func (r *Race) changed() {
	r.version++
	order := r.order()
	standings := make([]Standing, len(order))
	for i, rc := range order {
		standings[i] = Standing{
			Person: rc.Person, Ghost: rc.ghost, Host: !rc.ghost && rc.ID == r.host, Here: rc.here,
			Status: rc.status, Home: rc.home, Total: rc.total, Moves: rc.moves, Time: rc.time, Place: rc.place,
		}
	}
	var watchers []Person
	for _, m := range r.members {
		if m.role == Watcher {
			watchers = append(watchers, m.Person)
		}
	}
	r.base = RaceState{
		Code: r.code, Spec: r.spec, Ranked: r.ranked, Phase: r.phase, Count: r.count,
		Elapsed: r.elapsed(), Host: r.host, Racers: standings, Watchers: watchers, Version: r.version,
	}
	for _, m := range r.members {
		m.out.Put(r.stateFor(m))
	}
}

func (r *Race) stateFor(m *member) RaceState {
	s := r.base
	s.You, s.Role = m.ID, m.role
	if m.follow != "" {
		s.Following = m.follow
		for _, rc := range r.racers {
			if rc.ID == m.follow {
				s.Board = rc.board
			}
		}
	}
	return s
}
