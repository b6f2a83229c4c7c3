package solitaire

import (
	"log/slog"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/deals"
	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/board"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/klondike"
	"sshuffle/games/tripeaks"
	"sshuffle/internal/uitest"
)

// keyPath finds the shortest run of cursor keys that brings the cursor to
// a card of pile (any card when index < 0 is not required), by searching
// over the cursor positions the screen's own navigation reaches.
func keyPath(t *testing.T, s *gameScreen, pile, index int, anyIndex bool) []string {
	t.Helper()
	keys := []string{"h", "j", "k", "l", "1", "2", "3", "4", "5", "6", "7", "8", "9", "0"}
	start := s.cursor
	defer func() { s.cursor = start }()
	type node struct {
		h    board.Hit
		path []string
	}
	seen := map[board.Hit]bool{start: true}
	queue := []node{{h: start}}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n.h.Pile == pile && (anyIndex || n.h.Index == index) {
			return n.path
		}
		for _, k := range keys {
			s.cursor = n.h
			switch {
			case k == "h":
				s.moveCursor(-1, 0)
			case k == "l":
				s.moveCursor(1, 0)
			case k == "k":
				s.moveCursor(0, -1)
			case k == "j":
				s.moveCursor(0, 1)
			default:
				s.jumpPlace(int(k[0] - '0'))
			}
			if !seen[s.cursor] {
				seen[s.cursor] = true
				queue = append(queue, node{h: s.cursor, path: append(append([]string(nil), n.path...), k)})
			}
		}
	}
	t.Fatalf("the cursor can't reach pile %d index %d", pile, index)
	return nil
}

func solvedKlondike(t *testing.T) (engine.Spec, []engine.Action) {
	t.Helper()
	for seed := uint64(1); seed < 50; seed++ {
		spec := engine.Spec{Game: "klondike", Variant: "draw1", Seed: seed}
		r := klondike.Solve(spec, 300_000)
		if r.Outcome == engine.Solved {
			return spec, r.Moves
		}
	}
	t.Fatal("no solved deal")
	return engine.Spec{}, nil
}

// A whole deal played to a win with the keyboard alone.
func TestWholeKlondikeByKeyboard(t *testing.T) {
	spec, moves := solvedKlondike(t)
	e, _ := uitest.Env(t)
	g, err := klondike.New(spec)
	require.NoError(t, err)
	s := newGameScreen(e, klondikeInfo(), g, nil)
	rt := drive(s)
	var sc ui.Screen = s
	for i, a := range moves {
		_, isGame := sc.(*gameScreen)
		require.True(t, isGame, "won before the last move (%d of %d)", i, len(moves))
		before := len(s.g.History())
		switch a.Kind {
		case engine.Draw:
			sc = uitest.Press(rt, "d")
		case engine.Auto:
			for _, k := range keyPath(t, s, a.From, a.Index, false) {
				uitest.Press(rt, k)
			}
			sc = uitest.Press(rt, "f")
		default:
			for _, k := range keyPath(t, s, a.From, a.Index, false) {
				uitest.Press(rt, k)
			}
			uitest.Press(rt, "space")
			for _, k := range keyPath(t, s, a.To, 0, true) {
				uitest.Press(rt, k)
			}
			sc = uitest.Press(rt, "space")
		}
		if _, still := sc.(*gameScreen); still {
			require.Equal(t, before+1, len(s.g.History()), "move %d (%+v): %s", i, a, s.msg)
		}
	}
	_, won := sc.(*resultScreen)
	require.True(t, won, "the last move wins")
}

