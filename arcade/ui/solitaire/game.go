// Package solitaire is the screen that plays one solitaire, and the
// result screen of a won one. It knows no game's rules: it draws the piles
// the game reports, turns keys and clicks into actions, and prints the
// sentence of an illegal one.
package solitaire

import (
	"bytes"
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"sshuffle/arcade/deals"
	"sshuffle/arcade/hub"
	"sshuffle/arcade/save"
	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/board"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/format"
	"sshuffle/store"
)

type msgKind uint8

const (
	msgInfo msgKind = iota
	msgErr
	msgWarn
	msgOK
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
	kind    msgKind
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
	last     frameParts
}

// maxSteps bounds the timeline kept with a result (as the hub bounds its
// own): a longer game keeps its first steps and its last one.
const maxSteps = store.MaxTimeline

// step adds the position now to the timeline.
func (s *gameScreen) step() {
	st := store.Step{At: s.elapsed(), Home: homeOf(s.piles()), Moves: s.g.Moves()}
	if len(s.steps) < maxSteps {
		s.steps = append(s.steps, st)
	} else {
		s.steps[len(s.steps)-1] = st
	}
	if s.moved != nil {
		s.moved()
	}
}

// Home counts the cards home (on a foundation) or, in a game without
// foundations (Pyramid, TriPeaks), cleared from the layout.
func Home(g engine.Solitaire) int { return homeOf(g.Piles()) }

func homeOf(piles []engine.Pile) int {
	n, slots := 0, false
	for _, p := range piles {
		switch p.Kind {
		case engine.Foundation:
			n += len(p.Cards)
		case engine.Slot:
			slots = true
		}
	}
	if slots {
		return totalOf(piles) - onLayout(piles)
	}
	return n
}

func onLayout(piles []engine.Pile) int {
	n := 0
	for _, p := range piles {
		if p.Kind == engine.Slot {
			n += len(p.Cards)
		}
	}
	return n
}

// Total is how many cards Home counts to: every card, or in a game without
// foundations every place of the layout (an empty place stays a pile).
func Total(g engine.Solitaire) int { return totalOf(g.Piles()) }

func totalOf(piles []engine.Pile) int {
	n, slots := 0, 0
	for _, p := range piles {
		n += len(p.Cards)
		if p.Kind == engine.Slot {
			slots++
		}
	}
	if slots > 0 {
		return slots
	}
	return n
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

func (s *gameScreen) setMsg(k msgKind, text string) { s.kind, s.msg = k, text }

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
				s.setMsg(msgWarn, "Sorry: the hint search board.Hit an internal error (that one was free).")
			} else {
				s.showHint(msg.a, msg.why, msg.ok)
			}
		}
	case stuckMsg:
		if msg.screen == s && msg.moves == len(s.g.History()) && msg.stuck && s.msg == "" {
			s.setMsg(msgWarn, stuckText)
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
		s.setMsg(msgWarn, takenText)
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
		s.setMsg(msgWarn, "Put the cursor on a card first.")
	case "d", "s":
		s.sel = board.Hit{}
		return s.do(engine.Action{Kind: engine.Draw})
	case "u", "z", "backspace", "ctrl+z":
		s.sel = board.Hit{}
		hist := s.g.History()
		undone := s.g.Undo()
		s.changed()
		if !undone {
			s.setMsg(msgWarn, "Nothing to undo.")
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
			s.setMsg(msgWarn, "Press r again to restart this deal (it counts as a game played).")
			return nil
		}
		return s.restart()
	case "n":
		if s.confirm != "n" && s.g.Moves() > 0 {
			s.confirm = "n"
			s.setMsg(msgWarn, "Press n again for a new deal (this one counts as a game played).")
			return nil
		}
		return s.redeal(ui.Route{Spec: deals.Fresh(s.env.Pools, s.info, ui.LoadOptions(s.env, s.info))})
	case "esc":
		if s.sel.OK {
			s.sel = board.Hit{}
			s.setMsg(msgInfo, "Put back.")
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
		s.setMsg(msgWarn, takenText)
	}
	return s.taken
}

