package arcade

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"sshuffle/engine"
	"sshuffle/store"
)

const hintsPerGame = 6

type msgKind uint8

const (
	msgInfo msgKind = iota
	msgErr
	msgWarn
	msgOK
)

type clockMsg struct{ screen *gameScreen }

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
	env   *env
	info  gameInfo
	g     engine.Solitaire
	start time.Time     // when the current stretch of play began
	prior time.Duration // play time before it (from a save)
	hints int           // hints used
	opts  options       // the options this deal was dealt with
	daily bool          // today's deal, for the daily board and streaks
	day   string        // which day's deal ("2026-11-30")

	cursor  hit
	sel     hit
	drag    hit // card pressed with the mouse, waiting for its release
	msg     string
	kind    msgKind
	confirm string  // "r" or "n" waiting for a second press
	prompt  *string // non-nil: typing a deal number

	boardTop int
	canvas   *canvas
	done     bool // won and recorded: nothing left to save
}

// newSeed picks a random deal for a game. FreeCell deals come from the
// classic 32,000, skipping 11982, the one that cannot be won.
func newSeed(info gameInfo) uint64 {
	if info.Game == "freecell" {
		for {
			n := rand.Uint64N(32000) + 1
			if n != 11982 {
				return n
			}
		}
	}
	return rand.Uint64N(1_000_000_000) + 1
}

// openGame resumes the player's saved game of this kind, or deals a new one.
func openGame(e *env, info gameInfo) (*gameScreen, error) {
	if !e.player.Guest {
		data, err := e.store.GetSave(e.player.ID, info.Key())
		switch {
		case err == nil:
			g, sv, err := decodeSave(data, info.New)
			if err == nil {
				s := newGameScreen(e, info, g, sv.Options)
				s.prior = sv.Elapsed
				s.hints = min(sv.Hints, hintsPerGame)
				s.setMsg(msgInfo, "Resumed your saved game. n deals a new one.")
				return s, nil
			}
			e.log.Warn("unreadable save", "account", e.player.ID, "key", info.Key(), "error", err.Error())
			s, err2 := dealNew(e, info)
			if err2 != nil {
				return nil, err2
			}
			s.setMsg(msgWarn, "Your saved game could not be restored ("+err.Error()+"); here is a new deal.")
			return s, nil
		case !errors.Is(err, store.ErrNotFound):
			e.log.Error("reading save", "error", err.Error())
		}
	}
	return dealNew(e, info)
}

func dealNew(e *env, info gameInfo) (*gameScreen, error) {
	return dealSpec(e, info, freshSpec(e, info, loadOptions(e, info)))
}

func dealSpec(e *env, info gameInfo, spec engine.Spec) (*gameScreen, error) {
	opts := loadOptions(e, info)
	g, err := info.New(spec, opts)
	if err != nil {
		return nil, err
	}
	return newGameScreen(e, info, g, opts), nil
}

func newGameScreen(e *env, info gameInfo, g engine.Solitaire, opts options) *gameScreen {
	s := &gameScreen{env: e, info: info, g: g, start: e.now(), opts: opts}
	s.cursor = s.firstCursor()
	return s
}

func (s *gameScreen) init() tea.Cmd { return s.tick() }

func (s *gameScreen) tick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return clockMsg{screen: s} })
}

func (s *gameScreen) elapsed() time.Duration {
	return s.prior + s.env.now().Sub(s.start)
}

func (s *gameScreen) setMsg(k msgKind, text string) { s.kind, s.msg = k, text }

func (s *gameScreen) minSize() (int, int) {
	w, h := boardSize(s.g.Piles())
	return max(w, 64), max(min(h, 12)+4, 16)
}

// firstCursor rests the cursor on the first tableau column, else pile 0.
func (s *gameScreen) firstCursor() hit {
	piles := s.g.Piles()
	for i, p := range piles {
		if p.Kind == engine.Tableau || (p.Kind == engine.Slot && len(p.Cards) > 0 && !p.Blocked) {
			return hit{pile: i, index: len(p.Cards) - 1, ok: true}
		}
	}
	return hit{pile: 0, index: len(piles[0].Cards) - 1, ok: true}
}

