// Package board draws cards and piles on a canvas of cells, for every game
// screen, and says which card each cell shows, for the mouse.
package board

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"

	"sshuffle/arcade/ui"
	"sshuffle/engine"
)

// The board is drawn on a small canvas of cells so that overlapping piles
// (a Draw 3 waste fan) and Hit-testing for the mouse come out of one pass.

const (
	halfCol   = 4 // characters per half-card column
	cardWidth = 5
)

// Hit is what a screen cell stands for: a card (or the empty place, Index
// -1) of a pile. The zero Hit stands for nothing.
type Hit struct {
	Pile, Index int
	OK          bool
}

type cellStyle uint8

const (
	stNone cellStyle = iota
	stBlack
	stRed
	stBack
	stEmpty
	stLabel
	stCursorBlack
	stCursorRed
	stCursorOther
	stSelBlack
	stSelRed
	stBlocked
	numStyles
)

// hit is a Hit as a cell keeps it, in 4 bytes: OK in the top bit, the
// pile in the 15 below it and the index (-1 for an empty place) in the low
// 16, so the zero hit is the zero Hit. A canvas keeps one a cell, and
// thousands of sessions keep a canvas each.
type hit uint32

func hitOf(h Hit) hit {
	v := uint32(uint16(h.Pile)&0x7fff)<<16 | uint32(uint16(int16(h.Index)))
	if h.OK {
		v |= 1 << 31
	}
	return hit(v)
}

func (h hit) Hit() Hit {
	return Hit{Pile: int(h >> 16 & 0x7fff), Index: int(int16(uint16(h))), OK: h>>31 == 1}
}

// cell is a drawn cell in 4 bytes: its rune in the low 24 bits (runes
// need 21) and its style above.
type cell uint32

func cellOf(r rune, st cellStyle) cell { return cell(uint32(r)&0xffffff | uint32(st)<<24) }

func (c cell) ch() rune      { return rune(c & 0xffffff) }
func (c cell) st() cellStyle { return cellStyle(c >> 24) }

// blank is an empty cell.
var blank = cellOf(' ', stNone)

// Canvas is a drawn board: its cells and what each stands for.
type Canvas struct {
	w, h int
	// The cells and what each stands for, row after row.
	cells []cell
	hits  []hit
	// The text last written (kept for its room: each frame writes into
	// it).
	buf   []byte
	marks []mark // drawn last (see mark)

	// What the cells were drawn from, and the text last made of them: a
	// frame whose board did not change (a clock tick) reuses both.
	drawn  bool
	view   View
	piles  []engine.Pile
	cards  []engine.Card
	text   string
	textOf *Palette
}

func newCanvas(w, h int) *Canvas {
	c := &Canvas{w: w, h: h, cells: make([]cell, w*h), hits: make([]hit, w*h)}
	c.clear()
	return c
}

// clear blanks the canvas so a screen can redraw into it: a frame then
// allocates nothing for the grid, which matters with thousands of players.
func (c *Canvas) clear() {
	c.marks = c.marks[:0]
	for i := range c.cells {
		c.cells[i] = blank
	}
	clear(c.hits)
}

// Width and Height are the canvas's size in cells.
func (c *Canvas) Width() int  { return c.w }
func (c *Canvas) Height() int { return c.h }

// At is what the cell at x, y stands for; nothing outside the canvas.
func (c *Canvas) At(x, y int) Hit {
	if c == nil || y < 0 || y >= c.h || x < 0 || x >= c.w {
		return Hit{}
	}
	return c.hits[y*c.w+x].Hit()
}

func (c *Canvas) put(x, y int, text string, st cellStyle, h Hit) {
	if y < 0 || y >= c.h {
		return
	}
	for _, r := range text {
		if x >= 0 && x < c.w {
			c.cells[y*c.w+x] = cellOf(r, st)
			c.hits[y*c.w+x] = hitOf(h)
		}
		x++
	}
}

// spaces pads a label or a fold to the card width without fmt.
const spaces = "     "

// View is everything the renderer needs besides the piles.
type View struct {
	Unicode, Color bool
	Cursor         Hit // OK false: no cursor shown (mouse play)
	Sel            Hit // selected card, if OK
	OffsetX        int
}

// palettes are built once: every session's every frame reads them.
var palettes = [2]*Palette{paletteOf(makePalette(false)), paletteOf(makePalette(true))}

