package arcade

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui/race"
	"sshuffle/engine"
	"sshuffle/store"
	"sshuffle/store/badger"
)

// The keeper writes a race's record off the caller's goroutine, takes a
// finished racer's line at once and for good, and forgets the race when it
// ends; a report on its way as the race ended brings nothing back.
func TestRaceKeeperKeepsAndForgets(t *testing.T) {
	st, err := badger.OpenInMemory()
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	k := newRaceKeeper(st, slog.New(slog.DiscardHandler), time.Hour) // only urgent writes and the last one
	spec := engine.Spec{Game: "klondike", Variant: "draw1", Seed: 7}
	kept := func(acc string, moves int, done bool) race.Kept {
		return race.Kept{Code: "KQTWX", Spec: spec, Key: "klondike/draw1", Account: acc,
			Save: []byte(acc + " save"), Moves: moves, Done: done}
	}
	live := func() []store.LiveRace {
		rs, err := st.LiveRaces(t.Context())
		require.NoError(t, err)
		return rs
	}
	k.keep(kept("a", 1, false))
	k.keep(kept("b", 4, true)) // b finished: written at once
	require.Eventually(t, func() bool { return len(live()) == 1 }, 10*time.Second, 5*time.Millisecond)
	rs := live()
	require.Equal(t, "klondike/draw1/7", rs[0].Spec)
	require.Equal(t, []store.LiveRacer{
		{Account: "a", Save: []byte("a save"), Moves: 1},
		{Account: "b", Save: []byte("b save"), Moves: 4, Done: true},
	}, rs[0].Racers)

	k.keep(kept("b", 5, false)) // a finished racer's game stays finished
	k.keep(kept("a", 2, true))
	require.Eventually(t, func() bool { return live()[0].Racers[0].Done }, 10*time.Second, 5*time.Millisecond)
	require.Equal(t, store.LiveRacer{Account: "b", Save: []byte("b save"), Moves: 4, Done: true}, live()[0].Racers[1])
	k.end("KQTWX")
	require.Eventually(t, func() bool { return len(live()) == 0 }, 10*time.Second, 5*time.Millisecond)
	k.keep(kept("a", 3, false)) // on its way as the race ended
	k.close()
	require.Empty(t, live(), "an ended race stays forgotten")

	// A race still running when the server stops is written as it is.
	k = newRaceKeeper(st, slog.New(slog.DiscardHandler), time.Hour)
	k.keep(race.Kept{Code: "MMMMM", Spec: spec, Key: "klondike/draw1", Account: "a", Save: []byte("x"), Moves: 3})
	k.close()
	k.close()
	rs = live()
	require.Len(t, rs, 1)
	require.Equal(t, 3, rs[0].Racers[0].Moves)
}

type liveRaces = store.LiveRaces

// countingRaces counts the keeper's writes to the store.
type countingRaces struct {
	liveRaces
	mu    sync.Mutex
	calls []int // races in each KeepLiveRaces
}

func (c *countingRaces) KeepLiveRaces(ctx context.Context, races []store.LiveRace, gone []string) error {
	c.mu.Lock()
	c.calls = append(c.calls, len(races))
	c.mu.Unlock()
	return c.liveRaces.KeepLiveRaces(ctx, races, gone)
}

// The races due in a round go to the store in one write: written one by
// one, hundreds of synced writes in a row held a busy server's core.
func TestRaceKeeperWritesARoundAtOnce(t *testing.T) {
	st, err := badger.OpenInMemory()
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	c := &countingRaces{liveRaces: st}
	k := newRaceKeeper(c, slog.New(slog.DiscardHandler), time.Hour)
	spec := engine.Spec{Game: "klondike", Variant: "draw1", Seed: 7}
	k.mu.Lock() // every race noted before the keeper looks
	for i := range 40 {
		code := fmt.Sprintf("KQ%03d", i)
		k.races[code] = &keptRace{rec: store.LiveRace{Code: code, Spec: spec.String(), Key: "klondike/draw1", Started: time.Unix(0, 0).UTC(),
			Racers: []store.LiveRacer{{Account: "a", Save: []byte("x"), Moves: 1}}}, dirty: true}
	}
	k.mu.Unlock()
	k.close()
	rs, err := st.LiveRaces(t.Context())
	require.NoError(t, err)
	require.Len(t, rs, 40)
	c.mu.Lock()
	defer c.mu.Unlock()
	require.Equal(t, []int{40}, c.calls, "one write for the 40 races")
}
