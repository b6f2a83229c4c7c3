package engine

import (
	"runtime"
	"unsafe"
)

// BigTable gives n zeroed Ts for a large table that owner holds: on Linux
// in memory of its own, asked for on huge pages, and given back to the
// system once owner is collected; elsewhere, or for a small table, an
// ordinary slice. T must hold no pointers: the collector does not look
// in that memory.
//
// A solver's shared table is tens of MB looked up at random, so nearly
// every look-up misses the TLB as well as the caches, and on a virtual
// machine a TLB miss walks two page tables: on huge pages a Klondike team
// of two took about 3% less CPU on hard deals (reports/solvers.md).
func BigTable[T any, O any](owner *O, n int) []T {
	var zero T
	size := n * int(unsafe.Sizeof(zero))
	if size >= bigTableMin {
		if mem, slots := mapHuge(size); mem != nil {
			runtime.AddCleanup(owner, unmap, mem)
			s := unsafe.Slice((*T)(slots), n)
			Prefault(s)
			return s
		}
	}
	s := make([]T, n)
	Prefault(s)
	return s
}

// bigTableMin is the smallest table worth a mapping of its own: a few huge
// pages.
const bigTableMin = 8 << 20
