package nats

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"sshuffle/internal/natstest"
	"sshuffle/store"
)

// Bytes that are not what the store wrote come back as an error naming
// the record, never a panic; a board entry that does not read is left off
// its board.
func TestBadStoredBytes(t *testing.T) {
	c := natstest.Single(t)
	s := openAt(t, c, -1, "bad", nil)
	ctx := context.Background()
	garbage := []byte("\x00{not json")
	_, err := s.accounts.write(ctx, []op{
		put(accountKey("a"), garbage),
		put(nameKey("alice"), []byte("a")),
		put(followKey("a"), garbage),
	})
	require.NoError(t, err)
	_, err = s.records.write(ctx, []op{
		put(profileKey("a"), garbage),
		put(key("r", tok("a"), "x"), garbage),
		put(tableStatsKey("a"), garbage),
		put(key("g", tok("a"), "x"), garbage),
		put(key("c", tok("a"), "x"), garbage),
		put(boardKey("freecell", "", "short"), []byte("tiny")),
		put(boardKey("freecell", "", "b"), append(make([]byte, rankLen), garbage...)),
	})
	require.NoError(t, err)
	_, err = s.saves.write(ctx, []op{put(s.liveKey("LLLLL"), garbage), put(endedKey("ZZZZZ"), garbage)})
	require.NoError(t, err)

	_, err = s.Account(ctx, "a")
	assert.ErrorIs(t, err, store.ErrCorrupt)
	assert.ErrorContains(t, err, "account a")
	_, err = s.AccountByName(ctx, "alice")
	assert.ErrorIs(t, err, store.ErrCorrupt)
	_, err = s.Following(ctx, "a")
	assert.ErrorIs(t, err, store.ErrCorrupt)
	_, err = s.Stats(ctx, "a")
	assert.ErrorIs(t, err, store.ErrCorrupt)
	assert.ErrorIs(t, s.RecordResult(ctx, store.Result{Account: "a", Key: "k", Spec: "k/1", Finished: time.Now()}), store.ErrCorrupt,
		"a result is not counted on stats that do not read")
	_, err = s.Results(ctx, "a", 10)
	assert.ErrorIs(t, err, store.ErrCorrupt)
	_, err = s.TableStats(ctx, "a")
	assert.ErrorIs(t, err, store.ErrCorrupt)
	_, err = s.TableGames(ctx, "a", 10)
	assert.ErrorIs(t, err, store.ErrCorrupt)
	_, err = s.Races(ctx, "a", 10)
	assert.ErrorIs(t, err, store.ErrCorrupt)
	_, err = s.Board(ctx, "freecell", "", 10)
	assert.ErrorIs(t, err, store.ErrCorrupt, "the entry with a rank and no result")
	live, err := s.LiveRaces(ctx)
	require.NoError(t, err)
	assert.Empty(t, live, "a live race that does not read is left out")
	ended, err := s.EndedRaces(ctx, time.Now())
	require.NoError(t, err)
	assert.Empty(t, ended)
	lost, err := s.LoseRaces(ctx, time.Now(), time.Now().Add(time.Hour))
	require.NoError(t, err)
	assert.Empty(t, lost, "its code is ended, its games not kept")
	ended, err = s.EndedRaces(ctx, time.Now())
	require.NoError(t, err)
	assert.Contains(t, ended, "LLLLL")
	assert.NotContains(t, ended, "ZZZZZ", "the one that did not read was forgotten")
}

// healthWithoutQuorum: with two of three servers gone the last one still
// answers the connection, but JetStream takes no writes; Health says so.
func healthWithoutQuorum(t *testing.T, c *natstest.Cluster) {
	oldEvery, oldStall := probeEvery, stallAfter
	probeEvery, stallAfter = 200*time.Millisecond, time.Second
	t.Cleanup(func() { probeEvery, stallAfter = oldEvery, oldStall })
	s, err := Open(context.Background(), c.Servers[0].ClientURL(), Options{Prefix: "health", Node: "n1", Timeout: 2 * time.Second})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	require.Eventually(t, func() bool {
		s.healthMu.Lock()
		defer s.healthMu.Unlock()
		return s.healthAt.After(time.Now().Add(-time.Second)) && s.healthErr == nil
	}, 10*time.Second, 50*time.Millisecond, "a probe was written")
	require.NoError(t, s.Health())
	for _, srv := range c.Servers[1:] {
		srv.Shutdown()
		srv.WaitForShutdown()
	}
	require.Eventually(t, func() bool { return s.Health() != nil }, 20*time.Second, 50*time.Millisecond)
	assert.ErrorContains(t, s.Health(), "JetStream")
}

// Two nodes on one store each keep and settle their own live races: a
// node that starts does not end the races another node is running. Ended
// codes are the whole arcade's.
func TestLiveRacesAreTheNodes(t *testing.T) {
	c := natstest.Single(t)
	ctx := context.Background()
	open := func(node string) *Store {
		s, err := Open(ctx, c.URL(), Options{Prefix: "live", Node: node})
		require.NoError(t, err)
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
	a, b := open("a"), open("b")
	race := store.LiveRace{Code: "AAAAA", Spec: "klondike/draw1/7", Key: "klondike/draw1", Started: time.Now(),
		Racers: []store.LiveRacer{{Account: "x", Save: []byte("x's race"), Moves: 3}}}
	require.NoError(t, a.PutLiveRace(ctx, race))
	rs, err := b.LiveRaces(ctx)
	require.NoError(t, err)
	assert.Empty(t, rs)
	lost, err := b.LoseRaces(ctx, time.Now(), time.Now().Add(time.Hour))
	require.NoError(t, err)
	assert.Empty(t, lost, "b starting loses none of a's races")
	rs, err = a.LiveRaces(ctx)
	require.NoError(t, err)
	require.Len(t, rs, 1)
	lost, err = a.LoseRaces(ctx, time.Now(), time.Now().Add(time.Hour))
	require.NoError(t, err)
	require.Len(t, lost, 1)
	ended, err := b.EndedRaces(ctx, time.Now())
	require.NoError(t, err)
	assert.Contains(t, ended, "AAAAA", "b knows the code has ended")
	save, err := b.GetSave(ctx, "x", "klondike/draw1")
	require.NoError(t, err)
	assert.Equal(t, "x's race", string(save))
}

// Every write reaches the metrics' observer, its error with it.
func TestObserveWrites(t *testing.T) {
	c := natstest.Single(t)
	s := openAt(t, c, -1, "observe", nil)
	ctx := context.Background()
	var mu sync.Mutex
	var errs []error
	s.ObserveWrites(func(_ time.Duration, err error) {
		mu.Lock()
		defer mu.Unlock()
		errs = append(errs, err)
	})
	require.NoError(t, s.PutSave(ctx, "a", "freecell", []byte("x")))
	require.NoError(t, s.RecordResult(ctx, store.Result{Account: "a", Key: "freecell", Spec: "freecell/1", Won: true, Finished: time.Now()}))
	mu.Lock()
	assert.Equal(t, []error{nil, nil}, errs)
	mu.Unlock()
}
