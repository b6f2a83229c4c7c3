// Package solitaire is the screen that plays one solitaire, and the
// result screen of a won one. It knows no game's rules: it draws the piles
// the game reports, turns keys and clicks into actions, and prints the
// sentence of an illegal one.
package solitaire

import (
	"fmt"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/deals"
	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/board"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/format"
	"sshuffle/store"
)

// stuckMsg says whether the position after moves moves is stuck.
type stuckMsg struct {
	screen *gameScreen
	moves  int
	stuck  bool
}

// hintMsg carries a hint worked out away from the screen's goroutine.
type hintMsg struct {
	screen *gameScreen
	moves  int    // the position it is for: the length of the history then
	pos    string // and its name, for the session's kept answers
	a      engine.Action
	why    string
	ok     bool
	failed bool // the search broke down (logged); the player is told so
}

// gameScreen plays one solitaire. It knows nothing of any game's rules: it
// draws the piles the game reports, turns keys and clicks into actions, and
// prints the sentence of an illegal one.
type gameScreen struct {
	env   *ui.Env
	info  games.Entry
	g     engine.Solitaire
	start time.Time     // when the current stretch of play began
	prior time.Duration // play time before it (from a save)
	hints int           // hints used
	opts  games.Options // the options this deal was dealt with
	daily bool          // today's deal, for the daily board and streaks
	day   string        // which day's deal ("2026-11-30")

	cursor  board.Hit
	sel     board.Hit
	drag    board.Hit // card pressed with the mouse, waiting for its release
	msg     string
	kind    ui.Tone
	confirm string  // "r" or "n" waiting for a second press
	prompt  *string // non-nil: typing a deal number

	boardTop int
	canvas   *board.Canvas
	done     bool // won and recorded: nothing left to save

	// hold is this session's claim on the game (nil for a guest): a
	// second session of the account that opens it takes it over, and
	// taken says this one was, so it neither moves nor saves again.
	hold  *ui.Hold
	taken bool
	// saved: the store holds a save of this game (it was resumed or has
	// been saved), so leaving at move 0 must save too, or the old
	// position would come back.
	saved bool

	total int // cards Home counts to, read at the deal
	// steps is the timeline of the game's progress, kept with its result
	// so a later ghost can replay it at its pace.
	steps []store.Step
	// times are when each move of the game's history was made.
	times []time.Duration
	// In a race: moved is called after every change of the position, and
	// the race, not this screen, records the result; reserve is the width
	// kept free at the right for the race's panel.
	moved   func()
	reserve int

	// What frames keep for the next (see piles and View): the piles of
	// the position version counts, and the parts of the last frame.
	version  uint64
	pilesOf  uint64
	pileList []engine.Pile
	size     [2]int // board.Size of pileList
	bars     keyBarLines
	keyPairs keyPairs
	last     frameParts
}

func newGameScreen(e *ui.Env, info games.Entry, g engine.Solitaire, opts games.Options) *gameScreen {
	s := &gameScreen{env: e, info: info, g: g, start: e.Now(), opts: opts}
	s.cursor = s.firstCursor()
	s.total = totalOf(s.piles())
	return s
}

// NextChange: the clock turns by itself, until the game ends; the session
// draws it then, with no message (arcade/render).
func (s *gameScreen) NextChange() time.Duration {
	if s.done || s.taken {
		return 0
	}
	return format.UntilChange(s.elapsed())
}

// Activity: playing this game alone.
func (s *gameScreen) Activity() hub.Activity {
	return hub.Activity{Doing: hub.InGame, Game: s.info.Key()}
}

func (s *gameScreen) elapsed() time.Duration {
	return s.prior + s.env.Now().Sub(s.start)
}

func (s *gameScreen) setMsg(k ui.Tone, text string) { s.kind, s.msg = k, text }

func (s *gameScreen) MinSize() (int, int) {
	s.piles()
	return max(s.size[0], 64), max(min(s.size[1], 12)+4, 16)
}

// piles are the game's piles as it reports them, asked for once per
// position: every frame and key reads them (the router's MinSize too), and
// a game makes them anew on each call. Whatever changes the game
// (do, undo) calls changed.
func (s *gameScreen) piles() []engine.Pile {
	if s.pilesOf != s.version || s.pileList == nil {
		s.pileList, s.pilesOf = s.g.Piles(), s.version
		s.size[0], s.size[1] = board.Size(s.pileList)
		s.bars.ok = false
	}
	return s.pileList
}

// changed says the game's position may have changed: its piles are asked
// for again.
func (s *gameScreen) changed() { s.version++ }

// firstCursor rests the cursor on the first tableau column, else pile 0.
func (s *gameScreen) firstCursor() board.Hit { return FirstCursor(s.piles()) }

// FirstCursor is where the cursor starts on a deal: the first tableau
// column (or the first card a layout leaves free), else pile 0.
func FirstCursor(piles []engine.Pile) board.Hit {
	for i, p := range piles {
		if p.Kind == engine.Tableau || (p.Kind == engine.Slot && len(p.Cards) > 0 && !p.Blocked) {
			return board.Hit{Pile: i, Index: len(p.Cards) - 1, OK: true}
		}
	}
	return board.Hit{Pile: 0, Index: len(piles[0].Cards) - 1, OK: true}
}

