package table

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/board"
	"sshuffle/engine"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
	"sshuffle/internal/uitest"
)

// The longest names a table shows: 20-character account names (the most
// store.ValidName allows) and a computer player's name with its strength.
const (
	longName  = "Bartholomew_Fairfax1"
	longName2 = "Wilhelmina-Cavendish"
	longName3 = "Maximilian_Oberhaus9"
	botName   = "Marguerite"
)

// longSeats are n seats of long names as the viewer in seat viewer sees
// them: the viewer, then a computer player, a person away, another, each
// with the longest rating label.
func longSeats(n, viewer int) []Seat {
	kinds := []Seat{{Name: longName, Rating: "1500?"}, {Name: botName, Computer: true, Strength: "normal", Rating: "1612"},
		{Name: longName2, Away: true, Rating: "2345?"}, {Name: longName3, Rating: "1234?"}}
	out := make([]Seat, n)
	for i := range n {
		out[(max(viewer, 0)+i)%n] = kinds[i]
	}
	return out
}

// whoText is how the fit wants a seat named, whole (its rating is wanted
// whole too, beside it or under it).
func whoText(s Seat, you bool) string {
	switch {
	case you:
		return s.Name + " (you)"
	case s.Away:
		return s.Name + " (away)"
	case s.Computer:
		return s.Name + " (" + s.Strength + ")"
	}
	return s.Name
}

// The longest lines each game's log writes, with the longest names.
func longSpiteLog() []string {
	return []string{
		botName + " discarded 10♥ on side stack 4",
		"the recycle pile was shuffled into a new stock",
		longName + " drew 5",
		longName + " played K♠ as a Queen from side stack 3 on the J stack, which went to the recycle pile",
	}
}

func longKingsLog() []string {
	return []string{
		longName2 + " moved the SW pile onto N",
		longName3 + " played 10♦ on the J♠ at NE",
		botName + " moved the W pile into the NW corner",
		"a round passed with no play: the hand ends with nobody out",
		longName + " moved the SW pile into the NW corner",
	}
}

// tableKeys are the keys a seat takes, as its help names them.
var tableKeys = []string{"←", "↓", "↑", "→", "h", "j", "k", "l", "space", "enter", "1-9", "0", "esc", "e", "r", "i", "q", "?", "mouse"}

// fitRig is a table screen with long names, in a router at 80x24.
type fitRig struct {
	t      *testing.T
	name   string
	r      *ui.Router
	clk    *uitest.Clock
	c      *core
	seats  []Seat
	seat   int
	push   func(c Common, over bool)
	common Common
	ascii  bool // a client without UTF-8: the router writes letters
}

// asASCII is s as the router writes it for a client without UTF-8.
var asASCII = strings.NewReplacer("♠", "S", "♥", "H", "♦", "D", "♣", "C", "·", "-", "…", "...", "←", "", "↓", "", "↑", "", "→", "")

func newFitRig(t *testing.T, name string, color bool, seat int, c Common, build func(*ui.Env, Config[any]) (ui.Screen, *core, func(Common, bool))) *fitRig {
	return newFitRigIn(t, name, color, true, seat, c, build)
}

func newFitRigIn(t *testing.T, name string, color, unicode bool, seat int, c Common, build func(*ui.Env, Config[any]) (ui.Screen, *core, func(Common, bool))) *fitRig {
	e, clk := uitest.Env(nil, uitest.NoStore(), uitest.Player("SHA256:k", longName), uitest.Color(color))
	e.Unicode = unicode
	cfg := Config[any]{Table: c.Table, Leave: func() {}}
	if seat != engine.Spectator {
		cfg.Act, cfg.Rematch = func(any) {}, func() {}
	}
	s, core, push := build(e, cfg)
	fr := &fitRig{t: t, name: name, r: ui.NewRouter(e, uitest.Pages, s, ""), clk: clk, c: core, seats: c.Seats, seat: seat, push: push, common: c, ascii: !unicode}
	push(c, false)
	return fr
}

