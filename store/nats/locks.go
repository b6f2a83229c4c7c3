package nats

import (
	"slices"
	"sync"
)

// keyLock is a lock on one key of this process, held by every caller
// that writes it: callers on one node wait for each other rather than
// meet at the stream and run again (a single server's atomic batches cost
// tens of milliseconds, so a conflict is dear). Other nodes are still
// kept apart by the expected revisions.
type keyLock struct {
	mu   sync.Mutex
	refs int
}

// lock takes the process's lock on each key (in order, so two callers
// never hold one each of the other's) and returns what releases them.
func (s *Store) lock(keys ...string) (unlock func()) {
	keys = slices.Compact(slices.Sorted(slices.Values(keys)))
	held := make([]*keyLock, len(keys))
	for i, k := range keys {
		s.locksMu.Lock()
		l := s.locks[k]
		if l == nil {
			l = &keyLock{}
			s.locks[k] = l
		}
		l.refs++
		s.locksMu.Unlock()
		l.mu.Lock()
		held[i] = l
	}
	return func() {
		for i, l := range held {
			l.mu.Unlock()
			s.locksMu.Lock()
			if l.refs--; l.refs == 0 {
				delete(s.locks, keys[i])
			}
			s.locksMu.Unlock()
		}
	}
}
