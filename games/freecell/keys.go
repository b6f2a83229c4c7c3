package freecell

// Position keys: each column is hashed by its cards and their depths
// (zobrist), the column hashes are mixed and added, so that the columns
// count as a multiset, and the cells are hashed as a set.

// zobrist[p][c] is the hash of card c at depth p of a column; zcell[c] of
// card c in a cell.
var zobrist [maxCol][64]uint64
var zcell [64]uint64

func init() {
	x := uint64(0x2545f4914f6cdd1d)
	next := func() uint64 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return x * 0x9e3779b97f4a7c15
	}
	for p := range zobrist {
		for c := range zobrist[p] {
			zobrist[p][c] = next()
		}
	}
	for c := range zcell {
		zcell[c] = next()
	}
}

func colHash(b *board, i int) uint64 {
	var h uint64
	for p, c := range b.cols[i][:b.n[i]] {
		h ^= zobrist[p][c]
	}
	return h
}

// colMix turns a column hash into its share of the position key; the
// shares are added, so the columns count as a multiset.
func colMix(h uint64) uint64 {
	if h == 0 {
		return 0
	}
	h ^= h >> 31
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 29
	h *= 0x94d049bb133111eb
	return h ^ h>>32
}
