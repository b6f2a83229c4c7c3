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
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/board"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/format"
	"sshuffle/store"
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
	// Rating is the seat's rating at the game as players read it ("1523",
	// "1500?" while provisional), shown after its name; "" when unknown.
	Rating string
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
	// Rated: the table's games move its people's ratings.
	Rated bool
	// CanRematch: the match is over and a rematch may be asked for (r).
	// Between the games of a match the next one comes by itself.
	CanRematch bool
	// Offer is the rematch offered at the end of the match: who said yes
	// (by seat), who is awaited, and the time left to answer when the
	// state was sent; nil when none is open.
	Offer *hub.RematchOffer
	// MatchOver: the match has ended, won by MatchWinner (engine.NoSeat
	// on a tie).
	MatchOver   bool
	MatchWinner int
	// Closed: the table has closed (Note says why).
	Closed bool
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
	// Decline says no to the rematch offered (n), which closes the table;
	// nil: not this screen's to answer.
	Decline func()
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
	decline func()
	phrases *ui.PhrasePicker
	fam     family
	common  Common
	got     time.Time // when the clock value arrived

	cursor, held, drag spot
	msg                string
	over               bool // the game of the last state taken had ended
	kind               ui.Tone
	confirm            bool // q was pressed once
	left               bool
	help               bool // the keys are shown over the table
	sc                 scene

	helpPage, helpPages int // the page of the keys shown, of how many

	// version counts the messages taken: a frame with none since the
	// last can differ from it only by its clocks.
	version uint64
	frame   frameParts
	logKept keptLog
	bar     keptBar
}

// NextChange: the turn clock turns by itself while it runs; the session
// draws it then, with no message (arcade/render).
func (c *core) NextChange() time.Duration {
	d, ok := c.clockLeft()
	if !ok {
		d, ok = c.offerLeft()
	}
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
	if c.common.Offer != nil && m.Offer == nil && c.kind == ui.ToneInfo {
		c.msg = "" // "Asked for a rematch…" is answered: dealt, or closed
	}
	// The family's view is already the new state's. When its game has
	// just ended, what the last key was told ("It is bob's turn.") would
	// hide the outcome until the next key.
	over := c.fam.turn() == engine.NoSeat
	if over && !c.over {
		c.msg = ""
	}
	c.over = over
	c.common = m
	c.got = c.env.Now()
}

func (c *core) setMsg(k ui.Tone, text string) { c.kind, c.msg = k, text }

// name is seat's name as shown.
func (c *core) name(seat int) string {
	if seat >= 0 && seat < len(c.common.Seats) {
		if n := fit(c.common.Seats[seat].Name, store.MaxNameLen); n != "" {
			return n
		}
	}
	return fmt.Sprintf("seat %d", seat+1)
}

// who is seat's name with what it is and its rating: "bob (hard) 1750",
// "ann (you) 1500?".
func (c *core) who(seat int) string {
	n := c.whoOnly(seat)
	if seat >= 0 && seat < len(c.common.Seats) {
		if r := fit(c.common.Seats[seat].Rating, 6); r != "" {
			n += " " + r
		}
	}
	return n
}