// places are the numbered places of the layout, in the order the digit
// keys count them: the tableau columns, or, in a game without columns
// (TriPeaks, Pyramid), the cards free to play, from the left.
func places(piles []engine.Pile) (idx []int, columns bool) {
	for i, p := range piles {
		if p.Kind == engine.Tableau {
			idx = append(idx, i)
		}
	}
	if len(idx) > 0 {
		return idx, true
	}
	for i, p := range piles {
		if p.Kind == engine.Slot && len(p.Cards) > 0 && !p.Blocked && p.FaceDown < len(p.Cards) {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool {
		pa, pb := piles[idx[a]], piles[idx[b]]
		return pa.X < pb.X || (pa.X == pb.X && pa.Y < pb.Y)
	})
	return idx, false
}

// jumpPlace puts the cursor on numbered place n (1-9, 0 for the tenth).
func (s *gameScreen) jumpPlace(n int) {
	if n == 0 {
		n = 10
	}
	piles := s.piles()
	idx, columns := places(piles)
	if n > len(idx) {
		what := "column"
		if !columns {
			what = "free card"
		}
		s.setMsg(msgWarn, fmt.Sprintf("There is no %s %d here: there are %d.", what, n, len(idx)))
		return
	}
	i := idx[n-1]
	s.cursor = board.Hit{Pile: i, Index: len(piles[i].Cards) - 1, OK: true}
}

// jumpKind puts the cursor on the first pile of a kind (the waste, a free
// cell, a foundation), or on the next one when it is on one already.
func (s *gameScreen) jumpKind(kind engine.PileKind) {
	piles := s.piles()
	var idx []int
	at := -1
	for i, p := range piles {
		if p.Kind == kind {
			if s.cursor.OK && s.cursor.Pile == i {
				at = len(idx)
			}
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return // the bar does not offer a key for a kind the game lacks
	}
	i := idx[(at+1)%len(idx)]
	s.cursor = board.Hit{Pile: i, Index: len(piles[i].Cards) - 1, OK: true}
}

// askLeave leaves for the menu, asking first only when leaving loses
// something: a guest's game in progress is not kept.
func (s *gameScreen) askLeave(key string) tea.Cmd {
	if s.env.Player.Guest && s.g.Moves() > 0 && s.confirm != key {
		s.confirm = key
		s.setMsg(msgWarn, fmt.Sprintf("A guest's game is not kept: press %s again to leave it, any other key to play on.", key))
		return nil
	}
	return s.leave()
}

// pick is the one gesture: with nothing held it takes up the card (or taps
// the stock); with a card held it drops it on the pile; on the same card
// again it sends it home.
func (s *gameScreen) pick(h board.Hit) tea.Cmd {
	if !h.OK {
		s.sel = board.Hit{}
		return nil
	}
	piles := s.piles()
	if h.Pile < 0 || h.Pile >= len(piles) {
		return nil
	}
	p := piles[h.Pile]
	if s.sel.OK {
		from := s.sel
		s.sel = board.Hit{}
		if from.Pile == h.Pile {
			return s.do(engine.Action{Kind: engine.Auto, From: from.Pile, Index: from.Index})
		}
		return s.do(engine.Action{Kind: engine.Move, From: from.Pile, Index: from.Index, To: h.Pile})
	}
	switch {
	case p.Kind == engine.Stock:
		return s.do(engine.Action{Kind: engine.Draw})
	case len(p.Cards) == 0 || h.Index < 0:
		s.setMsg(msgWarn, "There is no card there to pick up.")
	case h.Index < p.FaceDown:
		s.setMsg(msgWarn, "That card is face down.")
	default:
		s.sel = h
	}
	return nil
}

func (s *gameScreen) hitAt(x, y int) board.Hit { return s.canvas.At(x, y-s.boardTop) }

func (s *gameScreen) click(x, y int) tea.Cmd {
	h := s.hitAt(x, y)
	s.msg = ""
	if !h.OK {
		s.sel = board.Hit{}
		return nil
	}
	s.cursor = h
	wasHeld := s.sel.OK
	cmd := s.pick(h)
	if !wasHeld && s.sel.OK {
		s.drag = h // a press that took a card: a release elsewhere drops it
	} else {
		s.drag = board.Hit{}
	}
	return cmd
}

func (s *gameScreen) release(x, y int) tea.Cmd {
	from := s.drag
	s.drag = board.Hit{}
	if !from.OK || !s.sel.OK {
		return nil
	}
	h := s.hitAt(x, y)
	if !h.OK || h.Pile == from.Pile {
		return nil // a plain click: the card stays held
	}
	s.cursor = h
	return s.pick(h)
}

// do applies an action and reports the outcome.
func (s *gameScreen) do(a engine.Action) tea.Cmd {
	err := s.g.Do(a)
	s.changed()
	if err != nil {
		s.setMsg(msgErr, err.Error())
		return nil
	}
	if !s.keep() {
		s.g.Undo() // taken over just now: the other session has the game
		s.changed()
		return nil
	}
	s.clampCursor()
	s.step()
	if s.g.Won() {
		return s.win()
	}
	if s.info.Game.StuckAside {
		return s.stuckLater()
	}
	if s.g.Stuck() {
		s.setMsg(msgWarn, stuckText)
	}
	return nil
}

const stuckText = "No move can change this position: u undo, r restart, n new deal."

// replayed rebuilds the game from its deal and history, for work done off
// the screen's goroutine that must not touch the live game.
func (s *gameScreen) replayed() func() (engine.Solitaire, bool) {
	spec, hist, opts, newGame := s.g.Spec(), s.g.History(), s.opts, s.info.Game.New
	return func() (engine.Solitaire, bool) {
		g, err := newGame(spec, opts)
		if err != nil {
			return nil, false
		}
		for _, a := range hist {
			if g.Do(a) != nil {
				return nil, false
			}
		}
		return g, true
	}
}

// stuckLater checks for a stuck position in the background. Only the
// newest check of a session runs: one waiting for the session's search
// slot when a newer move arrives gives up without searching.
func (s *gameScreen) stuckLater() tea.Cmd {
	rebuild, moves := s.replayed(), len(s.g.History())
	b := s.env.Background()
	gen := b.StuckGen.Add(1)
	return recovering(s.env, "stuck check", stuckMsg{screen: s, moves: moves}, func() tea.Msg {
		var m tea.Msg
		s.env.Search("stuck", func() bool { return b.StuckGen.Load() == gen }, func() {
			g, ok := rebuild()
			m = stuckMsg{screen: s, moves: moves, stuck: ok && g.Stuck()}
		})
		return m
	})
}

// recovering runs cmd, and if it panics logs the panic with its stack and
// returns failed instead. Bubble Tea would also catch it, but print it
// raw to the server's stderr and end the player's session; this keeps the
// session and the log's format.
func recovering(e *ui.Env, what string, failed tea.Msg, cmd func() tea.Msg) tea.Cmd {
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				e.Log.Error(what+" panic", "player", e.Player.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				msg = failed
			}
		}()
		return cmd()
	}
}

