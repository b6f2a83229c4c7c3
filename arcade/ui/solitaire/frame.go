package solitaire

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/board"
	"sshuffle/engine"
	"sshuffle/internal/format"
)

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
	msgKind  ui.Tone
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
	kind                   ui.Tone
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
	// The pairs the bars were made of: a new position with the same
	// pairs (the usual case: they follow the kinds of piles) keeps them.
	barKeys, moreKeys []string
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
		s.kind = ui.ToneInfo
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
		s.kind = ui.ToneInfo
		msg = "Deal number (enter to deal, esc to cancel): " + *s.prompt + "_"
	}
	if s.kind == ui.ToneErr && !e.Color {
		msg = "! " + msg
	}
	kind := s.kind
	if msg == "" && s.sel.OK {
		// Said in words as well as drawn: a terminal without colour may
		// show no highlight at all.
		msg, kind = s.holding(piles), ui.ToneInfo
	}
	if msg == "" {
		// The deal number, so friends can race the same deal (#).
		if f.deal == "" {
			f.deal = fmt.Sprintf("Deal #%d", s.g.Spec().Seed)
		}
		msg, kind = f.deal, ui.ToneInfo
	}
	// A message is wrapped whole, never cut: the board gives up lines to
	// a long one (its columns fold), and the key bar keeps its own line.
	maxLines := max(e.Height-minBoardLines-2, 1)
	if !f.msgOK || f.msgText != msg || f.msgKind != kind || f.msgWidth != e.Width || f.msgMax != maxLines {
		lines := ui.FitLines(msg, e.Width, maxLines)
		var mb strings.Builder
		for _, l := range lines {
			mb.WriteString(kind.Style().Render(l))
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
		if bars.width != e.Width || bars.withMenu != withMenu || bars.barKeys == nil || !slices.Equal(bar, bars.barKeys) || !slices.Equal(more, bars.moreKeys) {
			bars.bar, bars.more = ui.HelpBar(e.Width, bar...), ui.HelpBar(e.Width, more...)
			bars.barKeys, bars.moreKeys = bar, more
		}
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
// The pairs are kept with what they were made of (every position asks
// for them again), and are the caller's to read, not to change.
func (s *gameScreen) keyBars(withMenu bool) (bar, more []string) {
	k := keyPairsKey{withMenu: withMenu}
	for _, p := range s.piles() {
		if int(p.Kind) < len(k.kinds) {
			k.kinds[p.Kind] = true
		}
		if p.Kind == engine.Tableau {
			k.columns++
		}
	}
	if kp := &s.keyPairs; kp.ok && kp.key == k {
		return kp.bar, kp.more
	}
	bar, more = s.makeKeyBars(k)
	s.keyPairs = keyPairs{ok: true, key: k, bar: bar, more: more}
	return bar, more
}

// keyPairs are the key bars' pairs, made for key.
type keyPairs struct {
	ok        bool
	key       keyPairsKey
	bar, more []string
}

// keyPairsKey is what the key bars' pairs are made of: which kinds of
// piles the game has, how many columns, and whether the menu's keys are
// in.
type keyPairsKey struct {
	kinds    [engine.Slot + 1]bool
	columns  int
	withMenu bool
}

func (s *gameScreen) makeKeyBars(k keyPairsKey) (bar, more []string) {
	kinds, columns, withMenu := k.kinds, k.columns, k.withMenu
	home := "home"
	if !kinds[engine.Foundation] {
		home = "play" // TriPeaks and Pyramid: to the waste, or removed
	}
	bar = []string{"←↓↑→", "move", "space", "pick/drop", "f", home}
	if s.info.Game.Keys.Draw != "" && kinds[engine.Stock] {
		bar = append(bar, "d", "stock")
	}
	bar = append(bar, "u", "undo", "t", "hint", "n", "new", "r", "restart")
	if withMenu {
		bar = append(bar, "?", "help", "q", "menu")
	}
	if columns > 0 { // places(piles) numbers the columns
		last := strconv.Itoa(min(columns, 10) % 10)
		more = append(more, "1-"+last, "column")
	} else {
		more = append(more, "1-9", "free card")
	}
	if kinds[engine.Waste] {
		more = append(more, "w", "waste")
	}
	if kinds[engine.Cell] {
		more = append(more, "c", "cell")
	}
	if kinds[engine.Foundation] {
		more = append(more, "a", "foundation")
	}
	more = append(more, "esc", "drop", "#", "deal number", "o", "options", "i", "rules")
	return bar, more
}

// forget drops everything the screen keeps between frames, so its next
// View draws from the game alone.
func (s *gameScreen) forget() {
	s.last = frameParts{}
	s.bars = keyBarLines{}
	s.keyPairs = keyPairs{}
	s.pileList = nil
	s.canvas = nil
}
