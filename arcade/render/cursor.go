package render

import (
	"strconv"
)

// moveTo puts the terminal's cursor at x, y (0-based), the shortest way
// it knows from where the cursor is: a cursor move is a good part of what
// a small change costs, and "\x1b[12;58H" is often twice the bytes of a
// relative move.
func (s *Screen) moveTo(b []byte, x, y int) []byte {
	if s.cx == x && s.cy == y {
		return b
	}
	if x < 0 || y < 0 || x >= s.width || y >= s.height || s.cx < 0 {
		// Out of the screen the terminal stops the cursor at its edge,
		// and relative moves from there would be reckoned from the wrong
		// place.
		b = appendCUP(b, x, y)
		s.cx, s.cy = x, y
		if x < 0 || y < 0 || x >= s.width || y >= s.height {
			s.cx = -1
		}
		return b
	}
	dy := y - s.cy
	_, how := s.planMove(x, y)
	switch how {
	case moveCUP:
		b = appendCUP(b, x, y)
	case moveHoriz:
		b = appendHoriz(b, s.cx, x)
	case moveVert:
		b = appendVert(b, dy)
		b = appendHoriz(b, s.cx, x)
	case moveCRLF:
		for range dy {
			b = append(b, "\r\n"...)
		}
		b = appendHoriz(b, 0, x)
	}
	s.cx, s.cy = x, y
	return b
}

// planMove is the length and kind of the shortest move from the cursor,
// at a known place, to x, y on the screen.
func (s *Screen) planMove(x, y int) (int, int) {
	dy := y - s.cy
	best, how := cupLen(x, y), moveCUP
	if dy == 0 {
		if n := horizLen(s.cx, x); n < best {
			best, how = n, moveHoriz
		}
		return best, how
	}
	// Vertical moves keep the column; CR LF starts the line. LF is sent
	// only after CR: a terminal (or a client) that turns LF into CR LF
	// then does the same thing. The rows are below the cursor and on the
	// screen, so no LF is sent on the last row, where it would scroll.
	if n := vertLen(dy) + horizLen(s.cx, x); n < best {
		best, how = n, moveVert
	}
	if dy > 0 {
		if n := 2*dy + horizLen(0, x); n < best {
			best, how = n, moveCRLF
		}
	}
	return best, how
}

const (
	moveCUP = iota
	moveHoriz
	moveVert
	moveCRLF
)

func digits(n int) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}

// csiLen is the length of "ESC [ n F", the n left out when it is 1.
func csiLen(n int) int {
	if n == 1 {
		return 3
	}
	return 3 + digits(n)
}

func appendCSI(b []byte, n int, final byte) []byte {
	b = append(b, "\x1b["...)
	if n != 1 {
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, final)
}

func cupLen(x, y int) int {
	n := 3
	if y > 0 {
		n += digits(y + 1)
	}
	if x > 0 {
		n += 1 + digits(x+1)
	}
	return n
}

func appendCUP(b []byte, x, y int) []byte {
	b = append(b, "\x1b["...)
	if y > 0 {
		b = strconv.AppendInt(b, int64(y+1), 10)
	}
	if x > 0 {
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(x+1), 10)
	}
	return append(b, 'H')
}

// maxBS is the longest backward move made of backspaces: "\b\b\b" is
// shorter than "\x1b[3D", four of them as long.
const maxBS = 3

// horizLen is the length of the shortest move along a line from column
// from to column to.
func horizLen(from, to int) int {
	switch {
	case to == from:
		return 0
	case to > from:
		return csiLen(to - from)
	case to == 0:
		return 1 // CR
	case from-to <= maxBS:
		return from - to
	}
	// Back with CUB, or to the line's start and forward.
	return min(csiLen(from-to), 1+csiLen(to))
}

func appendHoriz(b []byte, from, to int) []byte {
	switch {
	case to == from:
		return b
	case to > from:
		return appendCSI(b, to-from, 'C')
	case to == 0:
		return append(b, '\r')
	case from-to <= maxBS:
		for range from - to {
			b = append(b, '\b')
		}
		return b
	case csiLen(from-to) <= 1+csiLen(to):
		return appendCSI(b, from-to, 'D')
	}
	b = append(b, '\r')
	return appendCSI(b, to, 'C')
}

// vertLen is the length of a move dy rows down (or up, below zero) that
// keeps the column.
func vertLen(dy int) int {
	if dy == -1 {
		return 2 // RI; the cursor is below the top row, so it does not scroll
	}
	if dy < 0 {
		return csiLen(-dy)
	}
	return csiLen(dy)
}

func appendVert(b []byte, dy int) []byte {
	switch {
	case dy == -1:
		return append(b, "\x1bM"...)
	case dy < 0:
		return appendCSI(b, -dy, 'A')
	}
	return appendCSI(b, dy, 'B')
}