// hint asks the game for a hint. A solver-backed hint (HintAside) can take a
// moment, so it runs on a copy of the game rebuilt from its history, off the
// screen's goroutine; the screen stays live and drops the answer if the
// position changed meanwhile.
func (s *gameScreen) hint() tea.Cmd {
	if s.hints >= ui.HintsPerGame {
		s.setMsg(msgWarn, "No hints left in this game.")
		return nil
	}
	if !s.info.Game.HintAside {
		a, why, ok := s.g.Hint()
		s.showHint(a, why, ok)
		return nil
	}
	b := s.env.Background()
	pos := s.position()
	if h, ok := b.Hints[pos]; ok {
		// The same position was searched already: the answer is kept, and
		// showing it again costs no hint.
		if h.Shown && h.OK {
			s.showHintAgain(h.A, h.Why)
			return nil
		}
		b.Hints[pos] = ui.HintAnswer{A: h.A, Why: h.Why, OK: h.OK, Shown: true}
		s.showHint(h.A, h.Why, h.OK)
		return nil
	}
	if !b.HintBusy.CompareAndSwap(false, true) {
		s.setMsg(msgInfo, "Still looking for a hint…")
		return nil
	}
	rebuild, moves := s.replayed(), len(s.g.History())
	s.setMsg(msgInfo, "Looking for a hint…")
	return recovering(s.env, "hint", hintMsg{screen: s, moves: moves, pos: pos, failed: true}, func() tea.Msg {
		defer b.HintBusy.Store(false)
		m := hintMsg{screen: s, moves: moves, pos: pos, failed: true}
		s.env.Search("hint", nil, func() {
			m.failed = false
			if g, ok := rebuild(); ok {
				m.a, m.why, m.ok = g.Hint()
			}
		})
		return m
	})
}

