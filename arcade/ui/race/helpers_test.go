package race

import (
	"fmt"
	"math/rand/v2"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/solitaire"
	"sshuffle/engine"
	"sshuffle/internal/uitest"
)

// boards are the solitaire screen's, as the server's builder gives them.
var boards = BoardsOf(solitaire.DealEmbedded, solitaire.ResumeEmbedded, solitaire.WatchEmbedded)

// build builds the race and solitaire screens for real, as the server's
// builder does, and a page for the rest.
func build(e *ui.Env, r ui.Route) (ui.Screen, error) {
	switch r.Page {
	case ui.Race:
		return Open(e, r, boards)
	case ui.Play, ui.Daily:
		return solitaire.Open(e, r)
	case ui.Won:
		return solitaire.NewResult(e, r), nil
	}
	return uitest.Pages(e, r)
}

// playLegal makes a legal move of the game with the mouse, the way a
// player would: a click on the card, then one on the pile it goes to (the
// same card twice sends it home; the stock is tapped). It says what it did.
func playLegal(r *ui.Router, g Board, rnd *rand.Rand) string {
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
