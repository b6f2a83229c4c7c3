package hub

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sshuffle/engine"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
)

var tableKnown = []error{
	ErrClosed, ErrNotMember, ErrReplaced, ErrTableStarted, ErrTableFull, ErrWatchersFull, ErrSeatTaken,
	ErrNoSeat, ErrNotHost, ErrAlreadyStarted, ErrSeatsOpen, ErrNotPlaying, ErrNoRoom, ErrExpired, ErrHubClosed,
}

func tableErrKnown(err error) bool {
	for _, k := range tableKnown {
		if errors.Is(err, k) {
			return true
		}
	}
	return false
}

// checkTableState is what every state must satisfy, whoever receives it.
func checkTableState(st TableState) error {
	ids := map[string]bool{}
	free := 0
	for _, s := range st.Seats {
		if s.Person.ID != "" {
			if ids[s.Person.ID] {
				return fmt.Errorf("%s sits twice", s.Person.Name)
			}
			ids[s.Person.ID] = true
		}
		if s.Open() {
			free++
		}
		if s.Computer != "" && s.Person.ID != "" && !s.Gone {
			return fmt.Errorf("a computer's seat has a person in it: %+v", s)
		}
	}
	if st.Seat >= 0 && st.Phase != TableClosed && (st.Seat >= len(st.Seats) || st.Seats[st.Seat].Person.ID != st.You) {
		return fmt.Errorf("%s is sent seat %d's state, which is %+v", st.You, st.Seat, st.Seats)
	}
	switch st.Phase {
	case TablePlaying:
		if st.View == nil {
			return fmt.Errorf("playing with no view")
		}
		if vt := int(reflect.ValueOf(viewOf(st)).FieldByName("Turn").Int()); vt != st.Turn {
			return fmt.Errorf("the state's turn %d is not the view's %d", st.Turn, vt)
		}
	case TableBetween, TableFinished:
		if st.Result == nil {
			return fmt.Errorf("%v with no result", st.Phase)
		}
	}
	return nil
}

