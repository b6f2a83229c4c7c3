package badger

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// BenchmarkPutTableTables is a hundred tables each writing snapshots of
// about a Kings table's size, one after another, as their save goroutines
// do: the figure that matters is cpu-ns/op, the process's CPU time (the
// syncs' included) per snapshot.
func BenchmarkPutTableTables(b *testing.B) {
	s, _ := openTemp(b)
	ctx := context.Background()
	snap := bytes.Repeat([]byte("x"), 3000)
	const tables = 100
	var next atomic.Int64
	cpu0 := cpuTime()
	b.ResetTimer()
	var wg sync.WaitGroup
	for i := range tables {
		wg.Go(func() {
			code := fmt.Sprintf("T%04d", i)
			for next.Add(1) <= int64(b.N) {
				if err := s.PutTable(ctx, code, snap); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
