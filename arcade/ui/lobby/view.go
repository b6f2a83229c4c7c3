package lobby

import (
	"bytes"
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"sshuffle/arcade/ui"
	"sshuffle/store"
)

// listParts is what the list's frame keeps for the next. The lobby is
// drawn again whenever the list changes, and on a busy server tables open,
// fill and close all the time: a row is made again only when its table,
// its place under the cursor or the width changed, the foot only when its
// message or keys did, and every other line is the string it was.
type listParts struct {
	title string // "Tables  open tables, live", styled

	seatOK    bool
	seatKey   seatKey
	seatLines []string // the seated lines and the blank under them, each with its "\\n"

	rows, older map[string]*keptRow // by code: the rows of the last frame, and of the one before (scratch)

	detailOK    bool
	detailOf    Table
	detailWidth int
	detail      string

	msgOK    bool
	msgAt    msgKey
	msgLines []string // each with its "\\n"
	barsOK   bool
	barsAt   barsKey
	bars     []string // the key bars, each with its "\\n"
	foot     []string // the message lines, the blank and the key bars

	empty, emptyGuest string // the line of an empty list

	formBuf bytes.Buffer
	form    []string // the form's lines, each kept while it is the same
}

// seatKey is what the seated lines are drawn from.
type seatKey struct {
	seat            int
	code, game, who string
	host            bool
	width           int
}

// msgKey is what the message lines are drawn from.
type msgKey struct {
	msg   string
	style int // footFaint ...
	width int
}

// barsKey is what the key bars are drawn from.
type barsKey struct {
	width        int
	guest, talk  bool
	seated, host bool
}

const (
	footFaint = iota
	footPlain
	footErr
	footOk
)

var footStyles = [...]lipgloss.Style{footFaint: ui.FaintStyle, footPlain: plainStyle, footErr: ui.ErrStyle, footOk: ui.OkStyle}

// keptRow is a table's row as drawn, with what it was drawn from.
type keptRow struct {
	t     Table
	cur   bool
	color bool
	width int
	line  string // with the "\\n" before it
}

func (s *Screen) View() string { return strings.Join(s.ViewPieces(nil), "") }

// ViewPieces is the view in pieces, one a line (ui.PiecedScreen): the
// title, then each line with the "\\n" before it, the lines that did not
// change the strings of the frame before.
func (s *Screen) ViewPieces(dst []string) []string {
	if s.form != nil {
		f := &s.kept
		f.formBuf.Reset()
		f.formBuf.WriteString(s.form.view(s))
		f.form = ui.KeepLines(f.form, f.formBuf.Bytes())
		return append(dst, f.form...)
	}
	f := &s.kept
	w, h := max(s.env.Width, 1), max(s.env.Height, 1)
	start := len(dst)
	if f.title == "" {
		f.title = ui.TitleStyle.Render("Tables") + "  " + ui.FaintStyle.Render("open tables, live")
	}
	dst = append(dst, f.title, "\n")
	if s.seated != nil {
		dst = append(dst, f.seated(s, w)...)
	}
	foot := f.footLines(s, w)
	s.listY = len(dst) - start
	s.rows = max(h-s.listY-len(foot), 1)
	if len(s.tables) == 0 {
		dst = append(dst, f.emptyLine(s.env.IsGuest()))
	}
	if s.cur < s.top {
		s.top = s.cur
	}
	if s.cur >= s.top+s.rows {
		s.top = s.cur - s.rows + 1
	}
	f.older, f.rows = f.rows, f.older
	if f.rows == nil {
		f.rows = map[string]*keptRow{}
	}
	clear(f.rows)
	for i := s.top; i < len(s.tables) && i < s.top+s.rows; i++ {
		dst = append(dst, f.row(s, i, w))
	}
	for len(dst)-start < s.listY+s.rows {
		dst = append(dst, "\n")
	}
	dst = append(dst, foot...)
	if len(dst)-start > h {
		dst = dst[:start+h]
	}
	return dst
}

// seated is the lines saying where the player sits, and the blank under.
func (f *listParts) seated(s *Screen, w int) []string {
	st := s.seated
	k := seatKey{seat: st.Seat, code: st.Table.Code, game: st.Table.Game, who: st.Table.Host, host: st.Host, width: w}
	if f.seatOK && f.seatKey == k {
		return f.seatLines
	}
	line := fmt.Sprintf("You sit in seat %d at table %s (%s). ", st.Seat+1, clean(st.Table.Code, 6), s.title(st.Table.Game))
	if st.Host {
		line += "Press s to start once everyone is seated; x leaves the table."
	} else {
		line += "Waiting for " + clean(st.Table.Host, store.MaxNameLen) + " to start; x leaves the table."
	}
	f.seatLines = f.seatLines[:0]
	for _, l := range pad(ui.FitLines(line, w, 2), 2) {
		f.seatLines = append(f.seatLines, "\n"+ui.OkStyle.Render(l))
	}
	f.seatLines = append(f.seatLines, "\n")
	f.seatOK, f.seatKey = true, k
	return f.seatLines
}