// check fails the test, naming the state, when the frame does not fit
// 80x24 with every seat's name, the newest log entry and extra whole, and
// when the scene had to cut, drop or run together any piece of it.
func (fr *fitRig) check(state string, extra ...string) {
	fr.t.Helper()
	frame := uitest.Frame(fr.r)
	f := uitest.Fit{W: 80, H: 24, Ellipses: []string{"Asked for a rematch with the same seats…", "Asked for a rematch with the same seats..."}}
	for i, s := range fr.seats {
		f.Whole = append(f.Whole, whoText(s, i == fr.seat))
		if s.Rating != "" {
			f.Whole = append(f.Whole, s.Rating)
		}
	}
	if log := fr.common.Log; len(log) > 0 {
		// The newest entry always shows, wrapped at its words.
		f.Whole = append(f.Whole, strings.Fields(log[len(log)-1])...)
	}
	// The settings, in the header or on a line of their own.
	f.Whole = append(f.Whole, fr.c.fam.settings())
	f.Whole = append(f.Whole, extra...)
	if fr.ascii {
		for i, w := range f.Whole {
			f.Whole[i] = asASCII.Replace(w)
		}
	}
	problems := uitest.FitProblems(frame, f)
	for _, p := range fr.c.sc.faults {
		problems = append(problems, "the scene: "+p)
	}
	if os.Getenv("FIT_DUMP") != "" {
		fmt.Printf("=== %s: %s\n%s\n", fr.name, state, frame)
	}
	if len(problems) > 0 {
		fr.t.Errorf("%s, %s:\n  %s\n%s", fr.name, state, strings.Join(problems, "\n  "), frame)
	}
}

// checkHelp fails the test unless the key bar and the help page (?)
// name every key the screen takes, each page fitting 80x24.
func (fr *fitRig) checkHelp(keys []string) {
	fr.t.Helper()
	help := uitest.Frame(fr.r)
	uitest.Press(fr.r, "?")
	for page := 0; strings.Contains(uitest.Frame(fr.r), "Keys at the table"); page++ {
		require.Less(fr.t, page, 4, "the help never ends")
		uitest.CheckFit(fr.t, uitest.Frame(fr.r), uitest.Fit{W: 80, H: 24})
		help += "\n" + uitest.Frame(fr.r)
		uitest.Press(fr.r, "?")
	}
	if fr.ascii {
		var plain []string
		for _, k := range keys {
			if k = asASCII.Replace(k); k != "" {
				plain = append(plain, k)
			}
		}
		keys = plain
	}
	f := uitest.Fit{W: 80, H: 1 << 10, Keys: keys, Help: help}
	if p := uitest.FitProblems(help, f); len(p) > 0 {
		fr.t.Errorf("%s, help:\n  %s\n%s", fr.name, strings.Join(p, "\n  "), help)
	}
}

// states checks the screen in each state a seat meets: its turn (holding
// a card, the clock's last seconds, an error), another's turn, between
// the games of a match, the match over; and a watcher's.
func (fr *fitRig) states(turn int, over Common) {
	switch {
	case fr.seat == engine.Spectator:
		fr.check("watching", fr.turnText())
		fr.checkHelp([]string{"q", "?"})
	case turn == fr.seat:
		fr.check("your turn", "your turn 0:42")
		uitest.Press(fr.r, "1", "space")
		require.True(fr.t, fr.c.held.ok(), "space took no card")
		fr.check("holding a card", fr.c.fam.heldName(fr.c.held))
		fr.common.Note = "Your time ran out: the computer plays this turn."
		fr.push(fr.common, false)
		fr.check("holding a card with a note", fr.c.fam.heldName(fr.c.held), fr.common.Note)
		uitest.Press(fr.r, "esc")
		fr.clk.Advance(35 * time.Second)
		fr.check("hurry", "hurry! your turn 0:07")
		fr.checkHelp(tableKeys)
	default:
		fr.check("another's turn", fr.turnText())
		uitest.Press(fr.r, "space")
		fr.check("out of turn", "It is "+fr.seats[turn].Name+"'s turn.")
	}
	if fr.seat == engine.Spectator {
		return
	}
	uitest.Press(fr.r, "esc") // what the last key said goes
	fr.common = over
	fr.common.Note = "Next game in a moment."
	fr.push(fr.common, true)
	fr.check("between games")
	fr.common.Note, fr.common.CanRematch = "The match is over: r asks for a rematch (the host's), q leaves.", true
	fr.push(fr.common, true)
	fr.check("match over", "r: rematch.")
	uitest.Press(fr.r, "r")
	fr.check("rematch asked")

	// The rematch offered, then the table closed: the lines above the
	// message name every person awaited, whole.
	uitest.Press(fr.r, "esc")
	offer := over
	offer.Note, offer.CanRematch, offer.MatchOver, offer.MatchWinner = "", true, true, (fr.seat+1)%len(fr.seats)
	offer.Offer = &hub.RematchOffer{Yes: make([]bool, len(fr.seats)), Left: 42 * time.Second}
	var waiting []string
	for i, st := range fr.seats {
		offer.Offer.Yes[i] = st.Computer
		if !st.Computer {
			waiting = append(waiting, st.Name)
		}
	}
	offer.Offer.Waiting = waiting
	fr.common = offer
	fr.push(offer, true)
	fr.check("rematch offered", append([]string{"Rematch? r: yes, n: no (0:42 left).", fr.seats[offer.MatchWinner].Name + " wins the match."}, waiting...)...)
	closed := over
	closed.Closed, closed.Note = true, fr.seats[(fr.seat+2)%len(fr.seats)].Name+" declined the rematch."
	fr.common = closed
	fr.push(closed, true)
	fr.check("closed", closed.Note+" q: the menu.")
}

