// Package table is the screen of one seat at a live table, and the
// watcher's screen of one. Page holds the table membership: the room
// pushes it the seat's view (as bytes, which the game's kit decodes), the
// seats' names, the turn clock and the last actions in words. Each game's
// drawing (spite.go, kings.go) registers itself under the game's name and
// holds no game either: it turns keys and clicks into the seat's actions,
// which the page encodes and sends to the room, and prints the game's
// sentences, never its own, for what the rules refuse.
package table

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/board"
	"sshuffle/engine"
	"sshuffle/games"
)

// Seat is how the screen names one seat.
type Seat struct {
	// Name is the player's validated account name, or the computer
	// player's label. The screen cleans it anyway.
	Name string
	// Computer: a computer player sits here. Strength is shown beside it.
	Computer bool
	Strength string
	// Away: the person dropped and a computer stands in until they rejoin.
	Away bool
}

// Common is what every push of a table's state carries besides the view.
type Common struct {
	// Table is the table's code: a screen takes only its own table's
	// messages (they reach every screen of the session's stack).
	Table string
	// Seats are indexed by seat number.
	Seats []Seat
	// Clock is the turn clock's time left when the state was sent; zero
	// or less: no clock is running. The screen counts it down itself.
	Clock time.Duration
	// Log is the last few actions in words, oldest first ("ann played 7♣
	// on the 6 stack").
	Log []string
	// Note is a line from the table about its state ("Your time ran out:
	// the computer plays this turn", "Paused until ann is back"), or "".
	Note string
	// Totals are the match's points so far, per seat (penalties in
	// Kings); nil for a single game.
	Totals []int
	// Watchers counts the people watching the table.
	Watchers int
	// CanRematch: the match is over and a rematch may be asked for (r).
	// Between the games of a match the next one comes by itself.
	CanRematch bool
	// Pace is the computer players' pace when it is not the default
	// ("quick", "instant"), else "".
	Pace string
	// Said is the quick phrase the table shows now, or nil.
	Said *hub.Said
}

// Refused is pushed when the table refused the seat's last action: Text is
// the game's sentence for it.
type Refused struct {
	Table string
	Text  string
}

// Config is what the wiring gives a table screen.
type Config[A any] struct {
	Table string // the table's code, as in the messages
	// Game is the registry's entry, for the rules page (i); may be zero.
	Game games.Entry
	// Act hands the seat's action to the table. It must not block: the
	// table answers by pushing a new state, or Refused. Nil for a watcher.
	Act func(A)
	// Leave is called once when the player leaves the table from this
	// screen, before the screen asks for the menu; may be nil.
	Leave func()
	// Rematch asks for another game with the same seats once this one is
	// over and Common.CanRematch says it may be (r); nil: none offered.
	Rematch func()
	// Phrases are the quick phrases (p); nil: none offered.
	Phrases *ui.PhrasePicker
}

// family is what differs between the games: how the table is drawn, and
// what a gesture means.
type family interface {
	title() string
	settings() string
	// rules is the game in brief, under the keys of the help overlay.
	rules() string
	seatNo() int // engine.Spectator for a watcher
	turn() int   // engine.NoSeat once over
	// draw lays the table out in the scene's lines top..bottom.
	draw(sc *scene, c *core, top, bottom int)
	// canHold says why the place can't be picked up, or "".
	canHold(at spot) string
	// drop is the move of held onto to; ok false with the sentence when
	// it is no move at all.
	drop(held, to spot) (why string, ok bool)
	// place plays what is held to the first place the game lets it go
	// (the seat's view says where), or says why there is none.
	place(held spot) (why string, ok bool)
	// end ends the turn, or says why it can't.
	end() (why string, ok bool)
	// heldName words what is held ("7♥ from your hand").
	heldName(at spot) string
	// outcome is the line shown once the game is over.
	outcome(c *core) string
	// valid says whether the place still exists after a new view.
	valid(at spot) bool
	firstSpot() spot
	hand() int // cards in the seat's hand
}

// core is the part of a table screen every game shares: the names, the
// clock, the log, the message line, the cursor, the mouse and the keys.
type core struct {
	env     *ui.Env
	table   string
	entry   games.Entry
	leave   func()
	rematch func()
	phrases *ui.PhrasePicker
	fam     family
	common  Common
	got     time.Time // when the clock value arrived

	cursor, held, drag spot
	msg                string
	kind               ui.Tone
	confirm            bool // q was pressed once
	left               bool
	help               bool // the keys are shown over the table
	sc                 scene
}

