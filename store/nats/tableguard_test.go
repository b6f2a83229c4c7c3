package nats

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/internal/natstest"
	"sshuffle/store"
)

// A snapshot written at a revision is written only while the table's key
// is still there: a writer that another node's write overtook fails, and
// the other's snapshot stays.
func TestTableSnapshotAtRevision(t *testing.T) {
	c := natstest.Single(t)
	a := openAt(t, c, -1, "guard", nil)
	b := openAt(t, c, -1, "guard", nil)
	ctx := context.Background()

	rev, err := a.TableRevision(ctx, "TTTTT")
	require.NoError(t, err)
	r1, err := a.PutTableAt(ctx, "TTTTT", []byte("a1"), rev)
	require.NoError(t, err)
	_, err = a.PutTableAt(ctx, "TTTTT", []byte("a1 again"), rev)
	require.ErrorIs(t, err, store.ErrStale, "a revision already written past")
	r2, err := a.PutTableAt(ctx, "TTTTT", []byte("a2"), r1)
	require.NoError(t, err)

	// Another node takes the table over: it writes at the revision it reads.
	now, err := b.TableRevision(ctx, "TTTTT")
	require.NoError(t, err)
	require.Equal(t, r2, now)
	_, err = b.PutTableAt(ctx, "TTTTT", []byte("b1"), now)
	require.NoError(t, err)

	_, err = a.PutTableAt(ctx, "TTTTT", []byte("a3"), r2)
	require.ErrorIs(t, err, store.ErrStale, "the old owner's next save fails")
	require.ErrorIs(t, a.DeleteTableAt(ctx, "TTTTT", r2), store.ErrStale, "and so does its delete")
	saved, err := a.SavedTables(ctx)
	require.NoError(t, err)
	require.Equal(t, map[string][]byte{"TTTTT": []byte("b1")}, saved)

	now, err = b.TableRevision(ctx, "TTTTT")
	require.NoError(t, err)
	require.NoError(t, b.DeleteTableAt(ctx, "TTTTT", now))
	saved, err = a.SavedTables(ctx)
	require.NoError(t, err)
	require.Empty(t, saved)
	// A deleted table has a revision to write its next snapshot at.
	now, err = a.TableRevision(ctx, "TTTTT")
	require.NoError(t, err)
	_, err = a.PutTableAt(ctx, "TTTTT", []byte("a4"), now)
	require.NoError(t, err)
}
