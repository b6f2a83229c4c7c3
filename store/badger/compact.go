package badger

import (
	"time"

	"github.com/dgraph-io/badger/v4"
)

// The store drives Badger's compaction itself. Badger's compactors each
// wake on a hard-coded 50 ms ticker whether or not anything was written:
// two of them are 40 wake-ups a second, nearly all the CPU of an empty
// server. With NumCompactors(0) nothing compacts level 0, and once it
// holds NumLevelZeroTablesStall tables every write waits forever, so
// compactLoop looks at the tree after writes (and rarely otherwise) and
// compacts when Badger's compactors would have.

const (
	// compactGap is the least time between two looks at the tree, so a
	// busy store costs at most one look (a few locks) per gap.
	compactGap = 500 * time.Millisecond
	// compactEvery is how often the tree is looked at with no write seen:
	// a net under writers that do not call poke.
	compactEvery = 30 * time.Second
)

// Level 0 is compacted at l0Tables tables, as Badger does by default.
// Writes stall at l0Stall: the margin between the two is the memtables
// that can be flushed between two looks and during a compaction, 15 of
// them (120 MB at the 8 MB memtables of smallProfile), where the default
// margin is 10.
const (
	l0Tables = 5
	l0Stall  = 20
)

// poke tells compactLoop that something was written. It never blocks.
func (s *Store) poke() {
	select {
	case s.wrote <- struct{}{}:
	default:
	}
}

func (s *Store) compactLoop() {
	defer close(s.compactDone)
	net := time.NewTicker(compactEvery)
	defer net.Stop()
	for {
		s.compactIfNeeded()
		select {
		case <-s.stop:
			return
		case <-s.wrote:
		case <-net.C:
		}
		select {
		case <-s.stop:
			return
		case <-time.After(compactGap):
		}
	}
}

// needsCompaction is Badger's compactors' condition: a level scored at 1
// or more, that is level 0 at NumLevelZeroTables tables or another level
// over its target size (Levels scores only those).
func needsCompaction(levels []badger.LevelInfo) bool {
	for _, l := range levels {
		if l.Score >= 1 {
			return true
		}
	}
	return false
}

// compactIfNeeded runs Flatten, Badger's only public way to compact: it
// compacts from the top non-empty level down until one level holds
// everything, which empties level 0 and leaves no level over its target.
// That is more than Badger's compactors do at once (the last level is
// rewritten where it overlaps, about all of it: some 2 s of CPU for a
// 100 MB store), but it comes once every NumLevelZeroTables memtables,
// about as much work in all as theirs at the server's write rates; a
// memtable flushed while it runs costs one more such rewrite, so bursts
// of MB a second cost about twice theirs. With NumCompactors(0) its stopping
// and restarting of Badger's compactors starts none (a closer with no
// goroutines); it runs alongside writes and memtable flushes as their
// compactions do. Close waits for it (compactDone): closing the database
// under a compaction is not safe, and Flatten replaces the compactors'
// closer that Close reads.
func (s *Store) compactIfNeeded() {
	levels := s.db.Levels()
	if !needsCompaction(levels) {
		return
	}
	if fn := s.opts.beforeCompact; fn != nil {
		fn(levels)
	}
	start := time.Now()
	if err := s.db.Flatten(1); err != nil {
		// Level 0 keeps growing towards the stall; the next look tries again.
		s.log.Warn("store: compaction", "err", err)
		return
	}
	s.compactions.Add(1)
	s.log.Info("store: compacted", "took", time.Since(start).Round(time.Millisecond))
}
