package arcade

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/klondike"
	"sshuffle/store"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func testEnv(t testing.TB) (*env, *fakeClock) {
	t.Helper()
	st, err := store.OpenInMemory()
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	clk := &fakeClock{t: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	id := "SHA256:testkey"
	_, err = st.CreateAccount(id, "tess")
	require.NoError(t, err)
	return &env{
		games: games.Default(), store: st, log: slog.New(slog.DiscardHandler), now: clk.now,
		player: &player{ID: id, Name: "tess"}, unicode: true, color: true,
		width: 80, height: 24, idle: 30 * time.Minute,
	}, clk
}

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
	_ = s.view()
	for y, row := range s.canvas.hits {
		for x, h := range row {
			if h.ok && h.pile == pile && h.index == index {
				return x, y + s.boardTop
			}
		}
	}
	t.Fatalf("pile %d index %d is not on screen", pile, index)
	return 0, 0
}

func press(s screen, key string) screen {
	var k tea.KeyPressMsg
	switch key {
	case "enter":
		k = tea.KeyPressMsg{Code: tea.KeyEnter}
	case "space":
		k = tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "esc":
		k = tea.KeyPressMsg{Code: tea.KeyEscape}
	case "left":
		k = tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		k = tea.KeyPressMsg{Code: tea.KeyRight}
	case "up":
		k = tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		k = tea.KeyPressMsg{Code: tea.KeyDown}
	default:
		k = tea.KeyPressMsg{Code: rune(key[0]), Text: key}
	}
	next, _ := s.update(k)
	return next
}

func clickAt(s screen, x, y int) screen {
	next, _ := s.update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
	next, _ = next.update(tea.MouseReleaseMsg{X: x, Y: y, Button: tea.MouseLeft})
	return next
}

func TestKeyboardWinRecordsBeforeResult(t *testing.T) {
	e, clk := testEnv(t)
	s := newGameScreen(e, klondikeInfo(), nearWin(t), nil)
	clk.t = clk.t.Add(95 * time.Second)
	// Cursor starts on column 1 (the King); go right to the Queen.
	require.Equal(t, klondike.PileTableau0, s.cursor.pile)
	var sc screen = press(s, "l")
	require.Equal(t, klondike.PileTableau0+1, s.cursor.pile)
	sc = press(sc, "f") // Queen home
	require.Equal(t, 1, s.g.Moves())
	sc = press(sc, "h")
	sc = press(sc, "space")
	sc = press(sc, "space") // the same card twice: home
	res, ok := sc.(*resultScreen)
	require.True(t, ok, "a win shows the result screen, got %T", sc)
	st, err := e.store.StatsFor(e.player.ID, "klondike/draw1")
	require.NoError(t, err)
	require.Equal(t, 1, st.Won)
	require.Equal(t, 95*time.Second, st.BestTime)
	v := res.view()
	require.Contains(t, v, "You won")
	require.Contains(t, v, "Moves  2")
	require.Contains(t, v, "1:35")
}

func TestMouseClickDragAndDoubleClick(t *testing.T) {
	e, _ := testEnv(t)
	s := newGameScreen(e, klondikeInfo(), nearWin(t), nil)
	spadesFoundation := klondike.PileFoundation0 + 3

	// Click the Queen, then a wrong place: an illegal move, board unchanged.
	x, y := cellOf(t, s, klondike.PileTableau0+1, 0)
	var sc screen = clickAt(s, x, y)
	require.True(t, s.sel.ok)
	x2, y2 := cellOf(t, s, klondike.PileTableau0+2, -1) // the empty third column
	sc = clickAt(sc, x2, y2)
	require.Equal(t, 0, s.g.Moves())
	require.Equal(t, msgErr, s.kind)
	require.Contains(t, s.view(), s.msg)
	require.NotEmpty(t, s.msg)

	// Drag the Queen onto its foundation.
	x, y = cellOf(t, s, klondike.PileTableau0+1, 0)
	fx, fy := cellOf(t, s, spadesFoundation, 10)
	sc, _ = sc.update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
	sc, _ = sc.update(tea.MouseMotionMsg{X: fx, Y: fy, Button: tea.MouseLeft})
	sc, _ = sc.update(tea.MouseReleaseMsg{X: fx, Y: fy, Button: tea.MouseLeft})
	require.Equal(t, 1, s.g.Moves(), s.msg)

	// Double-click the King: home, and the game is won.
	x, y = cellOf(t, s, klondike.PileTableau0, 0)
	sc = clickAt(sc, x, y)
	sc = clickAt(sc, x, y)
	_, ok := sc.(*resultScreen)
	require.True(t, ok, "double-click sends the King home and wins; got %T (%s)", sc, s.msg)
}

