package hub

import (
	"fmt"
	"runtime"
	"testing"
)

// BenchmarkFanout is one progress report reaching every member of a race:
// the report's round trip to the room, the standings built once, and each
// member's drain handing the new state to its sink.
func BenchmarkFanout(b *testing.B) {
	for _, n := range []int{4, 8} {
		b.Run(fmt.Sprintf("racers=%d", n), func(b *testing.B) {
			h := New(Config{Clock: NewManualClock()})
			defer h.Close()
			r, err := h.NewRace(RaceConfig{Spec: deal})
			if err != nil {
				b.Fatal(err)
			}
			got := make(chan struct{}, 2*n)
			ms := make([]*RaceMember, n)
			for i := range ms {
				ms[i], err = r.Join(Person{ID: "id-" + itoa(i), Name: "p" + itoa(i)}, Racer, func(RaceState) { got <- struct{}{} })
				if err != nil {
					b.Fatal(err)
				}
			}
			if err := ms[0].Start(); err != nil {
				b.Fatal(err)
			}
			h.clock.(*ManualClock).Advance(CountdownFrom * 1e9)
			st, _ := r.State()
			for _, x := range st.Racers {
				if x.Status != Playing {
					b.Fatalf("not running: %+v", st)
				}
			}
			// Drain whatever the joins and the countdown sent.
			for drained := false; !drained; {
				select {
				case <-got:
				default:
					drained = true
				}
			}
			p := Progress{Home: 1, Total: 52, Status: Playing}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				p.Moves = i + 1
				if err := ms[i%n].Report(p); err != nil {
					b.Fatal(err)
				}
				for range n {
					<-got
				}
			}
		})
	}
}

// BenchmarkRoomMemory reports what a live room costs: heap and goroutine
// stacks, per room, empty and with four racers in it.
func BenchmarkRoomMemory(b *testing.B) {
	const rooms = 500
	for _, members := range []int{0, 4} {
		b.Run(fmt.Sprintf("members=%d", members), func(b *testing.B) {
			var total, heap float64
			runs := 0
			for b.Loop() {
				// The same four people join every room: a room's cost,
				// not the lobby's rate limit, is what is measured.
				h := New(Config{Clock: NewManualClock(), Limits: NoLimits()})
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				for range rooms {
					r, err := h.NewRace(RaceConfig{Spec: deal})
					if err != nil {
						b.Fatal(err)
					}
					for i := range members {
						if _, err := r.Join(Person{ID: "id-" + itoa(i), Name: "p" + itoa(i)}, Racer, func(RaceState) {}); err != nil {
							b.Fatal(err)
						}
					}
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				heap += float64(after.HeapAlloc-before.HeapAlloc) / rooms
				total += float64(after.HeapAlloc+after.StackInuse-before.HeapAlloc-before.StackInuse) / rooms
				runs++
				h.Close()
			}
			b.ReportMetric(total/float64(runs), "bytes/room")
			b.ReportMetric(heap/float64(runs), "heap-bytes/room")
		})
	}
}
