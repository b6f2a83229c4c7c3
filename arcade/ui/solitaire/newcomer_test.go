package solitaire

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/deals"
	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/board"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/uitest"
	"sshuffle/store"
)

func entry(t *testing.T, key string) games.Entry {
	t.Helper()
	e, ok := games.Default().Entry(key)
	require.True(t, ok, key)
	return e
}

// plain is the screen as a terminal with no styles at all (TERM=dumb)
// shows it: the router's frame with every escape code stripped.
func plain(rt *ui.Router) string { return ansi.Strip(rt.View().Content) }

// Without colour, what is held and where the cursor is show in the text:
// marks beside the cards and a line naming what is held.
func TestHeldCardAndCursorShowWithoutColour(t *testing.T) {
	e, _ := uitest.Env(t)
	e.Color = false
	s := newGameScreen(e, klondikeInfo(), nearWin(t), nil)
	rt := drive(s)
	v := plain(rt)
	require.Contains(t, v, ">[ K♠]<", "the cursor, on column 1")
	require.NotContains(t, v, "Holding")

	uitest.Press(rt, "space") // pick up the King
	v = plain(rt)
	require.Contains(t, v, ">[ K♠]*", "held and under the cursor")
	require.Contains(t, v, "Holding K♠:")
	uitest.Press(rt, "l")
	v = plain(rt)
	require.Contains(t, v, "*[ K♠]*", "held")
	require.Contains(t, v, ">[ Q♠]<", "the cursor moved on")
	require.Contains(t, v, "Holding K♠")

	uitest.Press(rt, "esc")
	v = plain(rt)
	require.NotContains(t, v, "*[ K♠]")
	require.Contains(t, v, "Put back.")
	require.Same(t, s, rt.Current(), "esc with a card held only puts it back")

	// A run: the top card and how many ride on it.
	g, err := klondikeInfo().Game.New(engine.Spec{Game: "klondike", Variant: "draw1", Seed: 3}, nil)
	require.NoError(t, err)
	s2 := newGameScreen(e, klondikeInfo(), g, nil)
	rt2 := drive(s2)
	piles := s2.g.Piles()
	for i, p := range piles {
		if p.Kind == engine.Tableau && len(p.Cards)-p.FaceDown >= 1 {
			s2.sel = board.Hit{Pile: i, Index: p.FaceDown, OK: true}
			s2.cursor = s2.sel
			break
		}
	}
	require.Contains(t, plain(rt2), "Holding "+piles[s2.sel.Pile].Cards[s2.sel.Index].String())

	// With colour the marks stay out of the way: styles carry them.
	e.Color = true
	require.NotContains(t, plain(rt), ">[")
}

// The piles' own keys: w the waste, c a free cell (again: the next), a a
// foundation; digits are columns, or in TriPeaks and Pyramid the free
// cards from the left.
func TestKeysGoToEachPileKind(t *testing.T) {
	e, _ := uitest.Env(t)
	kinds := func(s *gameScreen) engine.PileKind { return s.g.Piles()[s.cursor.Pile].Kind }

	k, err := dealNew(e, klondikeInfo())
	require.NoError(t, err)
	rt := drive(k)
	uitest.Press(rt, "w")
	require.Equal(t, engine.Waste, kinds(k))
	uitest.Press(rt, "a")
	require.Equal(t, engine.Foundation, kinds(k))
	first := k.cursor.Pile
	uitest.Press(rt, "a")
	require.Equal(t, engine.Foundation, kinds(k))
	require.NotEqual(t, first, k.cursor.Pile, "a again: the next foundation")
	uitest.Press(rt, "7")
	require.Equal(t, engine.Tableau, kinds(k))
	uitest.Press(rt, "9")
	require.Contains(t, k.msg, "no column 9", "a digit past the columns says so")

	fc, err := dealNew(e, entry(t, "freecell"))
	require.NoError(t, err)
	rt = drive(fc)
	uitest.Press(rt, "c")
	require.Equal(t, engine.Cell, kinds(fc))
	c1 := fc.cursor.Pile
	uitest.Press(rt, "c")
	require.Equal(t, engine.Cell, kinds(fc))
	require.NotEqual(t, c1, fc.cursor.Pile)
	uitest.Press(rt, "8")
	require.Equal(t, engine.Tableau, kinds(fc))

	for _, key := range []string{"tripeaks", "pyramid"} {
		s, err := dealNew(e, entry(t, key))
		require.NoError(t, err)
		rt := drive(s)
		idx, columns := places(s.g.Piles())
		require.False(t, columns, key)
		require.NotEmpty(t, idx, key)
		for n := 1; n <= min(len(idx), 9); n++ {
			uitest.Press(rt, fmt.Sprint(n))
			require.Equal(t, idx[n-1], s.cursor.Pile, "%s: digit %d", key, n)
			p := s.g.Piles()[s.cursor.Pile]
			require.False(t, p.Blocked, "%s: a free card", key)
		}
		// And the digit picks a card that plays: space on it takes it up.
		uitest.Press(rt, "1")
		uitest.Press(rt, "space")
		require.True(t, s.sel.OK || s.msg != "", key)
		uitest.Press(rt, "w")
		require.Equal(t, engine.Waste, kinds(s), key)
	}
}

