package badger

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"sshuffle/store"
)

// A live race whose record does not read is logged and skipped: it never
// stops a start. Settled as lost, its code still ends and its record goes.
func TestCorruptLiveRacesAreSkipped(t *testing.T) {
	var logs bytes.Buffer
	s, err := Open(t.TempDir(), slog.New(slog.NewTextHandler(&logs, nil)))
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	ctx := context.Background()
	good := store.LiveRace{Code: "GOODS", Spec: "klondike/draw1/7", Key: "klondike/draw1", Started: time.Unix(0, 0).UTC(),
		Racers: []store.LiveRacer{{Account: "a", Save: []byte("a's race"), Moves: 2}}}
	require.NoError(t, s.PutLiveRace(ctx, good))
	for _, code := range []string{"BADHD", "BADRC"} {
		r := good
		r.Code = code
		require.NoError(t, s.PutLiveRace(ctx, r))
	}
	require.NoError(t, s.db.Update(func(txn *badger.Txn) error {
		if err := txn.Set(dbKey(kLiveRace, "BADHD"), []byte("{not json")); err != nil {
			return err
		}
		return txn.Set(dbKey(kLiveRacer, "BADRC", "a"), []byte(`{"Account":"b"}`))
	}))

	rs, err := s.LiveRaces(ctx)
	require.NoError(t, err)
	assert.Equal(t, []store.LiveRace{good}, rs)
	assert.Contains(t, logs.String(), "code=BADHD")
	assert.Contains(t, logs.String(), "code=BADRC")

	lost, err := s.LoseRaces(ctx, time.Unix(0, 0), time.Unix(0, 0).Add(24*time.Hour))
	require.NoError(t, err)
	require.Len(t, lost, 1)
	assert.Equal(t, "GOODS", lost[0].Code)
	ended, err := s.EndedRaces(ctx, time.Unix(0, 0))
	require.NoError(t, err)
	assert.Len(t, ended, 3, "the unreadable races' codes are ended too")
	rs, err = s.LiveRaces(ctx)
	require.NoError(t, err)
	assert.Empty(t, rs)
	// Only the good race's game is kept: the others' racers are not known.
	data, err := s.GetSave(ctx, "a", "klondike/draw1")
	require.NoError(t, err)
	assert.Equal(t, "a's race", string(data))
}
