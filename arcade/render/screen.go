// Package render draws a session's screens to its terminal, in place of
// Bubble Tea's renderer: Bubble Tea still reads the input and runs the
// model, and the program runs without a renderer (tea.WithoutRenderer).
//
// What it does differently, and why (issue 15):
//   - It draws when the model changed, not on a 60 Hz ticker: an idle
//     session costs nothing between its clock ticks, and a key is echoed as
//     soon as its Update returns instead of at the next frame tick.
//   - It compares the new view with the last one line by line and parses
//     only the lines that changed; within a line it sends only the cells
//     that changed. A clock tick re-reads one line, not the screen.
//   - A session keeps one compact screen buffer (8 bytes a cell) and the
//     previous view string; styles, their SGR transitions and downsampled
//     colours live in one table for the whole server.
package render

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

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

	front []cell // what the terminal shows, width*height (alt screen)
	row   []cell // the line being parsed

	// The last view drawn, and for each of its lines the pen at its start
	// and end: a line equal to last time's, starting with the same pen, is
	// not parsed again.
	content  string   // the last inline view
	pieces   []string // the last alternate-screen view, in its pieces
	one      [1]string
	lines    []string
	penIn    []styleID
	penOut   []styleID
	clusters []string // multi-rune grapheme clusters, indexed by -r-1

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
	plain  []plainRun
	sums   []int  // shift's scratch
	join   []byte // a line across pieces, while it is put together
	cx, cy int    // the terminal's cursor; cx -1 when unknown
	buf    []byte
	wrote  int64 // bytes written in all, for tests and the load generator
}

// NewScreen draws for a width x height terminal writing to w.
func NewScreen(w io.Writer, width, height int, profile colorprofile.Profile) *Screen {
	s := &Screen{w: w, profile: profile, full: true, cx: -1}
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
	if n := width * height; cap(s.front) >= n {
		s.front = s.front[:n]
	} else {
		s.front = make([]cell, n)
	}
	if cap(s.row) >= width {
		s.row = s.row[:width]
	} else {
		s.row = make([]cell, width)
	}
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
	b := s.buf[:0]
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
	s.buf = b[:0]
	if cap(b) > 64<<10 {
		s.buf = nil // a full redraw of a huge window: do not keep it
	}
	if len(b) == 0 {
		return nil
	}
	if s.sync {
		// Wrapped in place: the buffer is small and reused.
		b = append(b, ansi.ResetModeSynchronizedOutput...)
		b = append([]byte(ansi.SetModeSynchronizedOutput), b...)
	}
	return b
}

// Send writes a frame Frame made.
func (s *Screen) Send(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	n, err := s.w.Write(b)
	s.wrote += int64(n)
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
	b := s.buf[:0]
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
	s.buf = b[:0]
	return s.Send(b)
}

