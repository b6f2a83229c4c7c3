package bot

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"sshuffle/arcade/hub"
	"sshuffle/engine"
)

// Config is one bot session.
type Config struct {
	Hub *hub.Hub
	// Kit finds a table game's kit (the catalogue's TableKit).
	Kit func(game string) (engine.TableKit, bool)
	// Person is the bot's account, Bot set.
	Person hub.Person
	Limits Limits
	// Ping is how often the bot is pinged (0: every 30 s); it keeps a
	// quiet connection from timing out and tells a bot the server is there.
	Ping time.Duration
	// Now is the clock of the line limit; nil is time.Now.
	Now func() time.Time
	// Tables a seek opens take these timings (0: the hub's defaults).
	TurnClock, Pace, Hold, Break time.Duration
	// Rated says rated games are on offer; until then a rated seek is
	// refused with a sentence rather than played unrated unasked.
	Rated bool
	// Shared holds the limits across the sessions of one account; nil:
	// this session's own.
	Shared *Shared
	// Stored, when set, is the history id of the bot's game gameNo at
	// table code once it is stored, and the rating change it made (nil
	// for a casual game); "" and nil when it cannot say. It may wait a
	// moment for the store: the table sends its last state first.
	Stored func(account, code string, gameNo int) (history string, rating *RatingChange)
}

// DefaultPing is how often a bot is pinged.
const DefaultPing = 30 * time.Second

// session is one bot's connection. Everything but the reader and the
// tables' sinks runs on Serve's goroutine, which owns every field.
type session struct {
	cfg    Config
	me     hub.Person
	out    io.Writer
	done   chan struct{}
	events chan tableEvent
	notes  chan struct{}
	later  chan func() // what after has put off, run on Serve's goroutine
	live   *hub.Session
	tables map[string]*seat
	// challenges announced, by invitation number.
	announced map[uint64]bool
	pingID    uint64
	werr      error
	// pool is the bot's place in the play-now pool, nil when it is in
	// none; poolEvents carries its states.
	pool       *poolSeek
	poolEvents chan poolEvent
}

// tableEvent is a state pushed to one of the bot's memberships: the seat
// it was pushed for, since a later membership of the same table (the bot
// sat again) replaces it.
type tableEvent struct {
	t  *seat
	st hub.TableState
}

// seat is the bot at one table.
type seat struct {
	code    string
	m       *hub.TableMember
	kit     engine.TableKit
	started map[int]bool // tableStart sent, by game number
	over    map[int]bool // gameOver sent, by game number
	// startTried is the version at which the bot, as host, last asked to
	// deal, so that it asks once a change.
	startTried uint64
	// pending is the newest state of a seat the play-now pool made before
	// the pool said so (m is nil until then).
	pending *hub.TableState
}