// position names the deal and the moves that led to the current position.
func (s *gameScreen) position() string {
	return s.g.Spec().String() + fmt.Sprint(s.g.History())
}

func (s *gameScreen) showHintAgain(a engine.Action, why string) {
	hints := s.hints
	s.showHint(a, why, true)
	s.hints = hints
	s.setMsg(msgOK, fmt.Sprintf("Hint %d/%d (again): %s", s.hints, ui.HintsPerGame, why))
}

func (s *gameScreen) showHint(a engine.Action, why string, ok bool) {
	if !ok {
		s.setMsg(msgInfo, "No hint found here (that one was free).")
		return
	}
	s.hints++
	s.sel = board.Hit{}
	piles := s.piles()
	if a.Kind == engine.Draw {
		for i, p := range piles {
			if p.Kind == engine.Stock {
				s.cursor = board.Hit{Pile: i, Index: len(p.Cards) - 1, OK: true}
			}
		}
	} else if a.From >= 0 && a.From < len(piles) {
		s.cursor = board.Hit{Pile: a.From, Index: a.Index, OK: true}
	}
	s.setMsg(msgOK, fmt.Sprintf("Hint %d/%d: %s", s.hints, ui.HintsPerGame, why))
}

// result is the game as the store records it; a game that is not won is
// recorded only when the player leaves it for another deal (abandoned).
func (s *gameScreen) result(won bool) store.Result {
	spec := s.g.Spec()
	return store.Result{
		Account: s.env.Player.ID, Name: s.env.Player.Name,
		Spec: spec.String(), Key: spec.Key(), Won: won,
		Score: s.g.Score(), Moves: s.g.Moves(), Elapsed: s.elapsed().Round(time.Second),
		Finished: s.env.Now().UTC(), Daily: s.daily, Day: s.day, ByPoints: s.info.Game.Points,
		Abandoned: !won, Total: s.total, Timeline: s.steps,
	}
}

// record stores a finished game; it returns only once the store has it.
func (s *gameScreen) record(won bool) error {
	if s.env.GameFinished != nil {
		s.env.GameFinished(s.info.Key(), won)
	}
	if s.env.Player.Guest {
		return nil
	}
	r := s.result(won)
	if err := s.env.Store.RecordResult(s.env.Ctx(), r); err != nil {
		s.env.Log.Error("recording result", "account", r.Account, "spec", r.Spec, "error", err.Error())
		return err
	}
	if err := s.env.Store.DeleteSave(s.env.Ctx(), s.env.Player.ID, s.saveKey()); err != nil && !errors.Is(err, store.ErrNotFound) {
		s.env.Log.Warn("deleting save", "error", err.Error())
	}
	return nil
}

func (s *gameScreen) win() tea.Cmd {
	s.done = true
	if s.moved != nil {
		return nil // the race records it
	}
	defer s.hold.Release()
	r := s.result(true)
	err := s.record(true)
	return s.env.Go(ui.Route{Page: ui.Won, Game: s.info, Result: r, Err: err})
}

// redeal abandons the current game (recorded as played if a move was made)
// and asks for r, a deal of this game.
func (s *gameScreen) redeal(r ui.Route) tea.Cmd {
	// Deal first: a deal number the game refuses must leave this game as
	// it was, not count it as lost.
	if _, err := s.info.Game.New(r.Spec, ui.LoadOptions(s.env, s.info)); err != nil {
		s.setMsg(msgErr, err.Error())
		return nil
	}
	if s.g.Moves() > 0 {
		_ = s.record(false)
	} else if s.saved {
		// Undone back to move 0: the save of this game must not outlive it.
		if err := s.env.Store.DeleteSave(s.env.Ctx(), s.env.Player.ID, s.saveKey()); err != nil {
			s.env.Log.Warn("deleting save", "error", err.Error())
		}
	}
	s.done = true
	s.hold.Release()
	r.Page, r.Game = ui.Play, s.info
	return s.env.Go(r)
}

// restart deals the same deal again; today's deal stays today's deal.
func (s *gameScreen) restart() tea.Cmd {
	return s.redeal(ui.Route{Spec: s.g.Spec(), Daily: s.daily, Day: s.day})
}

