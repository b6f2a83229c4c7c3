package table

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/uitest"
)

// sim is a table as the room runs it, without the room: a match of a game
// through its kit, computer players for every seat (a person's turn is
// played by one when the script says so), the log and the turn clock the
// room keeps, and the screens of some seats and watchers, each in a router
// as a session has it, pushed every state as the room pushes it.
type sim struct {
	t       testing.TB
	kit     engine.TableKit
	d       Drawing
	m       engine.TableMatch
	g       engine.TableGame
	names   []string
	people  []bool // by seat: a person sits there (their turn runs the clock)
	players []engine.TablePlayer
	clk     *uitest.Clock
	log     []string

	turnSeat int
	deadline time.Time
	watchers int
	note     string
	said     *hub.Said
	offer    *hub.RematchOffer
	closed   bool
	over     bool // the match is over

	views []*simView
	// check, when set, is called after each frame of a script.
	check func(v *simView)
}

// simView is one screen at the table: a seat's, or a watcher's
// (engine.Spectator).
type simView struct {
	seat  int
	e     *ui.Env
	r     *ui.Router
	s     ui.Screen
	acts  []any
	asked int // rematches asked for
	no    int // rematches declined
}

// core is the screen's common part.
func (v *simView) core() *core {
	switch s := v.s.(type) {
	case *SpiteScreen:
		return &s.core
	case *KingsScreen:
		return &s.core
	}
	panic("not a table screen")
}

// turnClock is the table's turn clock in these tests.
const turnClock = 60 * time.Second

var simStart = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// newSim deals game (its settings) for the seats named, people where
// people says, with a screen for each of viewers (seats, or
// engine.Spectator) at 80x24 in colour.
func newSim(t testing.TB, game, settings string, seed uint64, names []string, people []bool, viewers []int) *sim {
	t.Helper()
	cat := games.Default()
	kit, ok := cat.TableKit(game)
	require.True(t, ok)
	d, ok := drawingOf(game)
	require.True(t, ok)
	m, err := kit.NewMatch(engine.Spec{Game: game, Settings: settings, Seed: seed}, len(names))
	require.NoError(t, err)
	s := &sim{t: t, kit: kit, d: d, m: m, g: m.Game(), names: names, people: people, clk: &uitest.Clock{T: simStart}, turnSeat: engine.NoSeat}
	strengths := kit.Info().Strengths
	for i := range names {
		p, err := kit.NewPlayer(strengths[i%len(strengths)], seed+uint64(i))
		require.NoError(t, err)
		s.players = append(s.players, p)
	}
	s.step()
	for _, seat := range viewers {
		s.addView(seat)
	}
	return s
}

func (s *sim) addView(seat int) *simView {
	t := s.t
	t.Helper()
	e, _ := uitest.Env(nil, uitest.NoStore(), uitest.Player(fmt.Sprintf("SHA256:%d", seat), "ann"), uitest.Color(true))
	e.Now = s.clk.Now
	v := &simView{seat: seat, e: e}
	cfg := Config[any]{Table: "TABLE", Rematch: func() { v.asked++ }, Decline: func() { v.no++ }}
	if seat != engine.Spectator {
		cfg.Act = func(a any) { v.acts = append(v.acts, a) }
	}
	cfg.Phrases = ui.NewPhrasePicker(e, func(n int) { s.said = &hub.Said{By: hub.Person{Name: s.name(seat)}, Phrase: n} }, func(bool) {})
	view, err := s.kit.DecodeView(s.g.View(seat))
	require.NoError(t, err)
	scr, err := s.d.New(e, cfg, s.common(), view)
	require.NoError(t, err)
	v.s = scr
	v.r = ui.NewRouter(e, uitest.Pages, scr, "")
	s.views = append(s.views, v)
	return v
}

func (s *sim) name(seat int) string {
	if seat >= 0 && seat < len(s.names) {
		return s.names[seat]
	}
	return "wes"
}

// step starts the turn clock when a person's turn begins, as the room does.
func (s *sim) step() {
	turn := s.g.Turn()
	if turn == s.turnSeat {
		return
	}
	s.turnSeat, s.deadline = turn, time.Time{}
	if turn != engine.NoSeat && s.people[turn] {
		s.deadline = s.clk.T.Add(turnClock)
	}
}

func (s *sim) common() Common {
	c := Common{Table: "TABLE", Log: s.log, Watchers: s.watchers, Note: s.note, Said: s.said, Offer: s.offer,
		Totals: s.m.Totals(), MatchOver: s.over, MatchWinner: engine.NoSeat, CanRematch: s.over && !s.closed, Closed: s.closed}
	if len(s.names) > 2 {
		c.Rated = true
	}
	for i, n := range s.names {
		st := Seat{Name: n, Rating: fmt.Sprint(1500 + 37*i)}
		if !s.people[i] {
			st.Computer, st.Strength = true, s.kit.Info().Strengths[i%len(s.kit.Info().Strengths)]
		}
		c.Seats = append(c.Seats, st)
	}
	if s.over {
		c.MatchWinner = s.m.Winner()
	}
	if !s.deadline.IsZero() {
		c.Clock = max(s.deadline.Sub(s.clk.T), time.Nanosecond)
	}
	return c
}

// push sends every screen the table's state now.
func (s *sim) push() {
	s.t.Helper()
	for _, v := range s.views {
		view, err := s.kit.DecodeView(s.g.View(v.seat))
		require.NoError(s.t, err)
		msg, err := s.d.State(s.common(), view)
		require.NoError(s.t, err)
		v.r.Update(msg)
	}
}

