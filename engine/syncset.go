package engine

import (
	"sync/atomic"
	"unsafe"
)

// SyncSet is a set of 64-bit keys that several goroutines add to and look
// up at once, for searches that share what each has finished. It never
// grows: a key that finds no free slot within a short probe is not
// recorded, which a search must treat as "not known" (it only prunes
// less). So its size is fixed up front, and no lock is ever taken.
type SyncSet struct {
	slots []atomic.Uint64
	mask  uint64
}

// syncProbe bounds a probe: past it, a full table answers "not there"
// quickly instead of scanning.
const syncProbe = 64

// NewSyncSet makes a set with about capacity keys' room at half load,
// rounded up to a power of two slots.
func NewSyncSet(capacity int) *SyncSet {
	size := TableSize(capacity)
	t := &SyncSet{mask: uint64(size - 1)}
	t.slots = BigTable[atomic.Uint64](t, size)
	return t
}

// Prefault writes to every page of a fresh table once, from the goroutine
// that made it. Left to a search, a page is first read (which maps the
// kernel's shared zero page) and then written, which replaces that mapping
// and flushes it from every CPU the process runs on: on a virtual machine,
// an interrupt to the other cores a page. A team of two solving one
// Klondike deal in a fresh process spent 10 s of system time on it
// instead of 0.1, and a single search a seventh of its CPU.
func Prefault[T any](slots []T) {
	var zero T
	step := max(1, 4096/max(1, int(unsafe.Sizeof(zero))))
	for i := 0; i < len(slots); i += step {
		slots[i] = zero
	}
}

// Reset empties the set for reuse, keeping its memory: a fresh table of
// tens of MB costs its zeroing as page faults in the kernel and a
// collection to give it back, each time. No goroutine may use the set
// while it is reset; one that uses it after gets the empty set.
func (t *SyncSet) Reset() {
	clear(t.slots)
}

// Slots is the set's size in slots, about twice the keys it has room for.
func (t *SyncSet) Slots() int { return len(t.slots) }

// Add records k unless the table is too full around its slot.
func (t *SyncSet) Add(k uint64) {
	k = fix(k)
	i := mix(k) & t.mask
	for range syncProbe {
		switch v := t.slots[i].Load(); v {
		case k:
			return
		case 0:
			if t.slots[i].CompareAndSwap(0, k) {
				return
			}
			if t.slots[i].Load() == k {
				return // another goroutine added it first
			}
		}
		i = (i + 1) & t.mask
	}
}

// Has reports whether k was recorded.
func (t *SyncSet) Has(k uint64) bool {
	k = fix(k)
	i := mix(k) & t.mask
	for range syncProbe {
		switch t.slots[i].Load() {
		case k:
			return true
		case 0:
			return false
		}
		i = (i + 1) & t.mask
	}
	return false
}