// TestTableStress has many people opening, joining, watching, playing,
// dropping and leaving tables at random while the clock runs, and checks
// every state each of them receives, every record, and that nothing is
// left behind.
func TestTableStress(t *testing.T) {
	base := runtime.NumGoroutine()
	e := newTenv(t)
	unlimited(e.h) // a few accounts as fast as the machine goes; the limits have tests of their own
	var bad atomic.Int64
	var once sync.Once
	fail := func(format string, args ...any) {
		bad.Add(1)
		once.Do(func() { t.Errorf(format, args...) })
	}
	workers, ops := 10, 200
	if testing.Short() {
		ops = 150
	}
	names := []string{"ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy"}
	var stop atomic.Bool
	var clockDone sync.WaitGroup
	clockDone.Add(1)
	go func() {
		defer clockDone.Done()
		r := rand.New(rand.NewPCG(1, 2))
		for !stop.Load() {
			e.clock.Advance(time.Duration(200+r.IntN(3000)) * time.Millisecond)
			runtime.Gosched()
		}
	}()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 99))
			p := person(names[r.IntN(len(names))])
			mine := map[string]*TableMember{}
			screens := map[string]*trec{}
			bots := map[string]engine.TablePlayer{}
			sink := func(code string) func(TableState) {
				rc := e.rec()
				screens[code] = rc
				return func(st TableState) {
					if err := checkTableState(st); err != nil {
						fail("%s v%d to %s: %v", st.Code, st.Version, st.You, err)
					}
					rc.sink(st)
				}
			}
			join := func(tb *Table, seat int) {
				m, err := tb.Join(p, seat, sink(tb.Code()))
				if err != nil {
					if !tableErrKnown(err) {
						fail("join: %v", err)
					}
					return
				}
				mine[tb.Code()] = m
				bots[tb.Code()], _ = tb.kit.NewPlayer("easy", r.Uint64())
			}
			anyOf := func() (string, *TableMember) {
				for c, m := range mine {
					return c, m
				}
				return "", nil
			}
			for range ops {
				switch op := r.IntN(12); {
				case op == 0:
					cfg := TableConfig{Game: spite.Name, Settings: "payoff=13", Host: p, TurnClock: 10 * time.Second, Hold: 10 * time.Minute}
					n := 2
					if r.IntN(2) == 0 {
						cfg.Game, cfg.Settings, n = kings.Name, "", 2+r.IntN(3)
					}
					for range n {
						sp := SeatPlan{}
						if r.IntN(3) == 0 {
							sp.Computer = []string{"easy", "normal"}[r.IntN(2)]
						}
						cfg.Seats = append(cfg.Seats, sp)
					}
					cfg.Private = r.IntN(5) == 0
					tb, err := e.h.OpenTable(cfg)
					if err != nil {
						fail("open: %v", err)
						continue
					}
					join(tb, AnySeat)
				case op <= 2:
					list := e.h.Tables()
					if s := e.h.SeatedAt(p.ID); len(s) > 0 && r.IntN(2) == 0 {
						list = s
					}
					if len(list) == 0 {
						continue
					}
					tb, err := e.h.Table(list[r.IntN(len(list))].Code)
					if err != nil {
						if !tableErrKnown(err) {
							fail("find: %v", err)
						}
						continue
					}
					join(tb, []int{AnySeat, Watch, r.IntN(4)}[r.IntN(3)])
				case op <= 7:
					// Move wherever it is this person's turn, as a player
					// with several tables open would; now and then send
					// something random instead.
					for code, m := range mine {
						st := screens[code].state()
						var err error
						switch {
						case r.IntN(6) == 0:
							err = m.Do(act(randomAction(r, st.Game)))
						case st.View != nil && st.Turn == st.Seat && st.Seat >= 0:
							err = m.Do(choose(bots[code], st.View))
						default:
							continue
						}
						if err != nil && err.Error() == "" {
							fail("an empty refusal")
						}
					}
				case op == 8:
					if code, m := anyOf(); m != nil {
						if err := m.Drop(); err != nil && !tableErrKnown(err) {
							fail("drop: %v", err)
						}
						delete(mine, code)
					}
				case op == 9:
					if code, m := anyOf(); m != nil {
						if err := m.Leave(); err != nil && !tableErrKnown(err) {
							fail("leave: %v", err)
						}
						delete(mine, code)
					}
				default:
					if _, m := anyOf(); m != nil {
						err := m.Start()
						if errors.Is(err, ErrAlreadyStarted) {
							err = m.Rematch()
						}
						if err != nil && !tableErrKnown(err) {
							fail("start: %v", err)
						}
					}
				}
			}
			for _, m := range mine {
				_ = m.Drop()
			}
		}()
	}
	wg.Wait()
	stop.Store(true)
	clockDone.Wait()
	// Everyone has dropped: the stand-ins play on until the holds and the
	// grace run out and the rooms end by themselves (a table with no person
	// left ends when the last hold does: the hold is long enough for the
	// stand-ins to finish games).
	for i := 0; i < 1000 && e.h.Rooms() > 0; i++ {
		e.clock.Advance(time.Second)
	}
	e.mu.Lock()
	saves := e.saves
	e.mu.Unlock()
	t.Logf("%d results, %d tables live at the end, %d snapshots handed over", len(e.resultList()), e.h.Rooms(), saves)
	if len(e.resultList()) == 0 {
		t.Error("no table finished a game")
	}
	e.h.Close()
	if n := e.h.Rooms(); n != 0 {
		t.Errorf("%d rooms left after Close", n)
	}
	if bad.Load() > 0 {
		t.Errorf("%d bad states or answers", bad.Load())
	}
	e.checkResults()
	e.mu.Lock()
	e.results = nil // checked
	e.mu.Unlock()
	settle(t, base)
}

func randomAction(r *rand.Rand, game string) any {
	c := engine.CardFromIndex(r.IntN(52))
	if game == spite.Name {
		return spite.Action{Do: []string{spite.Play, spite.Discard, spite.Pass, "fly"}[r.IntN(4)], From: spite.FromHand, Card: c, Side: r.IntN(5), To: r.IntN(5)}
	}
	return kings.Action{Do: kings.Kind(r.IntN(4)), Card: c, From: kings.Place(r.IntN(9)), To: kings.Place(r.IntN(9))}
}