// NextChange: the turn clock turns by itself while it runs; the session
// draws it then, with no message (arcade/render).
func (c *core) NextChange() time.Duration {
	d, ok := c.clockLeft()
	if c.left || !ok || d <= 0 {
		return 0
	}
	if r := d % time.Second; r > 0 {
		return r // clockText rounds up: it turns as a whole second passes
	}
	return time.Second
}

// MinSize is the size the four-seat table is drawn for: 80x24.
func (c *core) MinSize() (int, int) { return 80, 24 }

func (c *core) setCommon(m Common) {
	c.common = m
	c.got = c.env.Now()
}

func (c *core) setMsg(k ui.Tone, text string) { c.kind, c.msg = k, text }

// name is seat's name as shown.
func (c *core) name(seat int) string {
	if seat >= 0 && seat < len(c.common.Seats) {
		if n := fit(c.common.Seats[seat].Name, 16); n != "" {
			return n
		}
	}
	return fmt.Sprintf("seat %d", seat+1)
}

// who is seat's name with what it is: "bob (computer, hard)", "ann (you)".
func (c *core) who(seat int) string {
	n := c.name(seat)
	if seat == c.fam.seatNo() {
		return n + " (you)"
	}
	if seat >= 0 && seat < len(c.common.Seats) {
		s := c.common.Seats[seat]
		switch {
		case s.Away:
			return n + " (away)"
		case s.Computer && s.Strength != "":
			return n + " (" + fit(s.Strength, 8) + ")"
		case s.Computer:
			return n + " (computer)"
		}
	}
	return n
}

// left is the turn clock's time left now.
func (c *core) clockLeft() (time.Duration, bool) {
	if c.common.Clock <= 0 || c.fam.turn() == engine.NoSeat {
		return 0, false
	}
	return max(c.common.Clock-c.env.Now().Sub(c.got), 0), true
}

func clockText(d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// watching: the screen of someone without a seat.
func (c *core) watching() bool { return c.fam.seatNo() < 0 }

func (c *core) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case Refused:
		if msg.Table == c.table {
			c.setMsg(ui.ToneErr, msg.Text)
		}
	case tea.KeyPressMsg:
		return c.key(msg)
	case tea.MouseClickMsg:
		if msg.Button == tea.MouseLeft {
			return c.click(msg.X, msg.Y)
		}
	case tea.MouseReleaseMsg:
		return c.release(msg.X, msg.Y)
	}
	return nil
}

// refresh keeps the cursor and the held card on places that still exist
// after a new view.
func (c *core) refresh() {
	if c.held.ok() && (!c.fam.valid(c.held) || c.fam.turn() != c.fam.seatNo()) {
		c.held = spot{}
	}
	if !c.cursor.ok() || !c.fam.valid(c.cursor) {
		c.cursor = c.fam.firstSpot()
	}
}

func (c *core) key(k tea.KeyPressMsg) tea.Cmd {
	key := k.String()
	if c.help {
		// The keys are read; any key goes back to the table.
		c.help = false
		return nil
	}
	if c.phraseKey(key) {
		return nil
	}
	if c.confirm && key != "q" {
		c.confirm = false
	}
	c.msg = ""
	switch key {
	case "left", "h":
		c.move(-1, 0)
	case "right", "l":
		c.move(1, 0)
	case "up", "k":
		c.move(0, -1)
	case "down", "j":
		c.move(0, 1)
	case "space", "enter":
		c.pick(c.cursor)
	case "esc":
		c.held = spot{}
	case "e":
		c.endTurn()
	case "?":
		// The help page of the solitaires lists their keys; a table's
		// keys are few, so they are shown here.
		c.help = true
	case "i":
		if c.entry.Game != nil {
			return c.env.Push(ui.Route{Page: ui.Rules, Game: c.entry})
		}
	case "q":
		return c.quit()
	case "r":
		switch {
		case c.fam.turn() != engine.NoSeat || c.watching():
		case c.rematch == nil || !c.common.CanRematch:
			c.setMsg(ui.ToneWarn, "No rematch is on offer here now.")
		default:
			c.rematch()
			c.setMsg(ui.ToneInfo, "Asked for a rematch with the same seats…")
		}
	default:
		if t := k.Text; len(t) == 1 && t[0] >= '0' && t[0] <= '9' {
			n := int(t[0] - '0')
			if n == 0 {
				n = 10
			}
			if n <= c.fam.hand() {
				c.cursor = spot{kind: spHand, seat: c.fam.seatNo(), i: n - 1}
			}
		}
	}
	return nil
}