// Palette is the view's styles as escape codes.
func (b View) Palette() *Palette {
	if b.Color {
		return palettes[1]
	}
	return palettes[0]
}

// Palette holds each cell style reduced to its escape codes (see ui.Codes).
type Palette [numStyles]ui.Codes

func paletteOf(styles map[cellStyle]lipgloss.Style) *Palette {
	p := &Palette{}
	for st := range numStyles {
		p[st] = ui.CodesOf(styles[st])
	}
	return p
}

func makePalette(color bool) map[cellStyle]lipgloss.Style {
	face := lipgloss.NewStyle().Background(lipgloss.Color("#eeeeee"))
	p := map[cellStyle]lipgloss.Style{
		stNone:        lipgloss.NewStyle(),
		stBlack:       face.Foreground(lipgloss.Color("#000000")),
		stRed:         face.Foreground(lipgloss.Color("#d70000")),
		stBack:        lipgloss.NewStyle().Background(lipgloss.Color("#005f87")).Foreground(lipgloss.Color("#5fafd7")),
		stEmpty:       lipgloss.NewStyle().Faint(true),
		stLabel:       lipgloss.NewStyle().Faint(true),
		stCursorBlack: lipgloss.NewStyle().Background(lipgloss.Color("#ffd700")).Foreground(lipgloss.Color("#000000")).Bold(true),
		stCursorRed:   lipgloss.NewStyle().Background(lipgloss.Color("#ffd700")).Foreground(lipgloss.Color("#af0000")).Bold(true),
		stCursorOther: lipgloss.NewStyle().Background(lipgloss.Color("#ffd700")).Foreground(lipgloss.Color("#000000")),
		stSelBlack:    lipgloss.NewStyle().Background(lipgloss.Color("#87d7ff")).Foreground(lipgloss.Color("#000000")),
		stSelRed:      lipgloss.NewStyle().Background(lipgloss.Color("#87d7ff")).Foreground(lipgloss.Color("#af0000")),
		stBlocked:     face.Foreground(lipgloss.Color("#808080")),
	}
	if !color {
		// Without colour the brackets tell red from black, and reverse
		// video and underline mark the cursor and the selection.
		plain := lipgloss.NewStyle()
		for k := range p {
			p[k] = plain
		}
		p[stCursorBlack] = plain.Reverse(true)
		p[stCursorRed] = plain.Reverse(true)
		p[stCursorOther] = plain.Reverse(true)
		p[stSelBlack] = plain.Underline(true)
		p[stSelRed] = plain.Underline(true)
		p[stEmpty] = plain
	}
	return p
}

func (b View) cardText(c engine.Card) string {
	if c.Valid() {
		return cardTexts[b.flags()][c]
	}
	return b.makeCardText(c)
}

// flags indexes the tables of texts made once: charset and colour.
func (b View) flags() int {
	f := 0
	if b.Unicode {
		f |= 1
	}
	if b.Color {
		f |= 2
	}
	return f
}

func (b View) makeCardText(c engine.Card) string {
	r := c.Rank().Short()
	s := c.Suit().Letter()
	if b.Unicode {
		s = c.Suit().Symbol()
	}
	if len(r) == 1 {
		r = " " + r
	}
	if !b.Color {
		if c.Red() {
			return "(" + r + s + ")"
		}
		return "[" + r + s + "]"
	}
	return " " + r + s + " "
}

// backCounts is how many counts of a face-down run are made once.
const backCounts = 128

// cardTexts and backTexts are every card's and every count's text in each
// charset and colour, made once: a frame draws dozens of them.
var cardTexts, backTexts = func() (cards [4][256]string, backs [4][backCounts]string) {
	for f := range 4 {
		b := View{Unicode: f&1 != 0, Color: f&2 != 0}
		for c := range 256 {
			if engine.Card(c).Valid() {
				cards[f][c] = b.makeCardText(engine.Card(c))
			}
		}
		for n := range backCounts {
			backs[f][n] = b.makeBackText(n)
		}
	}
	return cards, backs
}()

func (b View) backText(n int) string {
	if n >= 0 && n < backCounts {
		return backTexts[b.flags()][n]
	}
	return b.makeBackText(n)
}

