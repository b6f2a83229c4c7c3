package hub

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/kings"
)

// benchSeat is a person at a benchmark table: a screen that keeps the
// newest state and signals each one.
type benchSeat struct {
	m    *TableMember
	last atomic.Value
	got  chan struct{}
	bot  engine.TablePlayer
}

func (s *benchSeat) sink(st TableState) {
	s.last.Store(st)
	select {
	case s.got <- struct{}{}:
	default:
	}
}

func (s *benchSeat) drain() {
	for {
		select {
		case <-s.got:
		default:
			return
		}
	}
}

// benchTable is Kings in the Corner for four: two people, two computers.
func benchTable(b *testing.B, h *Hub, i int) (*Table, []*benchSeat) {
	t, err := h.OpenTable(TableConfig{Game: kings.Name, Host: Person{ID: "p0-" + itoa(i), Name: "p0"},
		Seats: []SeatPlan{{}, {}, {Computer: "normal"}, {Computer: "normal"}}})
	if err != nil {
		b.Fatal(err)
	}
	seats := make([]*benchSeat, 2)
	for j := range seats {
		s := &benchSeat{got: make(chan struct{}, 1)}
		s.bot, _ = t.kit.NewPlayer("normal", uint64(j+1))
		if s.m, err = t.Join(Person{ID: "p" + itoa(j) + "-" + itoa(i), Name: "p" + itoa(j)}, j, s.sink); err != nil {
			b.Fatal(err)
		}
		seats[j] = s
	}
	if err := seats[0].m.Start(); err != nil {
		b.Fatal(err)
	}
	return t, seats
}

// BenchmarkTableFanout is one person's action reaching both people's
// screens at a four-seat table (the two computer seats see it in the room,
// where they choose from their view at the table's pace): the round trip
// into the room, Do, the log line, every view built, and each screen's
// drain handing over its state; with saves, also the snapshot built and
// handed to its outbox, as the wiring will run it. The computers' turns
// and the people's choices are outside the timer.
func BenchmarkTableFanout(b *testing.B) {
	for _, saves := range []bool{false, true} {
		b.Run(fmt.Sprintf("saves=%v", saves), func(b *testing.B) {
			clock := NewManualClock()
			cfg := Config{Clock: clock, Rand: engine.NewRNG(3), TableKit: games.Default().TableKit}
			if saves {
				cfg.SaveTable = func(string, *TableSnapshot) {}
			}
			h := New(cfg)
			defer h.Close()
			t, seats := benchTable(b, h, 0)
			b.ReportAllocs()
			b.StopTimer()
			for range b.N {
				var mover *benchSeat
				for mover == nil {
					st := inspect(t, func() TableState { return TableState{Phase: t.phase, Turn: t.game.Turn()} })
					switch {
					case st.Phase == TableFinished:
						// Both people say yes: the rematch is dealt.
						for _, s := range seats {
							if err := s.m.Rematch(); err != nil {
								b.Fatal(err)
							}
						}
					case st.Phase == TablePlaying && st.Turn >= 0 && st.Turn < 2:
						mover = seats[st.Turn]
					default:
						clock.Advance(t.cfg.Pace)
					}
				}
				// Wait for the mover's screen to be current, then choose.
				want := inspect(t, func() uint64 { return t.version })
				for {
					// Nothing stored yet reads as the zero state.
					if st, _ := mover.last.Load().(TableState); st.Version >= want {
						break
					}
					<-mover.got
				}
				a := choose(mover.bot, mover.last.Load().(TableState).View)
				for _, s := range seats {
					s.drain()
				}
				b.StartTimer()
				if err := mover.m.Do(a); err != nil {
					b.Fatal(err)
				}
				for _, s := range seats {
					<-s.got
				}
				b.StopTimer()
			}
		})
	}
}

// BenchmarkTableMemory is what a table in play costs: heap and goroutine
// stacks, per table of four seats (two people, two computers), with the
// save outbox the wiring will have.
func BenchmarkTableMemory(b *testing.B) {
	const tables = 200
	var total, heap float64
	runs := 0
	for b.Loop() {
		h := New(Config{Clock: NewManualClock(), SaveTable: func(string, *TableSnapshot) {}, TableKit: games.Default().TableKit})
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range tables {
			benchTable(b, h, i)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		// Signed: the collector may free more of what came before than
		// the tables take, and an unsigned difference would wrap.
		heap += float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / tables
		total += float64(int64(after.HeapAlloc+after.StackInuse)-int64(before.HeapAlloc+before.StackInuse)) / tables
		runs++
		h.Close()
	}
	b.ReportMetric(total/float64(runs), "bytes/table")
	b.ReportMetric(heap/float64(runs), "heap-bytes/table")
}