func (c *core) quit() tea.Cmd {
	playing := !c.watching() && c.fam.turn() != engine.NoSeat
	if playing && !c.confirm {
		c.confirm = true
		c.setMsg(ui.ToneWarn, "Press q again to leave the table (a computer plays your seat until you rejoin).")
		return nil
	}
	c.left = true
	if c.leave != nil {
		c.leave()
		c.leave = nil
	}
	return c.env.Go(ui.Route{Page: ui.Menu})
}

// move steps the cursor over the places drawn on the last frame.
func (c *core) move(dx, dy int) {
	if len(c.sc.areas) == 0 {
		_ = c.View()
	}
	c.cursor = c.sc.step(c.cursor, dx, dy)
}

// mayAct says why the seat can't act now, or "": the room's sentence, so
// that nothing is sent that the room would refuse.
func (c *core) mayAct() string {
	switch t := c.fam.turn(); {
	case c.watching():
		return hub.ErrNotSeated.Error()
	case t == engine.NoSeat:
		return hub.ErrNotPlaying.Error()
	case t != c.fam.seatNo():
		return hub.TurnOf(c.name(t)).Error()
	}
	return ""
}

// pick is the one gesture, as in the solitaires: with nothing held it
// takes up the card; with a card held it drops it on the place (on its
// own place again: puts it back).
func (c *core) pick(at spot) {
	if !at.ok() {
		c.held = spot{}
		return
	}
	if at.kind == spEnd {
		c.held = spot{}
		c.endTurn()
		return
	}
	if why := c.mayAct(); why != "" {
		c.held = spot{}
		c.setMsg(ui.ToneWarn, why)
		return
	}
	if c.held.ok() {
		from := c.held
		c.held = spot{}
		if from == at {
			// The same card twice: it goes where it can, as in the
			// solitaires.
			if why, ok := c.fam.place(from); !ok {
				c.setMsg(ui.ToneWarn, why)
			}
			return
		}
		if why, ok := c.fam.drop(from, at); !ok {
			c.setMsg(ui.ToneErr, why)
		}
		return
	}
	if why := c.fam.canHold(at); why != "" {
		c.setMsg(ui.ToneWarn, why)
		return
	}
	c.held = at
}

func (c *core) endTurn() {
	if why := c.mayAct(); why != "" {
		c.setMsg(ui.ToneWarn, why)
		return
	}
	if why, ok := c.fam.end(); !ok {
		c.setMsg(ui.ToneErr, why)
	}
}

func (c *core) click(x, y int) tea.Cmd {
	at := c.sc.at(x, y)
	c.msg = ""
	if !at.ok() {
		c.held = spot{}
		return nil
	}
	if a, ok := c.sc.find(at); ok && a.nav {
		c.cursor = at
	}
	wasHeld := c.held.ok()
	c.pick(at)
	c.drag = spot{}
	if !wasHeld && c.held.ok() {
		c.drag = at // a press that took a card: a release elsewhere drops it
	}
	return nil
}

func (c *core) release(x, y int) tea.Cmd {
	from := c.drag
	c.drag = spot{}
	if !from.ok() || !c.held.ok() {
		return nil
	}
	at := c.sc.at(x, y)
	if !at.ok() || at == from {
		return nil // a plain click: the card stays held
	}
	c.cursor = at
	c.pick(at)
	return nil
}

// clockWarning is when the turn clock warns the player whose turn it is:
// time to finish a move, not to plan a turn.
const clockWarning = 10 * time.Second

var (
	turnStyle = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#ffd75f"))
	plain     = lipgloss.NewStyle()
)