func (s *gameScreen) leave() tea.Cmd {
	err := s.trySave()
	s.done = true
	r := ui.Route{Page: ui.Menu}
	if err != nil {
		r.Note = notSaved
	}
	return s.env.Go(r)
}

// notSaved is what a player is told when the store refused a write; the
// log has the reason.
const notSaved = "Not saved: the server could not store your game just now (the error is logged). Try again later."

// Save keeps a game in progress so the player finds it again.
func (s *gameScreen) Save() { _ = s.trySave() }

// trySave saves the game exactly as it is: at move 0 too, when an older
// save of it would come back instead.
func (s *gameScreen) trySave() error {
	if s.done || s.env.Player.Guest || s.g.Won() {
		return nil
	}
	defer s.hold.Release()
	if len(s.g.History()) == 0 && !s.saved {
		return nil
	}
	data, err := save.Encode(s.g, s.opts, s.elapsed(), s.hints)
	if err == nil {
		s.hold.Write(func() { err = s.env.Store.PutSave(s.env.Ctx(), s.env.Player.ID, s.saveKey(), data) })
	}
	if err != nil {
		s.env.Log.Error("saving game", "account", s.env.Player.ID, "error", err.Error())
		return err
	}
	s.saved = true
	return nil
}

// keep hands the game's latest save to its hold after a move, so a
// second session taking it over gets every move; false (and the move
// must be taken back) when it was taken over already.
func (s *gameScreen) keep() bool {
	if s.hold == nil {
		return true
	}
	data, err := save.Encode(s.g, s.opts, s.elapsed(), s.hints)
	if err != nil {
		s.env.Log.Error("encoding game", "account", s.env.Player.ID, "error", err.Error())
		return true
	}
	if !s.hold.Keep(data) {
		s.checkTaken()
		return false
	}
	return true
}

// saveKey is where this game is kept while in progress.
func (s *gameScreen) saveKey() string {
	if s.daily {
		return save.DailyKey(s.info.Key())
	}
	return s.info.Key()
}

// navigable piles are those the cursor may rest on: every pile but a cleared
// place of a Pyramid or TriPeaks layout.
func navigable(p engine.Pile) bool { return !(p.Kind == engine.Slot && len(p.Cards) == 0) }

func (s *gameScreen) clampCursor() {
	piles := s.piles()
	if !s.cursor.OK || s.cursor.Pile >= len(piles) || !navigable(piles[s.cursor.Pile]) {
		s.cursor = s.firstCursor()
		return
	}
	p := piles[s.cursor.Pile]
	if s.cursor.Index >= len(p.Cards) || s.cursor.Index < p.FaceDown || p.Fan != engine.FanDown {
		s.cursor.Index = len(p.Cards) - 1
	}
}

func (s *gameScreen) moveCursor(dx, dy int) {
	piles := s.piles()
	if !s.cursor.OK || s.cursor.Pile >= len(piles) {
		s.cursor = s.firstCursor()
		return
	}
	cur := piles[s.cursor.Pile]
	if dy != 0 && cur.Fan == engine.FanDown && len(cur.Cards) > 0 {
		i := s.cursor.Index + dy
		if i >= cur.FaceDown && i < len(cur.Cards) {
			s.cursor.Index = i
			return
		}
	}
	best, bestD := -1, 1<<30
	for i, p := range piles {
		if i == s.cursor.Pile || !navigable(p) {
			continue
		}
		var d int
		switch {
		case dx != 0:
			if p.Y != cur.Y || (p.X-cur.X)*dx <= 0 {
				continue
			}
			d = (p.X - cur.X) * dx
		default:
			if (p.Y-cur.Y)*dy <= 0 {
				continue
			}
			dxAbs := p.X - cur.X
			if dxAbs < 0 {
				dxAbs = -dxAbs
			}
			d = (p.Y-cur.Y)*dy*100 + dxAbs
		}
		if d < bestD {
			best, bestD = i, d
		}
	}
	if best < 0 && dx != 0 {
		// Wrap around the row.
		row := []int{}
		for i, p := range piles {
			if p.Y == cur.Y && navigable(p) {
				row = append(row, i)
			}
		}
		sort.Slice(row, func(a, b int) bool { return piles[row[a]].X < piles[row[b]].X })
		if len(row) > 0 {
			if dx > 0 {
				best = row[0]
			} else {
				best = row[len(row)-1]
			}
		}
	}
	if best >= 0 {
		p := piles[best]
		s.cursor = board.Hit{Pile: best, Index: len(p.Cards) - 1, OK: true}
	}
}