func (b View) makeBackText(n int) string {
	fill := "░"
	if !b.Unicode {
		fill = "#"
	}
	if n > 1 {
		t := fmt.Sprintf("%d", n)
		if len(t) > 3 {
			t = "99+"
		}
		pad := 3 - len(t)
		return strings.Repeat(fill, 1+pad/2) + t + strings.Repeat(fill, 1+pad-pad/2)
	}
	if !b.Color {
		return "[###]"
	}
	return strings.Repeat(fill, cardWidth)
}

// Without colour the cursor and the held cards are marked in the text
// itself, beside the card: a terminal without colour (TERM=dumb) may show
// no reverse or underline either, and then a style alone shows nothing.
// The cursor's card reads ">[ 7S]<", a held card "*( 7H)*", the held card
// under the cursor ">( 7H)*". The marks sit in the gap between piles and
// are drawn last, so no pile drawn later covers them.
type mark struct {
	x, y         int
	cursor, held bool
	hit          Hit
}

// markCard notes the marks a face-up card drawn at x, y needs.
func (b View) markCard(c *Canvas, x, y int, h Hit) {
	if b.Color {
		return
	}
	cursor := b.Cursor.OK && b.Cursor.Pile == h.Pile && b.Cursor.Index == h.Index
	held := b.Sel.OK && b.Sel.Pile == h.Pile && h.Index >= b.Sel.Index
	if cursor || held {
		h.OK = true
		c.marks = append(c.marks, mark{x: x, y: y, cursor: cursor, held: held, hit: h})
	}
}

// markCursor notes the cursor's marks on something that is not a face-up
// card (a back, an empty place, a folded run).
func (b View) markCursor(c *Canvas, x, y int, on bool, h Hit) {
	if !b.Color && on {
		c.marks = append(c.marks, mark{x: x, y: y, cursor: true, hit: h})
	}
}

func (c *Canvas) drawMarks() {
	for _, m := range c.marks {
		left, right := '*', '*'
		if m.cursor {
			left, right = '>', '<'
			if m.held {
				right = '*'
			}
		}
		c.putFree(m.x-1, m.y, left, m.hit)
		c.putFree(m.x+cardWidth, m.y, right, m.hit)
	}
}

// putFree draws a mark where nothing is drawn yet: in a Draw 3 fan the
// cell left of the top card is the card under it.
func (c *Canvas) putFree(x, y int, r rune, h Hit) {
	if y >= 0 && y < c.h && x >= 0 && x < c.w && c.cells[y*c.w+x] == blank {
		c.cells[y*c.w+x] = cellOf(r, stNone)
		c.hits[y*c.w+x] = hitOf(h)
	}
}

func (b View) styleFor(c engine.Card, h Hit, blocked bool) cellStyle {
	red := c.Red()
	switch {
	case b.Cursor.OK && b.Cursor.Pile == h.Pile && b.Cursor.Index == h.Index:
		if red {
			return stCursorRed
		}
		return stCursorBlack
	case b.Sel.OK && b.Sel.Pile == h.Pile && h.Index >= b.Sel.Index:
		if red {
			return stSelRed
		}
		return stSelBlack
	case blocked:
		return stBlocked
	case red:
		return stRed
	}
	return stBlack
}

// Size is the canvas a set of piles needs when nothing is compressed.
func Size(piles []engine.Pile) (w, h int) {
	for _, p := range piles {
		right := (p.X+2)*halfCol - (halfCol*2 - cardWidth)
		if p.Fan == engine.FanRight {
			right += (max(p.Show, 1) - 1) * halfCol
		}
		w = max(w, right)
		h = max(h, p.Y+2)
	}
	return w, h
}

// Render draws the piles into a canvas of w x h cells, reusing old when it
// has that size.
func (b View) Render(piles []engine.Pile, w, h int, old *Canvas) *Canvas {
	c := old
	if c == nil || c.w != w || c.h != h {
		c = newCanvas(w, h)
	} else if c.drewFrom(b, piles) {
		return c
	} else {
		c.clear()
	}
	c.keep(b, piles)
	for i, p := range piles {
		x := b.OffsetX + p.X*halfCol
		switch p.Fan {
		case engine.FanDown:
			b.drawColumn(c, i, p, x, h)
		case engine.FanRight:
			b.drawFanRight(c, i, p, x)
		default:
			b.drawSingle(c, i, p, x)
		}
	}
	c.drawMarks()
	return c
}

