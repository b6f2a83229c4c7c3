package solitaire

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/deals"
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/klondike"
	"sshuffle/internal/uitest"
	"sshuffle/store"
)

func klondikeInfo() games.Entry { return games.Default().Entries()[0] }

// nearWin: everything home but the Queen and King of spades, which sit in
// columns 1 and 2.
func nearWin(t *testing.T) *klondike.Game {
	t.Helper()
	var l klondike.Layout
	for i, s := range []engine.Suit{engine.Clubs, engine.Diamonds, engine.Hearts, engine.Spades} {
		top := engine.King
		if s == engine.Spades {
			top = engine.Jack
		}
		for r := engine.Ace; r <= top; r++ {
			l.Foundations[i] = append(l.Foundations[i], engine.NewCard(r, s))
		}
	}
	l.Columns[0] = []engine.Card{engine.NewCard(engine.King, engine.Spades)}
	l.Columns[1] = []engine.Card{engine.NewCard(engine.Queen, engine.Spades)}
	g, err := klondike.NewFromLayout(l)
	require.NoError(t, err)
	return g
}

// cellOf finds the screen cell showing card index of pile, after a render.
func cellOf(t *testing.T, s *gameScreen, pile, index int) (int, int) {
	t.Helper()
	_ = s.View()
	for y := range s.canvas.Height() {
		for x := range s.canvas.Width() {
			if h := s.canvas.At(x, y); h.OK && h.Pile == pile && h.Index == index {
				return x, y + s.boardTop
			}
		}
	}
	t.Fatalf("pile %d index %d is not on screen", pile, index)
	return 0, 0
}

// build builds this package's screens for real and a page for the rest.
func build(e *ui.Env, r ui.Route) (ui.Screen, error) {
	switch r.Page {
	case ui.Play, ui.Daily:
		return Open(e, r)
	case ui.Won:
		return NewResult(e, r), nil
	}
	return uitest.Pages(e, r)
}

// drive puts a screen in a router, as a session has it.
func drive(s ui.Screen) *ui.Router {
	var e *ui.Env
	switch s := s.(type) {
	case *gameScreen:
		e = s.env
	case *resultScreen:
		e = s.env
	}
	return ui.NewRouter(e, build, s, "")
}

func TestKeyboardWinRecordsBeforeResult(t *testing.T) {
	e, clk := uitest.Env(t)
	s := newGameScreen(e, klondikeInfo(), nearWin(t), nil)
	clk.T = clk.T.Add(95 * time.Second)
	// Cursor starts on column 1 (the King); go right to the Queen.
	require.Equal(t, klondike.PileTableau0, s.cursor.Pile)
	rt := drive(s)
	uitest.Press(rt, "l")
	require.Equal(t, klondike.PileTableau0+1, s.cursor.Pile)
	uitest.Press(rt, "f") // Queen home
	require.Equal(t, 1, s.g.Moves())
	uitest.Press(rt, "h")
	uitest.Press(rt, "space")
	sc := uitest.Press(rt, "space") // the same card twice: home
	res, ok := sc.(*resultScreen)
	require.True(t, ok, "a win shows the result screen, got %T", sc)
	require.True(t, s.done, "and the game it leaves has nothing left to save")
	st, err := e.Store.StatsFor(e.Ctx(), e.Player.ID, "klondike/draw1")
	require.NoError(t, err)
	require.Equal(t, 1, st.Won)
	require.Equal(t, 95*time.Second, st.BestTime)
	v := res.View()
	require.Contains(t, v, "You won")
	require.Contains(t, v, "Moves  2")
	require.Contains(t, v, "1:35")
}