func (c *core) whoOnly(seat int) string {
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

// offerLeft is the time left to answer the rematch offered now.
func (c *core) offerLeft() (time.Duration, bool) {
	o := c.common.Offer
	if o == nil || c.common.Closed {
		return 0, false
	}
	return max(o.Left-c.env.Now().Sub(c.got), 0), true
}

func clockText(d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// watching: the screen of someone without a seat.
func (c *core) watching() bool { return c.fam.seatNo() < 0 }

func (c *core) Update(msg tea.Msg) tea.Cmd {
	c.version++
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
		// The keys are read: ? turns to the next page of them, if any;
		// any other key goes back to the table.
		if key == "?" && c.helpPage+1 < c.helpPages {
			c.helpPage++
			return nil
		}
		c.help, c.helpPage = false, 0
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
		case c.fam.turn() != engine.NoSeat || (c.watching() && c.rematch == nil):
		case c.rematch == nil || !c.common.CanRematch:
			c.setMsg(ui.ToneWarn, "No rematch is on offer here now.")
		default:
			c.rematch()
			c.setMsg(ui.ToneInfo, "Asked for a rematch with the same seats…")
		}
	case "n":
		switch {
		case c.fam.turn() != engine.NoSeat || (c.watching() && c.decline == nil):
		case c.decline == nil || !c.common.CanRematch:
			c.setMsg(ui.ToneWarn, "No rematch is on offer here now.")
		default:
			c.decline()
			c.setMsg(ui.ToneInfo, "No rematch: the table closes.")
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
	f := &c.frame
	c.ViewPieces(nil)
	if !f.joinedOK {
		f.joined, f.joinedOK = strings.Join(f.out, ""), true
	}
	return f.joined
}

// ViewPieces is the view in pieces, one a line (ui.PiecedScreen). A frame
// with no message since the last (a turn of the clock) makes the header
// line alone, or nothing when the clock shows the same; any message draws
// the scene again, and a line the same as before keeps its string.
func (c *core) ViewPieces(dst []string) []string {
	e := c.env
	f := &c.frame
	k := frameKey{version: c.version, w: max(e.Width, 1), h: max(e.Height, 1), unicode: e.Unicode, color: e.Color}
	right, style := c.turnText()
	status, _ := c.matchStatus()
	switch {
	case !f.ok || k != f.key || status != f.status:
		c.draw(k.w, k.h, right, style, status)
		f.ok, f.key, f.status, f.right, f.style = true, k, status, right, style
	case right != f.right || !sameStyle(style, f.style):
		if !c.redrawHeader(right, style) {
			c.draw(k.w, k.h, right, style, status)
		}
		f.right, f.style = right, style
	}
	return append(dst, f.out...)
}

// frameParts is what a table screen keeps of its last frame: the lines
// as drawn, one piece each, and what they were drawn from.
type frameParts struct {
	ok     bool
	key    frameKey
	status string         // the match's status line, which holds a clock
	right  string         // the header's right: whose turn, the clock
	style  lipgloss.Style // its style
	below  bool           // the settings had no room in the header
	buf    bytes.Buffer
	out    []string // the frame's lines, the first without "\n" before it
	faults []string // the scene's faults under the header

	joined   string // out put together, for View
	joinedOK bool
}

// frameKey is what the scene is drawn from besides the clocks: the
// screen's state, which every message may change (version), and the
// window's.
type frameKey struct {
	version        uint64
	w, h           int
	unicode, color bool
}

func sameStyle(a, b lipgloss.Style) bool {
	return a.GetForeground() == b.GetForeground() && a.GetBold() == b.GetBold()
}

// draw draws the whole scene and keeps its lines.
func (c *core) draw(w, h int, right string, style lipgloss.Style, status string) {
	e := c.env
	f := &c.frame
	bv := board.View{Unicode: e.Unicode, Color: e.Color}
	cursor := c.cursor
	if c.watching() {
		cursor = spot{}
	}
	c.sc.reset(w, h, bv, cursor, c.held)
	sc := &c.sc
	f.below = c.header(sc, right, style)
	nh := len(sc.faults)
	c.body(sc, f.below, status)
	f.faults = append(f.faults[:0], sc.faults[nh:]...)
	f.buf.Reset()
	sc.write(&f.buf)
	f.out = ui.KeepLines(f.out, f.buf.Bytes())
	f.joinedOK = false
}

// redrawHeader makes the header line alone again, for a clock that
// turned; false when the scene must be drawn whole (the header's right
// leaves the settings no room, or room again).
func (c *core) redrawHeader(right string, style lipgloss.Style) bool {
	f := &c.frame
	sc := &c.sc
	if len(f.out) == 0 || len(sc.lines) == 0 || c.headerBelow(cells(right)) != f.below {
		return false
	}
	sc.lines[0] = sc.lines[0][:0]
	sc.faults = sc.faults[:0]
	c.header(sc, right, style)
	f.buf.Reset()
	sc.writeLine(&f.buf, 0)
	f.out[0] = f.buf.String()
	sc.faults = append(sc.faults, f.faults...)
	f.joinedOK = false
	return true
}

// headerBelow: the settings leave the header no room for its right (rw
// cells wide), and go on a line of their own.
func (c *core) headerBelow(rw int) bool {
	watching := 0
	if n := c.common.Watchers; n > 0 {
		watching = cells(fmt.Sprintf(" · %d watching", n))
	}
	return cells(c.fam.title())+cells("  "+c.fam.settings())+watching+1+rw > c.sc.w
}

// header draws line 0: the game, its settings, whose turn and the clock.
// The turn always shows; settings that leave it no room go to a line of
// their own over the messages, whole (below).
func (c *core) header(sc *scene, right string, style lipgloss.Style) (below bool) {
	w := sc.w
	rw := cells(right)
	settings := "  " + c.fam.settings()
	watching := ""
	if n := c.common.Watchers; n > 0 {
		watching = fmt.Sprintf(" · %d watching", n)
	}
	title := c.fam.title()
	below = c.headerBelow(rw)
	x := sc.text(0, 0, title, titlePen)
	if !below {
		x += sc.text(x, 0, settings, faintPen)
	}
	if watching != "" {
		x += sc.text(x, 0, watching, faintPen)
	}
	// The pace only where it leaves the turn room: whose turn it is
	// matters more.
	if pw := c.paceWord(); pw != "" && w-rw > x+cells(pw) {
		x += sc.text(x, 0, pw, faintPen)
	}
	if c.common.Rated && w-rw > x+cells(" · rated") {
		x += sc.text(x, 0, " · rated", faintPen)
	}
	if w-rw > x {
		sc.text(w-rw, 0, right, penOf(style))
	}
	return below
}

// body draws everything under the header: the game's table, the match's
// status, the message lines and the keys (or the keys at the table, over
// it, while they are asked for).
func (c *core) body(sc *scene, below bool, status string) {
	w, h := sc.w, sc.h
	if c.help {
		c.drawHelp(sc, 2, h-2)
		foot := "Any key goes back to the table."
		if c.helpPage+1 < c.helpPages {
			foot = "? shows the next page of keys; any other key goes back to the table."
		}
		sc.text(0, h-1, foot, faintPen)
		return
	}
	// The last lines: the message (two lines, more for a long outcome),
	// the settings if the header had no room, and the keys.
	msg := c.message(w)
	msgTop := h - 1 - max(2, len(msg))
	// Once the match is over, the rematch (or why the table closed) has
	// its own lines above the message.
	_, stStyle := c.matchStatus()
	var lines []string
	if status != "" {
		lines = fitLines(fitLong(status), w, 3)
	}
	stTop := msgTop - len(lines)
	bottom := stTop - 1
	if below {
		sc.text(0, stTop-1, "Settings: "+c.fam.settings(), faintPen)
	}
	c.fam.draw(sc, c, 1, bottom)
	for i, l := range lines {
		sc.text(0, stTop+i, l, penOf(stStyle))
	}
	for i, m := range msg {
		sc.text(0, msgTop+i, m.text, penOf(m.st))
	}
	sc.lines[h-1] = append(sc.lines[h-1], seg{x: 0, text: c.helpBar(w)})
}

// keptBar is the key bar as last drawn, and for what.
type keptBar struct {
	w    int
	keys *string // the first of the keys' list (one of the lists below)
	bar  string
}

// helpBar is ui.HelpBar of the keys, made again only when the keys or
// the width change.
func (c *core) helpBar(w int) string {
	keys := c.keys()
	if c.bar.keys != &keys[0] || c.bar.w != w {
		c.bar = keptBar{w: w, keys: &keys[0], bar: ui.HelpBar(w, keys...)}
	}
	return c.bar.bar
}

// turnText is whose turn it is and the clock, for the header's right.
func (c *core) turnText() (string, lipgloss.Style) {
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
	return right, style
}

var helpRows = [][2]string{
	{"← ↓ ↑ → or h j k l", "move the cursor"},
	{"space or enter", "take the card under the cursor, then drop it on a place; twice on a card: it goes where it fits"},
	{"1-9, 0", "jump to that card of your hand"},
	{"esc", "put back the card you hold"},
	{"e", "end your turn (in Spite and Malice, with an empty hand)"},
	{"mouse", "click a card then its place, or drag it there"},
	{"r / n", "once the match is over: yes or no to a rematch (all seated must say yes)"},
	{"i", "the game's rules"},
	{"q", "leave (twice in a game: a computer takes your seat)"},
	{"p", "quick phrases: then 1-6 says one to the table, m mutes them"},
}

// drawHelp draws the keys and the game in brief from line y down to
// bottom (not included), wrapped, never cut: what does not fit goes to a
// next page, which ? turns to.
func (c *core) drawHelp(sc *scene, y, bottom int) {
	sc.text(0, 1, "Keys at the table", titlePen)
	type line struct {
		key, text string
		rule      bool // a line of the game in brief, not of a key
	}
	var lines []line
	for _, r := range helpRows {
		for i, l := range fitLines(r[1], sc.w-24, 3) {
			k := ""
			if i == 0 {
				k = r[0]
			}
			lines = append(lines, line{k, l, false})
		}
	}
	rules := fitLines(c.fam.rules(), sc.w-2, 6)
	var pages [][]line
	page := lines
	room := max(bottom-y, 1)
	for len(page) > room {
		pages = append(pages, page[:room])
		page = page[room:]
	}
	// The game in brief stays whole: after the last keys, or on a page of
	// its own.
	if len(page) > 0 && len(page)+1+len(rules) > room {
		pages = append(pages, page)
		page = nil
	} else if len(page) > 0 {
		page = append(page, line{})
	}
	for _, l := range rules {
		page = append(page, line{"", l, true})
	}
	pages = append(pages, page)
	c.helpPages = len(pages)
	c.helpPage = min(c.helpPage, len(pages)-1)
	for i, l := range pages[c.helpPage] {
		if l.key != "" {
			sc.text(2, y+i, l.key, keyPen)
		}
		if l.rule {
			sc.text(2, y+i, l.text, faintPen)
		} else {
			sc.text(24, y+i, l.text, plainPen)
		}
	}
}

// The key bars' lists, never changed.
var (
	closedKeys   = []string{"q", "the menu", "?", "help"}
	rematchKeys  = []string{"r", "rematch", "n", "no rematch", "q", "leave", "?", "help", "p", "phrases"}
	watchingKeys = []string{"q", "leave", "?", "help", "p", "phrases"}
	// The phrases' key comes last: a narrow bar drops it first (? lists it).
	playingKeys = []string{"←↓↑→", "move", "space", "pick/drop", "1-0", "hand", "esc", "drop",
		"e", "end turn", "?", "help", "q", "leave", "p", "phrases"}
)

func (c *core) keys() []string {
	if c.common.Closed {
		return closedKeys
	}
	if c.common.Offer != nil && c.rematch != nil {
		return rematchKeys
	}
	if c.watching() {
		return watchingKeys
	}
	return playingKeys
}

// msgLine is one line of the message under the table.
type msgLine struct {
	text string
	st   lipgloss.Style
}

// msgLines is the most lines the message under the table takes (a
// game's outcome with four long names and the match totals needs them),
// besides a line for the held card or the rematch key.
const msgLines = 4

// message is the lines under the table: what the player last did or
// was told (or the outcome, the table's note), and the card held, named
// whatever else is said.
func (c *core) message(w int) []msgLine {
	if ls := c.phraseLines(w); ls != nil {
		return []msgLine{{ls[0], plain}, {ls[1], ui.FaintStyle}}
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
	held, hint := "", ""
	if c.held.ok() {
		held = "Holding " + c.fam.heldName(c.held) + ": drop it on a place (space), esc puts it back."
	}
	if msg == "" {
		st = ui.FaintStyle
		switch {
		case c.fam.turn() == engine.NoSeat && c.common.Offer != nil:
			// The lines above say the rest (the keys, the match); the
			// totals are beside the seats.
			msg, st = c.fam.outcome(c), ui.OkStyle
		case c.fam.turn() == engine.NoSeat:
			msg, st = c.fam.outcome(c)+c.totals(), ui.OkStyle
			if c.rematch != nil && c.common.CanRematch && !c.watching() {
				hint = "r: rematch."
			}
		case c.common.Note != "":
			msg = c.common.Note
		case c.watching():
			msg = "You are watching: every card you see is face up for everyone."
		case held != "":
			msg, held = held, ""
		}
	}
	// The held card's line, or the rematch key's when it does not fit
	// after the outcome, comes on top of these.
	room := msgLines
	var out []msgLine
	for _, line := range fitLines(fitLong(msg), w, room) {
		out = append(out, msgLine{line, st})
	}
	if hint != "" {
		// The key and its word together: after the message, or under it.
		if n := len(out); n > 0 && cells(out[n-1].text)+1+len(hint) <= w {
			out[n-1].text += " " + hint
		} else {
			out = append(out, msgLine{hint, st})
		}
	}
	if held != "" {
		out = append(out, msgLine{fit(held, w), ui.FaintStyle})
	}
	// A phrase someone said, last, for its few seconds: within the lines
	// the message may take, so the table above never gives up more.
	if said := c.said(w); said != "" && len(out) < msgLines {
		out = append(out, msgLine{said, ui.KeyStyle})
	}
	return out
}

// matchStatus is the line about the match once it is over: who won it
// and the rematch offered (who said yes, who is awaited, the time left),
// or why the table closed; "" before.
func (c *core) matchStatus() (string, lipgloss.Style) {
	if c.common.Closed {
		if c.fam.turn() != engine.NoSeat || c.common.Note == "" {
			return "", plain
		}
		return c.common.Note + " q: the menu.", ui.WarnStyle
	}
	o := c.common.Offer
	if o == nil {
		return "", plain
	}
	// Whole names here (a name is at most 20 letters): the lines wrap.
	full := func(seat int) string {
		if seat >= 0 && seat < len(c.common.Seats) {
			if n := fit(c.common.Seats[seat].Name, 20); n != "" {
				return n
			}
		}
		return c.name(seat)
	}
	var b strings.Builder
	if c.common.MatchOver {
		if w := c.common.MatchWinner; w >= 0 {
			b.WriteString(full(w) + " wins the match. ")
		} else {
			b.WriteString("The match is drawn. ")
		}
	}
	left := ""
	if d, ok := c.offerLeft(); ok {
		left = " (" + clockText(d) + " left)"
	}
	me := c.fam.seatNo()
	switch {
	case me >= 0 && me < len(o.Yes) && o.Yes[me]:
		b.WriteString("Rematch: you said yes" + left + ".")
	case c.rematch != nil:
		b.WriteString("Rematch? r: yes, n: no" + left + ".")
	default:
		b.WriteString("Rematch offered" + left + ".")
	}
	var yes []string
	for i, y := range o.Yes {
		if y && i != me {
			yes = append(yes, full(i))
		}
	}
	if len(yes) > 0 {
		b.WriteString(" Yes: " + strings.Join(yes, ", ") + ".")
	}
	if len(o.Waiting) > 0 {
		var names []string
		for _, n := range o.Waiting {
			names = append(names, fit(n, 20))
		}
		b.WriteString(" Waiting for " + strings.Join(names, ", ") + ".")
	}
	return b.String(), ui.OkStyle
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
func fitLong(s string) string { return format.Clean(s, 1000) }

// logLines draws the last actions at x, y in at most n lines of width w.
func (c *core) logLines(sc *scene, x, y, w, n int) {
	for i, l := range c.logText(w, n) {
		sc.textMax(x, y+i, l, faintPen, w)
	}
}

// logText is the newest entries of the log that fit in n lines of width
// w, each wrapped at words (an entry is cut only when it alone is longer
// than the panel).
func (c *core) logText(w, n int) []string {
	l := &c.logKept
	log := c.common.Log
	var first *string
	if len(log) > 0 {
		first = &log[0]
	}
	// The room makes a new log for every entry: the same slice is the
	// same log.
	if l.ok && l.first == first && l.n == len(log) && l.width == w && l.lines == n {
		return l.out
	}
	if l.width != w || l.lines != n {
		clear(l.entries)
	}
	l.ok, l.first, l.n, l.width, l.lines = true, first, len(log), w, n
	// The lines before are read by no one now: their room is reused.
	l.out = c.wrapLog(l.out, w, n)
	// An entry stays in the log for some states: its lines are kept
	// while it does.
	for e := range l.entries {
		if !slices.Contains(log, e) {
			delete(l.entries, e)
		}
	}
	return l.out
}

// keptLog is the log's lines as last wrapped, and what for.
type keptLog struct {
	ok           bool
	first        *string // the log's first entry
	n            int     // its entries
	width, lines int
	out          []string
	entries      map[string][]string // each entry wrapped in width and lines
}

// wrapEntry is the log's entry wrapped at words in the kept width and
// lines.
func (c *core) wrapEntry(entry string) []string {
	l := &c.logKept
	if ls, ok := l.entries[entry]; ok {
		return ls
	}
	if l.entries == nil {
		l.entries = map[string][]string{}
	}
	ls := fitLines(entry, l.width, l.lines)
	l.entries[entry] = ls
	return ls
}

// wrapLog is the newest entries' lines that fit in n lines of width w,
// oldest first, in dst's room: the entries are counted from the newest,
// then their lines written in order.
func (c *core) wrapLog(dst []string, w, n int) []string {
	log := c.common.Log
	first, lines := len(log), 0
	cutAt, cut := -1, []string(nil)
	for i := len(log) - 1; i >= 0 && lines < n; i-- {
		e := c.wrapEntry(log[i])
		if lines+len(e) > n {
			if lines > 0 {
				break
			}
			cutAt, cut = i, fitLines(log[i], w, n-lines)
			e = cut
		}
		first, lines = i, lines+len(e)
	}
	out := dst[:0]
	for i := first; i < len(log); i++ {
		if i == cutAt {
			out = append(out, cut...)
		} else {
			out = append(out, c.wrapEntry(log[i])...)
		}
	}
	return out
}

// handRow draws the seat's hand from x, y: one card a place, 7 cells
// apart (room for the marks), wrapping after perRow; it returns the lines
// used.
func (c *core) handRow(sc *scene, x, y, perRow, rows int, hand []engine.Card) int {
	seat := c.fam.seatNo()
	if len(hand) == 0 {
		sc.text(x, y, "(no cards)", faintPen)
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
		sc.text(x+40, y-1, fmt.Sprintf("cards %d-%d of %d", start+1, min(start+perRow*rows, len(hand)), len(hand)), faintPen)
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
