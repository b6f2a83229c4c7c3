package table

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/board"
	"sshuffle/engine"
	"sshuffle/internal/format"
)

// A table screen is more than one board: names, counts, the log and the
// clock sit beside the cards. Each place is drawn as its own small board
// canvas and the screen puts the pieces and its text together here, so it
// knows exactly where every place is (for the mouse and for the marks)
// without needing the board package to lay out a whole table.

// spot names a place on the table: a card of the hand, a pile.
type spot struct {
	kind uint8
	seat int // the seat whose place it is (pay-off, side stack)
	i    int // hand index, side stack, centre stack, Kings place
}

const (
	spNone uint8 = iota
	spHand
	spPayoff
	spSide
	spCentre
	spPile // Kings: N E S W NE SE SW NW
	spEnd  // the "end turn" button
)

func (s spot) ok() bool { return s.kind != spNone }

type seg struct {
	x    int
	text string // styled, or plain between ends
	w    int    // its width in cells, when known; 0: not yet
	// ends are the style's sequences around a plain text, written with
	// it rather than joined to it: a frame styles some fifty pieces, and
	// each joined would be a new string.
	ends styleEnds
}

type area struct {
	x, y, w int
	at      spot
	nav     bool // the cursor may rest here
}

type scene struct {
	w, h  int
	lines [][]seg
	areas []area
	bv    board.View
	cur   spot // the cursor
	held  spot
	// canvases are kept between frames and reused in order, so a frame
	// allocates no grids once the table has been drawn once.
	canvases []*board.Canvas
	used     int
	styles   styleCache
	// faults are what the last frame could not show as laid out: a text
	// cut to its room, a piece dropped because it overlapped another or
	// ran off the edge, or two pieces run together into one word. A frame
	// that fits has none; the fit tests read them.
	faults []string
}

func (sc *scene) reset(w, h int, bv board.View, cur, held spot) {
	sc.w, sc.h, sc.bv, sc.cur, sc.held = w, h, bv, cur, held
	if cap(sc.lines) < h {
		sc.lines = make([][]seg, h)
	}
	sc.lines = sc.lines[:h]
	for i := range sc.lines {
		sc.lines[i] = sc.lines[i][:0]
	}
	sc.areas = sc.areas[:0]
	sc.used = 0
	sc.faults = sc.faults[:0]
}

// text puts plain text (our own words, or a name) at x, y in a style,
// cut to the width left; control bytes never get through.
func (sc *scene) text(x, y int, s string, p pen) int {
	return sc.textMax(x, y, s, p, sc.w-x)
}

func (sc *scene) textMax(x, y int, s string, p pen, width int) int {
	if y < 0 || y >= sc.h || x >= sc.w || width <= 0 {
		return 0
	}
	if !sc.bv.Unicode {
		// The router turns "…" into "..." for such clients: fit what
		// they will see.
		s = strings.ReplaceAll(s, "…", "...")
	}
	s, cut := fitCut(s, min(width, sc.w-x), sc.bv.Unicode)
	if cut {
		sc.faults = append(sc.faults, "cut: "+s)
	}
	if s == "" {
		return 0
	}
	w := cells(s)
	sc.lines[y] = append(sc.lines[y], seg{x: x, text: s, w: w, ends: sc.styles.endsOf(p)})
	return w
}

// fit cleans s and cuts it to width cells.
func fit(s string, width int) string { return fitTo(s, width, true) }

func fitTo(s string, width int, unicode bool) string {
	s, _ = fitCut(s, width, unicode)
	return s
}

// fitCut is fitTo, and whether it had to cut.
func fitCut(s string, w int, unicode bool) (string, bool) {
	if !clean(s, 200) {
		s = format.Clean(s, 200)
	}
	if w <= 0 {
		return "", s != ""
	}
	if cells(s) <= w {
		return s, false
	}
	cut := "…"
	if !unicode {
		cut = "~"
	}
	r := []rune(s)
	for len(r) > 0 && cells(string(r))+1 > w {
		r = r[:len(r)-1]
	}
	return string(r) + cut, true
}

// pile draws p (its X and Y are ignored) on one line at x, y as the place
// at, and returns its width. The cursor and the held place are the scene's.
func (sc *scene) pile(x, y int, p engine.Pile, at spot, nav bool) int {
	return sc.pileH(x, y, 1, p, at, nav, false)
}

