package render

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

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
		s.clusters = s.clusters[:0]
		s.hotY = -1
		s.full = false
	}
	if len(s.lines) != s.height {
		s.lines = make([]string, s.height)
		s.penIn = make([]styleID, s.height)
		s.penOut = make([]styleID, s.height)
		full = true
	}
	sc := s.sc
	lr := lineReader{rest: pieces}
	for range s.height {
		sc.next = append(sc.next, lr.next(&sc.join))
	}
	if !full {
		b = s.scroll(b)
	}
	var pen styleID
	for y, line := range sc.next {
		if !full && line == s.lines[y] && pen == s.penIn[y] {
			pen = s.penOut[y]
			s.lines[y] = line
			continue
		}
		switch {
		case full:
			fillBlank(sc.cur)
		case y == s.hotY:
			copy(sc.cur, s.hot)
		default:
			s.shown(sc.cur, s.lines[y], s.penIn[y])
		}
		s.curY = y
		s.lines[y], s.penIn[y] = line, pen
		pen = s.parse(line, pen)
		s.penOut[y] = pen
		b = s.diffRow(b, y)
	}
	if s.curY >= 0 {
		// sc.cur stays the row's cells until the frame ends (the plain
		// runs still waiting may lie on it).
		s.hot = cellsOf(s.hot, s.width)
		copy(s.hot, sc.cur)
		s.hotY = s.curY
	}
	clear(s.pieces)
	s.pieces = append(s.pieces[:0], pieces...)
	return b
}

// maxScroll is the most lines a block of lines is scrolled by.
const maxScroll = 3

// scrollOverhead is about what scrolling a block costs: the region set,
// the scroll, the region reset and a cursor move after.
const scrollOverhead = 24

// scroll moves a block of whole lines up by a few rows in the terminal
// when the new view has them a few rows higher than the last (a log that
// gained an entry at its foot and lost its oldest at its head), and that
// costs less than writing over each row what differs (lines much alike,
// as a log's often are, differ in a few cells): a scroll region around
// the block (DECSTBM) scrolled up by line feeds on its last line, and the
// lines of the last view follow. The rows scrolled in are blank (the pen is reset first,
// so they take no background) and are drawn as any changed row.
func (s *Screen) scroll(b []byte) []byte {
	bestK, bestTop, bestN, bestSaving := 0, 0, 0, 0
	var stay []int // what each row costs written over what it was, when asked for
	for k := 1; k <= maxScroll; k++ {
		for top := 0; top+k < s.height; {
			n := 0
			for y := top; y+k < s.height && s.sc.next[y] == s.lines[y+k] && s.sc.next[y] != s.lines[y]; y++ {
				n++
			}
			if n < 2 {
				top += max(n, 1)
				continue
			}
			if stay == nil {
				stay = s.scrollCosts()
			}
			bottom := top + n + k - 1
			without, with := 0, scrollOverhead
			for y := top; y <= bottom; y++ {
				without += stay[y]
			}
			for y := bottom - k + 1; y <= bottom; y++ {
				with += len(s.sc.next[y])
			}
			if saving := without - with; saving > bestSaving {
				bestK, bestTop, bestN, bestSaving = k, top, n, saving
			}
			top += n
		}
	}
	if bestN == 0 {
		return b
	}
	k, top, bottom := bestK, bestTop, bestTop+bestN+bestK-1
	b = s.resetPen(b)
	b = append(b, "\x1b["...)
	b = strconv.AppendInt(b, int64(top+1), 10)
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(bottom+1), 10)
	b = append(b, 'r')
	// A line feed on the region's last line scrolls it: every terminal
	// since the VT100 does that (SU, "CSI S", the Linux console lacks).
	b = appendCUP(b, 0, bottom)
	for range k {
		b = append(b, '\n')
	}
	b = append(b, "\x1b[r"...)
	s.cx = -1 // the region's set and reset home the cursor: moved from anew
	s.hotY = -1
	for y := top; y <= bottom-k; y++ {
		s.lines[y], s.penIn[y], s.penOut[y] = s.lines[y+k], s.penIn[y+k], s.penOut[y+k]
	}
	for y := bottom - k + 1; y <= bottom; y++ {
		s.lines[y] = blankLine // never a line of a view: the row is drawn
	}
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