// acted logs what the game did, as the room does after an action.
func (s *sim) acted() {
	s.log = append(s.log, s.g.Describe(s.names)...)
	if n := len(s.log); n > hub.MaxLog {
		s.log = append([]string(nil), s.log[n-hub.MaxLog:]...)
	}
	s.step()
}

// play has the computer play the seat to act; false once the game is over.
func (s *sim) play() bool {
	s.t.Helper()
	seat := s.g.Turn()
	if seat == engine.NoSeat {
		return false
	}
	require.NoError(s.t, s.g.Play(seat, s.players[seat]))
	s.acted()
	return true
}

// sent applies the actions v's screen handed out: each done, or refused
// with the game's sentence, as the room answers.
func (s *sim) sent(v *simView) {
	s.t.Helper()
	acts := v.acts
	v.acts = nil
	for _, a := range acts {
		b, err := s.kit.EncodeAction(a)
		require.NoError(s.t, err)
		if err := s.g.Do(v.seat, b); err != nil {
			v.r.Update(Refused{Table: "TABLE", Text: err.Error()})
			continue
		}
		s.acted()
	}
}

// frames plays the script on the sim and returns the frames of viewer
// (an index into views) after every step, each after a line naming it.
func (s *sim) frames(viewer int, seed uint64, steps int) string {
	t := s.t
	t.Helper()
	v := s.views[viewer]
	rnd := rand.New(rand.NewPCG(seed, 29))
	var out strings.Builder
	i := 0
	frame := func(what string) {
		fmt.Fprintf(&out, "=== %d %s\n", i, what)
		out.WriteString(v.r.View().Content)
		out.WriteString("\n")
		i++
		if s.check != nil {
			s.check(v)
		}
	}
	v.r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	frame("start")
	keys := []string{"left", "right", "up", "down", "space", "space", "enter", "esc", "e", "1", "3", "5", "?", "q", "r", "n", "p", "2", "x"}
	sizes := [][2]int{{80, 24}, {100, 30}, {120, 40}, {90, 26}, {80, 24}}
	for i < steps {
		if s.g.Turn() == engine.NoSeat {
			// A game of a longer match is over: the next is dealt.
			if s.over = !s.m.Next(); s.over {
				break
			}
			s.g = s.m.Game()
			s.step()
			s.push()
			frame("next game")
			continue
		}
		var what string
		switch n := rnd.IntN(100); {
		case n < 18:
			s.clk.Advance(time.Duration(1+rnd.IntN(2)) * time.Second)
			what = "turn clock" // drawn with no message (ui.Ticking)
		case n < 20:
			s.clk.Advance(45 * time.Second)
			what = "turn clock, near its end"
		case n < 23:
			sz := sizes[rnd.IntN(len(sizes))]
			v.r.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			what = fmt.Sprintf("size %dx%d", sz[0], sz[1])
		case n < 24:
			p := []colorprofile.Profile{colorprofile.Ascii, colorprofile.ANSI256, colorprofile.TrueColor}[rnd.IntN(3)]
			v.r.Update(tea.ColorProfileMsg{Profile: p})
			what = fmt.Sprintf("profile %v", p)
		case n < 25:
			v.e.Unicode = !v.e.Unicode
			what = fmt.Sprintf("unicode %v", v.e.Unicode)
		case n < 27:
			s.watchers = (s.watchers + 1) % 3
			s.push()
			what = fmt.Sprintf("%d watching", s.watchers)
		case n < 29:
			if s.note == "" {
				s.note = "Paused until " + s.names[0] + " is back"
			} else {
				s.note = ""
			}
			s.push()
			what = "note"
		case n < 31:
			if s.said == nil {
				s.said = &hub.Said{By: hub.Person{Name: s.names[len(s.names)-1]}, Phrase: rnd.IntN(len(hub.Phrases))}
			} else {
				s.said = nil
			}
			s.push()
			what = "phrase"
		case n < 55:
			k := keys[rnd.IntN(len(keys))]
			if k == "q" {
				k = "left" // leaving ends the script
			}
			v.r.Update(uitest.Key(k))
			s.sent(v)
			s.push()
			what = "key " + k
		default:
			what = fmt.Sprintf("move by seat %d", s.g.Turn()+1)
			s.play()
			s.push()
		}
		frame(what)
	}
	if !s.over {
		if s.g.Turn() != engine.NoSeat {
			for s.play() {
			}
			s.push()
			frame("the computers play to the end")
		}
		s.over = !s.m.Next()
	}
	if s.over {
		s.endMatch(v, frame)
	}
	return out.String()
}

// endMatch is the match's end on v's screen: the outcome, the rematch
// offered, its clock, yes from v's seat, a resize, and the table closing.
func (s *sim) endMatch(v *simView, frame func(string)) {
	s.step()
	s.push()
	frame("game over, the match too")
	offer := &hub.RematchOffer{Yes: make([]bool, len(s.names)), Left: 30 * time.Second}
	for i, n := range s.names {
		if s.people[i] {
			offer.Waiting = append(offer.Waiting, n)
		}
	}
	s.offer = offer
	s.push()
	frame("rematch offered")
	s.clk.Advance(time.Second)
	frame("rematch clock")
	v.r.Update(uitest.Key("r"))
	frame("key r")
	if v.seat >= 0 {
		offer.Yes[v.seat] = true
		offer.Waiting = nil
		for i, n := range s.names {
			if s.people[i] && i != v.seat {
				offer.Waiting = append(offer.Waiting, n)
			}
		}
	}
	s.push()
	frame("rematch: yes from this seat")
	v.r.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	frame("size 100x30")
	s.clk.Advance(2 * time.Second)
	frame("rematch clock")
	s.offer, s.closed, s.note = nil, true, "Nobody else wanted a rematch: the table is closed."
	s.push()
	frame("closed")
}
