package uitest

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"sshuffle/arcade/render"
)

// Golden frames: a screen's recorded frames, one after another, kept gzipped
// in its testdata and compared by what a terminal shows.

var updateFrames = flag.Bool("update-frames", false, "rewrite testdata/frames/*.txt.gz from the code as it is")

var sameBytes = flag.Bool("same-bytes", false, "frames must also be the same bytes as testdata/frames, not only show the same")

// CompareFrames compares frames with the golden file at path (or, with
// -update-frames, writes them there): they must show the same screens
// (and with -same-bytes be the same views, byte for byte).
func CompareFrames(t *testing.T, path, got string) {
	t.Helper()
	if *updateFrames {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write([]byte(got))
		_ = zw.Close()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	want, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	// What a terminal shows, whether or not the views are the same bytes:
	// this also checks arcade/render's frames against the views drawn whole.
	sameScreens(t, string(want), got)
	if got == string(want) || !*sameBytes {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	step := ""
	for i := range max(len(g), len(w)) {
		gl, wl := "", ""
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if strings.HasPrefix(wl, "=== ") {
			step = wl
		}
		if gl != wl {
			t.Fatalf("frames differ at line %d (after %q):\n got %q\nwant %q", i+1, step, gl, wl)
		}
	}
}

// recorded is one frame of a recording (playFrames, playRaceFrames): the
// line naming its step and the view.
type recorded struct {
	step string
	view string
}

func splitFrames(s string) []recorded {
	lines := strings.Split(s, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	var out []recorded
	var body []string
	flush := func() {
		if len(out) > 0 {
			out[len(out)-1].view = strings.Join(body, "\n")
		}
		body = body[:0]
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "=== ") {
			flush()
			out = append(out, recorded{step: l})
			continue
		}
		body = append(body, l)
	}
	flush()
	return out
}

var (
	stepSize    = regexp.MustCompile(`^=== \d+ size (\d+)x(\d+)`)
	stepProfile = regexp.MustCompile(`^=== \d+ profile (\w+)`)
)

// sameScreens checks that the frames got, drawn one after another by
// arcade/render as a session's terminal is sent them, show on a terminal
// what the frames want show, each drawn whole on a cleared screen: every
// cell (its text, width, colours, attributes and link) and the cursor,
// after every frame, in two terminal emulators. The window's size and
// colour profile follow the steps ("size 100x30", "profile Ascii"), from
// 80x24 at 256 colours. The views may differ in bytes: the comparison is of
// what the player sees.
func sameScreens(t *testing.T, want, got string) {
	t.Helper()
	wf, gf := splitFrames(want), splitFrames(got)
	if len(wf) != len(gf) {
		t.Fatalf("%d frames, want %d", len(gf), len(wf))
	}
	w, h, profile := 80, 24, colorprofile.ANSI256
	ref, emu := vt.NewEmulator(w, h), vt.NewEmulator(w, h)
	for _, e := range []*vt.Emulator{ref, emu} {
		// Its replies to queries. Not closed: vt's Close races with a Read.
		go func() { _, _ = io.Copy(io.Discard, e) }()
	}
	scr := render.NewScreen(emu, w, h, profile)
	for i := range wf {
		step := wf[i].step
		if gf[i].step != step {
			t.Fatalf("frame %d is %q, want %q", i, gf[i].step, step)
		}
		if m := stepSize.FindStringSubmatch(step); m != nil {
			w, _ = strconv.Atoi(m[1])
			h, _ = strconv.Atoi(m[2])
			ref.Resize(w, h)
			emu.Resize(w, h)
			scr.Resize(w, h)
		}
		if m := stepProfile.FindStringSubmatch(step); m != nil {
			profile = map[string]colorprofile.Profile{
				"TrueColor": colorprofile.TrueColor, "ANSI256": colorprofile.ANSI256, "ANSI": colorprofile.ANSI,
				"Ascii": colorprofile.Ascii, "NoTTY": colorprofile.NoTTY,
			}[m[1]]
			scr.SetProfile(profile)
		}
		drawWhole(ref, wf[i].view, w, h, profile)
		v := tea.NewView(gf[i].view)
		v.AltScreen = true
		if err := scr.Draw(v); err != nil {
			t.Fatal(err)
		}
		if d := screenDiff(ref, emu, w, h); d != "" {
			t.Fatalf("after %q (frame %d, %dx%d, %v) the screen differs: %s\nwant view:\n%s\ngot view:\n%s",
				step, i, w, h, profile, d, wf[i].view, gf[i].view)
		}
	}
}

// drawWhole draws view on a cleared screen the plainest way: each line at
// its row, as it is (its colours brought down to the profile by
// colorprofile's writer, not arcade/render), the pen carried from line to
// line as the renderer carries it, a line too long cut at the edge (by
// x/ansi), as the renderer and Bubble Tea's cut it.
func drawWhole(e *vt.Emulator, view string, w, h int, p colorprofile.Profile) {
	_, _ = io.WriteString(e, "\x1b[?7l\x1b[?25l\x1b[0m\x1b[H\x1b[2J")
	pw := &colorprofile.Writer{Forward: e, Profile: p}
	for y, line := range strings.Split(view, "\n") {
		if y >= h {
			break
		}
		_, _ = fmt.Fprintf(e, "\x1b[%dH", y+1)
		_, _ = io.WriteString(pw, ansi.Truncate(line, w, ""))
	}
	_, _ = io.WriteString(e, "\x1b[0m")
}

// screenDiff says where two emulators' screens differ, or "".
func screenDiff(want, got *vt.Emulator, w, h int) string {
	for y := range h {
		for x := range w {
			wc, gc := emuCell(want.CellAt(x, y)), emuCell(got.CellAt(x, y))
			if wc.Content != gc.Content || wc.Width != gc.Width || !wc.Style.Equal(&gc.Style) || wc.Link != gc.Link {
				return fmt.Sprintf("cell %d,%d is %q width %d style %+v link %v, want %q width %d style %+v link %v\nrow %d got  %q\nrow %d want %q",
					x, y, gc.Content, gc.Width, gc.Style, gc.Link, wc.Content, wc.Width, wc.Style, wc.Link,
					y, rowText(got, y, w), y, rowText(want, y, w))
			}
		}
	}
	if want.CursorHidden() != got.CursorHidden() {
		return fmt.Sprintf("cursor hidden %v, want %v", got.CursorHidden(), want.CursorHidden())
	}
	if !want.CursorHidden() && want.CursorPosition() != got.CursorPosition() {
		return fmt.Sprintf("cursor at %v, want %v", got.CursorPosition(), want.CursorPosition())
	}
	return ""
}

func emuCell(c *uv.Cell) uv.Cell {
	if c == nil {
		return uv.EmptyCell
	}
	return *c
}

func rowText(e *vt.Emulator, y, w int) string {
	var sb strings.Builder
	for x := range w {
		if c := e.CellAt(x, y); c != nil {
			sb.WriteString(c.Content)
		}
	}
	return sb.String()
}

// FrameSteps times b.N frames: clock turns (the clock a second on, then the
// view alone, as ui.Ticking draws them) or cursor keys, right then left.
func FrameSteps(b *testing.B, clock bool, clk *Clock, update func(tea.Msg), view func()) {
	right := tea.KeyPressMsg{Code: tea.KeyRight}
	left := tea.KeyPressMsg{Code: tea.KeyLeft}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		switch {
		case clock:
			clk.T = clk.T.Add(time.Second)
		case i%2 == 0:
			update(right)
		default:
			update(left)
		}
		view()
	}
}