func (fr *fitRig) turnText() string {
	s, _ := fr.c.turnText()
	return s
}

func TestTableScreensFit80x24(t *testing.T) {
	for _, term := range []struct{ color, unicode bool }{{true, true}, {false, true}, {false, false}} {
		spiteFit(t, term.color, term.unicode)
		for _, n := range []int{2, 3, 4} {
			kingsFit(t, n, term.color, term.unicode)
		}
	}
}

func spiteFit(t *testing.T, color, unicode bool) {
	g := spiteGame(t, 3)
	require.True(t, playSpiteUntil(t, g, func() bool { return len(g.History()) >= 12 }))
	end := spiteGame(t, 3)
	require.False(t, playSpiteUntil(t, end, func() bool { return false }))
	turn := g.Turn()
	for _, seat := range []int{turn, 1 - turn, engine.Spectator} {
		seats := longSeats(2, seat)
		c := Common{Table: "SPITE", Seats: seats, Clock: 42 * time.Second, Log: longSpiteLog(), Totals: []int{1, 0}, Watchers: 3}
		var s *SpiteScreen
		fr := newFitRigIn(t, fmt.Sprintf("Spite and Malice, seat %d, colour %v, UTF-8 %v", seat, color, unicode), color, unicode, seat, c,
			func(e *ui.Env, cfg Config[any]) (ui.Screen, *core, func(Common, bool)) {
				s = NewSpite(e, Config[spite.Action]{Table: cfg.Table, Leave: cfg.Leave, Rematch: cfg.Rematch, Act: func(spite.Action) {}},
					SpiteState{Common: c, View: g.View(seat)})
				return s, &s.core, func(c Common, over bool) {
					v := g.View(seat)
					if over {
						v = end.View(seat)
					}
					s.Update(SpiteState{Common: c, View: v})
				}
			})
		over := c
		over.Clock, over.Totals = 0, []int{2, 1}
		fr.states(turn, over)
	}
}

func kingsFit(t *testing.T, n int, color, unicode bool) {
	g := kingsGame(t, 7, n)
	end := kingsGame(t, 7, n)
	require.False(t, playKingsUntil(t, end, func() bool { return false }))
	turn := g.Turn()
	viewers := []int{turn, (turn + 1) % n, engine.Spectator}
	for _, seat := range viewers {
		seats := longSeats(n, seat)
		c := Common{Table: "KINGS", Seats: seats, Clock: 42 * time.Second, Log: longKingsLog(), Totals: make([]int, n), Watchers: 3}
		for i := range c.Totals {
			c.Totals[i] = 100 + 10*i
		}
		var s *KingsScreen
		fr := newFitRigIn(t, fmt.Sprintf("Kings in the Corner, %d seats, seat %d, colour %v, UTF-8 %v", n, seat, color, unicode), color, unicode, seat, c,
			func(e *ui.Env, cfg Config[any]) (ui.Screen, *core, func(Common, bool)) {
				s = NewKings(e, Config[kings.Action]{Table: cfg.Table, Leave: cfg.Leave, Rematch: cfg.Rematch, Act: func(kings.Action) {}},
					KingsState{Common: c, View: g.View(seat)})
				return s, &s.core, func(c Common, over bool) {
					v := g.View(seat)
					if over {
						v = end.View(seat)
					}
					s.Update(KingsState{Common: c, View: v})
				}
			})
		over := c
		over.Clock = 0
		fr.states(turn, over)
	}
}