// Each game's bar offers its own keys and no others.
func TestEachGamesBarOffersItsOwnKeys(t *testing.T) {
	e, _ := uitest.Env(t)
	bars := map[string]string{}
	for _, info := range games.Default().Entries() {
		if !info.Playable() {
			continue
		}
		s, err := dealNew(e, info)
		require.NoError(t, err)
		bar, more := s.keyBars(false)
		bars[info.Key()] = strings.Join(bar, " ") + " | " + strings.Join(more, " ")
	}
	require.NotContains(t, bars["freecell"], "d stock", "FreeCell has no stock")
	require.NotContains(t, bars["freecell"], "w waste")
	require.Contains(t, bars["freecell"], "c cell")
	require.Contains(t, bars["freecell"], "1-8 column")
	require.Contains(t, bars["klondike/draw1"], "d stock")
	require.Contains(t, bars["klondike/draw1"], "w waste")
	require.Contains(t, bars["klondike/draw1"], "1-7 column")
	require.NotContains(t, bars["klondike/draw1"], "c cell")
	require.Contains(t, bars["spider/1suit"], "1-0 column")
	require.NotContains(t, bars["spider/1suit"], "w waste")
	for _, k := range []string{"tripeaks", "pyramid"} {
		require.Contains(t, bars[k], "1-9 free card", k)
		require.NotContains(t, bars[k], "column", k)
		require.Contains(t, bars[k], "f play", k)
		require.NotContains(t, bars[k], "a foundation", k)
	}

	// And on the screen at 80x24, FreeCell's bottom line has no d.
	fc, err := dealNew(e, entry(t, "freecell"))
	require.NoError(t, err)
	lines := strings.Split(plain(drive(fc)), "\n")
	require.Len(t, lines, 24)
	require.NotContains(t, lines[23], "d ")
	require.Contains(t, lines[23], "u undo")
}

// A long message wraps at word boundaries onto lines of its own: all of
// it shows, and the key bar keeps the last line.
func TestLongMessageWrapsAndKeepsTheBar(t *testing.T) {
	e, _ := uitest.Env(t)
	s, err := dealNew(e, entry(t, "spider/4suit"))
	require.NoError(t, err)
	rt := drive(s)
	long := strings.Repeat("This sentence is long enough that it wraps over several lines of the screen. ", 3)
	s.setMsg(ui.ToneErr, strings.TrimSpace(long))
	lines := strings.Split(plain(rt), "\n")
	require.Len(t, lines, 24)
	require.Contains(t, lines[23], "u undo", "the key bar is the last line")
	text := strings.Join(lines, " ")
	require.Equal(t, 3, strings.Count(text, "several lines of the screen."), "no word of it is cut")
	for _, l := range lines {
		require.LessOrEqual(t, len([]rune(l)), 80)
	}
	require.NotContains(t, text, "…")
}

// A notice (the router's) wraps under the screen instead of covering its
// last line, the game's key bar.
func TestNoticeDoesNotCoverTheKeyBar(t *testing.T) {
	e, _ := uitest.Env(t)
	s, err := dealNew(e, klondikeInfo())
	require.NoError(t, err)
	notice := "Guest: nothing is saved. Connect with a key (ssh-keygen -t ed25519) to keep stats."
	rt := ui.NewRouter(e, build, s, notice)
	lines := strings.Split(plain(rt), "\n")
	require.Len(t, lines, 24)
	require.Equal(t, notice, strings.TrimSpace(lines[22])+" "+strings.TrimSpace(lines[23]), "the notice whole, on the last lines")
	require.Contains(t, lines[21], "u undo", "the key bar above it")
}

