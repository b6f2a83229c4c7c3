package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"sshuffle/store"
)

// SharedOpener opens two handles on one fresh, empty store, as two nodes
// of one arcade would hold it (a backend with one handle gives it twice),
// closed when the test ends.
type SharedOpener func(t *testing.T) (a, b store.Store)

// RunShared runs the suite for two handles on one store: what one writes
// the other reads, and what both write at once is kept as if one had.
func RunShared(t *testing.T, open SharedOpener) {
	t.Run("NameClaimedOnce", func(t *testing.T) { testSharedNameClaims(t, open) })
	t.Run("DailyChosenOnce", func(t *testing.T) { testSharedDaily(t, open) })
	t.Run("ResultsOfOneAccount", func(t *testing.T) { testSharedResults(t, open) })
	t.Run("BoardsAgree", func(t *testing.T) { testSharedBoards(t, open) })
}

// Each of many accounts, half on each handle, claims one name at once:
// exactly one gets it, and both handles say who.
func testSharedNameClaims(t *testing.T, open SharedOpener) {
	a, b := open(t)
	handles := []store.Store{a, b}
	const n = 8
	for i := range n {
		_, err := handles[i%2].CreateAccount(ctx, fmt.Sprintf("id%d", i), "")
		require.NoError(t, err)
	}
	for round := range 3 {
		name := fmt.Sprintf("prize%d", round)
		start := make(chan struct{})
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				<-start
				_, errs[i] = handles[i%2].ClaimName(ctx, fmt.Sprintf("id%d", i), name)
			})
		}
		close(start)
		wg.Wait()
		winner := ""
		for i, err := range errs {
			if err == nil {
				require.Empty(t, winner, "round %d: a second winner", round)
				winner = fmt.Sprintf("id%d", i)
			} else {
				require.ErrorIs(t, err, store.ErrNameTaken)
			}
		}
		require.NotEmpty(t, winner, "round %d: nobody won", round)
		for _, h := range handles {
			acc, err := h.AccountByName(ctx, name)
			require.NoError(t, err)
			assert.Equal(t, winner, acc.ID)
			assert.Equal(t, name, acc.Name)
		}
	}
	// Every name is held by the account it resolves to, on both handles.
	for i := range n {
		id := fmt.Sprintf("id%d", i)
		acc, err := a.Account(ctx, id)
		require.NoError(t, err)
		other, err := b.Account(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, acc, other)
		if acc.Name != "" {
			holder, err := b.AccountByName(ctx, acc.Name)
			require.NoError(t, err)
			assert.Equal(t, id, holder.ID)
		}
	}
}

// Both handles ask for today's deal at once: one is kept, and every
// answer, then and later, is that one.
func testSharedDaily(t *testing.T, open SharedOpener) {
	a, b := open(t)
	handles := []store.Store{a, b}
	var mu sync.Mutex
	calls := 0
	choose := func() (string, error) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		return fmt.Sprintf("klondike/draw1/w/%d", calls), nil
	}
	const n = 16
	got := make([]string, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			got[i], errs[i] = handles[i%2].Daily(ctx, "klondike/draw1", "2026-11-30", choose)
		})
	}
	close(start)
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i])
		assert.Equal(t, got[0], got[i], "caller %d", i)
	}
	for _, h := range handles {
		again, err := h.Daily(ctx, "klondike/draw1", "2026-11-30", func() (string, error) {
			t.Error("chosen again")
			return "klondike/draw1/w/999", nil
		})
		require.NoError(t, err)
		assert.Equal(t, got[0], again)
	}
}

