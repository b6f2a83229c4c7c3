package latch

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBeforeRunsAtHappenAfterRunsAtOnce(t *testing.T) {
	var l Latch
	var got []string
	l.Do(func() { got = append(got, "first") })
	l.Do(func() { got = append(got, "second") })
	require.Empty(t, got, "nothing runs before the event")
	l.Happen()
	require.Equal(t, []string{"first", "second"}, got)
	l.Do(func() { got = append(got, "after") })
	require.Equal(t, []string{"first", "second", "after"}, got)
	l.Happen()
	require.Len(t, got, 3, "a second Happen runs nothing again")
}

// A function run by Happen may give the latch another: it runs at once.
func TestDoFromAWaitingFunction(t *testing.T) {
	var l Latch
	ran := false
	l.Do(func() { l.Do(func() { ran = true }) })
	l.Happen()
	require.True(t, ran)
}

// Every function runs exactly once however Do and Happen interleave.
func TestEachRunsOnceUnderRaces(t *testing.T) {
	for range 200 {
		var l Latch
		var mu sync.Mutex
		n := 0
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() { l.Do(func() { mu.Lock(); n++; mu.Unlock() }) })
		}
		wg.Go(l.Happen)
		wg.Wait()
		l.Happen()
		require.Equal(t, 8, n)
	}
}