// frameParts is what a View keeps for the next one. A clock tick changes
// the stats and nothing else, so the frame is the header (the kept title,
// the stats written anew) and the lines under it, one piece each, drawn
// again only when something they are drawn from (frameKey) changed, and
// then a line the same as before keeps its string. arcade/render takes the
// pieces as they are; View puts them together.
type frameParts struct {
	ok       bool // lines were drawn for key
	key      frameKey
	buf      bytes.Buffer // the lines under the header, as drawn
	lines    []string     // the same, each line with the "\n" before it
	restOK   bool         // rest is lines put together
	rest     string
	headerOK bool   // header is drawn from head, extra, lastStats and pad
	header   string // the header line
	headBuf  bytes.Buffer
	pad      int
	joinedOK bool   // view is header and rest put together
	view     string // the last View

	// The header: the title (and " today"), styled, and "? help q menu"
	// for a width.
	head       string
	headW      int
	headDaily  bool
	headOK     bool
	extra      string
	extraW     int
	extraWidth int

	stats, lastStats []byte // scratch: this frame's stats and the last's

	// The message lines, styled, and what they were made from.
	msgText  string
	msgKind  msgKind
	msgWidth int
	msgMax   int
	msgLines int
	msgBlock string
	msgOK    bool

	deal string // "Deal #N"
}

// frameKey is everything the lines under the header are drawn from.
type frameKey struct {
	width, height, reserve int
	color, unicode         bool
	version                uint64 // the position (see piles)
	cursor, sel            board.Hit
	msg                    string
	kind                   msgKind
	prompting              bool
	prompt                 string
	withMenu               bool // the header had no room for "? help q menu"
}

// keyBarLines are the two key bars drawn, for the piles last asked for
// (piles clears ok), a width and withMenu.
type keyBarLines struct {
	ok        bool
	width     int
	withMenu  bool
	bar, more string
}

func (s *gameScreen) View() string {
	s.ViewPieces(nil)
	f := &s.last
	if !f.joinedOK {
		f.view, f.joinedOK = f.header+s.rest(), true
	}
	return f.view
}

// ViewPieces is the view in pieces (ui.PiecedScreen): the header line,
// then each line under it with the "\n" before it. A clock turn makes the
// header alone; a key makes the lines it changed, and hands the others
// over as the strings they were.
func (s *gameScreen) ViewPieces(dst []string) []string {
	st, pad, k := s.frameInputs()
	f := &s.last
	s.drawPieces(k)
	if !f.headerOK || !bytes.Equal(st, f.lastStats) || pad != f.pad {
		b := &f.headBuf
		b.Reset()
		b.WriteString(f.head)
		b.WriteString("  ")
		b.Write(st)
		if pad >= 2 {
			ui.WriteSpaces(b, pad)
			b.WriteString(f.extra)
		}
		f.header, f.pad, f.headerOK, f.joinedOK = b.String(), pad, true, false
		f.lastStats = append(f.lastStats[:0], st...)
	}
	return append(append(dst, f.header), f.lines...)
}

// rest is what View draws under the header (from its "\n" on), in one
// string.
func (s *gameScreen) rest() string {
	f := &s.last
	s.restLines()
	if !f.restOK {
		f.rest, f.restOK = strings.Join(f.lines, ""), true
	}
	return f.rest
}

// restLines is the lines under the header, each with the "\n" before it:
// the strings kept while a line is the same (the race screen keeps what
// it works out from each line with it).
func (s *gameScreen) restLines() []string {
	_, _, k := s.frameInputs()
	s.drawPieces(k)
	return s.last.lines
}

// drawPieces draws the lines under the header for k, unless they are
// drawn for it already. A line the same as before keeps its string.
func (s *gameScreen) drawPieces(k frameKey) {
	f := &s.last
	if f.ok && k == f.key {
		return
	}
	f.buf.Reset()
	s.drawRest(&f.buf, k.withMenu)
	f.lines = ui.KeepLines(f.lines, f.buf.Bytes())
	f.ok, f.key, f.joinedOK, f.restOK = true, k, false, false
}

