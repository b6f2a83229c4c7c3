package race

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games"
)

// Board is a solitaire played inside the race screen: the racer's own game
// or a followed racer's board. The host draws around it and records the
// result itself. The solitaire screen's embedded game is one; the race
// takes its makers from whoever builds the screens, so that the two screen
// packages never import each other.
type Board interface {
	// Update plays a key, a click or a result worked out aside.
	Update(msg tea.Msg) tea.Cmd
	MinSize() (int, int)
	// Game is the game being played, to read; moves go through Update.
	Game() engine.Solitaire
	// Encode is the game as a save, for the room to keep and show.
	Encode() ([]byte, error)
	// OnMove has f called after every change of the position.
	OnMove(f func())
	// Finish stops the game: nothing more is saved, its clock stops.
	Finish()
	// Home is how many cards are home now, Total how many there are.
	Home() int
	Total() int
	// BoardWidth is the width the board is drawn in; Reserve keeps w
	// columns free at its right for the host.
	BoardWidth() int
	Reserve(w int)
	// RestLines are the lines under the header, each string kept while
	// the line is the same; KeyBars the two key bars as "key", "what"
	// pairs; Version grows with every change of the position.
	RestLines() []string
	KeyBars() (bar, more []string)
	Version() uint64
	// Replay is a copy of the game to try moves on; CellOf is where a
	// card was last drawn (for a driver playing with the mouse); Forget
	// drops what is kept between frames.
	Replay() (engine.Solitaire, bool)
	CellOf(pile, index int) (x, y int, ok bool)
	Forget()
}

// Boards makes the boards of a race: a new deal, a game resumed from its
// save, and someone else's board from theirs, to be looked at. Keep, when
// set, is handed the racer's game after each report the room took, for
// the server to keep while the race runs: a room does not outlive the
// server, and a game in it should. It must be quick (it runs in the
// session's update) and must not keep Save's bytes past the next call
// changing them (they are not changed: each report encodes anew).
type Boards struct {
	Deal   func(e *ui.Env, info games.Entry, spec engine.Spec) (Board, error)
	Resume func(e *ui.Env, info games.Entry, save []byte) (Board, error)
	Watch  func(e *ui.Env, info games.Entry, save []byte) (Board, error)
	Keep   func(k Kept)
}

// Kept is a racer's game in a running race, as the screen reports it.
type Kept struct {
	Code    string
	Spec    engine.Spec
	Key     string    // where the game is kept as a save ("klondike/draw1")
	Started time.Time // when the race started, as near as the screen knows
	Account string
	Save    []byte
	Moves   int
	Done    bool // the racer's race is over: won, ended or given up
}

// BoardsOf is Boards from makers of one concrete board type.
func BoardsOf[B Board](
	deal func(*ui.Env, games.Entry, engine.Spec) (B, error),
	resume, watch func(*ui.Env, games.Entry, []byte) (B, error),
) Boards {
	from := func(e *ui.Env, info games.Entry, data []byte, f func(*ui.Env, games.Entry, []byte) (B, error)) (Board, error) {
		b, err := f(e, info, data)
		if err != nil {
			return nil, err
		}
		return b, nil
	}
	return Boards{
		Deal: func(e *ui.Env, info games.Entry, spec engine.Spec) (Board, error) {
			b, err := deal(e, info, spec)
			if err != nil {
				return nil, err
			}
			return b, nil
		},
		Resume: func(e *ui.Env, info games.Entry, save []byte) (Board, error) { return from(e, info, save, resume) },
		Watch:  func(e *ui.Env, info games.Entry, save []byte) (Board, error) { return from(e, info, save, watch) },
	}
}