func TestUndoRestartNewAndSave(t *testing.T) {
	e, _ := testEnv(t)
	info := klondikeInfo()
	s, err := dealNew(e, info)
	require.NoError(t, err)
	var sc screen = press(s, "d")
	require.Equal(t, 1, s.g.Moves())
	sc = press(sc, "u")
	require.Equal(t, 0, s.g.Moves())
	sc = press(sc, "u")
	require.Contains(t, s.msg, "Nothing to undo")
	sc = press(sc, "d")
	sc = press(sc, "d")
	// Leaving saves; opening again resumes the same deal and moves.
	sc = press(sc, "q")
	_, ok := sc.(*menu)
	require.True(t, ok)
	r, err := openGame(e, info)
	require.NoError(t, err)
	require.Equal(t, s.g.Spec(), r.g.Spec())
	require.Equal(t, 2, r.g.Moves())
	require.Contains(t, r.msg, "Resumed")

	// n asks first, then deals anew and counts the old game as played.
	var rs screen = press(r, "n")
	require.Same(t, r, rs)
	rs = press(rs, "n")
	require.NotSame(t, r, rs)
	st, err := e.store.StatsFor(e.player.ID, info.Key())
	require.NoError(t, err)
	require.Equal(t, 1, st.Played)
	require.Equal(t, 0, st.Won)
}

func TestCorruptSaveLosesNothingElse(t *testing.T) {
	e, _ := testEnv(t)
	info := klondikeInfo()
	require.NoError(t, e.store.PutSave(e.player.ID, info.Key(), []byte("{not json")))
	s, err := openGame(e, info)
	require.NoError(t, err)
	require.Equal(t, msgWarn, s.kind)
	require.Contains(t, s.msg, "could not be restored")
	require.Equal(t, 0, s.g.Moves())

	// A save whose moves don't replay is refused the same way.
	bad := `{"v":1,"spec":"klondike/draw1/5","actions":[{"k":0,"f":99,"i":0,"t":3}],"elapsed":0}`
	require.NoError(t, e.store.PutSave(e.player.ID, info.Key(), []byte(bad)))
	s, err = openGame(e, info)
	require.NoError(t, err)
	require.Contains(t, s.msg, "does not replay")
}

func TestTooSmallAndResize(t *testing.T) {
	e, _ := testEnv(t)
	a := &app{env: e, cur: newMenu(e), lastInput: e.now()}
	s, err := dealNew(e, klondikeInfo())
	require.NoError(t, err)
	a.cur = s
	a.Update(tea.WindowSizeMsg{Width: 40, Height: 10})
	require.Contains(t, a.View().Content, "Make the window at least")
	// Narrow: the message wraps, and the sizes stay whole.
	a.Update(tea.WindowSizeMsg{Width: 24, Height: 10})
	v := a.View().Content
	for _, l := range strings.Split(v, "\n") {
		require.LessOrEqual(t, lipgloss.Width(l), 24, "%q", l)
	}
	require.Contains(t, strings.ReplaceAll(v, "\n", " "), "(it is 24x10 now)")
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	v = a.View().Content
	require.Contains(t, v, "Klondike")
	require.LessOrEqual(t, len(strings.Split(v, "\n")), 24)
	// A zero size (a closing channel) is ignored, not obeyed.
	a.Update(tea.WindowSizeMsg{Width: 0, Height: 0})
	require.Equal(t, 80, e.width)
}