// frameInputs works out what a frame is drawn from: the stats line (in
// kept scratch), the room the header leaves, and the key of the rest.
func (s *gameScreen) frameInputs() (st []byte, pad int, k frameKey) {
	// A take-over in another session shows at the next frame, a clock
	// turn at the latest: the clock is drawn with no message to notice
	// it in.
	s.checkTaken()
	e := s.env
	f := &s.last
	if !f.headOK || f.headDaily != s.daily {
		f.head = ui.TitleStyle.Render(s.info.Title())
		if s.daily {
			f.head += ui.OkStyle.Render(" today")
		}
		f.headW, f.headDaily, f.headOK = lipgloss.Width(f.head), s.daily, true
		f.headerOK = false
	}
	// "? help" and "q menu" ride on the header so the bottom bar keeps
	// room for the play keys at 80 columns.
	if f.extra == "" || f.extraWidth != e.Width {
		f.extra = ui.HelpBar(e.Width, "?", "help", "q", "menu")
		f.extraW, f.extraWidth = lipgloss.Width(f.extra), e.Width
		f.headerOK = false
	}
	st = f.stats[:0]
	if s.info.Game.Points {
		st = append(st, "Score "...)
		st = strconv.AppendInt(st, int64(s.g.Score()), 10)
		st = append(st, "  "...)
	}
	st = append(st, "Moves "...)
	st = strconv.AppendInt(st, int64(s.g.Moves()), 10)
	st = append(st, "  Time "...)
	st = format.AppendDuration(st, s.elapsed())
	st = append(st, "  Hints "...)
	st = strconv.AppendInt(st, int64(ui.HintsPerGame-s.hints), 10)
	f.stats = st
	// The stats are ASCII: their width is their length.
	pad = e.Width - (f.headW + 2 + len(st)) - f.extraW
	if s.prompt != nil {
		s.kind = msgInfo
	}
	k = frameKey{
		width: e.Width, height: e.Height, reserve: s.reserve, color: e.Color, unicode: e.Unicode,
		version: s.version, cursor: s.cursor, sel: s.sel, msg: s.msg, kind: s.kind,
		prompting: s.prompt != nil, withMenu: pad < 2,
	}
	if s.prompt != nil {
		k.prompt = *s.prompt
	}
	return st, pad, k
}

// drawRest writes every line under the header, from "\n" on.
func (s *gameScreen) drawRest(b *bytes.Buffer, withMenu bool) {
	e := s.env
	f := &s.last
	b.WriteByte('\n')
	piles := s.piles()
	bw := s.size[0]
	msg := s.msg
	if s.prompt != nil {
		s.kind = msgInfo
		msg = "Deal number (enter to deal, esc to cancel): " + *s.prompt + "_"
	}
	if s.kind == msgErr && !e.Color {
		msg = "! " + msg
	}
	kind := s.kind
	if msg == "" && s.sel.OK {
		// Said in words as well as drawn: a terminal without colour may
		// show no highlight at all.
		msg, kind = s.holding(piles), msgInfo
	}
	if msg == "" {
		// The deal number, so friends can race the same deal (#).
		if f.deal == "" {
			f.deal = fmt.Sprintf("Deal #%d", s.g.Spec().Seed)
		}
		msg, kind = f.deal, msgInfo
	}
	// A message is wrapped whole, never cut: the board gives up lines to
	// a long one (its columns fold), and the key bar keeps its own line.
	maxLines := max(e.Height-minBoardLines-2, 1)
	if !f.msgOK || f.msgText != msg || f.msgKind != kind || f.msgWidth != e.Width || f.msgMax != maxLines {
		lines := ui.FitLines(msg, e.Width, maxLines)
		var mb strings.Builder
		for _, l := range lines {
			switch kind {
			case msgErr:
				mb.WriteString(ui.ErrStyle.Render(l))
			case msgWarn:
				mb.WriteString(ui.WarnStyle.Render(l))
			case msgOK:
				mb.WriteString(ui.OkStyle.Render(l))
			default:
				mb.WriteString(ui.FaintStyle.Render(l))
			}
			mb.WriteString("\n")
		}
		f.msgText, f.msgKind, f.msgWidth, f.msgMax = msg, kind, e.Width, maxLines
		f.msgLines, f.msgBlock, f.msgOK = len(lines), mb.String(), true
	}
	rows := max(f.msgLines, 2)
	boardH := max(e.Height-2-rows, 1)
	off := max((e.Width-s.reserve-bw)/2, 0)
	bv := board.View{Unicode: e.Unicode, Color: e.Color, Cursor: s.cursor, Sel: s.sel, OffsetX: off}
	s.canvas = bv.Render(piles, min(e.Width-s.reserve, 200), boardH, s.canvas)
	s.boardTop = 1
	s.canvas.Write(b, bv.Palette())
	b.WriteByte('\n')
	b.WriteString(f.msgBlock)
	bars := &s.bars
	if !bars.ok || bars.width != e.Width || bars.withMenu != withMenu {
		bar, more := s.keyBars(withMenu)
		bars.bar, bars.more = ui.HelpBar(e.Width, bar...), ui.HelpBar(e.Width, more...)
		bars.ok, bars.width, bars.withMenu = true, e.Width, withMenu
	}
	if f.msgLines < 2 {
		// The keys the bottom bar has no room for, whenever a message
		// leaves the line free.
		b.WriteString(bars.more)
		b.WriteByte('\n')
	}
	b.WriteString(bars.bar)
}

