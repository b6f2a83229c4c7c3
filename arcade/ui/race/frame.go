package race

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"charm.land/lipgloss/v2"

	"sshuffle/arcade/ui"
	"sshuffle/internal/format"
)

// raceParts is what a race frame keeps for the next: the lines of the
// board's screen as last split, the parts of the frame that change with
// the room's state, a message or the width, not with the clock, and the
// frame's lines. Each line of the frame is made only when what it is
// made of changed, and is otherwise the string of the frame before: a
// board line without the panel is the board's own string, and a clock
// tick or another racer's move makes only the lines that show them.
type raceParts struct {
	rest   []string // the board screen's lines under its header (Embedded.RestLines)
	lines  []string // the same without their "\n"
	widths []int    // their widths, -1 until asked for

	// firstNL is the board's first line with the "\n" before it (the
	// board hands it without one), made for firstOf.
	firstNL, firstOf string

	title string // the game's title, styled

	// The panel and the fold are made for the room's state of the
	// version they were made for (and the fold for its width), each only
	// when the frame shows it: beside a board, or folded under it.
	panelOK, foldOK bool
	panelVersion    uint64
	foldVersion     uint64
	headOf          string       // the code panelHead was made for
	panelHead       string       // "Race CODE", styled
	panel           []string     // the panel's lines under its head
	racers          []racerLines // the racers' lines of the panel, by place
	foldTail        string       // the folded panel after "Race 0:00"
	foldTailW       int
	foldWidth       int // the width the fold was made for

	watching, watchHead string // the header when following someone

	msgOK    bool
	msgText  string
	msgKind  ui.Tone
	msgWidth int
	msgLine  string // with the "\n" before it

	// The bars, each with the "\n" before it, made for the board's
	// version and width; a new version of the board with the same key
	// pairs (barKeys, moreKeys) keeps them.
	barsOK            bool
	barsOf            Board
	barsVersion       uint64
	barsWidth         int
	barKeys, moreKeys []string
	raceBar           string // the race's keys (the board's second bar)
	raceBottom        string // the bottom bar while racing
	followBar         string // the bottom bar while not

	clock   []byte     // scratch
	scratch []byte     // a line being made, to compare with the last
	out     []string   // the frame in lines, each kept while it is the same
	besides []besideOf // what each line beside the panel was made of

	// The room before the start and the results, in lines kept while
	// they are the same: a countdown's count, a racer coming, going or
	// finishing changes a line or two of them.
	lobby, results keptLines
}

// besideOf is what a line of the frame with the panel beside the board
// was made of: the board's line, the padding and the panel's line.
type besideOf struct {
	ok          bool
	board, side string
	pad         int
}

// keptLines is a view drawn whole, handed over in lines each kept (the
// same string) while it is the same as in the frame before.
type keptLines struct {
	buf bytes.Buffer
	out []string
}

// pieces appends text to dst in lines, each with the "\n" before it but
// the first.
func (k *keptLines) pieces(dst []string, text string) []string {
	k.buf.Reset()
	k.buf.WriteString(text)
	k.out = ui.KeepLines(k.out, k.buf.Bytes())
	return append(dst, k.out...)
}

// draw is View's frame for a running race, drawn as the lines of g's own
// frame with the race's header, panel, message and bars over them, and
// appended to dst in pieces, one a line.
func (f *raceParts) draw(dst []string, s *raceScreen, g Board, rest []string, side bool) []string {
	e := s.env
	if len(f.rest) != len(rest) {
		f.rest, f.lines, f.widths = f.rest[:0], f.lines[:0], f.widths[:0]
		for range rest {
			f.rest, f.lines, f.widths = append(f.rest, ""), append(f.lines, ""), append(f.widths, -1)
		}
	}
	for i, l := range rest {
		// The board keeps a line's string while it is the same: its
		// width is kept with it.
		if unsafe.StringData(l) != unsafe.StringData(f.rest[i]) || len(l) != len(f.rest[i]) {
			f.rest[i], f.lines[i], f.widths[i] = l, strings.TrimPrefix(l, "\n"), -1
		}
	}
	if f.title == "" {
		f.title = ui.TitleStyle.Render(s.info.Title())
	}
	if f.headOf != s.st.Code || f.panelHead == "" {
		f.panelHead, f.headOf = ui.TitleStyle.Render("Race "+s.st.Code), s.st.Code
	}
	if side && (!f.panelOK || f.panelVersion != s.st.Version) {
		f.panel = s.panel(f.panel[:0], &f.racers)
		f.panelOK, f.panelVersion = true, s.st.Version
	}
	if !side && (!f.foldOK || f.foldVersion != s.st.Version || f.foldWidth != e.Width) {
		f.foldTail = s.foldedTail(e.Width - len("Race 0:00:00"))
		f.foldTailW = lipgloss.Width(f.foldTail)
		f.foldOK, f.foldVersion, f.foldWidth = true, s.st.Version, e.Width
	}
	racing := s.racing()
	if !f.barsOK || f.barsOf != g || f.barsVersion != g.Version() || f.barsWidth != e.Width {
		bar, more := g.KeyBars()
		if !f.barsOK || f.barsOf != g || f.barsWidth != e.Width || !slices.Equal(bar, f.barKeys) || !slices.Equal(more, f.moreKeys) {
			f.raceBar = "\n" + ui.HelpBar(e.Width, raceKeys(more)...)
			f.raceBottom = "\n" + ui.HelpBar(e.Width, append(raceKeys(bar), "q", "give up")...)
			f.followBar = "\n" + ui.HelpBar(e.Width, "1-8", "follow a racer", "0", "stop following", "q", "leave", ui.PhraseKey, "phrases")
			f.barKeys, f.moreKeys = bar, more
		}
		f.barsOK, f.barsOf, f.barsVersion, f.barsWidth = true, g, g.Version(), e.Width
	}
	msg, tone := s.message()
	if msg != "" && (!f.msgOK || f.msgText != msg || f.msgKind != tone || f.msgWidth != e.Width) {
		line := ui.FitLines(msg, e.Width, 1)[0]
		if s.phrases.Open() {
			line = format.Clean(msg, e.Width) // its double spaces set the phrases apart
		}
		f.msgLine = "\n" + tone.Style().Render(line)
		f.msgOK, f.msgText, f.msgKind, f.msgWidth = true, msg, tone, e.Width
	}
	f.clock = format.AppendDuration(f.clock[:0], s.clock())
	n := 1 + len(f.lines)
	for len(f.out) < n {
		f.out, f.besides = append(f.out, ""), append(f.besides, besideOf{})
	}
	left := e.Width - panelWidth
	for j := range n {
		switch {
		case j == n-1:
			if !racing {
				f.set(j, f.followBar)
			} else {
				f.set(j, f.raceBottom)
			}
		case j == n-2:
			switch {
			case !side:
				f.keep(j, f.appendFolded(append(f.scratch[:0], '\n'), s, e.Width))
			case racing:
				f.set(j, f.raceBar)
			default:
				f.set(j, "\n")
			}
		case j == n-3 && msg != "":
			f.set(j, f.msgLine)
		case j == 0:
			f.keep(j, f.appendHead(f.scratch[:0], s, g))
		case side && j-1 < 1+len(f.panel) && j < n-3:
			i := j - 1
			if f.widths[i] < 0 {
				f.widths[i] = lipgloss.Width(f.lines[i])
			}
			pad := left - f.widths[i]
			if pad < 0 {
				f.set(j, f.boardLine(i))
				continue
			}
			if j > 1 {
				f.beside(j, f.lines[i], pad, f.panel[j-2])
				continue
			}
			l := append(f.scratch[:0], '\n')
			l = append(l, f.lines[i]...)
			l = appendSpaces(l, pad)
			l = append(l, f.panelHead...)
			l = append(l, ' ')
			f.keep(j, append(l, f.clock...))
		default:
			f.set(j, f.boardLine(j-1))
		}
	}
	clear(f.out[n:])
	clear(f.besides[n:])
	f.out, f.besides = f.out[:n], f.besides[:n]
	return append(dst, f.out...)
}

