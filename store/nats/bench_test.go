package nats

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"sshuffle/internal/natstest"
	"sshuffle/store"
	"sshuffle/store/badger"
)

// BenchmarkRecordResult records finished games, each a new result of one
// of 64 accounts with a daily board entry (the store's busiest write), on
// Badger as the server runs it (on disk, synced) and on NATS on one server
// and on three (three replicas), one at a time and from 16 goroutines at
// once. reports/nats-store.md keeps a run:
//
//	go test ./store/nats -run '^$' -bench RecordResult -benchtime 2000x
func BenchmarkRecordResult(b *testing.B) {
	open := map[string]func(b *testing.B) store.Store{
		"badger": func(b *testing.B) store.Store {
			s, err := badger.Open(b.TempDir(), nil)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = s.Close() })
			return s
		},
		"nats-1": func(b *testing.B) store.Store { return openBench(b, natstest.Single(b)) },
		"nats-3": func(b *testing.B) store.Store { return openBench(b, natstest.Three(b)) },
	}
	for _, name := range []string{"badger", "nats-1", "nats-3"} {
		s := open[name](b)
		var n atomic.Int64
		result := func() store.Result {
			i := n.Add(1)
			at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)
			return store.Result{Account: fmt.Sprintf("acc%d", i%64), Key: "klondike/draw1", Spec: fmt.Sprintf("klondike/draw1/%d", i),
				Won: i%3 != 0, Score: int(i % 1000), Moves: int(i % 200), Elapsed: time.Duration(i%600) * time.Second,
				Finished: at, Daily: true, Day: store.Day(at), ByPoints: true}
		}
		b.Run(name+"/serial", func(b *testing.B) {
			var took []time.Duration
			for b.Loop() {
				start := time.Now()
				if err := s.RecordResult(context.Background(), result()); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(start))
			}
			slices.Sort(took)
			at := func(q float64) float64 { return float64(took[int(q*float64(len(took)-1))]) / 1e6 }
			b.ReportMetric(at(0.5), "p50-ms")
			b.ReportMetric(at(0.99), "p99-ms")
		})
		b.Run(name+"/parallel16", func(b *testing.B) {
			b.SetParallelism(16 / max(1, testingProcs()))
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := s.RecordResult(context.Background(), result()); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

func openBench(b *testing.B, c *natstest.Cluster) store.Store {
	s, err := Open(context.Background(), c.URL(), Options{Prefix: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}

func testingProcs() int { return runtime.GOMAXPROCS(0) }