// minBoardLines is what the board keeps however long a message is: the
// top row and a few lines of columns.
const minBoardLines = 8

// holding names what is picked up: "Holding 7♥ and 2 more".
func (s *gameScreen) holding(piles []engine.Pile) string {
	if s.sel.Pile >= len(piles) {
		return ""
	}
	p := piles[s.sel.Pile]
	if s.sel.Index < 0 || s.sel.Index >= len(p.Cards) {
		return ""
	}
	text := "Holding " + p.Cards[s.sel.Index].String()
	if n := len(p.Cards) - 1 - s.sel.Index; n > 0 {
		text += fmt.Sprintf(" and %d more", n)
	}
	return text + ": space drops it where the cursor is, esc puts it back."
}

// keyBars are the game's two key bars, each pair "key", "what": the keys
// of the piles this game has and no others (FreeCell has no stock, so no
// d; only games with a waste have w), and the game's own words from the
// registry.
func (s *gameScreen) keyBars(withMenu bool) (bar, more []string) {
	kinds := map[engine.PileKind]int{}
	piles := s.piles()
	for _, p := range piles {
		kinds[p.Kind]++
	}
	home := "home"
	if kinds[engine.Foundation] == 0 {
		home = "play" // TriPeaks and Pyramid: to the waste, or removed
	}
	bar = []string{"←↓↑→", "move", "space", "pick/drop", "f", home}
	if s.info.Game.Keys.Draw != "" && kinds[engine.Stock] > 0 {
		bar = append(bar, "d", "stock")
	}
	bar = append(bar, "u", "undo", "t", "hint", "n", "new", "r", "restart")
	if withMenu {
		bar = append(bar, "?", "help", "q", "menu")
	}
	if idx, columns := places(piles); columns {
		last := strconv.Itoa(min(len(idx), 10) % 10)
		more = append(more, "1-"+last, "column")
	} else {
		more = append(more, "1-9", "free card")
	}
	if kinds[engine.Waste] > 0 {
		more = append(more, "w", "waste")
	}
	if kinds[engine.Cell] > 0 {
		more = append(more, "c", "cell")
	}
	if kinds[engine.Foundation] > 0 {
		more = append(more, "a", "foundation")
	}
	more = append(more, "esc", "drop", "#", "deal number", "o", "options", "i", "rules")
	return bar, more
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
		s.setMsg(msgErr, "A deal number is a whole number from 1 up.")
		return nil
	}
	spec := s.info.Spec(n)
	return s.redeal(ui.Route{Spec: spec})
}

// The game screen draws its clock through ui.Ticking.
var _ ui.Ticking = (*gameScreen)(nil)

// forget drops everything the screen keeps between frames, so its next
// View draws from the game alone.
func (s *gameScreen) forget() {
	s.last = frameParts{}
	s.bars = keyBarLines{}
	s.pileList = nil
	s.canvas = nil
}