// pileH draws p in up to h lines (a FanDown pile folds its middle to fit).
// whole: holding the place holds every card of it (a Kings pile moves
// whole), else only its top.
func (sc *scene) pileH(x, y, h int, p engine.Pile, at spot, nav, whole bool) int {
	h = min(h, sc.h-y)
	if y < 0 || h <= 0 {
		return 0
	}
	p.X, p.Y = 0, 0
	w, _ := board.Size([]engine.Pile{p})
	w = max(w, 5)
	if x+w > sc.w {
		return 0
	}
	bv := sc.bv
	bv.OffsetX = 0
	bv.Cursor, bv.Sel = board.Hit{}, board.Hit{}
	cursor := nav && sc.cur == at
	held := sc.held.ok() && sc.held == at
	top := len(p.Cards) - 1
	if cursor {
		bv.Cursor = board.Hit{Pile: 0, Index: top, OK: true}
	}
	if held {
		bv.Sel = board.Hit{Pile: 0, Index: max(top, 0), OK: true}
		if whole {
			bv.Sel.Index = 0
		}
	}
	var old *board.Canvas
	if sc.used < len(sc.canvases) {
		old = sc.canvases[sc.used]
	}
	c := bv.Render([]engine.Pile{p}, w, h, old)
	if sc.used < len(sc.canvases) {
		sc.canvases[sc.used] = c
	} else {
		sc.canvases = append(sc.canvases, c)
	}
	sc.used++
	last := y
	i := 0
	for line := range strings.SplitSeq(c.String(bv.Palette()), "\n") {
		if line == "" && i > 0 {
			break
		}
		sc.lines[y+i] = append(sc.lines[y+i], seg{x: x, text: line})
		sc.areas = append(sc.areas, area{x: x, y: y + i, w: w, at: at, nav: nav && i == 0})
		last = y + i
		i++
	}
	sc.marks(x, last, w, cursor, held)
	return w
}

// run draws a pile that is one run (a Kings pile) on one line as its
// bottom and top card, "( K♦)…[ 9♠]": the two say what lies between.
// Holding it holds it whole.
func (sc *scene) run(x, y int, bottom, top engine.Card, n int, at spot) int {
	const w = 11
	if y < 0 || y >= sc.h || x+w > sc.w {
		return 0
	}
	cursor := sc.cur == at
	held := sc.held.ok() && sc.held == at
	card := func(c engine.Card, cur bool) string {
		bv := sc.bv
		bv.OffsetX = 0
		bv.Cursor, bv.Sel = board.Hit{}, board.Hit{}
		if cur {
			bv.Cursor = board.Hit{Pile: 0, Index: 0, OK: true}
		}
		if held {
			bv.Sel = board.Hit{Pile: 0, Index: 0, OK: true}
		}
		var old *board.Canvas
		if sc.used < len(sc.canvases) {
			old = sc.canvases[sc.used]
		}
		cv := bv.Render([]engine.Pile{{Kind: engine.Tableau, Cards: []engine.Card{c}}}, 5, 1, old)
		if sc.used < len(sc.canvases) {
			sc.canvases[sc.used] = cv
		} else {
			sc.canvases = append(sc.canvases, cv)
		}
		sc.used++
		return cv.String(bv.Palette())
	}
	join := "…"
	if !sc.bv.Unicode {
		join = "-"
	}
	if n == 2 {
		join = " "
	}
	sc.lines[y] = append(sc.lines[y], seg{x: x, text: card(bottom, false)}, seg{x: x + 5, text: join}, seg{x: x + 6, text: card(top, cursor)})
	sc.areas = append(sc.areas, area{x: x, y: y, w: w, at: at, nav: true})
	sc.marks(x, y, w, cursor, held)
	return w
}

// marks: without colour a terminal may show no reverse video either, so
// marks in the text say where the cursor is and what is held, as the
// solitaire screens mark them (">[ 7S]<", "*( 7H)*", ">( 7H)*").
func (sc *scene) marks(x, y, w int, cursor, held bool) {
	if sc.bv.Color || !(cursor || held) {
		return
	}
	left, right := "*", "*"
	if cursor {
		left, right = ">", "<"
		if held {
			right = "*"
		}
	}
	if x > 0 {
		sc.lines[y] = append(sc.lines[y], seg{x: x - 1, text: left})
	}
	if x+w < sc.w {
		sc.lines[y] = append(sc.lines[y], seg{x: x + w, text: right})
	}
}

// button is a place drawn as words, like "[end turn]".
func (sc *scene) button(x, y int, label string, at spot) int {
	st := lipgloss.NewStyle().Bold(true)
	cursor := sc.cur == at
	if cursor {
		st = st.Reverse(true)
	}
	n := sc.text(x, y, label, penOf(st))
	if n > 0 {
		sc.areas = append(sc.areas, area{x: x, y: y, w: n, at: at, nav: true})
		sc.marks(x, y, n, cursor, false)
	}
	return n
}

// at is the place at screen cell x, y.
func (sc *scene) at(x, y int) spot {
	for _, a := range sc.areas {
		if y == a.y && x >= a.x && x < a.x+a.w {
			return a.at
		}
	}
	return spot{}
}

