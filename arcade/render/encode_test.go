package render

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	"github.com/stretchr/testify/require"
)

// internStyle is st's id in the style table.
func internStyle(st uv.Style) styleID {
	styles.Lock()
	defer styles.Unlock()
	return internLocked(st)
}

var testStyles = []uv.Style{
	{},
	{Bg: ansi.IndexedColor(255)},
	{Fg: ansi.IndexedColor(160), Bg: ansi.IndexedColor(255)},
	{Fg: ansi.IndexedColor(124), Bg: ansi.IndexedColor(220), Attrs: uv.AttrBold},
	{Attrs: uv.AttrFaint},
	{Bg: color.RGBA{0, 0x5f, 0x87, 0xff}},
	{Underline: uv.UnderlineSingle},
	{Attrs: uv.AttrReverse | uv.AttrItalic},
	{Fg: color.RGBA{0x87, 0xd7, 0x87, 0xff}, Attrs: uv.AttrBold | uv.AttrFaint},
	{Fg: ansi.BasicColor(1), Bg: ansi.BasicColor(7), Attrs: uv.AttrStrikethrough},
}

// A transition from any style to any other leaves the pen in the second,
// at every profile, and is never longer than Ultraviolet's diff.
func TestTransitionsReachTheStyle(t *testing.T) {
	emu := newEmu(t, 4, 1)
	for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI, colorprofile.Ascii} {
		for _, from := range testStyles {
			for _, to := range testStyles {
				a, b := internStyle(from), internStyle(to)
				seq := transition(a, b, p)
				_, _ = emu.WriteString("\x1b[m\x1b[H" + transition(0, a, p) + seq + "x")
				want := uv.ConvertStyle(to, p)
				got := emu.CellAt(0, 0).Style
				require.True(t, want.Equal(&got), "%v: %+v to %+v by %q: %+v", p, from, to, seq, got)
				ca, cb := uv.ConvertStyle(from, p), uv.ConvertStyle(to, p)
				require.LessOrEqual(t, len(seq), len(uv.StyleDiff(&ca, &cb)), "%v: %q", p, seq)
			}
		}
	}
}

// drawWhole draws content on a cleared screen the plainest way: each line
// at its row as it is, colours brought down by colorprofile's writer, a
// line too long cut by x/ansi.
func drawWhole(e *vt.Emulator, content string, w, h int, p colorprofile.Profile) {
	_, _ = e.WriteString("\x1b[?25l\x1b[0m\x1b[H\x1b[2J")
	pw := &colorprofile.Writer{Forward: e, Profile: p}
	for y, line := range strings.Split(content, "\n") {
		if y >= h {
			break
		}
		_, _ = fmt.Fprintf(e, "\x1b[%dH", y+1)
		_, _ = io.WriteString(pw, ansi.Truncate(line, w, ""))
	}
	_, _ = e.WriteString("\x1b[0m")
}

func sameCells(t *testing.T, want, got *vt.Emulator, w, h int, msg string) {
	t.Helper()
	for y := range h {
		for x := range w {
			wc, gc := want.CellAt(x, y), got.CellAt(x, y)
			if wc == nil {
				wc = &uv.EmptyCell
			}
			if gc == nil {
				gc = &uv.EmptyCell
			}
			if wc.Content != gc.Content || wc.Width != gc.Width || !wc.Style.Equal(&gc.Style) || wc.Link != gc.Link {
				t.Fatalf("%s: cell %d,%d is %q %d %+v, want %q %d %+v\ngot:\n%s\nwant:\n%s", msg, x, y,
					gc.Content, gc.Width, gc.Style, wc.Content, wc.Width, wc.Style, got.String(), want.String())
			}
		}
	}
	require.Equal(t, want.CursorHidden(), got.CursorHidden(), msg)
}

// grid is a screen of styled cells a test changes a little at a time, as
// a game's moves change its screen; a wide character's second cell is
// text "".
type grid struct {
	w, h int
	text [][]string
	st   [][]int
}

func newGrid(w, h int) *grid {
	g := &grid{w: w, h: h}
	for range h {
		g.text = append(g.text, strings.Split(strings.Repeat(" ", w), ""))
		g.st = append(g.st, make([]int, w))
	}
	return g
}

// put writes s (narrow characters) at x, y in style st.
func (g *grid) put(x, y int, s string, st int) {
	for _, r := range s {
		if x >= g.w {
			return
		}
		g.set(x, y, string(r), st)
		x++
	}
}

// set puts one character, mending a wide character it cuts in two.
func (g *grid) set(x, y int, s string, st int) {
	row := g.text[y]
	if row[x] == "" && x > 0 {
		row[x-1] = " "
	}
	if x+1 < g.w && row[x+1] == "" {
		row[x+1] = " "
	}
	row[x], g.st[y][x] = s, st
}