// Serve runs one bot session until the bot hangs up, ctx ends, or a write
// fails. in and out are the session's; nothing the bot sends can reach
// another session except through the table it plays at.
func Serve(ctx context.Context, cfg Config, in io.Reader, out io.Writer) error {
	cfg.Limits.defaults()
	if cfg.Ping <= 0 {
		cfg.Ping = DefaultPing
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &session{
		cfg: cfg, me: cfg.Person, out: out, done: make(chan struct{}),
		events: make(chan tableEvent), notes: make(chan struct{}, 1), later: make(chan func()),
		tables: map[string]*seat{}, announced: map[uint64]bool{}, poolEvents: make(chan poolEvent),
	}
	if s.cfg.Shared == nil {
		s.cfg.Shared = &Shared{}
	}
	s.cfg.Shared.open(s.me.ID, cfg.Limits, cfg.Now())
	defer s.close()
	s.live = cfg.Hub.Connect(s.me, true, func(hub.Notice) {
		select {
		case s.notes <- struct{}{}:
		default: // one wake-up is as good as many: Invitations lists them all
		}
	})
	s.live.SetActivity(hub.Activity{Doing: hub.AtTable})
	s.send(Hello{Type: THello, Protocol: Protocol, Account: Account{ID: s.me.ID, Name: s.me.Name}, Limits: cfg.Limits})
	s.rejoin()
	s.challenges()

	lines := make(chan line)
	go s.read(in, lines)
	tick := time.NewTicker(cfg.Ping)
	defer tick.Stop()
	for s.werr == nil {
		select {
		case <-ctx.Done():
			return nil
		case l, ok := <-lines:
			if !ok {
				return nil
			}
			s.line(l)
		case ev := <-s.events:
			s.state(ev.t, ev.st)
		case ev := <-s.poolEvents:
			s.poolState(ev)
		case <-s.notes:
			s.challenges()
		case f := <-s.later:
			f()
		case <-tick.C:
			s.pingID++
			s.send(Ping{Type: TPing, ID: s.pingID})
		}
	}
	return s.werr
}

// close drops every table (a seat in play is held for the bot to come
// back, as for a person whose connection went) and goes offline.
func (s *session) close() {
	close(s.done)
	s.leavePool()
	for _, t := range s.tables {
		_ = t.m.Drop()
		s.cfg.Shared.stand(s.me.ID)
	}
	s.cfg.Shared.close(s.me.ID)
	if s.live != nil {
		s.live.Close()
	}
}

func (s *session) send(v any) {
	if s.werr != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		s.werr = err // not reached: every message is a plain value
		return
	}
	_, s.werr = s.out.Write(append(b, '\n'))
}

func (s *session) fail(in, format string, a ...any) {
	s.send(Error{Type: TError, Error: fmt.Sprintf(format, a...), In: in})
}

// line is one line read, or the news that one was too long.
type line struct {
	data    []byte
	tooLong int // the length of a line dropped for its length
}