// An empty stock is drawn as an empty place.
func TestEmptyStockLooksEmpty(t *testing.T) {
	e, _ := uitest.Env(t)
	e.Color = false
	s, err := dealNew(e, klondikeInfo())
	require.NoError(t, err)
	rt := drive(s)
	for range 24 {
		uitest.Press(rt, "d")
	}
	require.Equal(t, 24, s.g.Moves())
	top := strings.Split(plain(rt), "\n")[1]
	require.NotContains(t, top, "[0")
	require.True(t, strings.HasPrefix(strings.TrimSpace(top), "[   ]"), top)
}

// Esc drops what is held, then leaves for the menu without asking when
// the game is kept; a guest, whose game is not kept, is asked once.
func TestEscAndLeavingAskOnlyWhenSomethingIsLost(t *testing.T) {
	e, _ := uitest.Env(t)
	s, err := dealNew(e, klondikeInfo())
	require.NoError(t, err)
	rt := drive(s)
	uitest.Press(rt, "d")
	uitest.Press(rt, "space")
	require.True(t, s.sel.OK)
	require.Same(t, s, uitest.Press(rt, "esc"))
	require.False(t, s.sel.OK)
	require.Equal(t, ui.Menu, uitest.PageOf(t, uitest.Press(rt, "esc")).Page, "nothing is lost: no question")

	e.Player = &ui.Player{Name: "guest", Guest: true}
	g, err := dealNew(e, klondikeInfo())
	require.NoError(t, err)
	rt = drive(g)
	require.Equal(t, ui.Menu, uitest.PageOf(t, uitest.Press(rt, "q")).Page, "a guest at move 0 loses nothing")
	g, err = dealNew(e, klondikeInfo())
	require.NoError(t, err)
	rt = drive(g)
	uitest.Press(rt, "d")
	require.Same(t, g, uitest.Press(rt, "q"))
	require.Contains(t, g.msg, "A guest's game is not kept")
	require.Same(t, g, uitest.Press(rt, "u"), "any other key plays on")
	uitest.Press(rt, "d")
	require.Same(t, g, uitest.Press(rt, "esc"))
	require.Equal(t, ui.Menu, uitest.PageOf(t, uitest.Press(rt, "esc")).Page, "asked once, then it leaves")
}

// Undo back to move 0, leave, come back: move 0, not the old save.
func TestUndoToMoveZeroThenLeaveComesBackAtZero(t *testing.T) {
	e, _ := uitest.Env(t)
	s, err := dealNew(e, klondikeInfo())
	require.NoError(t, err)
	rt := drive(s)
	uitest.Press(rt, "d")
	uitest.Press(rt, "d")
	uitest.Press(rt, "q")
	r, err := openGame(e, klondikeInfo())
	require.NoError(t, err)
	require.Equal(t, 2, r.g.Moves())
	rt = drive(r)
	uitest.Press(rt, "u")
	uitest.Press(rt, "u")
	require.Equal(t, 0, r.g.Moves())
	uitest.Press(rt, "q")
	again, err := openGame(e, klondikeInfo())
	require.NoError(t, err)
	require.Equal(t, s.g.Spec(), again.g.Spec(), "the same deal")
	require.Equal(t, 0, again.g.Moves(), "at move 0")

	// And n at move 0 drops that save: the new deal is what comes back.
	rt = drive(again)
	uitest.Press(rt, "n")
	fresh := rt.Current().(*gameScreen)
	require.NotEqual(t, s.g.Spec(), fresh.g.Spec())
	uitest.Press(rt, "q")
	back, err := openGame(e, klondikeInfo())
	require.NoError(t, err)
	require.NotEqual(t, s.g.Spec(), back.g.Spec(), "the old deal's save does not outlive it")
}