func TestPlainTerminalShowsLettersAndBrackets(t *testing.T) {
	require.False(t, wantsUnicode([]string{"LANG=C"}))
	require.False(t, wantsUnicode([]string{"LC_ALL=POSIX", "LANG=en_US.UTF-8"}))
	require.True(t, wantsUnicode([]string{"LANG=en_US.UTF-8"}))
	require.True(t, wantsUnicode(nil))

	e, _ := testEnv(t)
	e.unicode, e.color = false, false
	s := newGameScreen(e, klondikeInfo(), nearWin(t), nil)
	v := s.view()
	require.Contains(t, v, "[ KS]", "black cards in square brackets, suit letters")
	require.Contains(t, v, "( KH)", "red cards in round brackets")
	require.NotContains(t, v, "♠")
	require.NotContains(t, v, "\x1b[3", "no colour codes without colour")
}

func TestIdleTimeoutQuits(t *testing.T) {
	e, clk := testEnv(t)
	a := &app{env: e, cur: newMenu(e), lastInput: e.now()}
	_, cmd := a.Update(idleCheckMsg{})
	require.NotNil(t, cmd)
	require.False(t, a.quitting)
	clk.t = clk.t.Add(31 * time.Minute)
	a.Update(idleCheckMsg{})
	require.True(t, a.quitting)
	require.Contains(t, a.View().Content, "without a key press")
}

func TestSanitize(t *testing.T) {
	require.Equal(t, "evil[31mname", sanitize("evil\x1b[31mname\r\n\x07", 40))
	require.Equal(t, "abc", sanitize("abcdef", 3))
}

func TestFreeCellDealNumberAndOptions(t *testing.T) {
	e, _ := testEnv(t)
	info, ok := games.Default().Entry("freecell")
	require.True(t, ok)
	s, err := dealNew(e, info)
	require.NoError(t, err)
	require.True(t, s.opts.On("auto"), "safe auto-moves are on by default")
	require.False(t, s.opts.On("return"))
	seed := s.g.Spec().Seed
	require.True(t, seed >= 1 && seed <= 32000 && seed != 11982)

	var sc screen = s
	for _, k := range []string{"#", "6", "1", "7", "enter"} {
		sc = press(sc, k)
	}
	g := sc.(*gameScreen)
	require.Equal(t, uint64(617), g.g.Spec().Seed)

	sc = press(sc, "#")
	for _, k := range []string{"9", "9", "9", "9", "9", "9", "9", "enter"} {
		sc = press(sc, k)
	}
	require.Equal(t, uint64(617), sc.(*gameScreen).g.Spec().Seed, "out of range: refused")
	require.Equal(t, msgErr, sc.(*gameScreen).kind)

	// A refused number leaves a game in progress alone: not counted lost.
	sc = press(sc, "1")
	sc = press(sc, "space")
	sc = press(sc, "k")
	sc = press(sc, "space")
	require.Equal(t, 1, sc.(*gameScreen).g.Moves())
	sc = press(sc, "#")
	for _, k := range []string{"2", "0", "0", "0", "0", "0", "0", "enter"} {
		sc = press(sc, k)
	}
	require.Equal(t, 1, sc.(*gameScreen).g.Moves())
	require.Equal(t, msgErr, sc.(*gameScreen).kind, "FreeCell deals stop at 1,000,000")
	st, err := e.store.StatsFor(e.player.ID, "freecell")
	require.NoError(t, err)
	require.Zero(t, st.Played)

	// Options: turn safe auto-moves off; the next deal has them off.
	sc = press(sc, "o")
	_, isOpts := sc.(*optionsScreen)
	require.True(t, isOpts)
	sc = press(sc, "space")
	sc = press(sc, "esc")
	require.Same(t, g, sc)
	require.True(t, g.opts.On("auto"), "the game in progress keeps its options")
	n, err := dealNew(e, info)
	require.NoError(t, err)
	require.False(t, n.opts.On("auto"))
}