func TestMouseClickDragAndDoubleClick(t *testing.T) {
	e, _ := uitest.Env(t)
	s := newGameScreen(e, klondikeInfo(), nearWin(t), nil)
	spadesFoundation := klondike.PileFoundation0 + 3

	// Click the Queen, then a wrong place: an illegal move, board unchanged.
	x, y := cellOf(t, s, klondike.PileTableau0+1, 0)
	rt := drive(s)
	uitest.Click(rt, x, y)
	require.True(t, s.sel.OK)
	x2, y2 := cellOf(t, s, klondike.PileTableau0+2, -1) // the empty third column
	uitest.Click(rt, x2, y2)
	require.Equal(t, 0, s.g.Moves())
	require.Equal(t, ui.ToneErr, s.kind)
	require.Contains(t, s.View(), s.msg)
	require.NotEmpty(t, s.msg)

	// Drag the Queen onto its foundation.
	x, y = cellOf(t, s, klondike.PileTableau0+1, 0)
	fx, fy := cellOf(t, s, spadesFoundation, 10)
	uitest.Send(rt, tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
	uitest.Send(rt, tea.MouseMotionMsg{X: fx, Y: fy, Button: tea.MouseLeft})
	sc := uitest.Send(rt, tea.MouseReleaseMsg{X: fx, Y: fy, Button: tea.MouseLeft})
	require.Same(t, s, sc)
	require.Equal(t, 1, s.g.Moves(), s.msg)

	// Double-click the King: home, and the game is won.
	x, y = cellOf(t, s, klondike.PileTableau0, 0)
	uitest.Click(rt, x, y)
	sc = uitest.Click(rt, x, y)
	_, ok := sc.(*resultScreen)
	require.True(t, ok, "double-click sends the King home and wins; got %T (%s)", sc, s.msg)
}

func TestUndoRestartNewAndSave(t *testing.T) {
	e, _ := uitest.Env(t)
	info := klondikeInfo()
	s, err := dealNew(e, info)
	require.NoError(t, err)
	rt := drive(s)
	sc := uitest.Press(rt, "d")
	require.Same(t, s, sc)
	require.Equal(t, 1, s.g.Moves())
	uitest.Press(rt, "u")
	require.Equal(t, 0, s.g.Moves())
	uitest.Press(rt, "u")
	require.Contains(t, s.msg, "Nothing to undo")
	uitest.Press(rt, "d")
	uitest.Press(rt, "d")
	// Leaving saves; opening again resumes the same deal and moves.
	sc = uitest.Press(rt, "q")
	require.Equal(t, ui.Menu, uitest.PageOf(t, sc).Page)
	r, err := openGame(e, info)
	require.NoError(t, err)
	require.Equal(t, s.g.Spec(), r.g.Spec())
	require.Equal(t, 2, r.g.Moves())
	require.Contains(t, r.msg, "Resumed")

	// n asks first, then deals anew and counts the old game as played.
	rt = drive(r)
	rs := uitest.Press(rt, "n")
	require.Same(t, r, rs)
	rs = uitest.Press(rt, "n")
	require.NotSame(t, r, rs)
	_, isGame := rs.(*gameScreen)
	require.True(t, isGame, "a new deal of the same game, got %T", rs)
	st, err := e.Store.StatsFor(e.Ctx(), e.Player.ID, info.Key())
	require.NoError(t, err)
	require.Equal(t, 1, st.Played)
	require.Equal(t, 0, st.Won)
}

func TestCorruptSaveLosesNothingElse(t *testing.T) {
	e, _ := uitest.Env(t)
	info := klondikeInfo()
	require.NoError(t, e.Store.PutSave(e.Ctx(), e.Player.ID, info.Key(), []byte("{not json")))
	s, err := openGame(e, info)
	require.NoError(t, err)
	require.Equal(t, ui.ToneWarn, s.kind)
	require.Contains(t, s.msg, "could not be restored")
	require.Equal(t, 0, s.g.Moves())

	// A save whose moves don't replay is refused the same way.
	bad := `{"v":1,"spec":"klondike/draw1/5","actions":[{"k":0,"f":99,"i":0,"t":3}],"elapsed":0}`
	require.NoError(t, e.Store.PutSave(e.Ctx(), e.Player.ID, info.Key(), []byte(bad)))
	s, err = openGame(e, info)
	require.NoError(t, err)
	require.Contains(t, s.msg, "does not replay")
}

func TestPlainTerminalShowsLettersAndBrackets(t *testing.T) {
	e, _ := uitest.Env(t)
	e.Unicode, e.Color = false, false
	s := newGameScreen(e, klondikeInfo(), nearWin(t), nil)
	v := s.View()
	require.Contains(t, v, "[ KS]", "black cards in square brackets, suit letters")
	require.Contains(t, v, "( KH)", "red cards in round brackets")
	require.NotContains(t, v, "♠")
	require.NotContains(t, v, "\x1b[3", "no colour codes without colour")
}

func TestFreeCellDealNumberAndOptions(t *testing.T) {
	e, _ := uitest.Env(t)
	info, ok := games.Default().Entry("freecell")
	require.True(t, ok)
	s, err := dealNew(e, info)
	require.NoError(t, err)
	require.True(t, s.opts.On("auto"), "safe auto-moves are on by default")
	require.False(t, s.opts.On("return"))
	seed := s.g.Spec().Seed
	require.True(t, seed >= 1 && seed <= 32000 && seed != 11982)

	rt := drive(s)
	var sc ui.Screen
	for _, k := range []string{"#", "6", "1", "7", "enter"} {
		sc = uitest.Press(rt, k)
	}
	g := sc.(*gameScreen)
	require.Equal(t, uint64(617), g.g.Spec().Seed)

	sc = uitest.Press(rt, "#")
	for _, k := range []string{"9", "9", "9", "9", "9", "9", "9", "enter"} {
		sc = uitest.Press(rt, k)
	}
	require.Equal(t, uint64(617), sc.(*gameScreen).g.Spec().Seed, "out of range: refused")
	require.Equal(t, ui.ToneErr, sc.(*gameScreen).kind)

	// A refused number leaves a game in progress alone: not counted lost.
	uitest.Press(rt, "1")
	uitest.Press(rt, "space")
	uitest.Press(rt, "k")
	sc = uitest.Press(rt, "space")
	require.Equal(t, 1, sc.(*gameScreen).g.Moves())
	sc = uitest.Press(rt, "#")
	for _, k := range []string{"2", "0", "0", "0", "0", "0", "0", "enter"} {
		sc = uitest.Press(rt, k)
	}
	require.Equal(t, 1, sc.(*gameScreen).g.Moves())
	require.Equal(t, ui.ToneErr, sc.(*gameScreen).kind, "FreeCell deals stop at 1,000,000")
	st, err := e.Store.StatsFor(e.Ctx(), e.Player.ID, "freecell")
	require.NoError(t, err)
	require.Zero(t, st.Played)

	// Options: o opens them over the game, esc comes back to it; with safe
	// auto-moves turned off there (the options screen's own test), the
	// next deal has them off.
	g = sc.(*gameScreen)
	sc = uitest.Press(rt, "o")
	require.Equal(t, ui.Options, uitest.PageOf(t, sc).Page)
	require.NoError(t, e.Store.PutSetting(e.Ctx(), e.Player.ID, ui.OptionKey(info, "auto"), games.Off))
	sc = uitest.Press(rt, "esc")
	require.Same(t, g, sc)
	require.True(t, g.opts.On("auto"), "the game in progress keeps its options")
	n, err := dealNew(e, info)
	require.NoError(t, err)
	require.False(t, n.opts.On("auto"))
}

func TestHints(t *testing.T) {
	e, _ := uitest.Env(t)
	// Klondike: answered at once, counted, and a seventh is refused.
	s, err := dealSpec(e, klondikeInfo(), engine.Spec{Game: "klondike", Variant: "draw1", Seed: 5})
	require.NoError(t, err)
	rt := drive(s)
	uitest.Press(rt, "t")
	require.Equal(t, ui.ToneOK, s.kind, s.msg)
	require.Contains(t, s.msg, "Hint 1/6")
	s.hints = ui.HintsPerGame
	uitest.Press(rt, "t")
	require.Contains(t, s.msg, "No hints left")

	// FreeCell: worked out off the screen's goroutine, then shown.
	info, _ := games.Default().Entry("freecell")
	f, err := dealSpec(e, info, engine.Spec{Game: "freecell", Seed: 617})
	require.NoError(t, err)
	cmd := f.Update(tea.KeyPressMsg{Code: 't', Text: "t"})
	require.NotNil(t, cmd)
	require.Contains(t, f.msg, "Looking for a hint")
	msg := cmd()
	f.Update(msg)
	require.Equal(t, ui.ToneOK, f.kind, f.msg)
	require.Contains(t, f.msg, "Hint 1/6")
	// An answer for a position that has changed since is dropped.
	stale := msg.(hintMsg)
	stale.moves = 99
	f.msg = ""
	f.Update(stale)
	require.Empty(t, f.msg)
}

func TestSpiderStuckCheckRunsAside(t *testing.T) {
	e, _ := uitest.Env(t)
	info, _ := games.Default().Entry("spider/1suit")
	s, err := dealSpec(e, info, engine.Spec{Game: "spider", Variant: "1suit", Seed: 3})
	require.NoError(t, err)
	cmd := s.do(engine.Action{Kind: engine.Draw})
	require.NotNil(t, cmd, "the check comes back as a message")
	m := cmd().(stuckMsg)
	require.Equal(t, 1, m.moves)
	require.False(t, m.stuck, "a fresh deal with a row dealt is not stuck")
	// A stuck verdict for the current position is shown; one for an older
	// position is not.
	s.Update(stuckMsg{screen: s, moves: 0, stuck: true})
	require.Empty(t, s.msg)
	s.Update(stuckMsg{screen: s, moves: 1, stuck: true})
	require.Contains(t, s.msg, "No move can change this position")
}

func TestTodaysDealStreakAndBoards(t *testing.T) {
	e, clk := uitest.Env(t)
	e.Pools = deals.NewPools(games.Default(), slog.New(slog.DiscardHandler))
	info, _ := games.Default().Entry("tripeaks")
	a, err := openDaily(e, info)
	require.NoError(t, err)
	require.True(t, a.daily)
	require.True(t, a.g.Spec().Winnable, "today's deal is a solver-won one")

	// Another player gets the same deal.
	e2 := *e
	e2.Player = &ui.Player{ID: "SHA256:other", Name: "otto"}
	b, err := openDaily(&e2, info)
	require.NoError(t, err)
	require.Equal(t, a.g.Spec(), b.g.Spec())

	// Win it by following the solver, then: a daily result, a streak, a board.
	r := info.Game.Solve(a.g.Spec(), 1_000_000)
	require.Equal(t, engine.Solved, r.Outcome)
	rt := drive(a)
	for _, m := range r.Moves {
		rt.Current().(*gameScreen).do(m)
		rt.Update(nil) // the router takes up the win's request for its page
	}
	res, won := rt.Current().(*resultScreen)
	require.True(t, won, "got %T", rt.Current())
	require.True(t, res.r.Daily, "a daily result")
	st, err := e.Store.Streak(e.Ctx(), e.Player.ID, info.Key(), clk.T)
	require.NoError(t, err)
	require.Equal(t, 1, st.Current)
	// The profile and the boards show it (their package's own test).

	// A daily game in progress is saved apart from an ordinary one.
	c, err := openDaily(&e2, info)
	require.NoError(t, err)
	c.do(engine.Action{Kind: engine.Draw})
	c.leave()
	_, err = e.Store.GetSave(e.Ctx(), "SHA256:other", "tripeaks#daily")
	require.NoError(t, err)
	_, err = e.Store.GetSave(e.Ctx(), "SHA256:other", "tripeaks")
	require.ErrorIs(t, err, store.ErrNotFound)
	d, err := openDaily(&e2, info)
	require.NoError(t, err)
	require.Equal(t, 1, d.g.Moves())
}

// A panic in work done off the screen's goroutine (a hint, a stuck check)
// is logged with its stack and turns into the command's failure message;
// the session goes on.
func TestRecoveringCommand(t *testing.T) {
	var buf strings.Builder
	e := &ui.Env{Log: slog.New(slog.NewTextHandler(&buf, nil)), Player: &ui.Player{Name: "ann"}}
	failed := hintMsg{moves: 7, failed: true}
	msg := recovering(e, "hint", failed, func() tea.Msg { panic("boom") })()
	require.Equal(t, failed, msg)
	require.Contains(t, buf.String(), "hint panic")
	require.Contains(t, buf.String(), "boom")
	require.Contains(t, buf.String(), "player=ann")
	ok := hintMsg{moves: 8, ok: true}
	require.Equal(t, ok, recovering(e, "hint", failed, func() tea.Msg { return ok })())
}

// A write the store refuses reaches the player as "not saved"
// (the session goes on), and the log as an error.
func TestFailedWritesSayNotSaved(t *testing.T) {
	var logs strings.Builder
	e, _ := uitest.Env(t)
	e.Log = slog.New(slog.NewTextHandler(&logs, nil))
	s, err := dealSpec(e, klondikeInfo(), engine.Spec{Game: "klondike", Variant: "draw1", Seed: 5})
	require.NoError(t, err)
	rt := drive(s)
	uitest.Press(rt, "d")
	require.NoError(t, e.Store.Close()) // every write fails from here on
	m := uitest.Press(rt, "q")
	require.Equal(t, ui.Menu, uitest.PageOf(t, m).Page)
	require.Contains(t, m.View(), "Not saved", "the menu says so")
	require.Contains(t, logs.String(), "level=ERROR msg=\"saving game\"")

	g := nearWin(t)
	w := &gameScreen{env: e, info: klondikeInfo(), g: g, start: e.Now()}
	w.win()
	rt = drive(w)
	rt.Update(nil)
	require.Contains(t, rt.Current().View(), "Not saved")
	require.Contains(t, logs.String(), "level=ERROR msg=\"recording result\"")
}
