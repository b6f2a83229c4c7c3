package race

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/solitaire"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/store/badger"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func testEnv(t testing.TB) (*ui.Env, *fakeClock) {
	t.Helper()
	st, err := badger.OpenInMemory()
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	clk := &fakeClock{t: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	id := "SHA256:testkey"
	_, err = st.CreateAccount(context.Background(), id, "tess")
	require.NoError(t, err)
	return &ui.Env{
		Games: games.Default(), Store: st, Log: slog.New(slog.DiscardHandler), Now: clk.now,
		Player: &ui.Player{ID: id, Name: "tess"}, Unicode: true, Color: true,
		Width: 80, Height: 24, Idle: 30 * time.Minute,
	}, clk
}

// page stands for a screen of another package: it keeps the route it was
// asked for, and esc goes back.
type page struct {
	env *ui.Env
	r   ui.Route
}

func (p *page) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "esc" {
		return p.env.Back()
	}
	return nil
}
func (p *page) View() string        { return fmt.Sprintf("page %d: %s", p.r.Page, p.r.Note) }
func (p *page) MinSize() (int, int) { return 1, 1 }

// build builds the race and solitaire screens for real and a page for the
// rest.
func build(e *ui.Env, r ui.Route) (ui.Screen, error) {
	switch r.Page {
	case ui.Race:
		return Open(e, r)
	case ui.Play, ui.Daily:
		return solitaire.Open(e, r)
	case ui.Won:
		return solitaire.NewResult(e, r), nil
	}
	return &page{env: e, r: r}, nil
}

func keyMsg(key string) tea.KeyPressMsg {
	switch key {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	}
	return tea.KeyPressMsg{Code: rune(key[0]), Text: key}
}

// playLegal makes a legal move of the game with the mouse, the way a
// player would: a click on the card, then one on the pile it goes to (the
// same card twice sends it home; the stock is tapped). It says what it did.
func playLegal(r *ui.Router, g *solitaire.Embedded, rnd *rand.Rand) string {
	piles := g.Game().Piles()
	var legal []engine.Action
	c, ok := g.Replay()
	try := func(a engine.Action) {
		if ok && c.Do(a) == nil {
			legal = append(legal, a)
			c, ok = g.Replay() // Do leaves a game as it was only when it refuses
		}
	}
	for from, p := range piles {
		for i := max(p.FaceDown, 0); i < len(p.Cards); i++ {
			try(engine.Action{Kind: engine.Auto, From: from, Index: i})
			for to := range piles {
				if to != from {
					try(engine.Action{Kind: engine.Move, From: from, Index: i, To: to})
				}
			}
		}
	}
	if len(legal) == 0 || rnd.IntN(6) == 0 {
		try(engine.Action{Kind: engine.Draw})
	}
	if len(legal) == 0 {
		return "no legal move"
	}
	a := legal[rnd.IntN(len(legal))]
	click := func(x, y int) {
		r.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
		r.Update(tea.MouseReleaseMsg{X: x, Y: y, Button: tea.MouseLeft})
	}
	switch a.Kind {
	case engine.Draw:
		for i, p := range piles {
			if p.Kind == engine.Stock {
				if x, y, ok := g.CellOf(i, -2); ok {
					click(x, y)
					return "legal draw"
				}
			}
		}
	case engine.Auto:
		if x, y, ok := g.CellOf(a.From, a.Index); ok {
			click(x, y)
			click(x, y)
			return fmt.Sprintf("legal auto %d/%d", a.From, a.Index)
		}
	case engine.Move:
		x, y, ok := g.CellOf(a.From, a.Index)
		x2, y2, ok2 := g.CellOf(a.To, -2)
		if ok && ok2 {
			click(x, y)
			click(x2, y2)
			return fmt.Sprintf("legal move %d/%d to %d", a.From, a.Index, a.To)
		}
	}
	return "legal move not on screen"
}

// frameSteps times b.N frames: clock turns (the clock a second on, then the
// view alone, as ui.Ticking draws them) or cursor keys, right then left.
func frameSteps(b *testing.B, clock bool, clk *fakeClock, update func(tea.Msg), view func()) {
	right := tea.KeyPressMsg{Code: tea.KeyRight}
	left := tea.KeyPressMsg{Code: tea.KeyLeft}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		switch {
		case clock:
			clk.t = clk.t.Add(time.Second)
		case i%2 == 0:
			update(right)
		default:
			update(left)
		}
		view()
	}
}
