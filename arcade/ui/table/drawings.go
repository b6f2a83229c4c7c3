package table

import (
	"fmt"
	"sync"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/ui"
)

// Drawing is how the table screen draws one game: it builds the game's
// screen from the first state that has a view, and turns each later state
// into the message that screen takes. Views arrive decoded by the game's
// kit, as the game package's own values. Each game's drawing registers
// itself, from its own file, under the game's name, so the page finds it
// by the name a table's state carries and no code lists the games.
type Drawing struct {
	New   func(e *ui.Env, cfg Config[any], first Common, view any) (ui.Screen, error)
	State func(c Common, view any) (tea.Msg, error)
}

var (
	drawingsMu sync.RWMutex
	drawings   = map[string]Drawing{}
)

// Register makes d the drawing of the game called name.
func Register(name string, d Drawing) {
	drawingsMu.Lock()
	defer drawingsMu.Unlock()
	drawings[name] = d
}

// drawingOf is the drawing registered for the game called name.
func drawingOf(name string) (Drawing, bool) {
	drawingsMu.RLock()
	defer drawingsMu.RUnlock()
	d, ok := drawings[name]
	return d, ok
}

// DrawingOf is the Drawing of a game's screen written in the game's own
// types: newScreen builds it from its first state, and state makes a state
// of it from the common part and the view.
func DrawingOf[A, V any, S ui.Screen, M tea.Msg](newScreen func(*ui.Env, Config[A], M) S, state func(Common, V) M) Drawing {
	viewOf := func(view any) (V, error) {
		v, ok := view.(V)
		if !ok {
			var zero V
			return zero, fmt.Errorf("a view of %T reached the screen of %T", view, zero)
		}
		return v, nil
	}
	return Drawing{
		New: func(e *ui.Env, cfg Config[any], first Common, view any) (ui.Screen, error) {
			v, err := viewOf(view)
			if err != nil {
				return nil, err
			}
			typed := Config[A]{Table: cfg.Table, Game: cfg.Game, Leave: cfg.Leave, Rematch: cfg.Rematch, Decline: cfg.Decline, Phrases: cfg.Phrases}
			if act := cfg.Act; act != nil {
				typed.Act = func(a A) { act(a) }
			}
			return newScreen(e, typed, state(first, v)), nil
		},
		State: func(c Common, view any) (tea.Msg, error) {
			v, err := viewOf(view)
			if err != nil {
				return nil, err
			}
			return state(c, v), nil
		},
	}
}
