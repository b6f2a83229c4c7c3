package hub

import (
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/kings"
)

// pondering is a computer player that thinks for as long as the benchmark
// runs: Kings hard planning its turn from the seat's view, again and
// again, a fresh player each time so that each plans the whole turn.
type pondering struct {
	kit     engine.TableKit
	entered chan struct{}
	stop    atomic.Bool
}

func (p *pondering) ChooseEncoded(view []byte) ([]byte, error) {
	p.entered <- struct{}{}
	for i := uint64(1); ; i++ {
		hard, _ := p.kit.NewPlayer("hard", i)
		a, err := hard.ChooseEncoded(view)
		if p.stop.Load() || err != nil {
			return a, err
		}
	}
}

// BenchmarkCommandWhileThinking is a member's command (the whole state
// asked for) answered by a table while a computer thinks, at that table
// (own) and at another (other). Run it on one core as the server is run
// (-cpu 1), where the thinking competes with the rooms for the processor.
func BenchmarkCommandWhileThinking(b *testing.B) {
	for _, where := range []string{"own", "other"} {
		b.Run(where, func(b *testing.B) {
			clock := NewManualClock()
			h := New(Config{Clock: clock, Rand: engine.NewRNG(3), TableKit: games.Default().TableKit})
			defer h.Close()
			kit, _ := games.Default().TableKit(kings.Name)
			think := &pondering{kit: kit, entered: make(chan struct{})}
			var asked *TableMember
			for i := range 2 {
				tb, err := h.OpenTable(TableConfig{Game: kings.Name, Host: Person{ID: "p" + itoa(i), Name: "p"},
					Seats: []SeatPlan{{Computer: "hard"}, {Computer: "hard"}}})
				if err != nil {
					b.Fatal(err)
				}
				m, err := tb.Join(Person{ID: "p" + itoa(i), Name: "p"}, Watch, func(TableState) {})
				if err != nil {
					b.Fatal(err)
				}
				if err := m.Start(); err != nil {
					b.Fatal(err)
				}
				if i == 0 {
					_ = tb.loop.wait(func() { tb.seats[0].player, tb.seats[1].player = think, think })
				}
				if (i == 0) == (where == "own") {
					asked = m
				}
			}
			// The clock fires its timers one after another on this
			// goroutine, so only the first table's computer thinks: the
			// second's turn waits for the first's answer.
			advanced := make(chan struct{})
			go func() {
				clock.Advance(DefaultPace)
				close(advanced)
			}()
			<-think.entered
			times := make([]time.Duration, 0, b.N)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				t0 := time.Now()
				if _, err := asked.State(); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(t0))
			}
			b.StopTimer()
			slices.Sort(times)
			q := func(f float64) float64 {
				return float64(times[min(len(times)-1, int(f*float64(len(times))))].Microseconds())
			}
			b.ReportMetric(q(0.5), "p50-µs")
			b.ReportMetric(q(0.99), "p99-µs")
			b.ReportMetric(q(1), "max-µs")
			think.stop.Store(true)
			go func() {
				for range think.entered {
				}
			}()
			<-advanced
		})
	}
}
