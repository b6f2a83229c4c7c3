package store

import (
	"context"
	"errors"
)

// ErrStale: a write at a revision found the record written since, by
// another writer; nothing was written.
var ErrStale = errors.New("store: written by another since it was read")

// GuardedTables is an optional part of Tables, for a backend several nodes
// share: a table's snapshot written at the revision its writer last saw,
// so that a node that lost a table to another node (cut off past its
// lease on it) fails its next save rather than overwrite the new owner's
// snapshot. A caller finds it with a type assertion; a store without it
// has one writer of each table.
type GuardedTables interface {
	// TableRevision is the revision code's snapshot is at now, the one
	// a PutTableAt that replaces it gives: a table never saved, or
	// deleted, has one too.
	TableRevision(ctx context.Context, code string) (uint64, error)
	// PutTableAt keeps snapshot as code's if the kept one is still at
	// rev, and returns the revision it is at now; ErrStale, and nothing
	// written, if another write came between.
	PutTableAt(ctx context.Context, code string, snapshot []byte, rev uint64) (uint64, error)
	// DeleteTableAt forgets code's snapshot if it is still at rev;
	// ErrStale, and nothing forgotten, if not.
	DeleteTableAt(ctx context.Context, code string, rev uint64) error
}
