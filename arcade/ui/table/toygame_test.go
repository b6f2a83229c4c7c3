package table

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/toygame"
	"sshuffle/internal/uitest"
)

// The drawing of High Card, the toy table game, lives here with the test
// that plays it: the table page finds it in the registry by the game's
// name, as it finds Spite and Malice's and Kings in the Corner's.

func init() {
	Register(toygame.Name, DrawingOf(newHighCard, func(c Common, v toygame.View) highCardState {
		return highCardState{Common: c, View: v}
	}))
}

type highCardState struct {
	Common
	View toygame.View
}

type highCardScreen struct {
	core
	v   toygame.View
	act func(toygame.Action)
}

func newHighCard(e *ui.Env, cfg Config[toygame.Action], first highCardState) *highCardScreen {
	s := &highCardScreen{act: cfg.Act}
	s.core = core{env: e, table: cfg.Table, entry: cfg.Game, leave: cfg.Leave, rematch: cfg.Rematch, decline: cfg.Decline, fam: s}
	s.take(first)
	return s
}

func (s *highCardScreen) take(m highCardState) {
	s.v = m.View
	s.setCommon(m.Common)
	s.refresh()
}

func (s *highCardScreen) Update(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(highCardState); ok {
		if m.Table == s.table {
			s.take(m)
		}
		return nil
	}
	return s.core.Update(msg)
}

func (s *highCardScreen) title() string    { return toygame.Title }
func (s *highCardScreen) settings() string { return "" }
func (s *highCardScreen) rules() string    { return "The higher card takes the trick; most tricks win." }
func (s *highCardScreen) seatNo() int      { return s.v.Seat }
func (s *highCardScreen) hand() int        { return len(s.v.Hand) }
func (s *highCardScreen) turn() int {
	if s.v.Over {
		return engine.NoSeat
	}
	return s.v.Turn
}

func (s *highCardScreen) draw(sc *scene, c *core, top, bottom int) {
	for seat := range 2 {
		sc.text(0, top+seat, fmt.Sprintf("%s: %d tricks, %d cards", c.who(seat), s.v.Tricks[seat], s.v.Held[seat]), plainPen)
	}
	var trick []engine.Card
	for _, cd := range s.v.Trick {
		if cd != engine.NoCard {
			trick = append(trick, cd)
		}
	}
	sc.text(2, top+3, "trick", plainPen)
	sc.pile(10, top+3, engine.Pile{Kind: engine.Foundation, Cards: trick}, spot{kind: spCentre}, false)
	if s.v.Seat >= 0 {
		c.handRow(sc, 10, top+6, 5, 1, s.v.Hand)
	}
	c.logLines(sc, 40, top, sc.w-40, bottom-top)
}

// A card of the hand is picked up and played wherever it is dropped: the
// game's one action. Whether it may be played is the game's to say.
func (s *highCardScreen) canHold(spot) string { return "" }
func (s *highCardScreen) drop(held, _ spot) (string, bool) {
	if held.kind == spHand && held.i < len(s.v.Hand) {
		s.act(toygame.Action{Card: s.v.Hand[held.i]})
	}
	return "", true
}
func (s *highCardScreen) place(held spot) (string, bool) { return s.drop(held, spot{}) }
func (s *highCardScreen) end() (string, bool)            { return "", true }
func (s *highCardScreen) heldName(at spot) string        { return cardWord(s.v.Hand[at.i]) }
func (s *highCardScreen) outcome(c *core) string {
	return c.name(s.v.Winner) + " wins the deal."
}
func (s *highCardScreen) valid(at spot) bool {
	return at.kind == spCentre || (at.kind == spHand && at.seat == s.v.Seat && at.i < len(s.v.Hand))
}
func (s *highCardScreen) firstSpot() spot {
	if len(s.v.Hand) > 0 {
		return spot{kind: spHand, seat: s.v.Seat, i: 0}
	}
	return spot{kind: spCentre}
}