// resetPen leaves the pen plain, and writes the plain runs diffRow kept
// back for this moment.
func (s *Screen) resetPen(b []byte) []byte {
	if len(s.plain) > 0 {
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

// moveTo puts the terminal's cursor at x, y (0-based), the shortest way
// it knows from where the cursor is: a cursor move is a good part of what
// a small change costs, and "\x1b[12;58H" is often twice the bytes of a
// relative move.
func (s *Screen) moveTo(b []byte, x, y int) []byte {
	if s.cx == x && s.cy == y {
		return b
	}
	if x < 0 || y < 0 || x >= s.width || y >= s.height || s.cx < 0 {
		// Out of the screen the terminal stops the cursor at its edge,
		// and relative moves from there would be reckoned from the wrong
		// place.
		b = appendCUP(b, x, y)
		s.cx, s.cy = x, y
		if x < 0 || y < 0 || x >= s.width || y >= s.height {
			s.cx = -1
		}
		return b
	}
	dy := y - s.cy
	_, how := s.planMove(x, y)
	switch how {
	case moveCUP:
		b = appendCUP(b, x, y)
	case moveHoriz:
		b = appendHoriz(b, s.cx, x)
	case moveVert:
		b = appendVert(b, dy)
		b = appendHoriz(b, s.cx, x)
	case moveCRLF:
		for range dy {
			b = append(b, "\r\n"...)
		}
		b = appendHoriz(b, 0, x)
	}
	s.cx, s.cy = x, y
	return b
}

// planMove is the length and kind of the shortest move from the cursor,
// at a known place, to x, y on the screen.
func (s *Screen) planMove(x, y int) (int, int) {
	dy := y - s.cy
	best, how := cupLen(x, y), moveCUP
	if dy == 0 {
		if n := horizLen(s.cx, x); n < best {
			best, how = n, moveHoriz
		}
		return best, how
	}
	// Vertical moves keep the column; CR LF starts the line. LF is sent
	// only after CR: a terminal (or a client) that turns LF into CR LF
	// then does the same thing. The rows are below the cursor and on the
	// screen, so no LF is sent on the last row, where it would scroll.
	if n := vertLen(dy) + horizLen(s.cx, x); n < best {
		best, how = n, moveVert
	}
	if dy > 0 {
		if n := 2*dy + horizLen(0, x); n < best {
			best, how = n, moveCRLF
		}
	}
	return best, how
}

const (
	moveCUP = iota
	moveHoriz
	moveVert
	moveCRLF
)

func digits(n int) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}

// csiLen is the length of "ESC [ n F", the n left out when it is 1.
func csiLen(n int) int {
	if n == 1 {
		return 3
	}
	return 3 + digits(n)
}

func appendCSI(b []byte, n int, final byte) []byte {
	b = append(b, "\x1b["...)
	if n != 1 {
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, final)
}

func cupLen(x, y int) int {
	n := 3
	if y > 0 {
		n += digits(y + 1)
	}
	if x > 0 {
		n += 1 + digits(x+1)
	}
	return n
}

func appendCUP(b []byte, x, y int) []byte {
	b = append(b, "\x1b["...)
	if y > 0 {
		b = strconv.AppendInt(b, int64(y+1), 10)
	}
	if x > 0 {
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(x+1), 10)
	}
	return append(b, 'H')
}

// maxBS is the longest backward move made of backspaces: "\b\b\b" is
// shorter than "\x1b[3D", four of them as long.
const maxBS = 3

// horizLen is the length of the shortest move along a line from column
// from to column to.
func horizLen(from, to int) int {
	switch {
	case to == from:
		return 0
	case to > from:
		return csiLen(to - from)
	case to == 0:
		return 1 // CR
	case from-to <= maxBS:
		return from - to
	}
	// Back with CUB, or to the line's start and forward.
	return min(csiLen(from-to), 1+csiLen(to))
}

func appendHoriz(b []byte, from, to int) []byte {
	switch {
	case to == from:
		return b
	case to > from:
		return appendCSI(b, to-from, 'C')
	case to == 0:
		return append(b, '\r')
	case from-to <= maxBS:
		for range from - to {
			b = append(b, '\b')
		}
		return b
	case csiLen(from-to) <= 1+csiLen(to):
		return appendCSI(b, from-to, 'D')
	}
	b = append(b, '\r')
	return appendCSI(b, to, 'C')
}

// vertLen is the length of a move dy rows down (or up, below zero) that
// keeps the column.
func vertLen(dy int) int {
	if dy == -1 {
		return 2 // RI; the cursor is below the top row, so it does not scroll
	}
	if dy < 0 {
		return csiLen(-dy)
	}
	return csiLen(dy)
}

func appendVert(b []byte, dy int) []byte {
	switch {
	case dy == -1:
		return append(b, "\x1bM"...)
	case dy < 0:
		return appendCSI(b, -dy, 'A')
	}
	return appendCSI(b, dy, 'B')
}

// drawAlt draws content, the pieces put end to end, on the alternate
// screen, line by line.
func (s *Screen) drawAlt(b []byte, pieces []string) []byte {
	full := s.full
	if !full && s.samePieces(pieces) {
		return b
	}
	if full {
		b = s.resetPen(b)
		b = append(b, "\x1b[H\x1b[2J"...)
		s.cx, s.cy = 0, 0
		for i := range s.front {
			s.front[i] = blank
		}
		s.clusters = s.clusters[:0]
		s.full = false
	}
	if len(s.lines) != s.height {
		s.lines = make([]string, s.height)
		s.penIn = make([]styleID, s.height)
		s.penOut = make([]styleID, s.height)
		full = true
	}
	var pen styleID
	lr := lineReader{rest: pieces}
	for y := range s.height {
		line := lr.next(&s.join)
		if !full && line == s.lines[y] && pen == s.penIn[y] {
			pen = s.penOut[y]
			s.lines[y] = line
			continue
		}
		s.lines[y], s.penIn[y] = line, pen
		pen = s.parse(line, pen)
		s.penOut[y] = pen
		b = s.diffRow(b, y)
	}
	clear(s.pieces)
	s.pieces = append(s.pieces[:0], pieces...)
	return b
}