// shiftText moves row y's cells from x to end (cut at the row's end) n
// cells right (a digit put in at x, in the style of the cell there) or
// left (the cell at x taken out); the cells moved over at the end are lost
// or repeated, as a header's gap takes up the difference.
func (g *grid) shiftText(x, y, n int, right bool, end int) {
	end = min(end, g.w)
	if x+n >= end {
		return
	}
	row, st := g.text[y], g.st[y]
	for i := x; i < end; i++ {
		if row[i] == "" || i > 0 && row[i-1] != "" && len([]rune(row[i-1])) == 1 && ansi.StringWidth(row[i-1]) == 2 {
			return // a wide character in the way: leave the row
		}
	}
	if right {
		copy(row[x+n:end], row[x:end-n])
		copy(st[x+n:end], st[x:end-n])
		for i := x; i < x+n; i++ {
			row[i] = string(rune('0' + i%10))
		}
	} else {
		copy(row[x:end-n], row[x+n:end])
		copy(st[x:end-n], st[x+n:end])
	}
}

func (g *grid) wide(x, y int, s string, st int) {
	if x+1 >= g.w {
		return
	}
	g.set(x, y, s, st)
	if x+2 < g.w && g.text[y][x+2] == "" {
		g.text[y][x+2] = " "
	}
	g.text[y][x+1], g.st[y][x+1] = "", st
}

func (g *grid) content(styles []uv.Style, trim bool) string {
	var b strings.Builder
	for y := range g.h {
		if y > 0 {
			b.WriteByte('\n')
		}
		end := g.w
		for trim && end > 0 && g.text[y][end-1] == " " && g.st[y][end-1] == 0 {
			end--
		}
		for x := 0; x < end; {
			st := g.st[y][x]
			k := x
			var seg strings.Builder
			for k < end && g.st[y][k] == st {
				seg.WriteString(g.text[y][k])
				k++
			}
			b.WriteString(styles[st].Styled(seg.String()))
			x = k
		}
	}
	return b.String()
}

var ech = regexp.MustCompile(`\x1b\[\d*X`)

// A screen changed a few cells at a time, as moves change a game's, shows
// each view as the view drawn whole does, at every profile: cards put and
// taken away, blanks in styles of a background alone (which the renderer
// may erase to) and in others (which it must write), wide characters, a
// line's end cleared. The encodings the renderer chooses from are all
// used.
func TestSmallChangesShowTheView(t *testing.T) {
	cards := []string{"  5♥ ", " 10♠ ", "  K♦ ", "░░░░░", "[   ]"}
	var out bytes.Buffer
	for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI, colorprofile.Ascii} {
		t.Run(p.String(), func(t *testing.T) {
			w, h := 40, 12
			rng := rand.New(rand.NewPCG(5, uint64(p)))
			ref, emu := newEmu(t, w, h), newEmu(t, w, h)
			scr := NewScreen(io.MultiWriter(emu, &out), w, h, p)
			g := newGrid(w, h)
			for i := range 600 {
				if i%150 == 149 {
					w, h = 30+rng.IntN(20), 8+rng.IntN(8)
					ref.Resize(w, h)
					emu.Resize(w, h)
					scr.Resize(w, h)
					g = newGrid(w, h)
				}
				for range 1 + rng.IntN(4) {
					x, y, st := rng.IntN(w), rng.IntN(h), rng.IntN(len(testStyles))
					switch rng.IntN(8) {
					case 0, 1:
						g.put(x, y, cards[rng.IntN(len(cards))], st)
					case 2:
						// A card taken away: blanks, mostly plain or a
						// background alone.
						st = []int{0, 0, 1, 5, st}[rng.IntN(5)]
						g.put(x, y, strings.Repeat(" ", 1+rng.IntN(12)), st)
					case 3:
						g.wide(x, y, []string{"漢", "字", "🂡"}[rng.IntN(3)], st)
					case 4:
						g.put(x, y, strings.Repeat(" ", w), 0)
					case 5:
						g.put(x, y, fmt.Sprintf("Moves %d", i), 4)
					case 7:
						// A count gains or loses a digit and the text
						// after it follows, up to a gap.
						g.shiftText(x, y, 1+rng.IntN(2), rng.IntN(2) == 0, x+10+rng.IntN(20))
					case 6:
						// A card moves down a column: the same style
						// on the rows around a blank.
						g.put(x, y, cards[0], 2)
						if y+2 < h {
							g.put(x, y+1, "     ", 0)
							g.put(x, y+2, cards[1], 2)
						}
					}
				}
				content := g.content(testStyles, rng.IntN(2) == 0)
				v := tea.NewView(content)
				v.AltScreen = true
				require.NoError(t, scr.Draw(v))
				require.Zero(t, scr.leftOn, "runs left waiting after a frame")
				drawWhole(ref, content, w, h, p)
				sameCells(t, ref, emu, w, h, fmt.Sprintf("frame %d", i))
			}
		})
	}
	all := out.String()
	require.Regexp(t, ech, all, "no blanks erased with ECH")
	for _, seq := range []string{"\b", "\r\n", "\x1bM", "\x1b[0;", "\x1b[K"} {
		require.Contains(t, all, seq)
	}
	require.Regexp(t, `\x1b\[\d*P`, all, "no DCH")
	require.Regexp(t, `\x1b\[\d*@`, all, "no ICH")
}