// TestToyGameAtTheTable plays High Card through the table page as a
// session has it: a hub that knows the game only from a test's catalogue,
// the page joined to a table with a computer seat, each of the player's
// cards played with the mouse from the drawing registered above, to the
// end, which the screen shows. Nothing outside the toy's files names it.
func TestToyGameAtTheTable(t *testing.T) {
	cat := games.NewCatalogue(games.TableGame(toygame.Kit(), "Three cards each."))
	kit, _ := cat.TableKit(toygame.Name)
	clock := hub.NewManualClock()
	results := make(chan hub.TableResult, 1)
	h := hub.New(hub.Config{Clock: clock, Rand: engine.NewRNG(5), TableKit: cat.TableKit,
		OnTableResult: func(r hub.TableResult) { results <- r }})
	defer h.Close()

	e, _ := uitest.Env(t, uitest.NoStore(), uitest.Player("SHA256:k", "ann"))
	e.Games, e.Hub = cat, h
	msgs := make(chan tea.Msg, 64)
	e.Prepare()
	e.SetSend(func(m tea.Msg) { msgs <- m })

	ann, _ := e.Person()
	tb, err := h.OpenTable(hub.TableConfig{Game: toygame.Name, Host: ann, Seats: []hub.SeatPlan{{}, {Computer: "hard"}}})
	require.NoError(t, err)
	hold, err := ui.JoinTable(e, tb, ann, 0, false)
	require.NoError(t, err)
	m := hold.Member()
	require.NoError(t, m.Start())
	// The states of the seating went to the lobby, which hands the
	// membership over with the first state that has a view.
	var st hub.TableState
	for st.View == nil {
		var ok bool
		st, ok = hold.State(<-msgs)
		require.True(t, ok)
	}
	pg, err := OpenPage(e, ui.Route{Page: ui.Table, Member: hold, State: &st})
	require.NoError(t, err)
	page := pg.(*Page)
	screen, ok := page.inner.(*highCardScreen)
	require.True(t, ok, "the page drew the toy with its registered drawing: %T", page.inner)
	r := ui.NewRouter(e, uitest.Pages, pg, "")

	// current feeds the program's messages to the router until the
	// screen shows the room's current view.
	current := func() hub.TableState {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			st, err := m.State()
			require.NoError(t, err)
			v, err := kit.DecodeView(st.View)
			require.NoError(t, err)
			if reflect.DeepEqual(v, screen.v) {
				return st
			}
			select {
			case msg := <-msgs:
				r.Update(msg)
			case <-deadline:
				t.Fatalf("the screen never caught up: %+v\n%+v", st, screen.v)
			}
		}
	}
	click := func(at spot) {
		t.Helper()
		_ = r.View()
		a, ok := screen.sc.find(at)
		require.True(t, ok, "%+v is not on the screen:\n%s", at, uitest.Frame(r))
		r.Update(tea.MouseClickMsg{X: a.x + a.w/2, Y: a.y, Button: tea.MouseLeft})
		r.Update(tea.MouseReleaseMsg{X: a.x + a.w/2, Y: a.y, Button: tea.MouseLeft})
	}
	played := 0
	for range 100 {
		st := current()
		if st.Phase != hub.TablePlaying {
			break
		}
		if st.Turn != 0 {
			clock.Advance(time.Second) // the computer's pace
			continue
		}
		card := screen.v.Hand[0]
		click(spot{kind: spHand, seat: 0, i: 0})
		click(spot{kind: spCentre})
		played++
		require.Eventually(t, func() bool {
			return strings.Contains(strings.Join(mustState(t, m).Log, "\n"), "ann played "+card.String())
		}, 10*time.Second, time.Millisecond, "the click played %v", card)
	}
	require.Equal(t, toygame.HandSize, played)
	st = current()
	require.Equal(t, hub.TableFinished, st.Phase)
	frame := uitest.Frame(r)
	require.Contains(t, frame, "wins the deal.", frame)
	require.Contains(t, frame, toygame.Title)
	res := <-results
	require.NoError(t, kit.Replay(res.Record))
}

func mustState(t *testing.T, m *hub.TableMember) hub.TableState {
	st, err := m.State()
	require.NoError(t, err)
	return st
}