// samePieces is whether pieces are last frame's, piece for piece.
func (s *Screen) samePieces(pieces []string) bool {
	if len(pieces) != len(s.pieces) {
		return false
	}
	for i, p := range pieces {
		if p != s.pieces[i] {
			return false
		}
	}
	return true
}

// lineReader reads the lines of pieces put end to end. A line within one
// piece is a slice of it; only one that runs across pieces is made anew
// (in join, then as a string).
type lineReader struct {
	cur  string
	rest []string
}

func (r *lineReader) next(join *[]byte) string {
	line, parts := "", 0
	add := func(seg string) {
		if seg == "" {
			return
		}
		switch parts {
		case 0:
			line = seg
		case 1:
			*join = append(append((*join)[:0], line...), seg...)
		default:
			*join = append(*join, seg...)
		}
		parts++
	}
	for {
		if i := strings.IndexByte(r.cur, '\n'); i >= 0 {
			add(r.cur[:i])
			r.cur = r.cur[i+1:]
			break
		}
		add(r.cur)
		r.cur = ""
		if len(r.rest) == 0 {
			break
		}
		r.cur, r.rest = r.rest[0], r.rest[1:]
	}
	if parts > 1 {
		line = string(*join)
	}
	return line
}

// parse reads one line of styled text into s.row and returns the pen at
// its end. Text past the width is cut; escape sequences other than SGR are
// dropped, as Bubble Tea's renderer drops them.
func (s *Screen) parse(line string, pen styleID) styleID {
	return s.parseInto(s.row, line, pen)
}

func (s *Screen) parseInto(row []cell, line string, pen styleID) styleID {
	x, last := 0, -1
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c >= 0x20 && c < 0x7f && (i+1 >= len(line) || line[i+1] < 0xc0):
			if x < len(row) {
				row[x] = cell{r: int32(c), st: pen, w: 1}
				last = x
			}
			x++
			i++
		case c == ansi.ESC:
			n := seqLen(line[i:])
			if n > 2 && line[i+1] == '[' && line[i+n-1] == 'm' {
				pen = applySGR(pen, line[i:i+n])
			}
			i += n
		case c == '\t':
			for next := (x/8 + 1) * 8; x < next; x++ {
				if x < len(row) {
					row[x] = cell{r: ' ', st: pen, w: 1}
				}
			}
			i++
		case c < 0x20 || c == 0x7f:
			i++
		default:
			cluster, width := ansi.FirstGraphemeCluster(line[i:], ansi.WcWidth)
			if len(cluster) == 0 {
				i++
				continue
			}
			i += len(cluster)
			if width == 0 {
				// A mark an escape sequence kept from its letter: it
				// belongs to the cell written last.
				if last >= 0 && last < len(row) {
					row[last].r = s.cluster(s.text(row[last].r) + cluster)
				}
				continue
			}
			if x+width > len(row) {
				x += width
				continue
			}
			r, size := utf8.DecodeRuneInString(cluster)
			if size != len(cluster) {
				r = s.cluster(cluster)
			}
			row[x] = cell{r: r, st: pen, w: uint8(min(width, 255))}
			last = x
			for k := 1; k < width; k++ {
				row[x+k] = cell{st: pen}
			}
			x += width
		}
	}
	for ; x < len(row); x++ {
		row[x] = blank
	}
	return pen
}

// text is a cell's text.
func (s *Screen) text(r int32) string {
	if r < 0 {
		return s.clusters[-r-1]
	}
	return string(rune(r))
}

func (s *Screen) cluster(c string) int32 {
	for i, k := range s.clusters {
		if k == c {
			return int32(-i - 1)
		}
	}
	s.clusters = append(s.clusters, strings.Clone(c))
	return int32(-len(s.clusters))
}

