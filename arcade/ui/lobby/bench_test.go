package lobby

import (
	"slices"
	"testing"
)

// BenchmarkLobbyRelist is one lobby's cost of a relisting on a busy
// server: 200 tables listed, one of them changed (a seat taken, a
// watcher), and the frame drawn as the session's renderer asks for it.
func BenchmarkLobbyRelist(b *testing.B) {
	ls := newLobbyScript(&testing.T{}, 5)
	for range 200 {
		ls.tables = append(ls.tables, ls.newTable())
	}
	lists := make([][]Table, 2)
	for j := range lists {
		ts := slices.Clone(ls.tables)
		for i := range ts {
			ts[i].Seats = slices.Clone(ts[i].Seats)
		}
		ts[3+j].Watchers += 1 + j
		lists[j] = ts
	}
	var pieces []string
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		ls.r.Update(Tables{List: lists[i%2]})
		_, pieces = ls.r.ViewPieces(pieces[:0])
	}
}