func TestHints(t *testing.T) {
	e, _ := testEnv(t)
	// Klondike: answered at once, counted, and a seventh is refused.
	s, err := dealSpec(e, klondikeInfo(), engine.Spec{Game: "klondike", Variant: "draw1", Seed: 5})
	require.NoError(t, err)
	var sc screen = press(s, "t")
	require.Equal(t, msgOK, s.kind, s.msg)
	require.Contains(t, s.msg, "Hint 1/6")
	s.hints = hintsPerGame
	press(sc, "t")
	require.Contains(t, s.msg, "No hints left")

	// FreeCell: worked out off the screen's goroutine, then shown.
	info, _ := games.Default().Entry("freecell")
	f, err := dealSpec(e, info, engine.Spec{Game: "freecell", Seed: 617})
	require.NoError(t, err)
	_, cmd := f.update(tea.KeyPressMsg{Code: 't', Text: "t"})
	require.NotNil(t, cmd)
	require.Contains(t, f.msg, "Looking for a hint")
	msg := cmd()
	f.update(msg)
	require.Equal(t, msgOK, f.kind, f.msg)
	require.Contains(t, f.msg, "Hint 1/6")
	// An answer for a position that has changed since is dropped.
	stale := msg.(hintMsg)
	stale.moves = 99
	f.msg = ""
	f.update(stale)
	require.Empty(t, f.msg)
}

func TestSpiderStuckCheckRunsAside(t *testing.T) {
	e, _ := testEnv(t)
	info, _ := games.Default().Entry("spider/1suit")
	s, err := dealSpec(e, info, engine.Spec{Game: "spider", Variant: "1suit", Seed: 3})
	require.NoError(t, err)
	_, cmd := s.do(engine.Action{Kind: engine.Draw})
	require.NotNil(t, cmd, "the check comes back as a message")
	m := cmd().(stuckMsg)
	require.Equal(t, 1, m.moves)
	require.False(t, m.stuck, "a fresh deal with a row dealt is not stuck")
	// A stuck verdict for the current position is shown; one for an older
	// position is not.
	s.update(stuckMsg{screen: s, moves: 0, stuck: true})
	require.Empty(t, s.msg)
	s.update(stuckMsg{screen: s, moves: 1, stuck: true})
	require.Contains(t, s.msg, "No move can change this position")
}

func TestTodaysDealStreakAndBoards(t *testing.T) {
	e, clk := testEnv(t)
	e.pools = NewPools(games.Default(), slog.New(slog.DiscardHandler))
	info, _ := games.Default().Entry("tripeaks")
	a, err := openDaily(e, info)
	require.NoError(t, err)
	require.True(t, a.daily)
	require.True(t, a.g.Spec().Winnable, "today's deal is a solver-won one")

	// Another player gets the same deal.
	e2 := *e
	e2.player = &player{ID: "SHA256:other", Name: "otto"}
	b, err := openDaily(&e2, info)
	require.NoError(t, err)
	require.Equal(t, a.g.Spec(), b.g.Spec())

	// Win it by following the solver, then: a daily result, a streak, a board.
	r := info.Game.Solve(a.g.Spec(), 1_000_000)
	require.Equal(t, engine.Solved, r.Outcome)
	var sc screen = a
	for _, m := range r.Moves {
		sc, _ = sc.(*gameScreen).do(m)
	}
	_, won := sc.(*resultScreen)
	require.True(t, won)
	st, err := e.store.Streak(e.player.ID, info.Key(), clk.t)
	require.NoError(t, err)
	require.Equal(t, 1, st.Current)
	require.Contains(t, newProfile(e).view(), "1/1", "the profile shows the streak")
	v := newBoard(e, info, newMenu(e)).view()
	require.Contains(t, v, "tess")
	require.Contains(t, v, "Your streak: 1 day")

	// A daily game in progress is saved apart from an ordinary one.
	c, err := openDaily(&e2, info)
	require.NoError(t, err)
	c.do(engine.Action{Kind: engine.Draw})
	c.leave()
	_, err = e.store.GetSave("SHA256:other", "tripeaks#daily")
	require.NoError(t, err)
	_, err = e.store.GetSave("SHA256:other", "tripeaks")
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
	e := &env{log: slog.New(slog.NewTextHandler(&buf, nil)), player: &player{Name: "ann"}}
	failed := hintMsg{moves: 7, failed: true}
	msg := recovering(e, "hint", failed, func() tea.Msg { panic("boom") })()
	require.Equal(t, failed, msg)
	require.Contains(t, buf.String(), "hint panic")
	require.Contains(t, buf.String(), "boom")
	require.Contains(t, buf.String(), "player=ann")
	ok := hintMsg{moves: 8, ok: true}
	require.Equal(t, ok, recovering(e, "hint", failed, func() tea.Msg { return ok })())
}