func (b View) drawEmpty(c *Canvas, pile int, p engine.Pile, x, y int) {
	h := Hit{Pile: pile, Index: -1, OK: true}
	st := stEmpty
	if b.Cursor.OK && b.Cursor.Pile == pile {
		st = stCursorOther
	}
	if p.Kind == engine.Slot {
		// A cleared place in Pyramid or TriPeaks: nothing to draw, but the
		// cursor needs something to show when it rests there.
		if st == stCursorOther {
			c.put(x, y, "     ", st, h)
			b.markCursor(c, x, y, true, h)
		}
		return
	}
	// An empty stock is drawn as empty as any other place: its count
	// (0) inside the outline read as a card.
	c.put(x, y, "[   ]", st, h)
	b.markCursor(c, x, y, st == stCursorOther, h)
}

func (b View) drawSingle(c *Canvas, pile int, p engine.Pile, x int) {
	y := p.Y
	if len(p.Cards) == 0 {
		b.drawEmpty(c, pile, p, x, y)
	} else {
		top := len(p.Cards) - 1
		h := Hit{Pile: pile, Index: top, OK: true}
		if p.FaceDown > top {
			st := stBack
			if b.Cursor.OK && b.Cursor.Pile == pile {
				st = stCursorOther
			}
			c.put(x, y, b.backText(1), st, h)
			b.markCursor(c, x, y, st == stCursorOther, h)
		} else {
			c.put(x, y, b.cardText(p.Cards[top]), b.styleFor(p.Cards[top], h, p.Blocked), h)
			b.markCard(c, x, y, h)
		}
	}
	if p.Label != "" && p.Kind != engine.Slot {
		// fmt's "%-5s", put without making the string: a label of
		// fewer than five runes is padded with spaces.
		h := Hit{Pile: pile, Index: len(p.Cards) - 1, OK: true}
		c.put(x, y+1, p.Label, stLabel, h)
		if n := utf8.RuneCountInString(p.Label); n < 5 {
			c.put(x+n, y+1, spaces[:5-n], stLabel, h)
		}
	}
}

func (b View) drawFanRight(c *Canvas, pile int, p engine.Pile, x int) {
	if len(p.Cards) == 0 {
		b.drawEmpty(c, pile, p, x, p.Y)
		return
	}
	show := min(max(p.Show, 1), len(p.Cards))
	start := len(p.Cards) - show
	for i := start; i < len(p.Cards); i++ {
		h := Hit{Pile: pile, Index: i, OK: true}
		// Cards under the top one cannot be played: they point at the top.
		if i < len(p.Cards)-1 {
			h.Index = len(p.Cards) - 1
		}
		st := b.styleFor(p.Cards[i], Hit{Pile: pile, Index: i}, false)
		c.put(x+(i-start)*halfCol, p.Y, b.cardText(p.Cards[i]), st, h)
		b.markCard(c, x+(i-start)*halfCol, p.Y, Hit{Pile: pile, Index: i})
	}
}

// drawColumn fans a tableau column downward, squeezing it into the lines
// left: first the face-down run becomes one line with a count, then the
// middle of the face-up run folds into one line.
func (b View) drawColumn(c *Canvas, pile int, p engine.Pile, x, h int) {
	y := p.Y
	if len(p.Cards) == 0 {
		b.drawEmpty(c, pile, p, x, y)
		return
	}
	avail := h - y
	down := min(p.FaceDown, len(p.Cards))
	up := len(p.Cards) - down
	needDown := down
	if down+up > avail && down > 1 {
		needDown = 1
	}
	fold := 0 // face-up cards hidden in one folded line
	if needDown+up > avail {
		fold = needDown + up - avail + 1
		if fold > up-2 {
			fold = max(up-2, 0)
		}
	}
	row := y
	if needDown == 1 && down > 1 {
		st := stBack
		if b.Cursor.OK && b.Cursor.Pile == pile && b.Cursor.Index < down {
			st = stCursorOther
		}
		c.put(x, row, b.backText(down), st, Hit{Pile: pile, Index: down - 1, OK: true})
		b.markCursor(c, x, row, st == stCursorOther, Hit{Pile: pile, Index: down - 1, OK: true})
		row++
	} else {
		for i := 0; i < down; i++ {
			c.put(x, row, b.backText(1), stBack, Hit{Pile: pile, Index: i, OK: true})
			row++
		}
	}
	for i := down; i < len(p.Cards); i++ {
		if fold > 0 && i == down+1 {
			hh := Hit{Pile: pile, Index: i, OK: true}
			st := stLabel
			if b.Cursor.OK && b.Cursor.Pile == pile && b.Cursor.Index >= i && b.Cursor.Index < i+fold {
				st = stCursorOther
			}
			// fmt's " +%-3d", put without making the string.
			n := strconv.Itoa(fold)
			c.put(x, row, " +", st, hh)
			c.put(x+2, row, n, st, hh)
			if len(n) < 3 {
				c.put(x+2+len(n), row, spaces[:3-len(n)], st, hh)
			}
			b.markCursor(c, x, row, st == stCursorOther, hh)
			row++
			i += fold - 1
			continue
		}
		hh := Hit{Pile: pile, Index: i, OK: true}
		c.put(x, row, b.cardText(p.Cards[i]), b.styleFor(p.Cards[i], hh, false), hh)
		b.markCard(c, x, row, hh)
		row++
	}
}