// A card moved down a column (a card, a blank under it, a card under
// that) costs the card's colours once: the blank waits for the pen's
// reset at the end of the frame.
func TestPlainRunsWaitForTheReset(t *testing.T) {
	card := uv.Style{Fg: ansi.IndexedColor(160), Bg: ansi.IndexedColor(255)}
	w, h := 20, 5
	g := newGrid(w, h)
	g.put(2, 1, "  5♥ ", 2)
	g.put(2, 2, "  6♥ ", 2)
	g.put(16, 2, "|", 0)
	styles := []uv.Style{{}, {}, card}
	emu, ref := newEmu(t, w, h), newEmu(t, w, h)
	var out bytes.Buffer
	scr := NewScreen(io.MultiWriter(emu, &out), w, h, colorprofile.ANSI256)
	draw := func() string {
		out.Reset()
		v := tea.NewView(g.content(styles, true))
		v.AltScreen = true
		require.NoError(t, scr.Draw(v))
		drawWhole(ref, v.Content, w, h, colorprofile.ANSI256)
		sameCells(t, ref, emu, w, h, "")
		return out.String()
	}
	draw()
	// 6♥ leaves row 2 for row 3, and a card comes to row 1's right.
	g.put(2, 2, "     ", 0)
	g.put(2, 3, "  6♥ ", 2)
	g.put(12, 1, "  7♥ ", 2)
	b := draw()
	require.Equal(t, 1, strings.Count(b, "48;5;255"), "%q", b)
	require.Regexp(t, ech, b)
}

// The cursor left on a wide character's second half (where a view put
// it) is not a place to write the unchanged cells from: the change to its
// right is reached by a move.
func TestNoBridgeFromInsideAWideCharacter(t *testing.T) {
	w, h := 20, 3
	emu, ref := newEmu(t, w, h), newEmu(t, w, h)
	scr := NewScreen(emu, w, h, colorprofile.ANSI256)
	for _, content := range []string{"ab漢字cdef", "ab漢字Xdef"} {
		v := tea.NewView(content)
		v.AltScreen = true
		v.Cursor = tea.NewCursor(3, 0)
		require.NoError(t, scr.Draw(v))
		drawWhole(ref, content, w, h, colorprofile.ANSI256)
		_, _ = ref.WriteString("\x1b[1;4H\x1b[?25h")
		sameCells(t, ref, emu, w, h, content)
	}
}

// A header whose counts gain and lose digits moves its text with DCH and
// ICH and shows each header as drawn whole, at every profile.
func TestHeaderShifts(t *testing.T) {
	title := uv.Style{Fg: ansi.IndexedColor(81), Attrs: uv.AttrBold}
	faint := uv.Style{Attrs: uv.AttrFaint}
	bold := uv.Style{Attrs: uv.AttrBold}
	header := func(score, moves int) string {
		left := title.Styled("Klondike") + fmt.Sprintf("  Score %d  Moves %d  Time 1:05  Hints 6", score, moves)
		right := bold.Styled("?") + " " + faint.Styled("help") + "  " + bold.Styled("q") + " " + faint.Styled("menu")
		return left + strings.Repeat(" ", 80-ansi.StringWidth(left)-ansi.StringWidth(right)) + right
	}
	for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI, colorprofile.Ascii} {
		w, h := 80, 3
		emu, ref := newEmu(t, w, h), newEmu(t, w, h)
		var out bytes.Buffer
		scr := NewScreen(io.MultiWriter(emu, &out), w, h, p)
		shifted := 0
		for i, sm := range [][2]int{{0, 0}, {5, 1}, {15, 2}, {10, 9}, {110, 10}, {-5, 11}, {0, 12}, {1005, 100}, {9, 101}} {
			out.Reset()
			content := header(sm[0], sm[1]) + "\n\n" + title.Styled("Deal #1")
			v := tea.NewView(content)
			v.AltScreen = true
			require.NoError(t, scr.Draw(v))
			drawWhole(ref, content, w, h, p)
			sameCells(t, ref, emu, w, h, fmt.Sprintf("%v header %d", p, i))
			if i > 0 && regexp.MustCompile(`\x1b\[\d*[P@]`).MatchString(out.String()) {
				shifted++
				require.Less(t, out.Len(), 40, "%q", out.String())
			}
		}
		require.GreaterOrEqual(t, shifted, 4, "%v: headers moved with DCH and ICH", p)
	}
}

