package render

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
	"github.com/stretchr/testify/require"
)

func newEmu(t *testing.T, w, h int) *vt.Emulator {
	t.Helper()
	e := vt.NewEmulator(w, h)
	// Its replies to queries. Not closed: vt's Close races with a Read.
	go func() { _, _ = io.Copy(io.Discard, e) }()
	return e
}

// Every move lands where it was asked to, is no longer than the absolute
// move, and scrolls nothing (LF only below the cursor, RI only under the
// top row).
func TestMovesArrive(t *testing.T) {
	w, h := 30, 12
	emu := newEmu(t, w, h)
	var fill strings.Builder
	for y := range h {
		fmt.Fprintf(&fill, "\x1b[%dH%s", y+1, strings.Repeat(string(rune('a'+y)), w))
	}
	_, _ = emu.WriteString(fill.String())
	before := emu.String()
	s := NewScreen(io.Discard, w, h, colorprofile.ANSI256)
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func(n int) int {
		switch rng.IntN(4) {
		case 0:
			return 0
		case 1:
			return n - 1
		}
		return rng.IntN(n)
	}
	used := map[int]int{}
	var all []byte
	for range 3000 {
		fx, fy := pick(w), pick(h)
		tx, ty := pick(w), pick(h)
		if rng.IntN(3) == 0 { // near: the common case
			tx, ty = min(max(fx+rng.IntN(9)-4, 0), w-1), min(max(fy+rng.IntN(3)-1, 0), h-1)
		}
		_, _ = fmt.Fprintf(emu, "\x1b[%d;%dH", fy+1, fx+1)
		s.cx, s.cy = fx, fy
		_, how := s.planMove(tx, ty)
		b := s.moveTo(nil, tx, ty)
		used[how]++
		require.LessOrEqual(t, len(b), cupLen(tx, ty), "%d,%d to %d,%d: %q", fx, fy, tx, ty, b)
		_, _ = emu.Write(b)
		require.Equal(t, uv.Pos(tx, ty), emu.CursorPosition(), "%d,%d to %d,%d: %q", fx, fy, tx, ty, b)
		require.Equal(t, [2]int{tx, ty}, [2]int{s.cx, s.cy})
		all = append(all, b...)
	}
	require.Equal(t, before, emu.String(), "a move scrolled or wrote")
	for how, name := range []string{"CUP", "along the line", "up or down", "CR LF"} {
		require.Positive(t, used[how], "no move %s", name)
	}
	for _, seq := range []string{"\b", "\x1bM", "\r\n", "D", "A", "B", "C"} {
		require.Contains(t, string(all), seq)
	}

	// From the last column the cursor waits at the margin: the next move
	// is absolute.
	_, _ = emu.WriteString("\x1b[4H")
	s.cx, s.cy = 0, 3
	sc := s.borrow()
	clear(sc.cur)
	for i := range sc.row {
		sc.row[i] = cell{r: 'z', w: 1}
	}
	b := s.diffRow(nil, 3)
	s.giveBack()
	require.Equal(t, -1, s.cx)
	b = s.moveTo(b, 2, 4)
	_, _ = emu.Write(b)
	require.Equal(t, uv.Pos(2, 4), emu.CursorPosition(), "%q", b)
}
