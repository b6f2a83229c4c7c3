package freecell

import (
	"testing"

	"github.com/stretchr/testify/require"
	"sshuffle/engine"
)

// TestDFSKeepsItsSums walks random lines of moves made and unmade and
// checks what the search keeps beside the board (cost, key, counts)
// against the same figures worked out from the board alone.
func TestDFSKeepsItsSums(t *testing.T) {
	// Every term weighed, wBase too (the first stage's weights, and one
	// set with every weight distinct and nonzero).
	for _, w := range []weights{wS, {3, 1, 5, 6, 2, 3, 1, 4}} {
		testDFSKeepsItsSums(t, w)
	}
}

func testDFSKeepsItsSums(t *testing.T, w weights) {
	require.NotZero(t, w[wBase])
	check := func(d *dfs) {
		t.Helper()
		b := &d.b
		want := restCost(b, w)
		for i := range numCols {
			want += colCost(b, i, w)
		}
		require.Equal(t, int32(want), d.cost())
		require.Equal(t, b.freeCells(), d.nFree)
		require.Equal(t, b.emptyCols(), d.nEmpty)
		require.Equal(t, b.foundCount(), d.nFound)
		var next, tops, cells uint64
		for s, f := range b.found {
			next |= 1 << (s<<4 | int(f) + 1)
		}
		for i := range numCols {
			if c := b.top(i); c != engine.NoCard {
				tops |= 1 << c
			}
		}
		for _, c := range b.cells {
			if c != engine.NoCard {
				cells |= 1 << c
			}
		}
		for i := range numCols {
			require.Equal(t, colHash(b, i), d.hp[i][b.n[i]])
			lead, n := engine.NoCard, int(b.n[i])
			if n > 0 {
				lead = b.cols[i][b.runStart(i)]
			}
			require.Equal(t, lead, d.lead[i])
			require.Equal(t, n-b.runStart(i), int(d.runLen[i]))
		}
		require.Equal(t, next, d.next)
		require.Equal(t, tops, d.tops)
		require.Equal(t, cells, d.inCells)
		var fresh dfs
		fresh.start(*b, w, 1)
		require.Equal(t, *b, fresh.b, "nothing is left to go up")
		require.Equal(t, fresh.key(), d.key())
		require.Equal(t, fresh.cost(), d.cost())
	}
	for seed := uint64(1); seed <= 40; seed++ {
		g, err := New(spec(seed))
		require.NoError(t, err)
		start := g.b
		start.autoAll((*board).safeStrong)
		d := new(dfs)
		// The pruning policies change only which moves are made, but
		// walk them too.
		d.strict, d.fitsToCell = seed%4 == 0, seed%4 == 2
		d.start(start, w, 1)
		r := engine.NewRNG(seed)
		type step struct {
			m      move
			autoLo int
		}
		var path []step
		for range 300 {
			check(d)
			moves := d.genMoves(nil, seed%2 == 0)
			if len(moves) == 0 || (len(path) > 0 && r.Intn(4) == 0) {
				if len(path) == 0 {
					break
				}
				s := path[len(path)-1]
				path = path[:len(path)-1]
				d.undo(s.m, s.autoLo)
				continue
			}
			// Every child is made and unmade, as expand does.
			before := d.b
			d.key()
			for _, m := range moves {
				lo := len(d.autos)
				k, c, ok := d.peek(m)
				k2, ok2 := d.peekKey(m)
				require.Equal(t, ok, ok2, "peekKey and peek")
				if ok {
					require.Equal(t, k, k2, "peekKey and peek")
				}
				d.do(m)
				if ok {
					require.Equal(t, lo, len(d.autos), "peek said no card goes up")
					require.Equal(t, d.key(), k, "peek's key")
					require.Equal(t, d.cost(), c, "peek's cost")
				} else {
					require.True(t, len(d.autos) > lo || d.b.won(), "peek refused a move with no automatic move")
				}
				check(d)
				d.undo(m, lo)
				d.key()
				require.Equal(t, before, d.b)
			}
			m := moves[r.Intn(len(moves))]
			path = append(path, step{m, len(d.autos)})
			d.do(m)
		}
	}
}