func (s *gameScreen) update(msg tea.Msg) (screen, tea.Cmd) {
	switch msg := msg.(type) {
	case clockMsg:
		if msg.screen != s || s.done {
			return s, nil // a tick from a screen that was left
		}
		return s, s.tick()
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
			s.env.background().keepHint(msg.pos, hintAnswer{a: msg.a, why: msg.why, ok: msg.ok, shown: current})
		}
		if current {
			if msg.failed {
				s.setMsg(msgWarn, "Sorry: the hint search hit an internal error (that one was free).")
			} else {
				s.showHint(msg.a, msg.why, msg.ok)
			}
		}
	case stuckMsg:
		if msg.screen == s && msg.moves == len(s.g.History()) && msg.stuck && s.msg == "" {
			s.setMsg(msgWarn, stuckText)
		}
	}
	return s, nil
}

func (s *gameScreen) key(k tea.KeyPressMsg) (screen, tea.Cmd) {
	key := k.String()
	if s.prompt != nil {
		return s.promptKey(k)
	}
	if s.confirm != "" && key != s.confirm {
		s.confirm = ""
	}
	s.msg = ""
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
		if s.cursor.ok && s.cursor.index >= 0 {
			s.sel = hit{}
			return s.do(engine.Action{Kind: engine.Auto, From: s.cursor.pile, Index: s.cursor.index})
		}
		s.setMsg(msgWarn, "Put the cursor on a card first.")
	case "d", "s":
		s.sel = hit{}
		return s.do(engine.Action{Kind: engine.Draw})
	case "u", "z", "backspace", "ctrl+z":
		s.sel = hit{}
		if !s.g.Undo() {
			s.setMsg(msgWarn, "Nothing to undo.")
		}
		s.clampCursor()
	case "t":
		return s, s.hint()
	case "r":
		if s.confirm != "r" && s.g.Moves() > 0 {
			s.confirm = "r"
			s.setMsg(msgWarn, "Press r again to restart this deal (it counts as a game played).")
			return s, nil
		}
		return s.restart()
	case "n":
		if s.confirm != "n" && s.g.Moves() > 0 {
			s.confirm = "n"
			s.setMsg(msgWarn, "Press n again for a new deal (this one counts as a game played).")
			return s, nil
		}
		return s.redeal(freshSpec(s.env, s.info, loadOptions(s.env, s.info)))
	case "esc":
		if s.sel.ok {
			s.sel = hit{}
			return s, nil
		}
		return s.leave()
	case "q":
		return s.leave()
	case "?":
		return newHelp(s.env, s, &s.info), nil
	case "o":
		return newOptions(s.env, s.info, s), nil
	case "i":
		return newStrategy(s.env, s.info, s), nil
	case "#":
		empty := ""
		s.prompt = &empty
	default:
		if t := k.Text; len(t) == 1 && t[0] >= '0' && t[0] <= '9' {
			s.jumpColumn(int(t[0] - '0'))
		}
	}
	return s, nil
}

// jumpColumn puts the cursor on tableau column n (1-9, 0 for the tenth).
func (s *gameScreen) jumpColumn(n int) {
	if n == 0 {
		n = 10
	}
	seen := 0
	for i, p := range s.g.Piles() {
		if p.Kind == engine.Tableau {
			seen++
			if seen == n {
				s.cursor = hit{pile: i, index: len(p.Cards) - 1, ok: true}
				return
			}
		}
	}
}

