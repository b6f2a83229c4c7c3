package table

import (
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/store"
)

// Still draws one view of a finished game's seat as the seat's screen
// draws it, with no table behind it: a replay's frame (the arcade hands
// it to the replay screen, which may not import this package). The
// screen is built for the one frame and takes no keys, so it never acts
// and never asks for another screen. note is the line under the table;
// over: the record's last action, when the outcome is shown.
func Still(e *ui.Env, g store.TableGame, note string, over bool, view any) (string, error) {
	d, ok := drawingOf(g.Game)
	if !ok {
		return "", errNoDrawing
	}
	c := Common{Table: g.Code, Note: note}
	for _, s := range g.Seats {
		c.Seats = append(c.Seats, Seat{Name: s.Name, Computer: s.Strength != personSeat, Strength: s.Strength})
	}
	c.MatchWinner = engine.NoSeat
	if over && g.MatchEnd {
		c.MatchOver, c.MatchWinner = true, g.MatchWinner
	}
	s, err := d.New(e, Config[any]{Table: g.Code}, c, view)
	if err != nil {
		return "", err
	}
	return s.View(), nil
}

// personSeat is the strength word of a person's seat in a stored game.
const personSeat = "person"
