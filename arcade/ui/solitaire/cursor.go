package solitaire

import (
	"fmt"
	"sort"

	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/board"
	"sshuffle/engine"
)

// places are the numbered places of the layout, in the order the digit
// keys count them: the tableau columns, or, in a game without columns
// (TriPeaks, Pyramid), the cards free to play, from the left.
func places(piles []engine.Pile) (idx []int, columns bool) {
	for i, p := range piles {
		if p.Kind == engine.Tableau {
			idx = append(idx, i)
		}
	}
	if len(idx) > 0 {
		return idx, true
	}
	for i, p := range piles {
		if p.Kind == engine.Slot && len(p.Cards) > 0 && !p.Blocked && p.FaceDown < len(p.Cards) {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool {
		pa, pb := piles[idx[a]], piles[idx[b]]
		return pa.X < pb.X || (pa.X == pb.X && pa.Y < pb.Y)
	})
	return idx, false
}

// jumpPlace puts the cursor on numbered place n (1-9, 0 for the tenth).
func (s *gameScreen) jumpPlace(n int) {
	if n == 0 {
		n = 10
	}
	piles := s.piles()
	idx, columns := places(piles)
	if n > len(idx) {
		what := "column"
		if !columns {
			what = "free card"
		}
		s.setMsg(ui.ToneWarn, fmt.Sprintf("There is no %s %d here: there are %d.", what, n, len(idx)))
		return
	}
	i := idx[n-1]
	s.cursor = board.Hit{Pile: i, Index: len(piles[i].Cards) - 1, OK: true}
}

// jumpKind puts the cursor on the first pile of a kind (the waste, a free
// cell, a foundation), or on the next one when it is on one already.
func (s *gameScreen) jumpKind(kind engine.PileKind) {
	piles := s.piles()
	var idx []int
	at := -1
	for i, p := range piles {
		if p.Kind == kind {
			if s.cursor.OK && s.cursor.Pile == i {
				at = len(idx)
			}
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return // the bar does not offer a key for a kind the game lacks
	}
	i := idx[(at+1)%len(idx)]
	s.cursor = board.Hit{Pile: i, Index: len(piles[i].Cards) - 1, OK: true}
}

// navigable piles are those the cursor may rest on: every pile but a cleared
// place of a Pyramid or TriPeaks layout.
func navigable(p engine.Pile) bool { return !(p.Kind == engine.Slot && len(p.Cards) == 0) }

func (s *gameScreen) clampCursor() {
	piles := s.piles()
	if !s.cursor.OK || s.cursor.Pile >= len(piles) || !navigable(piles[s.cursor.Pile]) {
		s.cursor = s.firstCursor()
		return
	}
	p := piles[s.cursor.Pile]
	if s.cursor.Index >= len(p.Cards) || s.cursor.Index < p.FaceDown || p.Fan != engine.FanDown {
		s.cursor.Index = len(p.Cards) - 1
	}
}

func (s *gameScreen) moveCursor(dx, dy int) {
	piles := s.piles()
	if !s.cursor.OK || s.cursor.Pile >= len(piles) {
		s.cursor = s.firstCursor()
		return
	}
	cur := piles[s.cursor.Pile]
	if dy != 0 && cur.Fan == engine.FanDown && len(cur.Cards) > 0 {
		i := s.cursor.Index + dy
		if i >= cur.FaceDown && i < len(cur.Cards) {
			s.cursor.Index = i
			return
		}
	}
	best, bestD := -1, 1<<30
	for i, p := range piles {
		if i == s.cursor.Pile || !navigable(p) {
			continue
		}
		var d int
		switch {
		case dx != 0:
			if p.Y != cur.Y || (p.X-cur.X)*dx <= 0 {
				continue
			}
			d = (p.X - cur.X) * dx
		default:
			if (p.Y-cur.Y)*dy <= 0 {
				continue
			}
			dxAbs := p.X - cur.X
			if dxAbs < 0 {
				dxAbs = -dxAbs
			}
			d = (p.Y-cur.Y)*dy*100 + dxAbs
		}
		if d < bestD {
			best, bestD = i, d
		}
	}
	if best < 0 && dx != 0 {
		// Wrap around the row.
		row := []int{}
		for i, p := range piles {
			if p.Y == cur.Y && navigable(p) {
				row = append(row, i)
			}
		}
		sort.Slice(row, func(a, b int) bool { return piles[row[a]].X < piles[row[b]].X })
		if len(row) > 0 {
			if dx > 0 {
				best = row[0]
			} else {
				best = row[len(row)-1]
			}
		}
	}
	if best >= 0 {
		p := piles[best]
		s.cursor = board.Hit{Pile: best, Index: len(p.Cards) - 1, OK: true}
	}
}