// shown puts in dst the cells the terminal shows for a row last drawn
// from line, starting with pen: the line parsed again.
func (s *Screen) shown(dst []cell, line string, pen styleID) {
	if line == blankLine {
		fillBlank(dst)
		return
	}
	s.parseInto(dst, line, pen)
}

func fillBlank(row []cell) {
	for i := range row {
		row[i] = blank
	}
}

// diffRow sends the cells of the new row (sc.row) that differ from what
// the terminal shows of row y (sc.cur), which becomes the new row.
func (s *Screen) diffRow(b []byte, y int) []byte {
	front := s.sc.cur
	row := s.sc.row
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
			s.sc.plain = append(s.sc.plain, plainRun{y: y, x0: start, x1: end})
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
			s.sc.plain = append(s.sc.plain, plainRun{y: y, x0: tail, x1: -1})
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
// ICH at r further on (or DCH further on, then ICH at p), and the row's
// cells (sc.cur) become what the terminal then shows, so that diffRow
// sends only the cells that still differ. The
// blanks DCH and ICH bring in take the pen's background, so the pen is
// reset first. Rows with wide characters from the change on are left as
// they are.
func (s *Screen) shift(b []byte, y, x0, limit int) ([]byte, bool) {
	front := s.sc.cur
	row := s.sc.row
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
	if cap(s.sc.sums) < 2*(limit+1) {
		s.sc.sums = make([]int, 2*(limit+1))
	}
	aligned, moved := s.sc.sums[:limit+1], s.sc.sums[limit+1:2*(limit+1)] // prefix sums of the costs
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

// writeRun sends the cells x0 to x1 of row y, the row being drawn, whose
// cells (sc.cur) hold them already.
func (s *Screen) writeRun(b []byte, y, x0, x1 int) []byte {
	front := s.sc.cur
	to := front[x0].st
	if len(s.sc.plain) > 0 && to != s.pen {
		// The plain runs waiting are written now, before the pen leaves
		// the style they were kept back to save, unless keeping them
		// (a move back to them later) is the cheaper of the two.
		p := s.sc.plain[0]
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
	shownY := -1
	for _, p := range s.sc.plain {
		// The row being drawn has its cells; an earlier one is parsed
		// again from its line, drawn already.
		front := s.sc.cur
		if p.y != s.curY {
			if p.y != shownY {
				s.shown(s.sc.tmp, s.lines[p.y], s.penIn[p.y])
				shownY = p.y
			}
			front = s.sc.tmp
		}
		if p.x1 < 0 {
			b = s.moveTo(b, p.x0, p.y)
			b = append(b, ansi.EraseLineRight...)
			continue
		}
		b = s.reach(b, front, p.x0, p.y, 0)
		b = s.emit(b, front, p.x0, p.x1)
	}
	s.sc.plain = s.sc.plain[:0]
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
		row := s.sc.row
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

// scrollCosts is about what each row costs written over what it shows,
// line for line: the bytes that differ in place, and a cursor move for
// each run of them.
func (s *Screen) scrollCosts() []int {
	if cap(s.sc.costs) < s.height {
		s.sc.costs = make([]int, s.height)
	}
	out := s.sc.costs[:s.height]
	for y, line := range s.sc.next {
		old := s.lines[y]
		cost, in := 0, false
		for i := range max(len(line), len(old)) {
			if i < len(line) && i < len(old) && line[i] == old[i] {
				in = false
				continue
			}
			if !in {
				cost += 6
				in = true
			}
			cost++
		}
		out[y] = cost
	}
	return out
}
