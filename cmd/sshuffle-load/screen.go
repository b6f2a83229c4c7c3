package main

import (
	"strings"
	"time"

	"github.com/charmbracelet/x/vt"
)

// The live modes' view of a screen. A person's screen is still kept by a
// terminal emulator (the server's renderer sends only the cells that
// changed, so no single write holds a whole line to match), but what the
// measurements read is kept as plain text lines, re-read from the emulator
// only for the lines a write touched, and every wait is answered by the
// write that satisfies it rather than by polling the whole screen. Both
// the whole-screen String() after every write and a 1 ms poll of it per
// waiting person cost more generator CPU than the server's own work for
// the same sessions.

// view is an emulator and the text of its lines.
type view struct {
	emu   *vt.Emulator
	lines []string
	bytes int // read in all
	buf   []byte
}

func newView(w, h int) *view {
	v := &view{emu: vt.NewEmulator(w, h), lines: make([]string, h)}
	return v
}

// write feeds p to the emulator and re-reads the touched lines; it
// returns the lines whose text changed, a bit each (from line 0).
func (v *view) write(p []byte) uint64 {
	_, _ = v.emu.Write(p)
	v.bytes += len(p)
	var changed uint64
	touched := v.emu.Touched()
	for y, t := range touched {
		if t == nil {
			continue
		}
		// Cleared here so the next write sees only its own lines: the
		// emulator keeps the marks for a renderer, which this has not.
		touched[y] = nil
		if y >= len(v.lines) {
			continue
		}
		if s := v.readLine(y); s != v.lines[y] {
			v.lines[y] = s
			changed |= 1 << min(y, 63)
		}
	}
	return changed
}

// readLine is line y's text, trailing blanks trimmed; a wide character's
// second cell adds nothing.
func (v *view) readLine(y int) string {
	v.buf = v.buf[:0]
	for x := range v.emu.Width() {
		c := v.emu.CellAt(x, y)
		switch {
		case c == nil || (c.Content == "" && c.Width > 0):
			v.buf = append(v.buf, ' ')
		case c.Content == "":
		default:
			v.buf = append(v.buf, c.Content...)
		}
	}
	return strings.TrimRight(string(v.buf), " ")
}

// String is the screen as text, one line per row.
func (v *view) String() string { return strings.TrimRight(strings.Join(v.lines, "\n"), "\n") }

// cond is something a reader waits to see on a screen.
type cond struct {
	ok   func(lines []string) bool
	sent time.Time
	seen chan time.Duration // the time from sent to the write that showed it
}

func newCond(ok func([]string) bool, sent time.Time) *cond {
	return &cond{ok: ok, sent: sent, seen: make(chan time.Duration, 1)}
}

// containsLine is a cond's test: some line holds s.
func containsLine(s string) func([]string) bool {
	return func(lines []string) bool {
		for _, l := range lines {
			if strings.Contains(l, s) {
				return true
			}
		}
		return false
	}
}

// settleConds answers the conds the lines now satisfy and returns the rest.
func settleConds(cs []*cond, lines []string, now time.Time) []*cond {
	keep := cs[:0]
	for _, c := range cs {
		if c.ok(lines) {
			c.seen <- now.Sub(c.sent)
			continue
		}
		keep = append(keep, c)
	}
	clear(cs[len(keep):])
	return keep
}

// clockTick reports a change of the header (line 0) alone that only
// counted its clock down: the text before the last word is the same and
// that word is a clock (digits and colons).
func clockTick(changed uint64, was, now string) bool {
	if changed != 1 || was == now {
		return false
	}
	i, j := strings.LastIndexByte(was, ' '), strings.LastIndexByte(now, ' ')
	if i < 0 || j < 0 || was[:i] != now[:j] {
		return false
	}
	return isClock(was[i+1:]) && isClock(now[j+1:])
}

func isClock(s string) bool {
	if s == "" || !strings.Contains(s, ":") {
		return false
	}
	return strings.Trim(s, "0123456789:") == ""
}