// One account's results arrive at both handles at once (a player on two
// nodes): each day's daily result from both (the same result twice) and a
// practice game on each. Stats, streak and history count each result
// once, and both handles read the same. Days follow one another, as they
// do: a streak counts a late win for an earlier day as nothing.
func testSharedResults(t *testing.T, open SharedOpener) {
	a, b := open(t)
	handles := []store.Store{a, b}
	const days = 12
	daily := func(g int) store.Result {
		// Won on even days, then on the last four all won: a streak of 4.
		won := g%2 == 0 || g >= days-4
		return store.Result{Account: "p", Key: "pyramid", Spec: fmt.Sprintf("pyramid/w/%d", g), Won: won, Moves: g,
			Elapsed: time.Duration(g+1) * time.Second, Finished: day(g), Daily: true, Day: store.Day(day(g))}
	}
	practice := func(g, h int) store.Result {
		return store.Result{Account: "p", Key: "pyramid", Spec: fmt.Sprintf("pyramid/%d/%d", g, h), Won: false,
			Moves: 3, Elapsed: time.Minute, Finished: day(g).Add(time.Duration(h+1) * time.Minute)}
	}
	wantWon := 0
	for g := range days {
		if daily(g).Won {
			wantWon++
		}
		var wg sync.WaitGroup
		for h, s := range handles {
			wg.Go(func() { assert.NoError(t, s.RecordResult(ctx, daily(g))) })
			wg.Go(func() { assert.NoError(t, s.RecordResult(ctx, practice(g, h))) })
		}
		wg.Wait()
	}
	games := 3 * days
	var first store.Stats
	for i, h := range handles {
		st, err := h.StatsFor(ctx, "p", "pyramid")
		require.NoError(t, err)
		assert.Equal(t, games, st.Played, "handle %d", i)
		assert.Equal(t, wantWon, st.Won, "handle %d", i)
		assert.Equal(t, time.Second, st.BestTime, "handle %d", i)
		assert.Equal(t, practice(days-1, 1).Finished, st.Last.UTC(), "handle %d", i)
		if i == 0 {
			first = st
		} else {
			assert.Equal(t, first, st, "both handles read the same stats")
		}
		streak, err := h.Streak(ctx, "p", "pyramid", day(days-1))
		require.NoError(t, err)
		assert.Equal(t, store.Streak{Current: 4, Best: 4, LastDay: store.Day(day(days - 1))}, streak, "handle %d", i)
		rs, err := h.Results(ctx, "p", 100)
		require.NoError(t, err)
		assert.Len(t, rs, games, "handle %d: each result kept once", i)
		place, r, err := h.Rank(ctx, "p", "pyramid", "")
		require.NoError(t, err)
		assert.Equal(t, 1, place)
		assert.Equal(t, 0, r.Moves, "handle %d: the fastest win is the entry", i)
	}
}

// Results of many accounts arrive at both handles; each handle's boards,
// all time and daily, and every account's place, are the same.
func testSharedBoards(t *testing.T, open SharedOpener) {
	a, b := open(t)
	handles := []store.Store{a, b}
	const players = 10
	for p := range players {
		_, err := handles[p%2].CreateAccount(ctx, fmt.Sprintf("p%d", p), fmt.Sprintf("player%d", p))
		require.NoError(t, err)
	}
	var wg sync.WaitGroup
	for p := range players {
		for g := range 4 {
			wg.Go(func() {
				r := store.Result{Account: fmt.Sprintf("p%d", p), Name: "old", Key: "klondike/draw3",
					Spec: fmt.Sprintf("klondike/draw3/%d/%d", p, g), Won: (p+g)%3 != 0, Score: 100*p + 7*g,
					Moves: 50 + g, Elapsed: time.Duration(60+p) * time.Second, Finished: t0.Add(time.Duration(g) * time.Minute),
					ByPoints: true, Daily: g%2 == 0, Day: map[bool]string{true: store.Day(t0)}[g%2 == 0]}
				assert.NoError(t, handles[(p+g)%2].RecordResult(ctx, r))
			})
		}
	}
	wg.Wait()
	for _, d := range []string{"", store.Day(t0)} {
		ba, err := a.Board(ctx, "klondike/draw3", d, 100)
		require.NoError(t, err)
		bb, err := b.Board(ctx, "klondike/draw3", d, 100)
		require.NoError(t, err)
		require.Len(t, ba, players, "day %q: one entry per account", d)
		assert.Equal(t, ba, bb, "day %q: both handles show one board", d)
		assert.Equal(t, "player9", ba[0].Name, "the current name, the best score first")
		for i, r := range ba {
			for _, h := range handles {
				place, _, err := h.Rank(ctx, r.Account, "klondike/draw3", d)
				require.NoError(t, err)
				assert.Equal(t, i+1, place, "day %q: %s", d, r.Account)
			}
		}
	}
}
