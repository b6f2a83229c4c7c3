package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/internal/historytest"
	"sshuffle/internal/uitest"
	"sshuffle/store"
)

var at = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func router(e *ui.Env, s ui.Screen) *ui.Router { return ui.NewRouter(e, uitest.Pages, s, "") }

// tableGame records a finished Spite game of tess (seat 0) against bob.
func tableGame(t *testing.T, e *ui.Env, matchEnd bool) store.TableGame {
	kit, _ := e.Games.TableKit("spite")
	g := historytest.TableGame(t, kit, "SPITE", 7, 2, at, store.Account{ID: e.Player.ID, Name: "tess"},
		store.Account{ID: "SHA256:bob", Name: "bob"})
	g.MatchEnd = matchEnd
	require.NoError(t, e.Store.RecordTableGame(context.Background(), g))
	return g
}

// drawn records what the replay hands the table drawing; its frame says
// which seat's view it was given (the view's own seat), the note, and
// the cards in the seat's hand as the kit encodes them.
type drawn struct {
	views []any
	notes []string
}

// seatOf is the seat a view was made for, from its encoding.
func seatOf(t *testing.T, e *ui.Env, game string, v any) string {
	kit, _ := e.Games.TableKit(game)
	b, err := kit.EncodeView(v)
	require.NoError(t, err)
	var m struct {
		Seat int             `json:"seat"`
		Hand json.RawMessage `json:"hand"`
	}
	require.NoError(t, json.Unmarshal(b, &m))
	return fmt.Sprintf("seat %d hand %s", m.Seat, m.Hand)
}

func (d *drawn) draw(t *testing.T) TableDrawing {
	return func(e *ui.Env, g store.TableGame, note string, over bool, view any) (string, error) {
		d.views, d.notes = append(d.views, view), append(d.notes, note)
		// Laid out as the table screen is: the table, empty lines, the
		// note, then two key bars (which the replay drops).
		lines := []string{g.Game, seatOf(t, e, g.Game, view)}
		if over {
			lines = append(lines, "over")
		}
		for len(lines) < 21 {
			lines = append(lines, "")
		}
		return strings.Join(append(lines, note, "bar 1", "bar 2"), "\n"), nil
	}
}

func open(t *testing.T, e *ui.Env, id string) *ui.Router {
	d := &drawn{}
	s, err := Open(e, ui.Route{Page: ui.Replay, ID: id}, d.draw(t))
	require.NoError(t, err)
	return router(e, s)
}

// A finished table game replays action by action to its last, in the
// window, from the player's own seat.
func TestTableReplaysToItsEnd(t *testing.T) {
	e, _ := uitest.Env(t)
	g := tableGame(t, e, true)
	r := open(t, e, store.TableGameID(g))
	first := uitest.Frame(r)
	uitest.Fits(t, first, 80, 24)
	n := strings.Count(string(mustActions(t, g)), `"do"`)
	require.Contains(t, first, "Move 0/")
	require.Contains(t, first, "Replay of game 1 at SPITE, from your seat.")
	uitest.Press(r, "right")
	require.Contains(t, uitest.Frame(r), "Move 1/")
	uitest.Press(r, "end")
	last := uitest.Frame(r)
	require.Contains(t, last, "Move "+itoa(n)+"/"+itoa(n)+" ")
	uitest.Fits(t, last, 80, 24)
	require.NotEqual(t, first, last)
	require.Contains(t, last, "\nover\n", "the last action is the game's end")
	require.NotContains(t, first, "\nover\n")
	uitest.Press(r, "left")
	require.Contains(t, uitest.Frame(r), "Move "+itoa(n-1)+"/")
	uitest.Press(r, "home")
	require.Equal(t, first, uitest.Frame(r), "back at the start, the same frame")
	for i := 0; i < n; i++ {
		uitest.Press(r, "right")
		uitest.Fits(t, uitest.Frame(r), 80, 24)
	}
	require.Equal(t, last, uitest.Frame(r), "one action at a time reaches the same end")
}

func mustActions(t *testing.T, g store.TableGame) []byte {
	t.Helper()
	i := strings.Index(string(g.Record), `"actions"`)
	require.GreaterOrEqual(t, i, 0)
	return g.Record[i:]
}

