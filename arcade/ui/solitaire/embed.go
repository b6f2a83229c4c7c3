package solitaire

import (
	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/save"
	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/board"
	"sshuffle/engine"
	"sshuffle/games"
)

// Embedded is the game screen played inside another screen: a race plays
// its racer's game on one and shows a followed racer's board on another.
// The host screen draws around it (its own header, panel and bars over the
// board's lines, in the width it reserves), hears of every move, and
// records the result itself: an embedded game never saves or records.
type Embedded struct{ s *gameScreen }

// DealEmbedded deals spec with the player's options.
func DealEmbedded(e *ui.Env, info games.Entry, spec engine.Spec) (*Embedded, error) {
	s, err := dealSpec(e, info, spec)
	if err != nil {
		return nil, err
	}
	return &Embedded{s: s}, nil
}

// ResumeEmbedded continues a game from its save (what Encode made), with
// its play time and hints so far.
func ResumeEmbedded(e *ui.Env, info games.Entry, data []byte) (*Embedded, error) {
	g, sv, err := save.Decode(data, info.Game.New)
	if err != nil {
		return nil, err
	}
	s := newGameScreen(e, info, g, sv.Options)
	s.prior, s.hints = sv.Elapsed, sv.Hints
	return &Embedded{s: s}, nil
}

// WatchEmbedded is someone else's board, from its save, to be looked at:
// it has no cursor.
func WatchEmbedded(e *ui.Env, info games.Entry, data []byte) (*Embedded, error) {
	g, sv, err := save.Decode(data, info.Game.New)
	if err != nil {
		return nil, err
	}
	s := newGameScreen(e, info, g, sv.Options)
	s.cursor = board.Hit{}
	return &Embedded{s: s}, nil
}

// OnMove has f called after every change of the position.
func (m *Embedded) OnMove(f func()) { m.s.moved = f }

// Finish stops the game: nothing more is saved, and its clock stops.
func (m *Embedded) Finish() { m.s.done = true }

// Game is the game being played, to read (moves, score, whether it is won
// or stuck); moves go through Update.
func (m *Embedded) Game() engine.Solitaire { return m.s.g }

// Encode is the game as a save: its deal, moves, options, play time and
// hints, for the room to keep and to show to whoever follows it.
func (m *Embedded) Encode() ([]byte, error) {
	s := m.s
	return save.Encode(s.g, s.opts, s.elapsed(), s.hints)
}

// Home is how many cards are home now; Total how many there are to get
// home.
func (m *Embedded) Home() int  { return homeOf(m.s.piles()) }
func (m *Embedded) Total() int { return m.s.total }

// Update plays a key, a click or a result worked out aside (a stuck check).
func (m *Embedded) Update(msg tea.Msg) tea.Cmd { return m.s.Update(msg) }

func (m *Embedded) MinSize() (int, int) { return m.s.MinSize() }

// BoardWidth is the width the board is drawn in.
func (m *Embedded) BoardWidth() int {
	m.s.piles()
	return m.s.size[0]
}

// Reserve keeps w columns free at the right of the board for the host.
func (m *Embedded) Reserve(w int) { m.s.reserve = w }

// RestLines are the lines of the screen under its header, each string
// kept while the line is the same (a host compares them by pointer).
func (m *Embedded) RestLines() []string { return m.s.restLines() }

// KeyBars are the game's two key bars, each a list of "key", "what" pairs.
func (m *Embedded) KeyBars() (bar, more []string) { return m.s.keyBars(false) }

// Version grows with every change of the position, so a host can keep
// what it drew from the last one.
func (m *Embedded) Version() uint64 { return m.s.version }

// Replay is a copy of the game, rebuilt from its deal and moves, to try
// moves on without touching the game played (a driver finding legal
// ones).
func (m *Embedded) Replay() (engine.Solitaire, bool) { return m.s.replayed()() }

// CellOf is where card index of pile was last drawn on the screen (index
// -2: any card of the pile), for a driver that plays with the mouse.
func (m *Embedded) CellOf(pile, index int) (x, y int, ok bool) {
	s := m.s
	if s.canvas == nil {
		return 0, 0, false
	}
	for y := range s.canvas.Height() {
		for x := range s.canvas.Width() {
			if h := s.canvas.At(x, y); h.OK && h.Pile == pile && (h.Index == index || index == -2) {
				return x, y + s.boardTop, true
			}
		}
	}
	return 0, 0, false
}

// Forget drops everything the game keeps between frames, so its next frame
// is drawn from the game alone (a host checking its kept frames against
// fresh ones).
func (m *Embedded) Forget() { m.s.forget() }