// The same deal with the mouse alone: clicks, drags and double clicks.
func TestWholeKlondikeByMouse(t *testing.T) {
	spec, moves := solvedKlondike(t)
	e, _ := uitest.Env(t)
	e.Height = 40 // tall enough that no column folds a card away from the mouse
	g, err := klondike.New(spec)
	require.NoError(t, err)
	s := newGameScreen(e, klondikeInfo(), g, nil)
	rt := drive(s)
	var sc ui.Screen = s
	for i, a := range moves {
		before := len(s.g.History())
		switch a.Kind {
		case engine.Draw:
			x, y := cellOf(t, s, klondike.PileStock, len(s.g.Piles()[klondike.PileStock].Cards)-1)
			sc = uitest.Click(rt, x, y)
		case engine.Auto:
			x, y := cellOf(t, s, a.From, a.Index)
			uitest.Click(rt, x, y)
			sc = uitest.Click(rt, x, y)
		default:
			x, y := cellOf(t, s, a.From, a.Index)
			tx, ty := cellOf(t, s, a.To, len(s.g.Piles()[a.To].Cards)-1)
			if i%2 == 0 {
				uitest.Click(rt, x, y)
				sc = uitest.Click(rt, tx, ty)
			} else { // drag
				uitest.Send(rt, tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
				uitest.Send(rt, tea.MouseMotionMsg{X: tx, Y: ty, Button: tea.MouseLeft})
				sc = uitest.Send(rt, tea.MouseReleaseMsg{X: tx, Y: ty, Button: tea.MouseLeft})
			}
		}
		if _, still := sc.(*gameScreen); still {
			require.Equal(t, before+1, len(s.g.History()), "move %d (%+v): %s", i, a, s.msg)
		}
	}
	_, won := sc.(*resultScreen)
	require.True(t, won, "the last move wins")
}

// Every solitaire, one solver-won deal each, played to a win by mouse.
func TestEveryGameWonByMouse(t *testing.T) {
	for _, info := range games.Default().Entries() {
		if info.Game.Solve == nil || info.Game.New == nil || info.Variant.Name == "4suit" {
			continue
		}
		t.Run(info.Key(), func(t *testing.T) {
			var spec engine.Spec
			var moves []engine.Action
			for seed := uint64(1); seed < 40 && moves == nil; seed++ {
				spec = engine.Spec{Game: info.Game.Name, Variant: info.Variant.Name, Seed: seed}
				if r := info.Game.Solve(spec, 300_000); r.Outcome == engine.Solved {
					moves = r.Moves
				}
			}
			require.NotNil(t, moves, "no deal solved")
			e, _ := uitest.Env(t)
			e.Height = 60
			g, err := info.Game.New(spec, ui.LoadOptions(e, info))
			require.NoError(t, err)
			s := newGameScreen(e, info, g, nil)
			rt := drive(s)
			var sc ui.Screen = s
			stock := -1
			for i, p := range g.Piles() {
				if p.Kind == engine.Stock {
					stock = i
				}
			}
			for i, a := range moves {
				before := len(s.g.History())
				switch a.Kind {
				case engine.Draw:
					x, y := cellOf(t, s, stock, len(s.g.Piles()[stock].Cards)-1)
					sc = uitest.Click(rt, x, y)
				case engine.Auto:
					x, y := cellOf(t, s, a.From, len(s.g.Piles()[a.From].Cards)-1)
					if a.Index >= 0 && a.Index < len(s.g.Piles()[a.From].Cards) {
						x, y = cellOf(t, s, a.From, a.Index)
					}
					uitest.Click(rt, x, y)
					sc = uitest.Click(rt, x, y)
				default:
					from := s.g.Piles()[a.From]
					idx := a.Index
					if from.Fan != engine.FanDown {
						idx = len(from.Cards) - 1
					}
					x, y := cellOf(t, s, a.From, idx)
					uitest.Click(rt, x, y)
					if a.To != a.From {
						x, y = cellOf(t, s, a.To, len(s.g.Piles()[a.To].Cards)-1)
					}
					sc = uitest.Click(rt, x, y)
				}
				if _, still := sc.(*gameScreen); still {
					require.Greater(t, len(s.g.History()), before, "move %d (%+v): %s", i, a, s.msg)
				}
			}
			_, won := sc.(*resultScreen)
			require.True(t, won, "the last move wins")
		})
	}
}

// Every game's opening layout fits 80x24 without folding.
func TestEveryGameFits80x24(t *testing.T) {
	for _, info := range games.Default().Entries() {
		if info.Game.New == nil {
			continue
		}
		g, err := info.Game.New(info.Spec(3), games.Options{})
		require.NoError(t, err)
		w, h := board.Size(g.Piles())
		require.LessOrEqual(t, w, 80, info.Key())
		require.LessOrEqual(t, h, 24-4, info.Key())
		e, _ := uitest.Env(t)
		s := newGameScreen(e, info, g, nil)
		mw, mh := s.MinSize()
		require.LessOrEqual(t, mw, 80, info.Key())
		require.LessOrEqual(t, mh, 24, info.Key())
		require.LessOrEqual(t, len(strings.Split(s.View(), "\n")), 24, info.Key())
	}
}

func TestWinnableDealsAreSolverWon(t *testing.T) {
	e, _ := uitest.Env(t)
	e.Pools = deals.NewPools(games.Default(), slog.New(slog.DiscardHandler))
	info, ok := games.Default().Entry("tripeaks")
	require.True(t, ok)
	for range 5 {
		s, err := dealNew(e, info)
		require.NoError(t, err)
		spec := s.g.Spec()
		require.True(t, spec.Winnable, "winnable deals are on by default")
		require.Equal(t, engine.Solved, tripeaks.Solve(spec, 2_000_000).Outcome, "%v", spec)
	}
	// Off: a random deal, not marked winnable.
	require.NoError(t, e.Store.PutSetting(e.Ctx(), e.Player.ID, "tripeaks.winnable", "off"))
	s, err := dealNew(e, info)
	require.NoError(t, err)
	require.False(t, s.g.Spec().Winnable)
}
