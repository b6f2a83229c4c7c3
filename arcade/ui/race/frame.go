package race

import (
	"bytes"
	"strconv"
	"strings"
	"unsafe"

	"charm.land/lipgloss/v2"

	"sshuffle/arcade/ui"
	"sshuffle/internal/format"
)

// raceParts is what a race frame keeps for the next: the lines of the
// board's screen as last split, and the parts of the frame that change
// with the room's state, a message or the width, not with the clock. A
// clock tick writes the clock into the kept parts, in one string.
type raceParts struct {
	rest   []string // the board screen's lines under its header (Embedded.RestLines)
	lines  []string // the same without their "\n"
	widths []int    // their widths, -1 until asked for

	title string // the game's title, styled

	// The panel and the fold are made for the room's state of the
	// version they were made for (and the fold for its width), each only
	// when the frame shows it: beside a board, or folded under it.
	panelOK, foldOK bool
	panelVersion    uint64
	foldVersion     uint64
	headOf          string   // the code panelHead was made for
	panelHead       string   // "Race CODE", styled
	panel           []string // the panel's lines under its head
	foldTail        string   // the folded panel after "Race 0:00"
	foldTailW       int
	foldWidth       int // the width the fold was made for

	watching, watchHead string // the header when following someone

	msgOK    bool
	msgText  string
	msgKind  ui.Tone
	msgWidth int
	msgLine  string

	barsOK      bool
	barsOf      Board
	barsVersion uint64
	barsWidth   int
	raceBar     string // the race's keys (the board's second bar)
	raceBottom  string // the bottom bar while racing
	followBar   string // the bottom bar while not

	clock []byte       // scratch
	buf   bytes.Buffer // the frame, as drawn
	out   []string     // the frame in lines, each kept while it is the same

	// The room before the start and the results, in lines kept while
	// they are the same: a countdown's count, a racer coming, going or
	// finishing changes a line or two of them.
	lobby, results keptLines
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
// appended to dst in pieces.
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
		f.panel = s.panel(f.panel[:0])
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
		f.raceBar = ui.HelpBar(e.Width, raceKeys(more)...)
		f.raceBottom = ui.HelpBar(e.Width, append(raceKeys(bar), "q", "give up")...)
		f.followBar = ui.HelpBar(e.Width, "1-8", "follow a racer", "0", "stop following", "q", "leave", ui.PhraseKey, "phrases")
		f.barsOK, f.barsOf, f.barsVersion, f.barsWidth = true, g, g.Version(), e.Width
	}
	msg, tone := s.message()
	if msg != "" && (!f.msgOK || f.msgText != msg || f.msgKind != tone || f.msgWidth != e.Width) {
		line := ui.FitLines(msg, e.Width, 1)[0]
		if s.phrases.Open() {
			line = format.Clean(msg, e.Width) // its double spaces set the phrases apart
		}
		f.msgLine = tone.Style().Render(line)
		f.msgOK, f.msgText, f.msgKind, f.msgWidth = true, msg, tone, e.Width
	}
	f.clock = format.AppendDuration(f.clock[:0], s.clock())
	n := 1 + len(f.lines)
	b := &f.buf
	b.Reset()
	left := e.Width - panelWidth
	for j := range n {
		if j > 0 {
			b.WriteByte('\n')
		}
		switch {
		case j == n-1:
			if !racing {
				b.WriteString(f.followBar)
			} else {
				b.WriteString(f.raceBottom)
			}
		case j == n-2:
			switch {
			case !side:
				f.writeFolded(b, s, e.Width)
			case racing:
				b.WriteString(f.raceBar)
			}
		case j == n-3 && msg != "":
			b.WriteString(f.msgLine)
		case j == 0:
			f.writeHead(b, s, g)
		case side && j-1 < 1+len(f.panel) && j < n-3:
			l := f.lines[j-1]
			if f.widths[j-1] < 0 {
				f.widths[j-1] = lipgloss.Width(l)
			}
			b.WriteString(l)
			pad := left - f.widths[j-1]
			if pad < 0 {
				continue
			}
			ui.WriteSpaces(b, pad)
			if j == 1 {
				b.WriteString(f.panelHead)
				b.WriteByte(' ')
				b.Write(f.clock)
			} else {
				b.WriteString(f.panel[j-2])
			}
		default:
			b.WriteString(f.lines[j-1])
		}
	}
	f.out = ui.KeepLines(f.out, b.Bytes())
	return append(dst, f.out...)
}

// writeHead writes the header: the race, not the solo game's line.
func (f *raceParts) writeHead(b *bytes.Buffer, s *raceScreen, g Board) {
	b.WriteString(f.title)
	b.WriteString("  ")
	if g == s.view {
		if name := s.followedName(); f.watchHead == "" || f.watching != name {
			f.watching, f.watchHead = name, ui.WarnStyle.Render("watching "+name)
		}
		b.WriteString(f.watchHead)
		return
	}
	b.WriteString("Race ")
	b.WriteString(s.st.Code)
	b.WriteString("  Moves ")
	var num [20]byte
	b.Write(strconv.AppendInt(num[:0], int64(g.Game().Moves()), 10))
	b.WriteString("  Time ")
	b.Write(f.clock)
}

// writeFolded writes folded(width) from the kept parts, when it fits.
func (f *raceParts) writeFolded(b *bytes.Buffer, s *raceScreen, width int) {
	if len("Race ")+len(f.clock)+f.foldTailW > width {
		b.WriteString(s.folded(width)) // cut to the width: rare, made afresh
		return
	}
	b.WriteString("Race ")
	b.Write(f.clock)
	b.WriteString(f.foldTail)
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