// pick is the one gesture: with nothing held it takes up the card (or taps
// the stock); with a card held it drops it on the pile; on the same card
// again it sends it home.
func (s *gameScreen) pick(h hit) (screen, tea.Cmd) {
	if !h.ok {
		s.sel = hit{}
		return s, nil
	}
	piles := s.g.Piles()
	if h.pile < 0 || h.pile >= len(piles) {
		return s, nil
	}
	p := piles[h.pile]
	if s.sel.ok {
		from := s.sel
		s.sel = hit{}
		if from.pile == h.pile {
			return s.do(engine.Action{Kind: engine.Auto, From: from.pile, Index: from.index})
		}
		return s.do(engine.Action{Kind: engine.Move, From: from.pile, Index: from.index, To: h.pile})
	}
	switch {
	case p.Kind == engine.Stock:
		return s.do(engine.Action{Kind: engine.Draw})
	case len(p.Cards) == 0 || h.index < 0:
		s.setMsg(msgWarn, "There is no card there to pick up.")
	case h.index < p.FaceDown:
		s.setMsg(msgWarn, "That card is face down.")
	default:
		s.sel = h
	}
	return s, nil
}

func (s *gameScreen) hitAt(x, y int) hit {
	if s.canvas == nil {
		return hit{}
	}
	y -= s.boardTop
	if y < 0 || y >= s.canvas.h || x < 0 || x >= s.canvas.w {
		return hit{}
	}
	return s.canvas.hits[y][x]
}

func (s *gameScreen) click(x, y int) (screen, tea.Cmd) {
	h := s.hitAt(x, y)
	s.msg = ""
	if !h.ok {
		s.sel = hit{}
		return s, nil
	}
	s.cursor = h
	wasHeld := s.sel.ok
	scr, cmd := s.pick(h)
	if !wasHeld && s.sel.ok {
		s.drag = h // a press that took a card: a release elsewhere drops it
	} else {
		s.drag = hit{}
	}
	return scr, cmd
}

func (s *gameScreen) release(x, y int) (screen, tea.Cmd) {
	from := s.drag
	s.drag = hit{}
	if !from.ok || !s.sel.ok {
		return s, nil
	}
	h := s.hitAt(x, y)
	if !h.ok || h.pile == from.pile {
		return s, nil // a plain click: the card stays held
	}
	s.cursor = h
	return s.pick(h)
}

// do applies an action and reports the outcome.
func (s *gameScreen) do(a engine.Action) (screen, tea.Cmd) {
	if err := s.g.Do(a); err != nil {
		s.setMsg(msgErr, err.Error())
		return s, nil
	}
	s.clampCursor()
	if s.g.Won() {
		return s.win()
	}
	if s.info.Game == "spider" {
		// Spider's check searches the reachable positions and can take
		// a noticeable moment: it runs on a rebuilt copy instead.
		return s, s.stuckLater()
	}
	if s.g.Stuck() {
		s.setMsg(msgWarn, stuckText)
	}
	return s, nil
}

const stuckText = "No move can change this position: u undo, r restart, n new deal."