// View draws the header, the game's table, the message lines and the keys.
func (c *core) View() string {
	e := c.env
	w, h := max(e.Width, 1), max(e.Height, 1)
	bv := board.View{Unicode: e.Unicode, Color: e.Color}
	cursor := c.cursor
	if c.watching() {
		cursor = spot{}
	}
	c.sc.reset(w, h, bv, cursor, c.held)
	sc := &c.sc

	// Line 0: the game, its settings, whose turn and the clock.
	x := sc.text(0, 0, c.fam.title(), ui.TitleStyle)
	x += sc.text(x, 0, "  "+c.fam.settings(), ui.FaintStyle)
	if n := c.common.Watchers; n > 0 {
		x += sc.text(x, 0, fmt.Sprintf(" · %d watching", n), ui.FaintStyle)
	}
	right := ""
	switch t := c.fam.turn(); {
	case t == engine.NoSeat:
		right = "game over"
	case t == c.fam.seatNo():
		right = "your turn"
	default:
		right = c.name(t) + "'s turn"
	}
	style := turnStyle
	if d, ok := c.clockLeft(); ok {
		right += " " + clockText(d)
		if d <= clockWarning && c.fam.turn() == c.fam.seatNo() {
			// In words as well as red: the colour alone is lost on a
			// terminal without it.
			right, style = "hurry! "+right, ui.ErrStyle
		}
	}
	rw := lipgloss.Width(right)
	// The pace only where it leaves the turn room: whose turn it is
	// matters more.
	if pw := c.paceWord(); pw != "" && w-rw > x+lipgloss.Width(pw)+1 {
		x += sc.text(x, 0, pw, ui.FaintStyle)
	}
	if w-rw > x+1 {
		sc.text(w-rw, 0, right, style)
	}

	// The last lines: the message (two lines) and the keys.
	msgTop := h - 3
	if c.help {
		c.drawHelp(sc, 2)
		sc.text(0, h-1, "Any key goes back to the table.", ui.FaintStyle)
		return sc.String()
	}
	c.fam.draw(sc, c, 1, msgTop-1)
	c.drawMessage(sc, msgTop)
	sc.lines[h-1] = append(sc.lines[h-1], seg{x: 0, text: ui.HelpBar(w, c.keys()...)})
	return sc.String()
}

var helpRows = [][2]string{
	{"← ↓ ↑ → or h j k l", "move the cursor"},
	{"space or enter", "take the card under the cursor, then drop it on a place; twice on a card: it goes where it fits"},
	{"1-9, 0", "jump to that card of your hand"},
	{"esc", "put back the card you hold"},
	{"e", "end your turn (in Spite and Malice, with an empty hand)"},
	{"mouse", "click a card then its place, or drag it there"},
	{"r", "ask for a rematch once the game is over"},
	{"i", "the game's rules"},
	{"p", "quick phrases: then 1-6 says one to the table, m mutes them"},
	{"q", "leave (twice in a game: a computer takes your seat)"},
}

func (c *core) drawHelp(sc *scene, y int) {
	sc.text(0, 1, "Keys at the table", ui.TitleStyle)
	for _, r := range helpRows {
		sc.text(2, y, r[0], ui.KeyStyle)
		// Wrapped, never cut: a narrow window takes a second line.
		for _, l := range ui.FitLines(r[1], sc.w-24, 3) {
			sc.text(24, y, l, plain)
			y++
		}
	}
	y++
	for i, l := range ui.FitLines(c.fam.rules(), sc.w-2, 6) {
		sc.text(2, y+i, l, ui.FaintStyle)
	}
}

func (c *core) keys() []string {
	if c.watching() {
		return []string{"q", "leave", "?", "help", "p", "phrases"}
	}
	// The phrases' key comes last: a narrow bar drops it first (? lists it).
	return []string{"←↓↑→", "move", "space", "pick/drop", "1-0", "hand", "esc", "drop",
		"e", "end turn", "?", "help", "q", "leave", "p", "phrases"}
}

