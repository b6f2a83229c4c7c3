package freecell

import (
	"fmt"
	"strconv"
	"strings"

	"sshuffle/engine"
)

// The move notation is the standard FreeCell one: columns are 1-8, free
// cells a-d, the foundations h. "3a" moves the top card of column 3 into
// cell a, "a8" the card in cell a onto column 8, "2h" the top card of
// column 2 to its foundation, "86" the run of column 8 whose lead fits
// column 6 onto it (one card or a supermove). Into an empty column "86"
// moves the longest run the supermove rule allows; "86:2" moves just the
// top 2 cards (our extension, written only when fewer cards go).
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
	if m.from >= firstCol && m.to >= firstCol && b.n[m.to-firstCol] == 0 {
		if m.count != longestToEmpty(b, m.from-firstCol) {
			s += ":" + strconv.Itoa(m.count)
		}
	}
	return s, nil
}

// longestToEmpty is how many cards "86" moves from column i into an empty
// column.
func longestToEmpty(b *board, i int) int {
	n := int(b.n[i])
	return n - max(b.runStart(i), n-capacity(b.freeCells(), b.emptyCols()-1))
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
	text, countText, hasCount := strings.Cut(strings.ToLower(strings.TrimSpace(s)), ":")
	if len(text) != 2 {
		return engine.Action{}, fmt.Errorf("a move is two places, like 3a, a8, 2h or 86")
	}
	from, ok1 := parsePlace(text[0], false)
	to, ok2 := parsePlace(text[1], true)
	if !ok1 || !ok2 {
		return engine.Action{}, fmt.Errorf("places are columns 1-8, cells a-d and h for the foundations")
	}
	a := engine.Action{Kind: engine.Move, From: from, To: to}
	if from < firstCol {
		if hasCount {
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
		k, err := strconv.Atoi(countText)
		if err != nil || k < 1 || k > n {
			return a, fmt.Errorf("column %d has no %s cards to move", i+1, countText)
		}
		a.Index = n - k
		return a, nil
	}
	if b.n[j] == 0 {
		a.Index = n - longestToEmpty(b, i)
		return a, nil
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