// seqLen is the length of the escape sequence at the start of b.
func seqLen(b string) int {
	if len(b) < 2 {
		return len(b)
	}
	switch b[1] {
	case '[': // CSI: parameters and intermediates, then a final byte
		for i := 2; i < len(b); i++ {
			if b[i] >= 0x40 && b[i] <= 0x7e {
				return i + 1
			}
		}
		return len(b)
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: to BEL or ST
		for i := 2; i < len(b); i++ {
			if b[i] == 0x07 {
				return i + 1
			}
			if b[i] == ansi.ESC && i+1 < len(b) && b[i+1] == '\\' {
				return i + 2
			}
		}
		return len(b)
	}
	return 2
}

// diffRow sends the cells of s.row that differ from row y of the screen.
func (s *Screen) diffRow(b []byte, y int) []byte {
	front := s.front[y*s.width : (y+1)*s.width]
	row := s.row
	w := len(row)
	// A tail gone blank is erased in one sequence.
	tail := w
	for tail > 0 && row[tail-1] == blank {
		tail--
	}
	eraseTail := false
	if tail < w {
		dirty := 0
		for x := tail; x < w; x++ {
			if front[x] != blank {
				dirty++
			}
		}
		eraseTail = dirty > 4
	}
	limit := w
	if eraseTail {
		limit = tail
	}
	// The changed cells lie within [x0, x1).
	x0, x1 := 0, limit
	for x0 < x1 && row[x0] == front[x0] {
		x0++
	}
	for x1 > x0 && row[x1-1] == front[x1-1] {
		x1--
	}
	if x1-x0 >= shiftOverhead {
		var moved bool
		if b, moved = s.shift(b, y, x0, limit); moved {
			x1 = limit // what the terminal shows may now differ anywhere past x0
		}
	}
	for x := x0; x < x1; {
		if row[x] == front[x] {
			x++
			continue
		}
		start := x
		if row[start].w == 0 && start > 0 {
			start-- // the second half of a wide character: draw it whole
		}
		end := x + 1
		for end < limit && (row[end] != front[end] || row[end].w == 0) {
			end++
		}
		plain := true
		for _, c := range row[start:end] {
			if c.st != 0 {
				plain = false
				break
			}
		}
		copy(front[start:end], row[start:end])
		if plain && s.pen != 0 {
			// Written when the pen is next reset (see resetPen), so that
			// a card, a blank where a card was and the next card do not
			// cost a reset and the card's whole style again.
			s.plain = append(s.plain, plainRun{y: y, x0: start, x1: end})
		} else {
			b = s.writeRun(b, y, start, end)
		}
		x = end
	}
	if eraseTail {
		for x := tail; x < w; x++ {
			front[x] = blank
		}
		if s.pen != 0 {
			s.plain = append(s.plain, plainRun{y: y, x0: tail, x1: -1})
		} else {
			b = s.moveTo(b, tail, y)
			b = append(b, ansi.EraseLineRight...)
		}
	}
	return b
}

// maxShift is the most cells a row's text is moved by DCH and ICH.
const maxShift = 3

// shiftOverhead is about what moving a row's text costs: two cursor moves,
// DCH and ICH, and a pen reset.
const shiftOverhead = 16

