package nats

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
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

// leaderLost: the server leading the records stream stops (a graceful
// stop, which hands the leadership over; a killed one leaves the others
// to elect a leader, 4-6 s); a result recorded then is kept, with the one
// before, on the board and in the history, by a handle that may have been
// connected to the server that stopped.
func leaderLost(t *testing.T, c *natstest.Cluster) {
	ctx := context.Background()
	s := openAt(t, c, -1, "leader", nil)
	rec := func(i int) store.Result {
		return store.Result{Account: fmt.Sprintf("p%d", i), Name: fmt.Sprintf("p%d", i), Key: "freecell",
			Spec: fmt.Sprintf("freecell/%d", i), Won: true, Moves: 80 + i, Elapsed: time.Minute, Finished: time.Now()}
	}
	require.NoError(t, s.RecordResult(ctx, rec(1)))
	info, err := s.records.st.Info(ctx)
	require.NoError(t, err)
	require.NotNil(t, info.Cluster)
	for _, srv := range c.Servers {
		if srv.Name() == info.Cluster.Leader {
			t.Logf("stopping %s, the records stream's leader", srv.Name())
			srv.Shutdown()
			srv.WaitForShutdown()
		}
	}
	start := time.Now()
	require.NoError(t, s.RecordResult(ctx, rec(2)), "a write waits for the new leader")
	t.Logf("the write after the leader was lost took %s", time.Since(start).Round(time.Millisecond))
	board, err := s.Board(ctx, "freecell", "", 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"p1", "p2"}, names(board))
	rs, err := s.Results(ctx, "p2", 10)
	require.NoError(t, err)
	assert.Len(t, rs, 1)
}

func names(rs []store.Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Name)
	}
	return out
}

// healthWithoutQuorum: with two of three servers gone the last one still
// answers the connection, but JetStream takes no writes; Health says so.
// It stops every server but one.
func healthWithoutQuorum(t *testing.T, c *natstest.Cluster) {
	oldEvery, oldStall := probeEvery, stallAfter
	probeEvery, stallAfter = 200*time.Millisecond, time.Second
	t.Cleanup(func() { probeEvery, stallAfter = oldEvery, oldStall })
	var running []*server.Server
	for _, srv := range c.Servers {
		if srv.Running() {
			running = append(running, srv)
		}
	}
	require.GreaterOrEqual(t, len(running), 2, "a quorum to start with")
	s, err := Open(context.Background(), running[0].ClientURL(), Options{Prefix: "health", Node: "n1", Timeout: 2 * time.Second})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	require.Eventually(t, func() bool {
		s.healthMu.Lock()
		defer s.healthMu.Unlock()
		return s.healthAt.After(time.Now().Add(-time.Second)) && s.healthErr == nil
	}, 20*time.Second, 50*time.Millisecond, "a probe was written")
	require.NoError(t, s.Health())
	for _, srv := range running[1:] {
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

// A board watch that went silent (the ordered consumer backing off while
// a new leader is elected, here stopped outright) is started again by the
// write that waits for it, from the last entry it applied: the write
// returns, and the board holds every result, an older entry undoing no
// newer one.
func TestSilentBoardWatchStartsAgain(t *testing.T) {
	c := natstest.Single(t)
	s := openAt(t, c, -1, "silent", nil)
	ctx := context.Background()
	rec := func(account string, moves int) store.Result {
		return store.Result{Account: account, Name: account, Key: "freecell", Spec: "freecell/1", Won: true,
			Moves: moves, Elapsed: time.Minute, Finished: time.Now()}
	}
	require.NoError(t, s.RecordResult(ctx, rec("ann", 90)))
	require.NoError(t, s.RecordResult(ctx, rec("bob", 95)))
	s.boards.mu.Lock()
	cc := s.boards.cc
	s.boards.mu.Unlock()
	cc.Stop()
	require.NoError(t, s.RecordResult(ctx, rec("bob", 85)), "the write waits for a watch started again")
	require.NoError(t, s.RecordResult(ctx, rec("cid", 99)))
	board, err := s.Board(ctx, "freecell", "", 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"bob", "ann", "cid"}, names(board))
	assert.Equal(t, 85, board[0].Moves)
}
