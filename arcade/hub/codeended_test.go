package hub

import (
	"slices"
	"sync"
	"testing"
	"time"

	"sshuffle/engine"
	"sshuffle/games"
)

// Every room that ends while the hub runs, a race or a table, is told to
// the wiring (to keep past a restart); those Close shuts are not, since a
// restart restores its tables and settles its races itself.
func TestCodeEndedTellsEveryRoomThatEnds(t *testing.T) {
	clock := NewManualClock()
	var mu sync.Mutex
	var told []string
	h := New(Config{Clock: clock, Rand: engine.NewRNG(1), Grace: 10 * time.Second, TableKit: games.Default().TableKit,
		CodeEnded: func(code string) {
			mu.Lock()
			told = append(told, code)
			mu.Unlock()
		}})
	r, err := h.NewRace(RaceConfig{Spec: deal})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := h.OpenTable(kingsTable(person("ann"), open, SeatPlan{Computer: "hard"}))
	if err != nil {
		t.Fatal(err)
	}
	// Nobody came: both close after the grace.
	clock.Advance(10 * time.Second)
	<-r.Done()
	<-tb.Done()
	kept, err := h.NewRace(RaceConfig{Spec: deal})
	if err != nil {
		t.Fatal(err)
	}
	h.Close()
	<-kept.Done()
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(told)
	want := []string{r.Code(), tb.Code()}
	slices.Sort(want)
	if !slices.Equal(told, want) {
		t.Fatalf("told %v, want the two rooms that ended (%v), not %s, shut with the hub", told, want, kept.Code())
	}
}