// shift moves part of row y's text left or right in the terminal when the
// new row is mostly the old one moved by a few cells (a count in the
// header gained or lost a digit and the rest of it follows): DCH at p and
// ICH at r further on (or DCH further on, then ICH at p), and front becomes what the terminal then
// shows, so that diffRow sends only the cells that still differ. The
// blanks DCH and ICH bring in take the pen's background, so the pen is
// reset first. Rows with wide characters from the change on are left as
// they are.
func (s *Screen) shift(b []byte, y, x0, limit int) ([]byte, bool) {
	front := s.front[y*s.width : (y+1)*s.width]
	row := s.row
	w := len(row)
	moving := false // anything in the terminal to move
	for i := x0; i < w; i++ {
		if front[i].w != 1 || i < limit && row[i].w != 1 {
			return b, false
		}
		moving = moving || front[i] != blank
	}
	if !moving {
		return b, false
	}
	costOf := func(c cell) int { return s.runeLen(c.r) }
	// What sending row[x0:i] over the terminal's cells costs, in text bytes
	// (pen changes left out), as they are (aligned) and moved by n.
	naive := 0
	for i := x0; i < limit; i++ {
		if row[i] != front[i] {
			naive += costOf(row[i])
		}
	}
	best, bestN, bestP, bestR, bestDel := naive-shiftOverhead, 0, 0, 0, false
	if cap(s.sums) < 2*(limit+1) {
		s.sums = make([]int, 2*(limit+1))
	}
	aligned, moved := s.sums[:limit+1], s.sums[limit+1:2*(limit+1)] // prefix sums of the costs
	aligned[x0], moved[x0] = 0, 0
	for i := x0; i < limit; i++ {
		aligned[i+1] = aligned[i]
		if row[i] != front[i] {
			aligned[i+1] += costOf(row[i])
		}
	}
	for n := 1; n <= maxShift; n++ {
		for _, del := range []bool{true, false} {
			// moved: row[i] against front[i+n] (a deletion before i) or
			// front[i-n] (an insertion).
			for i := x0; i < limit; i++ {
				j := i - n
				if del {
					j = i + n
				}
				moved[i+1] = moved[i]
				if j < 0 || j >= w || row[i] != front[j] {
					moved[i+1] += costOf(row[i])
				}
			}
			for p := x0; p < min(x0+2, limit); p++ {
				for r := p + n + 1; r+n <= limit || !del && r <= limit; r++ {
					var c int
					if del {
						// front[i+n] on [p, r), blanks on [r, r+n), front[i] after.
						c = moved[r] - moved[p]
						for i := r; i < r+n; i++ {
							if row[i] != blank {
								c += costOf(row[i])
							}
						}
						c += aligned[limit] - aligned[r+n]
					} else {
						// blanks on [p, p+n), front[i-n] on [p+n, r),
						// front[i] from r: DCH at r-n, then ICH at p.
						for i := p; i < p+n; i++ {
							if row[i] != blank {
								c += costOf(row[i])
							}
						}
						c += moved[r] - moved[p+n]
						c += aligned[limit] - aligned[r]
					}
					c += aligned[p] - aligned[x0]
					if c < best {
						best, bestN, bestP, bestR, bestDel = c, n, p, r, del
					}
				}
			}
		}
	}
	if bestN == 0 {
		return b, false
	}
	n, p, r := bestN, bestP, bestR
	b = s.resetPen(b)
	if bestDel {
		b = s.moveTo(b, p, y)
		b = appendCSI(b, n, 'P')
		b = s.moveTo(b, r, y)
		b = appendCSI(b, n, '@')
		copy(front[p:r], front[p+n:r+n])
		for i := r; i < r+n; i++ {
			front[i] = blank
		}
	} else {
		// DCH first: the blanks it brings in at the line's end are the
		// cells ICH then pushes off it, so the end stays as it was.
		b = s.moveTo(b, r-n, y)
		b = appendCSI(b, n, 'P')
		b = s.moveTo(b, p, y)
		b = appendCSI(b, n, '@')
		copy(front[p+n:r], front[p:r-n])
		for i := p; i < p+n; i++ {
			front[i] = blank
		}
	}
	return b, true
}

// plainRun is a stretch of row y, x0 to x1, in the plain style, waiting
// for the pen to be reset; x1 -1 for the line erased from x0.
type plainRun struct{ y, x0, x1 int }

// maxBridge is the longest stretch of unchanged cells weighed for writing
// over instead of moving past: past it a move is always shorter.
const maxBridge = 8

// writeRun sends the cells x0 to x1 of row y, which front holds already.
func (s *Screen) writeRun(b []byte, y, x0, x1 int) []byte {
	front := s.front[y*s.width : (y+1)*s.width]
	to := front[x0].st
	if len(s.plain) > 0 && to != s.pen {
		// The plain runs waiting are written now, before the pen leaves
		// the style they were kept back to save, unless keeping them
		// (a move back to them later) is the cheaper of the two.
		p := s.plain[0]
		if len(ansi.ResetStyle)+len(transition(0, to, s.profile)) <= len(transition(s.pen, to, s.profile))+cupLen(p.x0, p.y) {
			b = s.flushPlain(b)
		}
	}
	b = s.reach(b, front, x0, y, to)
	return s.emit(b, front, x0, x1)
}

// reach puts the cursor at x, y, where a cell in style to is written
// next: by a move, or by writing again the unchanged cells between the
// cursor and x when that is shorter.
func (s *Screen) reach(b []byte, front []cell, x, y int, to styleID) []byte {
	if s.cy == y && s.cx >= 0 && s.cx < x && x-s.cx <= maxBridge && front[s.cx].w != 0 {
		pen, n := s.pen, 0
		for _, c := range front[s.cx:x] {
			if c.w == 0 {
				continue
			}
			n += len(transition(pen, c.st, s.profile)) + s.runeLen(c.r)
			pen = c.st
		}
		n += len(transition(pen, to, s.profile))
		if m, _ := s.planMove(x, y); n <= m+len(transition(s.pen, to, s.profile)) {
			// emit may end on blanks erased with ECH, which leaves the
			// cursor before them.
			b = s.emit(b, front, s.cx, x)
		}
	}
	return s.moveTo(b, x, y)
}