func (s *gameScreen) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return s.key(msg)
	case tea.MouseClickMsg:
		if msg.Button == tea.MouseLeft {
			return s.click(msg.X, msg.Y)
		}
	case tea.MouseReleaseMsg:
		return s.release(msg.X, msg.Y)
	case hintMsg:
		current := msg.screen == s && msg.moves == len(s.g.History())
		if !msg.failed {
			s.env.Background().KeepHint(msg.pos, ui.HintAnswer{A: msg.a, Why: msg.why, OK: msg.ok, Shown: current})
		}
		if current {
			if msg.failed {
				s.setMsg(ui.ToneWarn, "Sorry: the hint search board.Hit an internal error (that one was free).")
			} else {
				s.showHint(msg.a, msg.why, msg.ok)
			}
		}
	case stuckMsg:
		if msg.screen == s && msg.moves == len(s.g.History()) && msg.stuck && s.msg == "" {
			s.setMsg(ui.ToneWarn, stuckText)
		}
	}
	return nil
}

func (s *gameScreen) key(k tea.KeyPressMsg) tea.Cmd {
	key := k.String()
	if s.prompt != nil {
		return s.promptKey(k)
	}
	if s.confirm != "" && key != s.confirm {
		s.confirm = ""
	}
	s.msg = ""
	if s.checkTaken() {
		switch key {
		case "q", "esc":
			return s.env.Go(ui.Route{Page: ui.Menu})
		case "?":
			return s.env.Push(ui.Route{Page: ui.Help, Game: s.info})
		}
		s.setMsg(ui.ToneWarn, takenText)
		return nil
	}
	switch key {
	case "left", "h":
		s.moveCursor(-1, 0)
	case "right", "l":
		s.moveCursor(1, 0)
	case "up", "k":
		s.moveCursor(0, -1)
	case "down", "j":
		s.moveCursor(0, 1)
	case "space", "enter":
		return s.pick(s.cursor)
	case "f", ".":
		if s.cursor.OK && s.cursor.Index >= 0 {
			s.sel = board.Hit{}
			return s.do(engine.Action{Kind: engine.Auto, From: s.cursor.Pile, Index: s.cursor.Index})
		}
		s.setMsg(ui.ToneWarn, "Put the cursor on a card first.")
	case "d", "s":
		s.sel = board.Hit{}
		return s.do(engine.Action{Kind: engine.Draw})
	case "u", "z", "backspace", "ctrl+z":
		s.sel = board.Hit{}
		hist := s.g.History()
		undone := s.g.Undo()
		s.changed()
		if !undone {
			s.setMsg(ui.ToneWarn, "Nothing to undo.")
		} else if !s.keep() {
			_ = s.g.Do(hist[len(hist)-1]) // taken over: the undo must not stand either
			s.changed()
			return nil
		} else {
			s.step()
		}
		s.clampCursor()
	case "t":
		return s.hint()
	case "r":
		if s.confirm != "r" && s.g.Moves() > 0 {
			s.confirm = "r"
			s.setMsg(ui.ToneWarn, "Press r again to restart this deal (it counts as a game played).")
			return nil
		}
		return s.restart()
	case "n":
		if s.confirm != "n" && s.g.Moves() > 0 {
			s.confirm = "n"
			s.setMsg(ui.ToneWarn, "Press n again for a new deal (this one counts as a game played).")
			return nil
		}
		return s.redeal(ui.Route{Spec: deals.Fresh(s.env.Pools, s.info, ui.LoadOptions(s.env, s.info))})
	case "esc":
		if s.sel.OK {
			s.sel = board.Hit{}
			s.setMsg(ui.ToneInfo, "Put back.")
			return nil
		}
		return s.askLeave(key)
	case "q":
		return s.askLeave(key)
	case "w":
		s.jumpKind(engine.Waste)
	case "c":
		s.jumpKind(engine.Cell)
	case "a":
		s.jumpKind(engine.Foundation)
	case "?":
		return s.env.Push(ui.Route{Page: ui.Help, Game: s.info})
	case "o":
		return s.env.Push(ui.Route{Page: ui.Options, Game: s.info})
	case "i":
		return s.env.Push(ui.Route{Page: ui.Rules, Game: s.info})
	case "#":
		empty := ""
		s.prompt = &empty
	default:
		if t := k.Text; len(t) == 1 && t[0] >= '0' && t[0] <= '9' {
			s.jumpPlace(int(t[0] - '0'))
		}
	}
	return nil
}

const takenText = "This game continued in another session, with every move: q goes back to the menu."

// checkTaken notices that another session took the game over: from then
// on this screen neither moves nor saves, so it cannot overwrite the
// other's moves.
func (s *gameScreen) checkTaken() bool {
	if !s.taken && s.hold.Taken() {
		s.taken, s.done, s.sel = true, true, board.Hit{}
		s.setMsg(ui.ToneWarn, takenText)
	}
	return s.taken
}

// askLeave leaves for the menu, asking first only when leaving loses
// something: a guest's game in progress is not kept.
func (s *gameScreen) askLeave(key string) tea.Cmd {
	if s.env.Player.Guest && s.g.Moves() > 0 && s.confirm != key {
		s.confirm = key
		s.setMsg(ui.ToneWarn, fmt.Sprintf("A guest's game is not kept: press %s again to leave it, any other key to play on.", key))
		return nil
	}
	return s.leave()
}

// promptKey edits the deal-number prompt: digits, backspace, enter, esc.
func (s *gameScreen) promptKey(k tea.KeyPressMsg) tea.Cmd {
	text, done := ui.EditLine(&s.prompt, k, func(text, key string) (string, bool) {
		return key, key[0] >= '0' && key[0] <= '9' && len(text) < 12
	})
	if !done {
		return nil
	}
	n, err := strconv.ParseUint(text, 10, 64)
	if err != nil || n == 0 {
		s.setMsg(ui.ToneErr, "A deal number is a whole number from 1 up.")
		return nil
	}
	spec := s.info.Spec(n)
	return s.redeal(ui.Route{Spec: spec})
}

// The game screen draws its clock through ui.Ticking.
var _ ui.Ticking = (*gameScreen)(nil)