// drewFrom says whether the canvas holds a drawing of exactly these piles
// in this view.
func (c *Canvas) drewFrom(b View, piles []engine.Pile) bool {
	if !c.drawn || c.view != b || len(c.piles) != len(piles) {
		return false
	}
	for i, p := range piles {
		q := c.piles[i]
		if p.Kind != q.Kind || p.FaceDown != q.FaceDown || p.Show != q.Show || p.Blocked != q.Blocked ||
			p.X != q.X || p.Y != q.Y || p.Fan != q.Fan || p.Label != q.Label || !slices.Equal(p.Cards, q.Cards) {
			return false
		}
	}
	return true
}

// keep notes what the canvas is about to be drawn from; the piles' cards
// are copied, since a game may reuse its slices.
func (c *Canvas) keep(b View, piles []engine.Pile) {
	c.drawn, c.view, c.textOf = true, b, nil
	c.cards = c.cards[:0]
	for _, p := range piles {
		c.cards = append(c.cards, p.Cards...)
	}
	c.piles = append(c.piles[:0], piles...)
	at := 0
	for i := range c.piles {
		n := len(c.piles[i].Cards)
		c.piles[i].Cards = c.cards[at : at+n : at+n]
		at += n
	}
}

// String renders the canvas with styles, one run of equal style at a time.
func (c *Canvas) String(pal *Palette) string {
	if c.textOf == pal && pal != nil {
		return c.text
	}
	c.text, c.textOf = c.render(pal), pal
	return c.text
}

// Write writes the canvas's text into sb: the text kept from String if
// there is one for pal, else drawn straight into sb (and not kept: a
// screen that keeps its frames keeps it there).
func (c *Canvas) Write(sb Writer, pal *Palette) {
	if c.textOf == pal && pal != nil {
		_, _ = sb.WriteString(c.text)
		return
	}
	c.write(sb, pal)
}

// Writer is what a canvas is written into: a strings.Builder, or a
// bytes.Buffer kept from frame to frame.
type Writer interface {
	io.Writer
	io.StringWriter
}

func (c *Canvas) render(pal *Palette) string {
	var sb strings.Builder
	sb.Grow(max(c.h*(c.w+16), len(c.text)+64))
	c.write(&sb, pal)
	return sb.String()
}

func (c *Canvas) write(sb Writer, pal *Palette) {
	// The text is put together in a buffer the canvas keeps and written
	// into sb at once: a builder's call per cell was most of the time.
	buf := c.buf[:0]
	for y := range c.h {
		if y > 0 {
			buf = append(buf, '\n')
		}
		row := c.cells[y*c.w : (y+1)*c.w]
		end := len(row)
		for end > 0 && row[end-1] == blank {
			end--
		}
		for x := 0; x < end; {
			st := row[x].st()
			start := x
			for x < end && row[x].st() == st {
				x++
			}
			if st == stNone {
				for _, cl := range row[start:x] {
					buf = utf8.AppendRune(buf, cl.ch())
				}
				continue
			}
			pre, post, exact := pal[st].Codes()
			if !exact {
				var run strings.Builder
				for _, cl := range row[start:x] {
					run.WriteRune(cl.ch())
				}
				buf = append(buf, pal[st].Render(run.String())...)
				continue
			}
			buf = append(buf, pre...)
			for _, cl := range row[start:x] {
				buf = utf8.AppendRune(buf, cl.ch())
			}
			buf = append(buf, post...)
		}
	}
	_, _ = sb.Write(buf)
	c.buf = buf
}