// footLines is the message lines (two, three for a long one: the
// settings and seats of a table of four), a blank, and the keys on as many
// bars as they take.
func (f *listParts) footLines(s *Screen, w int) []string {
	msg, style := s.msg, footFaint
	switch {
	case s.prompt != nil:
		msg, style = "Table code (enter to join, esc to cancel): "+*s.prompt+"_", footPlain
	case s.invite != nil:
		msg, style = "Invite whom (a name; enter sends, esc cancels): "+*s.invite+"_", footPlain
	case s.pick != nil:
		msg, style = s.pickLine(), footPlain
	case s.seated != nil && s.talk.Open():
		msg, style = s.talk.Line(), footPlain
	case s.err:
		style = footErr
		if !s.env.Color {
			msg = "! " + msg
		}
	case msg == "" && s.seated != nil && s.said != "":
		msg, style = s.said, footOk
	case msg == "" && s.cur < len(s.tables):
		msg = f.detailText(s, s.tables[s.cur])
	}
	mk := msgKey{msg: msg, style: style, width: w}
	if !f.msgOK || f.msgAt != mk {
		n := 0
		for _, l := range pad(ui.FitLines(clean(msg, 400), w, 3), 2) {
			line := "\n" + footStyles[style].Render(l)
			if n < len(f.msgLines) && f.msgLines[n] == line {
				line = f.msgLines[n] // the same line of another message
			}
			if n < len(f.msgLines) {
				f.msgLines[n] = line
			} else {
				f.msgLines = append(f.msgLines, line)
			}
			n++
		}
		f.msgLines = f.msgLines[:n]
		f.msgOK, f.msgAt = true, mk
	}
	k := barsKey{width: w, guest: s.env.IsGuest(), talk: s.talk != nil}
	if st := s.seated; st != nil {
		k.seated, k.host = true, st.Host
	}
	if !f.barsOK || f.barsAt != k {
		keys := []string{"↑↓", "choose", "enter", "join", "w", "watch", "c", "code", "n", "new table", PlayNowKey, "play now", "b", "challenge a bot", "q", "back"}
		if k.guest {
			keys = []string{"↑↓", "choose", "enter", "watch", "c", "code", "q", "back"}
		}
		if k.seated {
			if k.host {
				keys = append([]string{"s", "start", "i", "invite", "x", "leave seat"}, keys...)
			} else {
				keys = append([]string{"i", "invite", "x", "leave seat"}, keys...)
			}
			if k.talk {
				keys = append(keys, ui.PhraseKey, "phrases")
			}
		}
		f.bars = f.bars[:0]
		for _, bar := range ui.HelpBars(w, keys...) {
			f.bars = append(f.bars, "\n"+bar)
		}
		f.barsOK, f.barsAt = true, k
	}
	f.foot = append(append(append(f.foot[:0], f.msgLines...), "\n"), f.bars...)
	return f.foot
}

// detailText is detail(t), made again only when t or the width changed.
func (f *listParts) detailText(s *Screen, t Table) string {
	w := max(s.env.Width, 1)
	if !f.detailOK || f.detailWidth != w || !sameTable(&f.detailOf, &t) {
		f.detail = s.detail(t)
		f.detailOK, f.detailOf, f.detailWidth = true, t, w
	}
	return f.detail
}

func (f *listParts) emptyLine(guest bool) string {
	if f.empty == "" {
		f.empty = "\n  " + ui.FaintStyle.Render("No table is open. Press n to open one.")
		f.emptyGuest = "\n  " + ui.FaintStyle.Render("No table is open.")
	}
	if guest {
		return f.emptyGuest
	}
	return f.empty
}

// row is the line of table i, kept from the frame before while the table,
// whether it is under the cursor, the colour and the width are the same.
func (f *listParts) row(s *Screen, i, w int) string {
	t := &s.tables[i]
	cur, color := i == s.cur, s.env.Color
	old := f.older[t.Code]
	if old != nil && old.cur == cur && old.color == color && old.width == w && sameTable(&old.t, t) {
		f.rows[t.Code] = old
		return old.line
	}
	k := &keptRow{t: *t, cur: cur, color: color, width: w, line: "\n" + s.row(i, w)}
	if old != nil && old.line == k.line {
		k.line = old.line // the change does not show (a detail the row has no room for)
	}
	f.rows[t.Code] = k
	return k.line
}

// sameTable reports whether a and b are listed the same.
func sameTable(a, b *Table) bool {
	if a.Code != b.Code || a.Game != b.Game || a.Settings != b.Settings || a.Host != b.Host || a.Watchers != b.Watchers ||
		a.Playing != b.Playing || a.Pace != b.Pace || a.Rated != b.Rated || a.HostRating != b.HostRating || len(a.Seats) != len(b.Seats) {
		return false
	}
	for i := range a.Seats {
		if a.Seats[i] != b.Seats[i] {
			return false
		}
	}
	return true
}