// A log at the foot of the screen that gains an entry or two and loses
// its oldest scrolls its lines up in the terminal (DECSTBM, line feeds) instead
// of writing them again, and shows each view as drawn whole, at every
// profile; lines over and under it stay as they are.
func TestLogScrolls(t *testing.T) {
	faint := uv.Style{Attrs: uv.AttrFaint}
	card := uv.Style{Fg: ansi.IndexedColor(160), Bg: ansi.IndexedColor(255)}
	for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI, colorprofile.Ascii} {
		w, h := 60, 12
		emu, ref := newEmu(t, w, h), newEmu(t, w, h)
		var out bytes.Buffer
		scr := NewScreen(io.MultiWriter(emu, &out), w, h, p)
		var log []string
		scrolled := 0
		for i := range 40 {
			if i%4 == 2 {
				// Entries changed in place, a cell or two: written over
				// what the terminal shows, which the renderer must know.
				for j := range log {
					log[j] = strings.Replace(log[j], "stack", "stock", 1)
				}
			} else {
				log = append(log, fmt.Sprintf("seat %d played %d♥ on the %d stack", i%3, i%10, i%7))
			}
			if i%4 == 3 {
				log = append(log, fmt.Sprintf("seat %d drew %d", i%3, i%5))
			}
			if len(log) > 6 {
				log = log[len(log)-6:]
			}
			lines := []string{"Table  " + fmt.Sprint(i), card.Styled("  5♥ ") + "  " + card.Styled(fmt.Sprintf(" %2d♥ ", i%10)), "", ""}
			for _, l := range log {
				lines = append(lines, faint.Styled(l))
			}
			for len(lines) < h-1 {
				lines = append(lines, "")
			}
			lines = append(lines, "keys")
			content := strings.Join(lines, "\n")
			out.Reset()
			v := tea.NewView(content)
			v.AltScreen = true
			require.NoError(t, scr.Draw(v))
			drawWhole(ref, content, w, h, p)
			sameCells(t, ref, emu, w, h, fmt.Sprintf("%v frame %d", p, i))
			if regexp.MustCompile(`\x1b\[\d+;\d+r\x1b\[\d+H\n+\x1b\[r`).MatchString(out.String()) {
				scrolled++
				require.Less(t, out.Len(), 130, "%q", out.String())
			}
		}
		require.GreaterOrEqual(t, scrolled, 20, "%v: the log scrolled", p)
	}
}

// A log whose lines are much alike (two players taking turns at the same
// move) is not scrolled: writing over each line the few cells that differ
// costs less.
func TestLikeLinesAreNotScrolled(t *testing.T) {
	faint := uv.Style{Attrs: uv.AttrFaint}
	w, h := 60, 10
	emu, ref := newEmu(t, w, h), newEmu(t, w, h)
	var out bytes.Buffer
	scr := NewScreen(io.MultiWriter(emu, &out), w, h, colorprofile.ANSI256)
	var log []string
	for i := range 20 {
		who := []string{"ann", "bob"}[i%2]
		log = append(log, fmt.Sprintf("%s discarded %d♣ on side stack 1", who, i%9+1), fmt.Sprintf("%s drew 1", []string{"bob", "ann"}[i%2]))
		if len(log) > 6 {
			log = log[len(log)-6:]
		}
		lines := []string{"Table", ""}
		for _, l := range log {
			lines = append(lines, faint.Styled(l))
		}
		content := strings.Join(lines, "\n")
		out.Reset()
		v := tea.NewView(content)
		v.AltScreen = true
		require.NoError(t, scr.Draw(v))
		drawWhole(ref, content, w, h, colorprofile.ANSI256)
		sameCells(t, ref, emu, w, h, fmt.Sprintf("frame %d", i))
		if i > 4 {
			require.NotRegexp(t, `\x1b\[\d+;\d+r`, out.String(), "frame %d", i)
			require.Less(t, out.Len(), 60, "frame %d: %q", i, out.String())
		}
	}
}