func itoa(n int) string { return strconv.Itoa(n) }

// Once the match is over, tab shows another seat's view (its hand); while
// the match goes on, only the player's own seat is shown: tab changes
// nothing, and no other seat can be chosen.
func TestTableReplayHidesWhatTheSeatCouldNotSee(t *testing.T) {
	for _, over := range []bool{true, false} {
		e, _ := uitest.Env(t)
		g := tableGame(t, e, over)
		r := open(t, e, store.TableGameID(g))
		mine := uitest.Frame(r)
		uitest.Press(r, "tab")
		other := uitest.Frame(r)
		require.Contains(t, mine, "seat 0 hand [")
		// Once the match is over the note shows the other seat's hand as
		// that seat's own view has it.
		if over {
			s, err := Open(e, ui.Route{ID: store.TableGameID(g)}, (&drawn{}).draw(t))
			require.NoError(t, err)
			game, err := s.(*screen).t.(*tableTape).game(0)
			require.NoError(t, err)
			hand, ok := handOf(game.View(1))
			require.True(t, ok)
			require.NotEmpty(t, hand)
			words := []string{}
			for _, c := range hand {
				words = append(words, c.Label(true))
			}
			require.Contains(t, mine, "bob's hand: "+strings.Join(words, " "))
		} else {
			require.NotContains(t, mine, "'s hand:")
		}
		if over {
			require.Contains(t, other, "seat 1 hand [", "the match is over: another seat's view, its hand")
			require.NotEqual(t, mine, other)
			require.Contains(t, other, "from bob's seat")
			require.Contains(t, mine, "tab another seat")
			continue
		}
		require.Equal(t, mine, other, "the match goes on: only the player's seat")
		require.NotContains(t, mine, "another seat")
		require.Equal(t, []int{0}, MaySee(g, e.Player.ID))
	}
	g := store.TableGame{Seats: []store.TableSeat{{Account: "a"}, {Account: "b"}, {Strength: "easy"}}}
	require.Nil(t, MaySee(g, "c"), "nobody else may replay it")
	g.MatchEnd = true
	require.Equal(t, []int{0, 1, 2}, MaySee(g, "b"))
}

// The view of one seat never holds the other seat's hand: the kit's
// views, from which the replay draws, are the seats' own.
func TestTableReplayViewIsTheSeats(t *testing.T) {
	e, _ := uitest.Env(t)
	g := tableGame(t, e, false)
	d := &drawn{}
	s, err := Open(e, ui.Route{ID: store.TableGameID(g)}, d.draw(t))
	require.NoError(t, err)
	tt := s.(*screen).t.(*tableTape)
	kit, _ := e.Games.TableKit("spite")
	spec, _ := engine.ParseSpec(g.Spec)
	m, err := kit.NewMatch(spec, 2)
	require.NoError(t, err)
	want, err := kit.DecodeView(m.Game().View(0))
	require.NoError(t, err)
	got, err := tt.view(0)
	require.NoError(t, err)
	require.Equal(t, want, got, "at the start: seat 0's view of the deal")
}

// Someone else's game, or no game, is refused with a sentence.
func TestReplayRefusesOthersGames(t *testing.T) {
	e, _ := uitest.Env(t)
	ctx := context.Background()
	r := store.Result{Account: "SHA256:bob", Spec: "klondike/draw1/3", Key: "klondike/draw1", Moves: 1, Finished: at, Abandoned: true}
	require.NoError(t, e.Store.RecordResult(ctx, r))
	_, err := Open(e, ui.Route{ID: store.ResultID(r)}, nil)
	require.ErrorContains(t, err, "There is no game")
	_, err = Open(e, ui.Route{ID: "nonsense"}, nil)
	require.ErrorContains(t, err, "There is no game")
}