// A second session of the account opening the same game takes it over
// with every move the first made, saved or not; the first is told and
// can no longer move or save over it.
func TestSecondSessionTakesTheGameOver(t *testing.T) {
	e1, _ := uitest.Env(t)
	e1.Holds = ui.NewHolds()
	e2 := *e1
	e2.Player = &ui.Player{ID: e1.Player.ID, Name: e1.Player.Name}

	a, err := Open(e1, ui.Route{Page: ui.Play, Game: klondikeInfo()})
	require.NoError(t, err)
	ra := drive(a)
	uitest.Press(ra, "d")
	uitest.Press(ra, "d")
	uitest.Press(ra, "d")
	_, err = e1.Store.GetSave(e1.Ctx(), e1.Player.ID, klondikeInfo().Key())
	require.ErrorIs(t, err, store.ErrNotFound, "nothing saved yet: the moves live in session 1 only")

	b, err := Open(&e2, ui.Route{Page: ui.Play, Game: klondikeInfo()})
	require.NoError(t, err)
	gb := b.(*gameScreen)
	require.Equal(t, a.(*gameScreen).g.Spec(), gb.g.Spec())
	require.Equal(t, 3, gb.g.Moves(), "every move of session 1")
	require.Contains(t, gb.msg, "Resumed")

	// Session 1 is told at its next key (or clock tick) and refuses moves.
	ga := a.(*gameScreen)
	uitest.Press(ra, "d")
	require.Equal(t, 3, ga.g.Moves(), "the move does not stand")
	require.Contains(t, plain(ra), "continued in another session")
	rb := drive(gb)
	uitest.Press(rb, "d")
	require.Equal(t, 4, gb.g.Moves())
	// Session 1 leaving or closing saves nothing over it.
	ra.Close()
	require.Equal(t, ui.Menu, uitest.PageOf(t, uitest.Press(ra, "q")).Page)
	uitest.Press(rb, "q")
	c, err := openGame(e1, klondikeInfo())
	require.NoError(t, err)
	require.Equal(t, 4, c.g.Moves(), "session 2's game, with every move")

	// The next frame, a clock turn drawn with no message, tells session 1
	// too, without a key; and its clock stops.
	x, err := Open(e1, ui.Route{Page: ui.Play, Game: klondikeInfo()})
	require.NoError(t, err)
	rx := drive(x)
	require.Positive(t, x.(*gameScreen).NextChange())
	_, err = Open(&e2, ui.Route{Page: ui.Play, Game: klondikeInfo()})
	require.NoError(t, err)
	require.Contains(t, plain(rx), "continued in another session")
	require.Zero(t, x.(*gameScreen).NextChange())
}

// A game left for a new deal is abandoned: played, not a best score.
func TestAbandonedGameIsNoBestScore(t *testing.T) {
	e, _ := uitest.Env(t)
	info := entry(t, "tripeaks")
	s, err := dealNew(e, info)
	require.NoError(t, err)
	rt := drive(s)
	for i := 0; i < 20 && s.g.Score() <= 0; i++ {
		a, _, ok := s.g.Hint()
		if !ok {
			break
		}
		s.do(a)
		rt.Update(nil)
	}
	uitest.Press(rt, "d")
	require.NotZero(t, s.g.Moves())
	uitest.Press(rt, "n")
	uitest.Press(rt, "n")
	st, err := e.Store.StatsFor(e.Ctx(), e.Player.ID, info.Key())
	require.NoError(t, err)
	require.Equal(t, 1, st.Played)
	require.Equal(t, 1, st.Abandoned)
	require.Zero(t, st.Won)
	require.Zero(t, st.BestScore)
	board, err := e.Store.Board(e.Ctx(), info.Key(), "", 10)
	require.NoError(t, err)
	require.Empty(t, board)
}

// The win screen of today's deal shows the streak it makes.
func TestDailyWinShowsTheStreak(t *testing.T) {
	e, _ := uitest.Env(t)
	e.Pools = deals.NewPools(games.Default(), slog.New(slog.DiscardHandler))
	info := entry(t, "tripeaks")
	a, err := openDaily(e, info)
	require.NoError(t, err)
	r := info.Game.Solve(a.g.Spec(), 1_000_000)
	require.Equal(t, engine.Solved, r.Outcome)
	rt := drive(a)
	for _, m := range r.Moves {
		rt.Current().(*gameScreen).do(m)
		rt.Update(nil)
	}
	v := plain(rt)
	require.Contains(t, v, "You won TriPeaks")
	require.Contains(t, v, "Today's deal won: a streak of 1 day in a row (best 1).")

	// An ordinary deal's win says nothing of streaks.
	b, err := dealSpec(e, info, a.g.Spec())
	require.NoError(t, err)
	rt = drive(b)
	for _, m := range r.Moves {
		rt.Current().(*gameScreen).do(m)
		rt.Update(nil)
	}
	require.NotContains(t, plain(rt), "streak")
}
