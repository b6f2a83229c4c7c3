package table

import (
	"errors"

	"sshuffle/arcade/ui"
)

// Still is a table game's drawing shown from views handed to it, with no
// table behind it: a replay's. It takes no keys (nothing is played), so it
// never acts and never asks for another screen; Show hands it the next
// view to draw.
type Still struct {
	d     Drawing
	inner ui.Screen
}

// NewStill draws game's view (decoded by the game's kit) under c.
func NewStill(e *ui.Env, game string, c Common, view any) (*Still, error) {
	d, ok := drawingOf(game)
	if !ok {
		return nil, errNoDrawing
	}
	inner, err := d.New(e, Config[any]{Table: c.Table}, c, view)
	if err != nil {
		return nil, err
	}
	return &Still{d: d, inner: inner}, nil
}

// Show draws view under c from now on.
func (s *Still) Show(c Common, view any) error {
	msg, err := s.d.State(c, view)
	if err != nil {
		return err
	}
	if s.inner == nil {
		return errors.New("no drawing")
	}
	s.inner.Update(msg)
	return nil
}

// View is the table as the seat's screen draws it.
func (s *Still) View() string { return s.inner.View() }