// replayed rebuilds the game from its deal and history, for work done off
// the screen's goroutine that must not touch the live game.
func (s *gameScreen) replayed() func() (engine.Solitaire, bool) {
	spec, hist, opts, newGame := s.g.Spec(), s.g.History(), s.opts, s.info.New
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
	b := s.env.background()
	gen := b.stuckGen.Add(1)
	return recovering(s.env, "stuck check", stuckMsg{screen: s, moves: moves}, func() tea.Msg {
		var m tea.Msg
		s.env.search("stuck", func() bool { return b.stuckGen.Load() == gen }, func() {
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
func recovering(e *env, what string, failed tea.Msg, cmd func() tea.Msg) tea.Cmd {
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				e.log.Error(what+" panic", "player", e.player.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				msg = failed
			}
		}()
		return cmd()
	}
}

// hint asks the game for a hint. A solver-backed hint (FreeCell) can take a
// moment, so it runs on a copy of the game rebuilt from its history, off the
// screen's goroutine; the screen stays live and drops the answer if the
// position changed meanwhile.
func (s *gameScreen) hint() tea.Cmd {
	if s.hints >= hintsPerGame {
		s.setMsg(msgWarn, "No hints left in this game.")
		return nil
	}
	if s.info.Game != "freecell" {
		a, why, ok := s.g.Hint()
		s.showHint(a, why, ok)
		return nil
	}
	b := s.env.background()
	pos := s.position()
	if h, ok := b.hints[pos]; ok {
		// The same position was searched already: the answer is kept, and
		// showing it again costs no hint.
		if h.shown && h.ok {
			s.showHintAgain(h.a, h.why)
			return nil
		}
		b.hints[pos] = hintAnswer{a: h.a, why: h.why, ok: h.ok, shown: true}
		s.showHint(h.a, h.why, h.ok)
		return nil
	}
	if !b.hintBusy.CompareAndSwap(false, true) {
		s.setMsg(msgInfo, "Still looking for a hint…")
		return nil
	}
	rebuild, moves := s.replayed(), len(s.g.History())
	s.setMsg(msgInfo, "Looking for a hint…")
	return recovering(s.env, "hint", hintMsg{screen: s, moves: moves, pos: pos, failed: true}, func() tea.Msg {
		defer b.hintBusy.Store(false)
		m := hintMsg{screen: s, moves: moves, pos: pos, failed: true}
		s.env.search("hint", nil, func() {
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
	s.setMsg(msgOK, fmt.Sprintf("Hint %d/%d (again): %s", s.hints, hintsPerGame, why))
}

func (s *gameScreen) showHint(a engine.Action, why string, ok bool) {
	if !ok {
		s.setMsg(msgInfo, "No hint found here (that one was free).")
		return
	}
	s.hints++
	s.sel = hit{}
	piles := s.g.Piles()
	if a.Kind == engine.Draw {
		for i, p := range piles {
			if p.Kind == engine.Stock {
				s.cursor = hit{pile: i, index: len(p.Cards) - 1, ok: true}
			}
		}
	} else if a.From >= 0 && a.From < len(piles) {
		s.cursor = hit{pile: a.From, index: a.Index, ok: true}
	}
	s.setMsg(msgOK, fmt.Sprintf("Hint %d/%d: %s", s.hints, hintsPerGame, why))
}

func (s *gameScreen) result(won bool) store.Result {
	spec := s.g.Spec()
	return store.Result{
		Account: s.env.player.ID, Name: s.env.player.Name,
		Spec: spec.String(), Key: spec.Key(), Won: won,
		Score: s.g.Score(), Moves: s.g.Moves(), Elapsed: s.elapsed().Round(time.Second),
		Finished: s.env.now().UTC(), Daily: s.daily, Day: s.day,
	}
}

// record stores a finished game; it returns only once the store has it.
func (s *gameScreen) record(won bool) error {
	if s.env.metrics != nil {
		s.env.metrics.gameFinished(s.info.Key(), won)
	}
	if s.env.player.Guest {
		return nil
	}
	r := s.result(won)
	if err := s.env.store.RecordResult(r); err != nil {
		s.env.log.Error("recording result", "account", r.Account, "spec", r.Spec, "error", err.Error())
		return err
	}

	if err := s.env.store.DeleteSave(s.env.player.ID, s.saveKey()); err != nil && !errors.Is(err, store.ErrNotFound) {
		s.env.log.Warn("deleting save", "error", err.Error())
	}
	return nil
}

func (s *gameScreen) win() (screen, tea.Cmd) {
	s.done = true
	r := s.result(true)
	err := s.record(true)
	return newResult(s.env, s.info, r, err), nil
}

// redeal abandons the current game (recorded as played if a move was made)
// and starts spec.
func (s *gameScreen) redeal(spec engine.Spec) (screen, tea.Cmd) {
	// Deal first: a deal number the game refuses must leave this game as
	// it was, not count it as lost.
	n, err := dealSpec(s.env, s.info, spec)
	if err != nil {
		s.setMsg(msgErr, err.Error())
		return s, nil
	}
	if s.g.Moves() > 0 {
		_ = s.record(false)
	}
	s.done = true
	return n, n.init()
}

// restart deals the same deal again; today's deal stays today's deal.
func (s *gameScreen) restart() (screen, tea.Cmd) {
	daily, day := s.daily, s.day
	scr, cmd := s.redeal(s.g.Spec())
	if n, ok := scr.(*gameScreen); ok && n != s {
		n.daily, n.day = daily, day
	}
	return scr, cmd
}

func (s *gameScreen) leave() (screen, tea.Cmd) {
	err := s.trySave()
	s.done = true
	m := newMenu(s.env)
	if err != nil {
		m.msg = notSaved
	}
	return m, nil
}

// notSaved is what a player is told when the store refused a write; the
// log has the reason.
const notSaved = "Not saved: the server could not store your game just now (the error is logged). Try again later."

// save keeps a game in progress so the player finds it again.
func (s *gameScreen) save() { _ = s.trySave() }

func (s *gameScreen) trySave() error {
	if s.done || s.env.player.Guest || s.g.Won() {
		return nil
	}
	if len(s.g.History()) == 0 {
		return nil
	}
	data, err := encodeSave(s.g, s.opts, s.elapsed(), s.hints)
	if err == nil {
		err = s.env.store.PutSave(s.env.player.ID, s.saveKey(), data)
	}
	if err != nil {
		s.env.log.Error("saving game", "account", s.env.player.ID, "error", err.Error())
	}
	return err
}

// saveKey is where this game is kept while in progress.
func (s *gameScreen) saveKey() string {
	if s.daily {
		return dailySaveKey(s.info.Key())
	}
	return s.info.Key()
}

// navigable piles are those the cursor may rest on: every pile but a cleared
// place of a Pyramid or TriPeaks layout.
func navigable(p engine.Pile) bool { return !(p.Kind == engine.Slot && len(p.Cards) == 0) }

func (s *gameScreen) clampCursor() {
	piles := s.g.Piles()
	if !s.cursor.ok || s.cursor.pile >= len(piles) || !navigable(piles[s.cursor.pile]) {
		s.cursor = s.firstCursor()
		return
	}
	p := piles[s.cursor.pile]
	if s.cursor.index >= len(p.Cards) || s.cursor.index < p.FaceDown || p.Fan != engine.FanDown {
		s.cursor.index = len(p.Cards) - 1
	}
}

func (s *gameScreen) moveCursor(dx, dy int) {
	piles := s.g.Piles()
	if !s.cursor.ok || s.cursor.pile >= len(piles) {
		s.cursor = s.firstCursor()
		return
	}
	cur := piles[s.cursor.pile]
	if dy != 0 && cur.Fan == engine.FanDown && len(cur.Cards) > 0 {
		i := s.cursor.index + dy
		if i >= cur.FaceDown && i < len(cur.Cards) {
			s.cursor.index = i
			return
		}
	}
	best, bestD := -1, 1<<30
	for i, p := range piles {
		if i == s.cursor.pile || !navigable(p) {
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
		s.cursor = hit{pile: best, index: len(p.Cards) - 1, ok: true}
	}
}

func (s *gameScreen) view() string {
	e := s.env
	var b strings.Builder
	head := titleStyle.Render(s.info.Title)
	if s.daily {
		head += okStyle.Render(" today")
	}
	stats := fmt.Sprintf("Moves %d  Time %s  Hints %d", s.g.Moves(), fmtDuration(s.elapsed()), hintsPerGame-s.hints)
	if s.info.Points {
		stats = fmt.Sprintf("Score %d  ", s.g.Score()) + stats
	}
	line := head + "  " + stats
	// "? help" and "q menu" ride on the header so the bottom bar keeps
	// room for the play keys at 80 columns.
	extra := helpBar(e.width, "?", "help", "q", "menu")
	pad := e.width - lipgloss.Width(line) - lipgloss.Width(extra)
	if pad >= 2 {
		line += strings.Repeat(" ", pad) + extra
	}
	b.WriteString(line + "\n")
	piles := s.g.Piles()
	bw, _ := boardSize(piles)
	// Two lines stay for the message: rule sentences can be long.
	boardH := e.height - 4
	off := max((e.width-bw)/2, 0)
	bv := boardView{unicode: e.unicode, color: e.color, cursor: s.cursor, sel: s.sel, offsetX: off}
	s.canvas = bv.render(piles, min(e.width, 200), boardH, s.canvas)
	s.boardTop = 1
	b.WriteString(s.canvas.String(bv.palette()) + "\n")
	msg := s.msg
	if s.prompt != nil {
		s.kind = msgInfo
		msg = "Deal number (enter to deal, esc to cancel): " + *s.prompt + "_"
	}
	if s.kind == msgErr && !e.color {
		msg = "! " + msg
	}
	if msg == "" {
		// The deal number, so friends can race the same deal (#).
		msg = fmt.Sprintf("Deal #%d", s.g.Spec().Seed)
	}
	lines := fitLines(msg, e.width, 2)
	if len(lines) < 2 {
		// The second line carries the keys the bottom bar has no room
		// for, whenever a message leaves it free.
		lines = append(lines, "")
	}
	for i := range 2 {
		if i == 1 && lines[1] == "" {
			b.WriteString(helpBar(e.width, "1-0", "column", "esc", "drop", "#", "deal number", "o", "options", "i", "rules") + "\n")
			continue
		}
		if i < len(lines) {
			switch s.kind {
			case msgErr:
				b.WriteString(errStyle.Render(lines[i]))
			case msgWarn:
				b.WriteString(warnStyle.Render(lines[i]))
			case msgOK:
				b.WriteString(okStyle.Render(lines[i]))
			default:
				b.WriteString(faintStyle.Render(lines[i]))
			}
		}
		b.WriteString("\n")
	}
	keys := []string{"←↓↑→", "move", "space", "pick/drop", "f", "home", "d", "draw", "u", "undo",
		"t", "hint", "n", "new", "r", "restart"}
	if pad < 2 {
		keys = append(keys, "?", "help", "q", "menu")
	}
	b.WriteString(helpBar(e.width, keys...))
	return b.String()
}

// fitLines word-wraps text into at most n lines of width cells, ending
// with an ellipsis when it had to cut.
func fitLines(text string, width, n int) []string {
	if text == "" || width <= 0 {
		return nil
	}
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && lipgloss.Width(line)+1+lipgloss.Width(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	lines = append(lines, line)
	if len(lines) > n {
		lines = lines[:n]
		last := []rune(lines[n-1])
		for lipgloss.Width(string(last))+1 > width && len(last) > 0 {
			last = last[:len(last)-1]
		}
		lines[n-1] = string(last) + "…"
	}
	for i, l := range lines {
		r := []rune(l)
		for lipgloss.Width(string(r)) > width {
			r = r[:len(r)-1]
		}
		lines[i] = string(r)
	}
	return lines
}

// promptKey edits the deal-number prompt: digits, backspace, enter, esc.
func (s *gameScreen) promptKey(k tea.KeyPressMsg) (screen, tea.Cmd) {
	switch k.String() {
	case "esc":
		s.prompt = nil
	case "backspace":
		if p := *s.prompt; p != "" {
			*s.prompt = p[:len(p)-1]
		}
	case "enter":
		text := *s.prompt
		s.prompt = nil
		n, err := strconv.ParseUint(text, 10, 64)
		if err != nil || n == 0 {
			s.setMsg(msgErr, "A deal number is a whole number from 1 up.")
			return s, nil
		}
		spec := engine.Spec{Game: s.info.Game, Variant: s.info.Variant, Seed: n}
		return s.redeal(spec)
	default:
		if t := k.Text; len(t) == 1 && t[0] >= '0' && t[0] <= '9' && len(*s.prompt) < 12 {
			*s.prompt += t
		}
	}
	return s, nil
}