// set makes line j of the frame the string line.
func (f *raceParts) set(j int, line string) {
	f.out[j], f.besides[j].ok = line, false
}

// keep makes line j of the frame line's text, keeping the string of the
// frame before when it is the same; line is scratch, given back to
// f.scratch.
func (f *raceParts) keep(j int, line []byte) {
	if f.out[j] != string(line) {
		f.out[j] = string(line)
	}
	f.besides[j].ok = false
	f.scratch = line[:0]
}

// beside makes line j of the frame the board's line with the panel's
// line side after pad spaces, unless it was made of the same.
func (f *raceParts) beside(j int, board string, pad int, side string) {
	if b := &f.besides[j]; b.ok && b.pad == pad && b.board == board && b.side == side {
		return
	}
	l := append(f.scratch[:0], '\n')
	l = append(l, board...)
	l = appendSpaces(l, pad)
	l = append(l, side...)
	f.keep(j, l)
	f.besides[j] = besideOf{ok: true, board: board, side: side, pad: pad}
}

// boardLine is the board's line i with the "\n" before it: the board's
// own string, but for its first line.
func (f *raceParts) boardLine(i int) string {
	if l := f.rest[i]; strings.HasPrefix(l, "\n") {
		return l
	}
	if f.firstOf != f.rest[i] || f.firstNL == "" {
		f.firstNL, f.firstOf = "\n"+f.lines[i], f.rest[i]
	}
	return f.firstNL
}

func appendSpaces(b []byte, n int) []byte {
	const blanks = "                                                                "
	for n > len(blanks) {
		b = append(b, blanks...)
		n -= len(blanks)
	}
	return append(b, blanks[:n]...)
}

// appendHead appends the header: the race, not the solo game's line.
func (f *raceParts) appendHead(b []byte, s *raceScreen, g Board) []byte {
	b = append(b, f.title...)
	b = append(b, "  "...)
	if g == s.view {
		if name := s.followedName(); f.watchHead == "" || f.watching != name {
			f.watching, f.watchHead = name, ui.WarnStyle.Render("watching "+name)
		}
		return append(b, f.watchHead...)
	}
	b = append(b, "Race "...)
	b = append(b, s.st.Code...)
	b = append(b, "  Moves "...)
	b = strconv.AppendInt(b, int64(g.Game().Moves()), 10)
	b = append(b, "  Time "...)
	return append(b, f.clock...)
}

// appendFolded appends folded(width) from the kept parts, when it fits.
func (f *raceParts) appendFolded(b []byte, s *raceScreen, width int) []byte {
	if len("Race ")+len(f.clock)+f.foldTailW > width {
		return append(b, s.folded(width)...) // cut to the width: rare, made afresh
	}
	b = append(b, "Race "...)
	b = append(b, f.clock...)
	return append(b, f.foldTail...)
}

// raceKeys drops from a game's key pairs those a race does not take: a
// new deal, a restart, a deal number, hints, options, rules, help, menu.
func raceKeys(pairs []string) []string {
	var out []string
	for i := 0; i+1 < len(pairs); i += 2 {
		switch pairs[i] {
		case "n", "r", "#", "t", "o", "i", "?", "q":
			continue
		}
		out = append(out, pairs[i], pairs[i+1])
	}
	return out
}
