package freecell

import (
	"fmt"
	"strconv"
	"strings"

	"sshuffle/engine"
)

// The move notation is the standard FreeCell one as Freecell Solver writes
// it (fc-solve -m -snx): columns are 1-8, free cells a-d, the foundations
// h. "3a" moves the top card of column 3 into cell a, "a8" the card in
// cell a onto column 8, "2h" the top card of column 2 to its foundation,
// "86" the run of column 8 whose lead fits column 6 onto it (one card or
// a supermove). Into an empty column "86" moves one card and "86v3" the
// top three (the count in hexadecimal: "86vb" is eleven), fc-solve's own
// extension, so that a list either program writes replays in the other.
// Replay also reads "86:3" (decimal), the way this notation wrote a
// partial move before it followed fc-solve.
//
// Automatic moves are never implicit: FormatMoves writes every card the
// game sent up by itself as its own move ("2h", "ah"), and Replay plays the
// list with automatic moves off, so a list means the same thing whatever
// a player's settings are.

// FormatMoves writes actions played on New(spec) (default settings, so
// with automatic moves, which it spells out) in the notation.
func FormatMoves(actions []engine.Action, spec engine.Spec) ([]string, error) {
	g, err := New(spec)
	if err != nil {
		return nil, err
	}
	var out []string
	// Cards the deal itself lets go up.
	start := deal(spec.Seed)
	for g.set.AutoFoundation {
		st, ok := start.autoStep((*board).safeSimple)
		if !ok {
			break
		}
		out = append(out, pileLetter(st.from)+"h")
	}
	for i, a := range actions {
		m, err := resolveAction(&g.b, a, g.set)
		if err != nil {
			return out, fmt.Errorf("move %d: %v", i+1, err)
		}
		s, err := notate(&g.b, m)
		if err != nil {
			return out, fmt.Errorf("move %d: %v", i+1, err)
		}
		out = append(out, s)
		b := g.b
		apply(&b, m)
		for g.set.AutoFoundation {
			st, ok := b.autoStep((*board).safeSimple)
			if !ok {
				break
			}
			out = append(out, pileLetter(st.from)+"h")
		}
		if err := g.Do(a); err != nil {
			return out, fmt.Errorf("move %d: %v", i+1, err)
		}
	}
	return out, nil
}

func pileLetter(p int) string {
	switch {
	case p < firstFound:
		return string(rune('a' + p))
	case p < firstCol:
		return "h"
	}
	return string(rune('1' + p - firstCol))
}

// notate writes a resolved move as it stands before it is played.
func notate(b *board, m move) (string, error) {
	if m.from >= firstFound && m.from < firstCol {
		return "", fmt.Errorf("the notation has no move from a foundation")
	}
	s := pileLetter(m.from) + pileLetter(m.to)
	if m.from >= firstCol && m.to >= firstCol && b.n[m.to-firstCol] == 0 && m.count > 1 {
		s += "v" + strconv.FormatInt(int64(m.count), 16)
	}
	return s, nil
}

// FcsLayout lays moves out as fc-solve prints them: ten to a line, each
// followed by a space.
func FcsLayout(moves []string) string {
	var sb strings.Builder
	for i, m := range moves {
		sb.WriteString(m)
		sb.WriteByte(' ')
		if i%10 == 9 || i == len(moves)-1 {
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// MovesOf picks the moves out of a solution as text: ours, one or more to
// a line, or fc-solve's whole output, whose other lines (its separator,
// "This game is solveable.", the state counts) are prose. A line is moves
// when every word on it is shaped like one (two letters or digits, maybe
// a count); Replay then checks them, so a mistyped move is reported
// rather than skipped.
func MovesOf(text string) []string {
	var out []string
	for line := range strings.Lines(text) {
		fields := strings.Fields(line)
		moveLine := len(fields) > 0
		for _, f := range fields {
			moveLine = moveLine && moveShaped(f)
		}
		if moveLine {
			out = append(out, fields...)
		}
	}
	return out
}

func moveShaped(f string) bool {
	alnum := func(r byte) bool { return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }
	hex := func(r byte) bool { return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' }
	if len(f) < 2 || !alnum(f[0]) || !alnum(f[1]) {
		return false
	}
	rest := f[2:]
	if rest == "" {
		return true
	}
	if len(rest) < 2 || rest[0] != 'v' && rest[0] != ':' {
		return false
	}
	for i := 1; i < len(rest); i++ {
		if !hex(rest[i]) {
			return false
		}
	}
	return true
}

// Replay plays moves in the notation on deal spec with automatic moves
// off, and reports whether they win. failAt is the index of the first
// move that can't be read or isn't legal (err says why), or len(moves)
// when every move is legal but the game isn't won; -1 when it is won.
func Replay(spec engine.Spec, moves []string) (won bool, failAt int, err error) {
	g, err := NewWithSettings(spec, Settings{})
	if err != nil {
		return false, 0, err
	}
	for i, s := range moves {
		a, err := parseMove(&g.b, s)
		if err == nil {
			err = g.Do(a)
		}
		if err != nil {
			return false, i, fmt.Errorf("move %d %q: %v", i+1, s, err)
		}
	}
	if !g.Won() {
		return false, len(moves), fmt.Errorf("the moves end before the game is won")
	}
	return true, -1, nil
}

func parsePlace(r byte, dest bool) (int, bool) {
	switch {
	case r >= '1' && r <= '8':
		return firstCol + int(r-'1'), true
	case r >= 'a' && r <= 'd':
		return int(r - 'a'), true
	case r == 'h' && dest:
		return firstFound, true
	}
	return 0, false
}

// parseMove turns one move of the notation into an action on b.
func parseMove(b *board, s string) (engine.Action, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	text, countText, hasCount := strings.Cut(s, ":")
	base := 10
	if !hasCount {
		text, countText, hasCount = strings.Cut(s, "v")
		base = 16
	}
	if len(text) != 2 {
		return engine.Action{}, fmt.Errorf("a move is two places, like 3a, a8, 2h, 86 or 86v2")
	}
	from, ok1 := parsePlace(text[0], false)
	to, ok2 := parsePlace(text[1], true)
	if !ok1 || !ok2 {
		return engine.Action{}, fmt.Errorf("places are columns 1-8, cells a-d and h for the foundations")
	}
	a := engine.Action{Kind: engine.Move, From: from, To: to}
	if from < firstCol {
		if hasCount && countText != "1" {
			return a, fmt.Errorf("a cell holds one card")
		}
		return a, nil
	}
	i := from - firstCol
	n := int(b.n[i])
	a.Index = n - 1
	if to < firstCol || n == 0 {
		if hasCount && countText != "1" {
			return a, fmt.Errorf("only a move between columns can carry several cards")
		}
		return a, nil
	}
	j := to - firstCol
	if hasCount {
		k, err := strconv.ParseInt(countText, base, 0)
		if err != nil || k < 1 || int(k) > n {
			return a, fmt.Errorf("column %d has no %s cards to move", i+1, countText)
		}
		a.Index = n - int(k)
		return a, nil
	}
	if b.n[j] == 0 {
		return a, nil // one card, as fc-solve means it
	}
	d := b.top(j)
	for k := b.runStart(i); k < n; k++ {
		if fits(b.cols[i][k], d) {
			a.Index = k
			break
		}
	}
	return a, nil
}