// read splits in into lines, at most MaxLine bytes each; a longer line is
// dropped whole (up to its newline) and reported by its length alone.
func (s *session) read(in io.Reader, lines chan<- line) {
	defer close(lines)
	max := s.cfg.Limits.MaxLine
	r := bufio.NewReaderSize(in, max)
	for {
		b, err := r.ReadSlice('\n')
		l := line{data: bytes.Clone(b)}
		if errors.Is(err, bufio.ErrBufferFull) {
			n := len(b)
			for errors.Is(err, bufio.ErrBufferFull) {
				b, err = r.ReadSlice('\n')
				n += len(b)
			}
			l = line{tooLong: n}
		}
		if len(l.data) > 0 || l.tooLong > 0 {
			select {
			case lines <- l:
			case <-s.done:
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// allow spends one line of the account's limit, if one is left.
func (s *session) allow() bool {
	return s.cfg.Shared.allow(s.me.ID, s.cfg.Limits.LinesPerSecond, s.cfg.Now())
}

func (s *session) line(l line) {
	if l.tooLong > 0 {
		s.fail("", "That line is %d bytes long; a line is at most %d bytes. It was ignored.", l.tooLong, s.cfg.Limits.MaxLine)
		return
	}
	if !s.allow() {
		s.fail("", "Too many lines: at most %d a second. That one was ignored.", s.cfg.Limits.LinesPerSecond)
		return
	}
	text := bytes.TrimSpace(l.data)
	if len(text) == 0 {
		return // a blank line says nothing
	}
	var in In
	dec := json.NewDecoder(bytes.NewReader(text))
	if err := dec.Decode(&in); err != nil || dec.More() {
		s.fail("", "That line is not one JSON object; each line is a message such as {\"type\":\"pong\",\"id\":1}.")
		return
	}
	switch in.Type {
	case TSeek:
		if in.Pool {
			s.seekPool(in)
		} else {
			s.seek(in)
		}
	case TStopSeek:
		s.stopSeek(in.Type)
	case TAccept:
		s.accept(in.ID)
	case TDecline:
		if _, err := s.live.Answer(in.ID, false); err != nil {
			s.fail(in.Type, "%s", err.Error())
		}
		delete(s.announced, in.ID)
	case TAct:
		s.act(in)
	case TLeave:
		s.leave(in.Table)
	case TPong:
	case "":
		s.fail("", "That message has no \"type\".")
	default:
		s.fail("", "There is no message of type %q; a bot sends seek, stopSeek, accept, decline, act, leave or pong.", clip(in.Type))
	}
}

// clip keeps a bot's own text short and printable when it is echoed back.
func clip(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return -1
		}
		return r
	}, s)
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return s
}

// sit takes one of the account's tables; false, with the error sent, when
// it is at its most.
func (s *session) sit(in string) bool {
	if s.cfg.Shared.sit(s.me.ID, s.cfg.Limits.OpenGames) {
		return true
	}
	s.fail(in, "You are at %d tables already, the most a bot may be at once.", s.cfg.Limits.OpenGames)
	return false
}

// seek opens a table listed in the lobby: the bot in the first seat, then
// the seats against names (default one person's seat).
func (s *session) seek(in In) {
	if in.Rated && !s.cfg.Rated {
		s.fail(in.Type, "Rated games are not on offer yet; seek with \"rated\": false.")
		return
	}
	kit, ok := s.cfg.Kit(in.Game)
	if !ok {
		s.fail(in.Type, "There is no table game called %q; try spite or kings.", clip(in.Game))
		return
	}
	info := kit.Info()
	cfg := hub.TableConfig{Game: info.Name, Settings: in.Settings, Host: s.me, Seats: []hub.SeatPlan{{}},
		TurnClock: s.cfg.TurnClock, Pace: s.cfg.Pace, Speed: hub.Speed(in.Pace), Hold: s.cfg.Hold, Break: s.cfg.Break,
		Rated: in.Rated}
	against := in.Against
	if len(against) == 0 {
		against = []string{"person"}
	}
	for _, w := range against {
		switch {
		case w == "person":
			cfg.Seats = append(cfg.Seats, hub.SeatPlan{})
		case slices.Contains(info.Strengths, w):
			cfg.Seats = append(cfg.Seats, hub.SeatPlan{Computer: w})
		default:
			s.fail(in.Type, "A seat against you is \"person\" or a computer player (%s), not %q.", strings.Join(info.Strengths, ", "), clip(w))
			return
		}
	}
	if !s.sit(in.Type) {
		return
	}
	t, err := s.cfg.Hub.OpenTable(cfg)
	if err != nil {
		s.cfg.Shared.stand(s.me.ID)
		s.fail(in.Type, "%s", err.Error())
		return
	}
	s.join(t, 0, in.Type, func() {
		inf, err := t.Info()
		if err != nil {
			return // closed already: its sink says so
		}
		s.send(Seeking{Type: TSeeking, Table: t.Code(), Game: inf.Game, Settings: inf.Settings, Rated: inf.Rated, Seats: seats(inf.Seats)})
	})
}

// after runs f on Serve's goroutine once d has passed, unless the session
// has ended.
func (s *session) after(d time.Duration, f func()) {
	time.AfterFunc(d, func() {
		select {
		case s.later <- f:
		case <-s.done:
		}
	})
}

// retryWait is how long an action the lobby's pace refused waits to be
// tried again, and retries how many times it is.
const (
	retryWait = 500 * time.Millisecond
	retries   = 20
)

// join sits the bot at t and follows it, in the table the caller took
// with sit (given back if the bot cannot sit), then runs then (if any). A
// seat the lobby's pace refuses is asked for again: a bot playing match
// after match meets that pace, and a seek's table must not be left empty.
func (s *session) join(t *hub.Table, want int, in string, then func()) {
	s.joinTry(t, want, in, then, 0)
}

func (s *session) joinTry(t *hub.Table, want int, in string, then func(), tries int) {
	kit, ok := s.cfg.Kit(t.Game())
	if !ok {
		s.cfg.Shared.stand(s.me.ID)
		s.fail(in, "That table's game is not one a bot can play.")
		return
	}
	code := t.Code()
	st := &seat{code: code, kit: kit, started: map[int]bool{}, over: map[int]bool{}}
	// The sink's states are read on this goroutine, after join returns.
	m, err := t.Join(s.me, want, func(ts hub.TableState) {
		select {
		case s.events <- tableEvent{t: st, st: ts}:
		case <-s.done:
		}
	})
	if errors.Is(err, hub.ErrTooFast) && tries < retries {
		s.after(retryWait, func() { s.joinTry(t, want, in, then, tries+1) })
		return
	}
	if err != nil {
		s.cfg.Shared.stand(s.me.ID)
		s.fail(in, "%s", err.Error())
		return
	}
	st.m = m
	if old := s.tables[code]; old != nil {
		s.cfg.Shared.stand(s.me.ID) // the same seat again, counted once
	}
	s.tables[code] = st
	if then != nil {
		then()
	}
}

// rejoin takes back the seats the bot holds at tables still in play (after
// its connection dropped, or the server restarted).
func (s *session) rejoin() {
	for _, in := range s.cfg.Hub.SeatedAt(s.me.ID) {
		t, err := s.cfg.Hub.Table(in.Code)
		if err != nil {
			continue
		}
		if !s.sit("") {
			return
		}
		s.join(t, hub.AnySeat, "", nil)
	}
}

// challenges announces every invitation to a table not announced yet. The
// hub's notices are newest-wins, so the list is read whole each time.
func (s *session) challenges() {
	for _, inv := range s.live.Invitations() {
		if s.announced[inv.ID] || inv.Kind != hub.TableRoom {
			continue
		}
		t, err := s.cfg.Hub.Table(inv.Code)
		if err != nil {
			continue
		}
		in, err := t.Info()
		if err != nil {
			continue
		}
		s.announced[inv.ID] = true
		s.send(Challenge{Type: TChallenge, ID: inv.ID, Table: inv.Code, From: inv.From.Name, Game: in.Game,
			Settings: in.Settings, Rated: in.Rated, Seats: seats(in.Seats)})
	}
}

func (s *session) accept(id uint64) {
	if !s.sit(TAccept) {
		return
	}
	delete(s.announced, id)
	code, err := s.live.Answer(id, true)
	if err == nil {
		var t *hub.Table
		if t, err = s.cfg.Hub.Table(code); err == nil {
			s.join(t, hub.AnySeat, TAccept, nil)
			return
		}
	}
	s.cfg.Shared.stand(s.me.ID)
	s.fail(TAccept, "%s", err.Error())
}

// find is the table the bot named, as it wrote the code.
func (s *session) find(in, code string) *seat {
	c, err := hub.NormalizeCode(code)
	if t := s.tables[c]; err == nil && t != nil {
		return t
	}
	s.fail(in, "You are not at a table %q.", clip(code))
	return nil
}

func (s *session) act(in In) {
	t := s.find(in.Type, in.Table)
	if t == nil {
		return
	}
	if len(in.Action) == 0 || in.Action[0] != '{' {
		s.fail(in.Type, "An act needs an \"action\": an object such as {\"do\":\"end\"}.")
		return
	}
	if err := t.m.Do(in.Action); err != nil {
		s.send(Rejected{Type: TRejected, Table: t.code, Action: in.Action, Reason: err.Error()})
	}
}

func (s *session) leave(code string) {
	t := s.find(TLeave, code)
	if t == nil {
		return
	}
	_ = t.m.Leave()
	s.end(t, "You left the table.")
}

func (s *session) end(t *seat, reason string) {
	delete(s.tables, t.code)
	s.cfg.Shared.stand(s.me.ID)
	s.send(TableEnd{Type: TTableEnd, Table: t.code, Reason: reason})
}

// state turns one table state into the messages it means for the bot.
func (s *session) state(t *seat, st hub.TableState) {
	if t.m == nil {
		t.pending = &st // a play-now seat, until the pool says it is made
		return
	}
	if s.tables[t.code] != t {
		return // left already, or sat again: the last states of a membership gone by
	}
	code := t.code
	switch st.Phase {
	case hub.TableClosed:
		reason := st.Reason
		if reason == "" {
			reason = "The table has closed."
		}
		s.end(t, reason)
	case hub.TableSeating:
		s.maybeStart(t, st)
	case hub.TablePlaying:
		if !t.started[st.GameNo] {
			t.started[st.GameNo] = true
			s.send(TableStart{Type: TTableStart, Table: code, Game: st.Game, Settings: st.Settings, GameNo: st.GameNo,
				Seat: st.Seat, Seats: seats(st.Seats)})
		}
		s.sendState(t, st)
	case hub.TableBetween, hub.TableFinished:
		if st.Result == nil || t.over[st.GameNo] {
			return
		}
		t.over[st.GameNo] = true
		s.sendState(t, st)
		g := GameOver{Type: TGameOver, Table: code, GameNo: st.GameNo, Winner: st.Result.Winner, Points: st.Result.Points,
			LowWins: st.Result.LowWins, Totals: st.Totals, MatchOver: st.Phase == hub.TableFinished,
			MatchWinner: engine.NoSeat, Record: code + "/" + strconv.Itoa(st.GameNo)}
		if g.MatchOver {
			g.MatchWinner = st.MatchWinner
		}
		if s.cfg.Stored != nil {
			g.History, g.Rating = s.cfg.Stored(s.me.ID, code, st.GameNo)
		}
		s.send(g)
		if g.MatchOver {
			// A bot plays one match a table: a rematch is a new seek or
			// challenge, so nobody waits on an answer it would not give.
			_ = t.m.Leave()
			s.end(t, "The match is over.")
		}
	}
}

// maybeStart deals, when the bot hosts the table and every seat is taken
// by someone here: a seek's table starts as soon as it is full.
func (s *session) maybeStart(t *seat, st hub.TableState) {
	if st.Host != s.me.ID || t.startTried == st.Version {
		return
	}
	for _, x := range st.Seats {
		if x.Open() || (x.Computer == "" && !x.Here) {
			return
		}
	}
	t.startTried = st.Version
	if err := t.m.Start(); errors.Is(err, hub.ErrTooFast) {
		// The lobby's pace holds for a bot's deals as for a person's
		// keys; a bot playing match after match meets it, and its table
		// must not wait for a change that never comes.
		t.startTried = 0
		s.after(retryWait, func() {
			if s.tables[t.code] != t {
				return
			}
			if st, err := t.m.State(); err == nil {
				s.maybeStart(t, st)
			}
		})
	}
}

func (s *session) sendState(t *seat, st hub.TableState) {
	out := State{Type: TState, Table: t.code, GameNo: st.GameNo, Seat: st.Seat, Turn: st.Turn, ClockMs: millis(st.TurnLeft),
		Auto: st.Auto, View: json.RawMessage(st.View), Legal: []json.RawMessage{}, Log: st.Log, Totals: st.Totals,
		Version: st.Version}
	if len(st.View) == 0 {
		out.View = json.RawMessage("null")
	}
	out.YourTurn = st.Phase == hub.TablePlaying && !st.Paused && !st.Auto && st.Seat >= 0 && st.Turn == st.Seat
	if out.YourTurn {
		if lk, ok := t.kit.(engine.TableLegal); ok {
			if legal, err := lk.LegalEncoded(st.View); err == nil {
				for _, a := range legal {
					out.Legal = append(out.Legal, a)
				}
			}
		}
	}
	if out.Log == nil {
		out.Log = []string{}
	}
	s.send(out)
}

// seats are a table's seats as the protocol tells them.
func seats(in []hub.SeatInfo) []Seat {
	out := make([]Seat, len(in))
	for i, x := range in {
		switch {
		case x.Computer != "" && x.Person.ID == "":
			out[i] = Seat{Name: x.Name, Kind: "computer", Strength: x.Computer}
		case x.Person.ID != "" && x.Person.Bot:
			out[i] = Seat{Name: x.Person.Name, Kind: "bot"}
		case x.Person.ID != "":
			out[i] = Seat{Name: x.Person.Name, Kind: "person"}
		default:
			out[i] = Seat{Kind: "open"}
		}
	}
	return out
}
