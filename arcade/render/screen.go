// Package render draws a session's screens to its terminal, in place of
// Bubble Tea's renderer: Bubble Tea still reads the input and runs the
// model, and the program runs without a renderer (tea.WithoutRenderer).
//
// What it does differently, and why:
//   - It draws when the model changed, not on a 60 Hz ticker: an idle
//     session costs nothing between its clock ticks, and a key is echoed as
//     soon as its Update returns instead of at the next frame tick.
//   - It compares the new view with the last one line by line and parses
//     only the lines that changed; within a line it sends only the cells
//     that changed. A clock tick re-reads one line, not the screen. Whole
//     lines that moved up a few rows (a log gaining an entry) are
//     scrolled in the terminal, not sent again.
//   - A session keeps the previous view's lines (strings its screens keep
//     anyway) and the pen at each line's ends, not a buffer of cells: a
//     line that changed is compared with the cells its last line parses
//     to. What a frame is made with (its rows of cells, its bytes) is
//     borrowed for the frame and handed back, so an idle session holds
//     none of it. Styles, their SGR transitions and downsampled colours
//     live in one table for the whole server.
package render

import (
	"io"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// cell is one screen cell: a rune (or, below zero, an index into the
// screen's table of multi-rune clusters), its style and its width. A wide
// character's second cell has width 0.
type cell struct {
	r  int32
	st styleID
	w  uint8
}

var blank = cell{r: ' ', w: 1}

// Screen is what one session's terminal shows and how to change it.
type Screen struct {
	w       io.Writer
	profile colorprofile.Profile
	width   int
	height  int

	// The last view drawn, and for each of its lines the pen at its start
	// and end: a line equal to last time's, starting with the same pen, is
	// not parsed again. The terminal shows each row as its line parses
	// (a changed row is always drawn whole), or blank (blankLine).
	content  string   // the last inline view
	pieces   []string // the last alternate-screen view, in its pieces
	one      [1]string
	lines    []string
	penIn    []styleID
	penOut   []styleID
	clusters []string // multi-rune grapheme clusters, indexed by -r-1
	sgrSeen  [sgrMemos]sgrMemo

	// The cells of the row drawn last (hotY; -1: none), kept so that a
	// clock turn, which draws the same row each time, compares with them
	// instead of parsing the row's last line again.
	hot  []cell
	hotY int

	sc     *scratch // while a frame is made
	curY   int      // the row drawn last in this frame, whose cells are sc.cur; -1: none
	out    *[]byte  // the buffer of the frame made and not yet sent
	leftOn int      // plain runs still waiting when the last frame ended: none

	started bool // the terminal modes are set
	full    bool // the next frame redraws everything
	alt     bool
	mouse   tea.MouseMode
	title   string
	paste   bool // bracketed paste on
	cursor  bool // text cursor shown
	sync    bool // the terminal does synchronized output (mode 2026)
	kitty   bool // a kitty keyboard entry was pushed
	inlineH int  // lines drawn by the last inline (non-alt) frame

	pen    styleID // the terminal's current SGR pen
	cx, cy int     // the terminal's cursor; cx -1 when unknown
	wrote  int64   // bytes written in all, for tests and the load generator
}

// blankLine stands in the lines of the last view for a row the terminal
// shows blank (one scrolled in): never a line of a view, which holds no
// newline.
const blankLine = "\n"

// scratch is what a frame is made with and nothing needs between frames:
// rows of cells, the new view's lines, the plain runs held back.
type scratch struct {
	row   []cell // the new line, parsed
	cur   []cell // what the terminal shows of the row being drawn
	tmp   []cell // an earlier row of this frame, for the plain runs
	next  []string
	costs []int // scroll's
	sums  []int // shift's
	plain []plainRun
	join  []byte // a line across pieces, while it is put together
}

// scratches and frameBufs lend every session's frames the same few
// scratches and byte buffers: a frame borrows them while it is made (and
// its bytes until they are sent), so what a thousand idle sessions hold
// between their clock turns is their lines, not a frame's worth each.
var (
	scratches = sync.Pool{New: func() any { return new(scratch) }}
	frameBufs = sync.Pool{New: func() any { return new([]byte) }}
)

// maxKeptBuf is the largest frame buffer given back for reuse: a full
// redraw of a huge window is left to the collector.
const maxKeptBuf = 64 << 10

// borrow takes a scratch for a frame, its rows width cells long.
func (s *Screen) borrow() *scratch {
	sc := scratches.Get().(*scratch)
	sc.row = cellsOf(sc.row, s.width)
	sc.cur = cellsOf(sc.cur, s.width)
	sc.tmp = cellsOf(sc.tmp, s.width)
	s.sc, s.curY = sc, -1
	return sc
}

// giveBack returns the frame's scratch, holding no string of the view.
func (s *Screen) giveBack() {
	sc := s.sc
	s.sc = nil
	s.leftOn = len(sc.plain)
	clear(sc.next)
	sc.next, sc.plain = sc.next[:0], sc.plain[:0]
	scratches.Put(sc)
}

func cellsOf(c []cell, n int) []cell {
	if cap(c) >= n {
		return c[:n]
	}
	return make([]cell, n)
}

// frameBuf is a buffer for a frame's bytes, the screen's until the frame
// is sent (or the next is made).
func (s *Screen) frameBuf() []byte {
	s.releaseOut()
	s.out = frameBufs.Get().(*[]byte)
	return (*s.out)[:0]
}

// keepOut records b, grown from frameBuf's, as the frame's buffer.
func (s *Screen) keepOut(b []byte) {
	if s.out != nil {
		*s.out = b
	}
}

// releaseOut gives the buffer of the frame last made back.
func (s *Screen) releaseOut() {
	p := s.out
	if p == nil {
		return
	}
	s.out = nil
	if cap(*p) > maxKeptBuf {
		*p = nil
	}
	*p = (*p)[:0]
	frameBufs.Put(p)
}

// NewScreen draws for a width x height terminal writing to w.
func NewScreen(w io.Writer, width, height int, profile colorprofile.Profile) *Screen {
	s := &Screen{w: w, profile: profile, full: true, cx: -1, hotY: -1}
	s.Resize(width, height)
	return s
}

// Resize sets the terminal's size; the next frame redraws it all.
func (s *Screen) Resize(width, height int) {
	width, height = max(width, 1), max(height, 1)
	if width == s.width && height == s.height {
		return
	}
	s.width, s.height = width, height
	s.full = true
}

// SetProfile sets the colour profile colours are brought down to.
func (s *Screen) SetProfile(p colorprofile.Profile) {
	if p != s.profile {
		s.profile = p
		s.full = true
	}
}

// SetSync turns synchronized output (mode 2026) on for later frames.
func (s *Screen) SetSync(on bool) { s.sync = on }

// Written is the number of bytes written so far.
func (s *Screen) Written() int64 { return s.wrote }

// Draw brings the terminal to view v, writing only what changed.
func (s *Screen) Draw(v tea.View) error { return s.Send(s.Frame(v)) }

// Frame is what Draw writes for v; the screen takes it as sent, so Send it
// before the next Frame or Draw (it lives in the screen's buffer until then).
// Apart, the two let a caller make many sessions' frames first and write
// them one after another.
func (s *Screen) Frame(v tea.View) []byte {
	s.one[0] = v.Content
	return s.FramePieces(v, s.one[:])
}

// FramePieces is Frame for a view whose content is pieces put end to end
// (v.Content is not read); the screen keeps its own copy of the slice. A
// piece that is the same string as last frame's costs a pointer
// comparison: a game's clock turn makes a new header and hands the kept
// board beside it, instead of a new string of the whole screen (2.6 KB of
// garbage a second for every idle game at 80x24).
func (s *Screen) FramePieces(v tea.View, pieces []string) []byte {
	b := s.frameBuf()
	s.borrow()
	if !s.started {
		b = s.start(b, v)
	}
	b = s.modes(b, v)
	if v.AltScreen {
		b = s.drawAlt(b, pieces)
	} else {
		b = s.drawInline(b, strings.Join(pieces, ""))
	}
	// Each frame leaves the pen plain, so the next starts from nothing
	// the terminal might have lost.
	b = s.resetPen(b)
	b = s.placeCursor(b, v)
	s.giveBack()
	if len(b) == 0 {
		s.keepOut(b)
		s.releaseOut()
		return nil
	}
	if s.sync {
		// Wrapped in place: the buffer is small and reused.
		n := len(ansi.SetModeSynchronizedOutput)
		b = append(b, ansi.ResetModeSynchronizedOutput...)
		b = append(b, make([]byte, n)...)
		copy(b[n:], b[:len(b)-n])
		copy(b, ansi.SetModeSynchronizedOutput)
	}
	s.keepOut(b)
	return b
}

// Send writes a frame Frame made, and gives its buffer back for the next.
func (s *Screen) Send(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	n, err := s.w.Write(b)
	s.wrote += int64(n)
	s.releaseOut()
	return err
}

// start sets the modes Bubble Tea's renderer sets on its first frame, in
// its order: the alternate screen first (the kitty keyboard stack is kept
// per screen), then paste, keyboard, the synchronized output query.
func (s *Screen) start(b []byte, v tea.View) []byte {
	s.started = true
	b = append(b, ansi.ResetModifyOtherKeys...)
	if v.AltScreen {
		b = append(b, ansi.SetModeAltScreenSaveCursor...)
		s.alt = true
		s.full = true
	}
	b = append(b, ansi.ResetModeTextCursorEnable...)
	b = append(b, ansi.SetModeBracketedPaste...)
	s.paste = true
	b = append(b, ansi.SetModifyOtherKeys2...)
	b = append(b, ansi.PushKittyKeyboard(1)...)
	b = append(b, ansi.RequestKittyKeyboard...)
	b = append(b, ansi.RequestModeSynchronizedOutput...)
	s.kitty = true
	return b
}

// modes brings alt screen, mouse, paste and title to what v asks for.
func (s *Screen) modes(b []byte, v tea.View) []byte {
	if v.AltScreen != s.alt {
		if s.kitty {
			// Each screen has its own kitty keyboard stack.
			b = append(b, ansi.ResetModifyOtherKeys...)
			b = append(b, ansi.PopKittyKeyboard(1)...)
		}
		b = s.resetPen(b)
		if v.AltScreen {
			b = append(b, ansi.SetModeAltScreenSaveCursor...)
			s.full = true
		} else {
			b = append(b, ansi.ResetModeAltScreenSaveCursor...)
			s.inlineH = 0
			s.content = ""
		}
		s.alt = v.AltScreen
		s.cx = -1
		if s.kitty {
			b = append(b, ansi.SetModifyOtherKeys2...)
			b = append(b, ansi.PushKittyKeyboard(1)...)
		}
		if !s.cursor {
			b = append(b, ansi.ResetModeTextCursorEnable...)
		}
	}
	if paste := !v.DisableBracketedPasteMode; paste != s.paste {
		if paste {
			b = append(b, ansi.SetModeBracketedPaste...)
		} else {
			b = append(b, ansi.ResetModeBracketedPaste...)
		}
		s.paste = paste
	}
	if v.MouseMode != s.mouse {
		switch v.MouseMode {
		case tea.MouseModeNone:
			b = append(b, ansi.ResetModeMouseButtonEvent+ansi.ResetModeMouseAnyEvent+ansi.ResetModeMouseExtSgr...)
		case tea.MouseModeCellMotion:
			if s.mouse == tea.MouseModeAllMotion {
				b = append(b, ansi.ResetModeMouseAnyEvent...)
			}
			b = append(b, ansi.SetModeMouseButtonEvent+ansi.SetModeMouseExtSgr...)
		case tea.MouseModeAllMotion:
			if s.mouse == tea.MouseModeCellMotion {
				b = append(b, ansi.ResetModeMouseButtonEvent...)
			}
			b = append(b, ansi.SetModeMouseAnyEvent+ansi.SetModeMouseExtSgr...)
		}
		s.mouse = v.MouseMode
	}
	if v.WindowTitle != s.title {
		b = append(b, ansi.SetWindowTitle(v.WindowTitle)...)
		s.title = v.WindowTitle
	}
	return b
}

func (s *Screen) placeCursor(b []byte, v tea.View) []byte {
	show := v.Cursor != nil
	if show {
		b = s.moveTo(b, v.Cursor.X, v.Cursor.Y)
	}
	if show != s.cursor {
		if show {
			b = append(b, ansi.SetModeTextCursorEnable...)
		} else {
			b = append(b, ansi.ResetModeTextCursorEnable...)
		}
		s.cursor = show
	}
	return b
}

// Close ends the session's terminal state the way Bubble Tea does: the
// keyboard protocol popped, the alternate screen left (or what was drawn
// inline kept, the cursor below it), the cursor shown, paste and mouse
// reporting off, the title cleared.
func (s *Screen) Close() error {
	if !s.started {
		return nil
	}
	b := s.frameBuf()
	if s.kitty {
		b = append(b, ansi.ResetModifyOtherKeys...)
		b = append(b, ansi.PopKittyKeyboard(1)...)
	}
	b = s.resetPen(b)
	if s.alt {
		b = s.moveTo(b, 0, s.height-1)
		b = append(b, ansi.ResetModeAltScreenSaveCursor...)
	} else {
		b = append(b, ansi.EraseScreenBelow...)
	}
	if !s.cursor {
		b = append(b, ansi.SetModeTextCursorEnable...)
	}
	if s.paste {
		b = append(b, ansi.ResetModeBracketedPaste...)
	}
	if s.mouse != tea.MouseModeNone {
		b = append(b, ansi.ResetModeMouseButtonEvent+ansi.ResetModeMouseAnyEvent+ansi.ResetModeMouseExtSgr...)
	}
	if s.title != "" {
		b = append(b, ansi.SetWindowTitle("")...)
	}
	s.started, s.sync = false, false
	s.keepOut(b)
	return s.Send(b)
}

// resetPen leaves the pen plain, and writes the plain runs diffRow kept
// back for this moment.
func (s *Screen) resetPen(b []byte) []byte {
	if s.sc != nil && len(s.sc.plain) > 0 {
		return s.flushPlain(b)
	}
	if s.pen != 0 {
		b = append(b, ansi.ResetStyle...)
		s.pen = 0
	}
	return b
}

func (s *Screen) setPen(b []byte, st styleID) []byte {
	if st != s.pen {
		b = append(b, transition(s.pen, st, s.profile)...)
		s.pen = st
	}
	return b
}