// emit writes cells x0 to x1 of a row, the cursor at x0. A stretch of
// blanks the terminal can erase to exactly (in a style of a background
// alone) is erased with ECH where that is shorter: ECH leaves the cursor
// where it is.
func (s *Screen) emit(b []byte, cells []cell, x0, x1 int) []byte {
	for k := x0; k < x1; {
		c := cells[k]
		if c.w == 0 {
			k++
			continue
		}
		if c.r == ' ' && k+minECH <= x1 {
			n := 1
			for k+n < x1 && cells[k+n] == c {
				n++
			}
			cost := csiLen(n)
			if k+n < x1 {
				cost += csiLen(n) // and the move past them
			}
			if cost < n && erasable(c.st, s.profile) {
				b = s.setPen(b, c.st)
				b = appendCSI(b, n, 'X')
				if k+n < x1 {
					b = appendCSI(b, n, 'C')
					s.cx += n
				}
				k += n
				continue
			}
		}
		b = s.setPen(b, c.st)
		b = s.appendRune(b, c.r)
		s.cx += int(c.w)
		k++
	}
	if s.cx >= s.width {
		s.cx = -1 // the cursor waits at the margin: its column is unsure
	}
	return b
}

// minECH is the fewest blanks ECH ("\x1b[5X") is shorter than.
const minECH = 5

// flushPlain resets the pen and writes the plain runs kept back.
func (s *Screen) flushPlain(b []byte) []byte {
	if s.pen != 0 {
		b = append(b, ansi.ResetStyle...)
		s.pen = 0
	}
	for _, p := range s.plain {
		front := s.front[p.y*s.width : (p.y+1)*s.width]
		if p.x1 < 0 {
			b = s.moveTo(b, p.x0, p.y)
			b = append(b, ansi.EraseLineRight...)
			continue
		}
		b = s.reach(b, front, p.x0, p.y, 0)
		b = s.emit(b, front, p.x0, p.x1)
	}
	s.plain = s.plain[:0]
	return b
}

func (s *Screen) runeLen(r int32) int {
	if r < 0 {
		return len(s.clusters[-r-1])
	}
	return utf8.RuneLen(r)
}

func (s *Screen) appendRune(b []byte, r int32) []byte {
	if r < 0 {
		return append(b, s.clusters[-r-1]...)
	}
	if r < utf8.RuneSelf {
		return append(b, byte(r))
	}
	return utf8.AppendRune(b, r)
}

// drawInline draws a view outside the alternate screen (the goodbye
// notice): over what the last inline frame drew, each line cleared to its
// end.
func (s *Screen) drawInline(b []byte, content string) []byte {
	if content == s.content && !s.full {
		return b
	}
	s.full = false
	b = s.resetPen(b)
	if s.inlineH > 1 {
		b = append(b, "\x1b["...)
		b = strconv.AppendInt(b, int64(s.inlineH-1), 10)
		b = append(b, 'A')
	}
	b = append(b, '\r')
	lines := strings.Split(content, "\n")
	var pen styleID
	rows := 0
	for i, line := range lines {
		if i > 0 {
			b = append(b, "\r\n"...)
		}
		// Not cut to the width: the terminal wraps a long line.
		row := s.row
		if w := ansi.StringWidth(line); w > len(row) {
			row = make([]cell, w)
		}
		pen = s.parseInto(row, line, pen)
		end := len(row)
		for end > 0 && row[end-1] == blank {
			end--
		}
		for _, c := range row[:end] {
			if c.w == 0 {
				continue
			}
			b = s.setPen(b, c.st)
			b = s.appendRune(b, c.r)
		}
		b = s.resetPen(b)
		b = append(b, ansi.EraseLineRight...)
		rows += max(1, (end+s.width-1)/s.width)
	}
	b = append(b, ansi.EraseScreenBelow...)
	s.inlineH = rows
	s.content = content
	s.cx = -1
	return b
}