// A table's keys that outgrow one page go on to a second, which ? turns
// to: every key is named and each page fits.
func TestTableHelpTurnsPages(t *testing.T) {
	saved := helpRows
	t.Cleanup(func() { helpRows = saved })
	var keys []string
	for i := range 10 {
		k := fmt.Sprintf("F%d", i+1)
		keys = append(keys, k)
		helpRows = append(helpRows, [2]string{k, "a key that one more thing at the table needs, worded at some length to wrap"})
	}
	g := kingsGame(t, 7, 4)
	seat := g.Turn()
	c := Common{Table: "KINGS", Seats: longSeats(4, seat), Clock: 42 * time.Second}
	fr := newFitRig(t, "Kings in the Corner with more keys", true, seat, c,
		func(e *ui.Env, cfg Config[any]) (ui.Screen, *core, func(Common, bool)) {
			s := NewKings(e, Config[kings.Action]{Table: cfg.Table, Act: func(kings.Action) {}}, KingsState{Common: c, View: g.View(seat)})
			return s, &s.core, func(c Common, _ bool) { s.Update(KingsState{Common: c, View: g.View(seat)}) }
		})
	fr.checkHelp(append(keys, tableKeys...))
	require.Greater(t, fr.c.helpPages, 1)
	uitest.Press(fr.r, "?", "?", "x")
	require.False(t, fr.c.help, "any other key goes back to the table")
}

// The scene notes what it could not show as laid out.
func TestSceneNotesCutsAndOverlaps(t *testing.T) {
	var sc scene
	sc.reset(30, 2, board.View{Unicode: true}, spot{}, spot{})
	sc.text(0, 0, "done 0", plainPen)
	sc.text(6, 0, "computer 2 drew 1", plainPen)
	sc.text(0, 1, "a name far too long for its room", plainPen)
	_ = sc.String()
	require.Equal(t, []string{"cut: a name far too long for its r…", "runs into the piece before it: done 0|computer 2 drew 1"}, sc.faults)
	// Styled pieces are read as the terminal shows them.
	sc.reset(30, 1, board.View{Unicode: true}, spot{}, spot{})
	sc.text(0, 0, "done 0", faintPen)
	sc.text(6, 0, "computer", penOf(ui.ErrStyle))
	sc.text(14, 0, " drew", penOf(ui.ErrStyle))
	_ = sc.String()
	require.Equal(t, []string{"runs into the piece before it: done 0|computer"}, sc.faults)
	sc.reset(20, 1, board.View{Unicode: true}, spot{}, spot{})
	sc.text(0, 0, "left", plainPen)
	sc.text(2, 0, "over", plainPen)
	_ = sc.String()
	require.Equal(t, []string{"overlaps the piece before it: over"}, sc.faults)
}

// The fullest Kings table: four long names, every setting on (too long for
// the header beside a long name's turn), a hand of three rows, the clock's
// last seconds, a held card and a note, then the outcome.
func TestKingsFullestTableFits80x24(t *testing.T) {
	g := kingsGame(t, 7, 4)
	end := kingsGame(t, 7, 4)
	require.False(t, playKingsUntil(t, end, func() bool { return false }))
	turn := g.Turn()
	full := func(v kings.View) kings.View {
		v.DrawEnd, v.KingsAtOnce = true, true
		if v.Seat >= 0 {
			v.Hand = append(append([]engine.Card(nil), v.Hand...), engine.Deck()[:33-len(v.Hand)]...)
		}
		return v
	}
	for _, seat := range []int{turn, (turn + 1) % 4, engine.Spectator} {
		seats := longSeats(4, seat)
		c := Common{Table: "KINGS", Seats: seats, Clock: 42 * time.Second, Log: longKingsLog(), Totals: []int{100, 110, 120, 130}, Watchers: 12}
		fr := newFitRig(t, fmt.Sprintf("the fullest Kings table, seat %d", seat), false, seat, c,
			func(e *ui.Env, cfg Config[any]) (ui.Screen, *core, func(Common, bool)) {
				s := NewKings(e, Config[kings.Action]{Table: cfg.Table, Rematch: cfg.Rematch, Act: func(kings.Action) {}},
					KingsState{Common: c, View: full(g.View(seat))})
				return s, &s.core, func(c Common, over bool) {
					v := g.View(seat)
					if over {
						v = end.View(seat)
					}
					s.Update(KingsState{Common: c, View: full(v)})
				}
			})
		fr.states(turn, Common{Table: "KINGS", Seats: seats, Log: longKingsLog(), Totals: []int{100, 110, 120, 130}, Watchers: 12})
	}
}
