package natsrelay

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"testing"
	"time"

	"sshuffle/arcade/hub"
	"sshuffle/internal/natstest"
)

// BenchmarkMoveTrip is a move's trip to another seat's screen: ann, on
// node a, which runs the table, acts; the time is until bob's screen has
// the state after it. same-node: bob is on node a too; across-nodes: bob
// is on node b, each node on its own server of a three-server cluster, so
// the action is answered and bob's state pushed through NATS. Snapshots
// stay in memory here (a node of a cluster also saves one to the store
// before it answers: reports/nats-store.md has what a write costs).
//
//	go test ./arcade/hub/natsrelay -run '^$' -bench MoveTrip -benchtime 300x
func BenchmarkMoveTrip(b *testing.B) {
	// The nodes' log lines would split the benchmark's result lines.
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.DiscardHandler))
	for _, across := range []bool{false, true} {
		name := "same-node"
		if across {
			name = "across-nodes"
		}
		b.Run(name, func(b *testing.B) {
			c := natstest.Three(b)
			a := benchNode(b, c, 0, "a")
			far := a
			if across {
				far = benchNode(b, c, 1, "b")
			}
			var trips []time.Duration
			b.ResetTimer()
			for len(trips) < b.N {
				trips = append(trips, playTable(b, a, far, b.N-len(trips))...)
			}
			b.StopTimer()
			slices.Sort(trips)
			b.ReportMetric(float64(trips[len(trips)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(trips[len(trips)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

func benchNode(b *testing.B, c *natstest.Cluster, server int, name string) *node {
	b.Helper()
	return newNode(b, c, server, name, nodeOpts{replicas: 3})
}

// playTable opens a table of two people on a, ann seated there and bob
// through far, and times up to n of ann's and bob's moves reaching the
// other's screen, until the hand ends.
func playTable(b *testing.B, a, far *node, n int) []time.Duration {
	b.Helper()
	ann, bob := person("ann"), person("bob")
	cfg := kingsTable(ann)
	cfg.Seats = []hub.SeatPlan{{}, {}}
	tb, err := a.h.OpenTable(cfg)
	if err != nil {
		b.Fatal(err)
	}
	annS, bobS := tableScreen(), tableScreen()
	am, err := tb.Join(ann, hub.AnySeat, annS.sink)
	if err != nil {
		b.Fatal(err)
	}
	room, err := far.h.FindTable(bob, tb.Code())
	if err != nil {
		b.Fatal("finding the table: ", err)
	}
	// The room's subscription reaches the other servers of the cluster a
	// moment after it is made: a first request may find none, as the
	// sentence says.
	bm, err := room.Join(bob, hub.AnySeat, bobS.sink)
	for i := 0; err != nil && i < 50; i++ {
		time.Sleep(20 * time.Millisecond)
		bm, err = room.Join(bob, hub.AnySeat, bobS.sink)
	}
	if err != nil {
		b.Fatal("bob joining: ", err)
	}
	if err := am.Start(); err != nil {
		b.Fatal(err)
	}
	kit, _ := kitOf("kings")
	players := [2]*hub.TableMember{am, bm}
	screens := [2]*screen[hub.TableState]{annS, bobS}
	var trips []time.Duration
	defer func() { _ = am.Leave(); _ = bm.Leave() }()
	for len(trips) < n {
		// Both screens settled on the same point of the game: the trip then
		// times this move's state alone.
		var st, other0 hub.TableState
		for deadline := time.Now().Add(guard); ; time.Sleep(100 * time.Microsecond) {
			if time.Now().After(deadline) {
				b.Fatal("the two screens never agreed on the game")
			}
			x, y := last(annS), last(bobS)
			if x.Phase != hub.TablePlaying || y.Phase != hub.TablePlaying {
				if x.Phase == hub.TableFinished || x.Phase == hub.TableClosed {
					return trips
				}
				continue
			}
			if x.View != nil && y.View != nil && progress(x.View) == progress(y.View) {
				st = x
				if x.Turn == 1 {
					st, other0 = y, x
				} else {
					other0 = y
				}
				break
			}
		}
		seat := st.Turn
		mine, other, before := st, screens[1-seat], other0
		p, err := kit.NewPlayer("easy", uint64(len(trips)+1))
		if err != nil {
			b.Fatal(err)
		}
		act, err := p.ChooseEncoded(mine.View)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if err := players[seat].Do(act); err != nil {
			// A view gone stale on the way (the turn moved on): the next
			// state says what now, and the refusal is no trip.
			continue
		}
		other.until(b, "the move on the other screen", func(s hub.TableState) bool { return s.Version > before.Version })
		trips = append(trips, time.Since(start))
	}
	return trips
}

// progress is where a Kings game stands, from a seat's view: the turn, its
// number and the step within it, the same for every seat.
func progress(view []byte) string {
	var v struct {
		Turn   int `json:"turn"`
		TurnNo int `json:"turnNo"`
		Step   int `json:"step"`
		Stock  int `json:"stock"`
	}
	if json.Unmarshal(view, &v) != nil {
		return ""
	}
	return fmt.Sprint(v.Turn, v.TurnNo, v.Step, v.Stock)
}

func last(s *screen[hub.TableState]) hub.TableState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}