func (c *core) drawMessage(sc *scene, y int) {
	if ls := c.phraseLines(sc.w); ls != nil {
		sc.text(0, y, ls[0], plain)
		sc.text(0, y+1, ls[1], ui.FaintStyle)
		return
	}
	msg, st := c.msg, plain
	switch c.kind {
	case ui.ToneErr:
		st = ui.ErrStyle
		if !c.env.Color {
			// Red is all that tells an error without colour: say it.
			msg = "! " + msg
		}
	case ui.ToneWarn:
		st = ui.WarnStyle
	}
	if msg == "" {
		st = ui.FaintStyle
		switch {
		case c.fam.turn() == engine.NoSeat:
			msg, st = c.fam.outcome(c)+c.totals(), ui.OkStyle
			if c.rematch != nil && c.common.CanRematch && !c.watching() {
				msg += " r: rematch."
			}
		case c.held.ok():
			msg = "Holding " + c.fam.heldName(c.held) + ": drop it on a place (space), esc puts it back."
		case c.common.Note != "":
			msg = c.common.Note
		case c.watching():
			msg = "You are watching: every card you see is face up for everyone."
		}
	}
	lines := ui.FitLines(fitLong(msg), sc.w, 2)
	// A phrase takes the second line for its few seconds, unless the
	// player's own sentence needs both: a default line keeps its first.
	if said := c.said(sc.w); said != "" && (c.msg == "" || len(lines) < 2) {
		lines = append(lines[:min(len(lines), 1)], "")
		sc.text(0, y+1, said, ui.KeyStyle)
	}
	for i, line := range lines {
		sc.text(0, y+i, line, st)
	}
}

// totals words the match's totals so far, or "".
func (c *core) totals() string {
	if len(c.common.Totals) == 0 {
		return ""
	}
	parts := make([]string, len(c.common.Totals))
	for i, n := range c.common.Totals {
		parts[i] = fmt.Sprintf("%s %d", c.name(i), n)
	}
	return " Match: " + strings.Join(parts, ", ") + "."
}

// fitLong cleans a sentence from outside (a refusal, a note) without
// cutting it: FitLines wraps it.
func fitLong(s string) string { return fit(s, 400) }

// logLines draws the last actions at x, y in at most n lines of width w.
func (c *core) logLines(sc *scene, x, y, w, n int) {
	// The newest entries that fit in n lines, each wrapped at words (an
	// entry is cut only when it alone is longer than the panel).
	var lines []string
	for i := len(c.common.Log) - 1; i >= 0 && len(lines) < n; i-- {
		e := ui.FitLines(c.common.Log[i], w, n)
		if len(lines)+len(e) > n {
			if len(lines) > 0 {
				break
			}
			e = ui.FitLines(c.common.Log[i], w, n-len(lines))
		}
		lines = append(e, lines...)
	}
	for i, l := range lines {
		sc.textMax(x, y+i, l, ui.FaintStyle, w)
	}
}

// handRow draws the seat's hand from x, y: one card a place, 7 cells
// apart (room for the marks), wrapping after perRow; it returns the lines
// used.
func (c *core) handRow(sc *scene, x, y, perRow, rows int, hand []engine.Card) int {
	seat := c.fam.seatNo()
	if len(hand) == 0 {
		sc.text(x, y, "(no cards)", ui.FaintStyle)
		return 1
	}
	// A hand too long for its rows shows the part around the cursor.
	start := 0
	if room := perRow * rows; len(hand) > room {
		ci := 0
		if c.cursor.kind == spHand {
			ci = c.cursor.i
		}
		start = min(max(0, ci-room/2), len(hand)-room)
		start = (start + perRow - 1) / perRow * perRow
	}
	used := 0
	for i := start; i < len(hand) && (i-start)/perRow < rows; i++ {
		r, col := (i-start)/perRow, (i-start)%perRow
		p := engine.Pile{Kind: engine.Tableau, Cards: hand[i : i+1]}
		sc.pile(x+col*7, y+r, p, spot{kind: spHand, seat: seat, i: i}, true)
		used = r + 1
	}
	if start > 0 || start+perRow*rows < len(hand) {
		// On the line above, beside the hand's label: the rows are full.
		sc.text(x+40, y-1, fmt.Sprintf("cards %d-%d of %d", start+1, min(start+perRow*rows, len(hand)), len(hand)), ui.FaintStyle)
	}
	return used
}

// cardWord is a card as text, with the suit's symbol (the router turns it
// into a letter for clients without UTF-8).
func cardWord(cd engine.Card) string {
	if cd == engine.NoCard {
		return "none"
	}
	return cd.String()
}

// sym is the mark for a client with UTF-8, or its ASCII stand-in.
func (c *core) sym(unicode, ascii string) string {
	if c.env.Unicode {
		return unicode
	}
	return ascii
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// The table screens draw their turn clock through ui.Ticking.
var (
	_ ui.Ticking = (*KingsScreen)(nil)
	_ ui.Ticking = (*SpiteScreen)(nil)
	_ ui.Ticking = (*Page)(nil)
)