func (sc *scene) find(s spot) (area, bool) {
	for _, a := range sc.areas {
		if a.at == s {
			return a, true
		}
	}
	return area{}, false
}

// String joins the pieces, line by line. A piece that would overlap the
// one before it is dropped rather than drawn over it.
func (sc *scene) String() string {
	var b bytes.Buffer
	sc.write(&b)
	return b.String()
}

// write writes the lines joined, as String makes them.
func (sc *scene) write(b *bytes.Buffer) {
	for y := range sc.lines {
		if y > 0 {
			b.WriteByte('\n')
		}
		sc.writeLine(b, y)
	}
}

// writeLine writes line y's pieces, in order along the line.
func (sc *scene) writeLine(b *bytes.Buffer, y int) {
	segs := sc.lines[y]
	// A stable sort by x, in place: a line has a few pieces, mostly in
	// order already.
	for i := 1; i < len(segs); i++ {
		for j := i; j > 0 && segs[j].x < segs[j-1].x; j-- {
			segs[j], segs[j-1] = segs[j-1], segs[j]
		}
	}
	col := 0
	last := ""
	for _, s := range segs {
		if s.x < col {
			sc.faults = append(sc.faults, "overlaps the piece before it: "+ansi.Strip(s.text))
			continue
		}
		w := s.w
		if w == 0 {
			w = cells(s.text)
		}
		if s.x+w > sc.w {
			sc.faults = append(sc.faults, "runs off the edge: "+ansi.Strip(s.text))
			continue
		}
		if s.x == col && col > 0 && runTogether(last, s.text) {
			sc.faults = append(sc.faults, "runs into the piece before it: "+ansi.Strip(last)+"|"+ansi.Strip(s.text))
		}
		last = s.text
		ui.WriteSpaces(b, s.x-col)
		if s.ends.open == "" && s.ends.close == "" {
			b.WriteString(s.text)
		} else {
			b.WriteString(s.ends.open)
			b.WriteString(s.text)
			b.WriteString(s.ends.close)
		}
		col = s.x + w
	}
}

// runTogether: two pieces side by side read as one word (a count
// running into a name: "done 0computer").
func runTogether(before, after string) bool {
	_, b, okB := visibleEdges(before)
	a, _, okA := visibleEdges(after)
	return okB && okA && wordRune(b) && wordRune(a)
}

// visibleEdges is the first and last rune of styled text a terminal
// shows, its escape sequences skipped (without making a stripped copy:
// this runs for every two pieces side by side, on every frame).
func visibleEdges(s string) (first, last rune, ok bool) {
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i = skipEscape(s, i)
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !ok {
			first, ok = r, true
		}
		last = r
		i += n
	}
	return first, last, ok
}

// skipEscape is the index after the escape sequence at s[i]: a CSI
// ("\x1b[...m") up to its final byte, an OSC ("\x1b]...") up to BEL or
// ST, else the escape and the byte after it.
func skipEscape(s string, i int) int {
	i++
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		for i++; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
	case ']':
		for i++; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
	default:
		return i + 1
	}
	return i
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// step moves the cursor from cur one place in direction dx, dy among the
// places drawn: along a line (wrapping), or to the nearest line above or
// below, nearest in column.
func (sc *scene) step(cur spot, dx, dy int) spot {
	var nav []area
	for _, a := range sc.areas {
		if a.nav {
			nav = append(nav, a)
		}
	}
	if len(nav) == 0 {
		return spot{}
	}
	from, ok := sc.find(cur)
	if !ok || !from.nav {
		return nav[0].at
	}
	best, bestD := -1, 1<<30
	for i, a := range nav {
		if a.at == cur {
			continue
		}
		var d int
		if dx != 0 {
			if a.y != from.y || (a.x-from.x)*dx <= 0 {
				continue
			}
			d = (a.x - from.x) * dx
		} else {
			if (a.y-from.y)*dy <= 0 {
				continue
			}
			// What lies straight above or below (the columns overlap)
			// comes first, however far: up from a pile goes to the one
			// over it, not to a nearer one off to the side.
			d = (a.y-from.y)*dy*1000 + abs(a.x-from.x)
			if a.x+a.w <= from.x || from.x+from.w <= a.x {
				d += 1 << 20
			}
		}
		if d < bestD {
			best, bestD = i, d
		}
	}
	if best < 0 && dx != 0 {
		// Wrap around the line.
		for i, a := range nav {
			if a.y != from.y {
				continue
			}
			if best < 0 || (dx > 0 && a.x < nav[best].x) || (dx < 0 && a.x > nav[best].x) {
				best = i
			}
		}
	}
	if best < 0 {
		return cur
	}
	return nav[best].at
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