// A solitaire replays its kept moves on its deal, at their pace: space
// plays, each tick one move, and the end is the game's last position.
func TestSolitaireReplaysAtItsPace(t *testing.T) {
	e, _ := uitest.Env(t)
	ctx := context.Background()
	res := store.Result{Account: e.Player.ID, Spec: "klondike/draw1/3", Key: "klondike/draw1", Moves: 3, Finished: at,
		Abandoned: true, Actions: []engine.Action{{Kind: engine.Draw}, {Kind: engine.Draw}, {Kind: engine.Draw}},
		Times: []time.Duration{time.Second, 3 * time.Second, 4 * time.Second}}
	require.NoError(t, e.Store.RecordResult(ctx, res))
	r := open(t, e, store.ResultID(res))
	f := uitest.Frame(r)
	uitest.Fits(t, f, 80, 24)
	require.Contains(t, f, "Move 0/3 ")
	s := r.Current().(*screen)
	cmd := s.press("space")
	require.NotNil(t, cmd)
	require.Contains(t, uitest.Frame(r), "playing")
	for i := 1; i <= 3; i++ {
		uitest.Send(r, tickMsg{s: s, gen: s.gen})
		require.Contains(t, uitest.Frame(r), "Move "+itoa(i)+"/3 ")
	}
	require.Contains(t, uitest.Frame(r), "paused", "it stops at the end")
	require.Contains(t, uitest.Frame(r), "moves 3")
	uitest.Send(r, tickMsg{s: s, gen: s.gen - 1})
	require.Contains(t, uitest.Frame(r), "Move 3/3 ", "a stale tick changes nothing")
	// The pace: the second move came 2 s after the first.
	s.pos = 1
	s.playing = true
	require.NotNil(t, s.next())
}

// A race replays the chosen racer's board beside the panel of every
// racer's progress as it went; tab shows the other racer's board; the
// end shows the places.
func TestRaceReplaysBoardAndPanel(t *testing.T) {
	e, _ := uitest.Env(t)
	ctx := context.Background()
	_, err := e.Store.CreateAccount(ctx, "SHA256:bob", "bob")
	require.NoError(t, err)
	rec := store.RaceRecord{Code: "RACEX", Spec: "klondike/draw1/3", Key: "klondike/draw1", Started: at.Add(-time.Minute), Finished: at,
		Racers: []store.RaceRacer{
			{Account: "SHA256:bob", Name: "bob", Place: 1, Status: "won", Time: 50 * time.Second, Moves: 3, Home: 52, Total: 52},
			{Account: e.Player.ID, Name: "tess", Status: "gave up", Time: 40 * time.Second, Moves: 2, Home: 0, Total: 52},
		}}
	draws := func(n int) []engine.Action { return make([]engine.Action, n) }
	for i, who := range []string{"SHA256:bob", e.Player.ID} {
		n := 3 - i
		acts := draws(n)
		for j := range acts {
			acts[j].Kind = engine.Draw
		}
		var tl []store.Step
		for j := 1; j <= n; j++ {
			tl = append(tl, store.Step{At: time.Duration(10*j+i) * time.Second, Moves: j})
		}
		require.NoError(t, e.Store.RecordResult(ctx, store.Result{Account: who, Spec: rec.Spec, Key: rec.Key, Moves: n,
			Finished: at, Abandoned: i == 1, Won: i == 0, Total: 52, Timeline: tl, Actions: acts}))
	}
	require.NoError(t, e.Store.RecordRace(ctx, rec))
	r := open(t, e, store.RaceID(rec))
	f := uitest.Frame(r)
	uitest.Fits(t, f, 80, 24)
	require.Contains(t, f, "Race RACEX  0:00")
	require.Contains(t, f, ">2 tess (you)", "the player's own board first")
	require.Contains(t, f, "tess's board")
	require.Contains(t, f, "Move 0/6 ", "five moments of progress and the end")
	uitest.Press(r, "tab")
	f = uitest.Frame(r)
	require.Contains(t, f, ">1 bob")
	require.Contains(t, f, "bob's board")
	uitest.Press(r, "right", "right")
	f = uitest.Frame(r)
	require.Contains(t, f, "Race RACEX  0:11")
	require.Contains(t, f, "0/52 1mv", "each racer one move in at 0:11")
	uitest.Press(r, "$")
	f = uitest.Frame(r)
	uitest.Fits(t, f, 80, 24)
	require.Contains(t, f, "Race RACEX  end")
	require.Contains(t, f, "52/52 1st 0:50")
	require.Contains(t, f, "gave up")
}
