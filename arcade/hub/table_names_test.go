package hub

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"sshuffle/engine"
	"sshuffle/games/kings"
)

// seatNames is what a state calls each seat.
func seatNames(st TableState) []string {
	out := make([]string, len(st.Seats))
	for i, s := range st.Seats {
		out[i] = s.Name
	}
	return out
}

// loggedBy reports whether some line of the log is an action of name's.
func loggedBy(log []string, name string) bool {
	return slices.ContainsFunc(log, func(l string) bool { return strings.HasPrefix(l, name+" ") })
}

// TestComputersHaveNames: a Kings table of ann and three computers, two of
// them hard. Each computer has a name of its own, the same in the seats,
// the lobby's list, the log, refusals and the result; a restart from the
// snapshot and a rematch keep every name.
func TestComputersHaveNames(t *testing.T) {
	e := newTenv(t)
	tb := e.open(TableConfig{Game: kings.Name, Host: person("ann"),
		Seats: []SeatPlan{open, {Computer: "hard"}, {Computer: "hard"}, {Computer: "easy"}}})
	code := tb.Code()
	a := e.sit(tb, "ann", AnySeat)
	want := []string{"ann", engine.ComputerName("hard", 1), engine.ComputerName("hard", 2), engine.ComputerName("easy", 3)}
	for i, n := range want[1:] {
		if strings.Contains(n, "computer") || slices.Contains(want[i+2:], n) {
			t.Fatalf("the computers are called %v", want[1:])
		}
	}
	if got := seatNames(e.current(tb, a)); !slices.Equal(got, want) {
		t.Fatalf("seated: %v, want %v", got, want)
	}
	var listed []string
	for _, in := range e.h.SeatedAt(a.p.ID) {
		if in.Code == code {
			for _, s := range in.Seats {
				listed = append(listed, s.Name)
			}
		}
	}
	if !slices.Equal(listed, want) {
		t.Fatalf("the table is listed with %v, want %v", listed, want)
	}

	if _, err := tb.Join(person("bo"), 1, e.rec().sink); err == nil || err.Error() != "Seat 2 is "+want[1]+"'s, a computer player." {
		t.Fatalf("bo asks for a computer's seat: %v", err)
	}

	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	// The computers act in turn until each has a line in the log.
	e.play(tb, []*seatAt{a}, func() bool {
		st := e.current(tb, a)
		return loggedBy(st.Log, want[1]) && loggedBy(st.Log, want[2]) && loggedBy(st.Log, want[3])
	})
	if e.phaseOf(tb) != TablePlaying {
		t.Fatal("the hand ended before every computer had acted: the hub's fixed source deals otherwise than this test needs")
	}
	// Out of turn, ann is told whose turn it is by name.
	e.play(tb, nil, func() bool { return e.current(tb, a).Turn != 0 })
	st := e.current(tb, a)
	if st.Phase != TablePlaying {
		t.Fatal("the hand ended before ann could act out of turn")
	}
	if got := a.m.Do(act(kings.Action{Do: kings.End})); got == nil || got.Error() != "It is "+want[st.Turn]+"'s turn." {
		t.Fatalf("out of turn: %v, want %s named", got, want[st.Turn])
	}

	// A restart: the snapshot brings the table back with the same names.
	e.h.Close()
	e.mu.Lock()
	snap := e.saved[code]
	e.mu.Unlock()
	js, _ := json.Marshal(snap)
	var s TableSnapshot
	if err := json.Unmarshal(js, &s); err != nil {
		t.Fatal(err)
	}
	e.clock = NewManualClock()
	e.h = e.hub(e.clock)
	tb, err := e.h.RestoreTable(s)
	if err != nil {
		t.Fatal(err)
	}
	a = e.sit(tb, "ann", AnySeat)
	if got := seatNames(e.current(tb, a)); !slices.Equal(got, want) {
		t.Fatalf("restored: %v, want %v", got, want)
	}

	// The result names the seat that went out as the seats do.
	e.play(tb, []*seatAt{a}, nil)
	st = e.current(tb, a)
	if st.Phase != TableFinished || st.Result == nil {
		t.Fatalf("the hand did not end: %+v", st)
	}
	outcome := st.Log[len(st.Log)-1]
	if w := st.Result.Winner; w == engine.NoSeat || outcome != want[w]+" went out and wins the hand" {
		t.Fatalf("the result says %q; the winner is seat %d of %v", outcome, w, want)
	}
	// So does the result the store keeps.
	rs := e.resultList()
	var kept []string
	for _, s := range rs[len(rs)-1].Seats {
		kept = append(kept, s.Name)
	}
	if !slices.Equal(kept, want) {
		t.Fatalf("the kept result names the seats %v, want %v", kept, want)
	}

	// A rematch seats the same computers under the same names.
	if err := a.m.Rematch(); err != nil {
		t.Fatal(err)
	}
	st = e.current(tb, a)
	if got := seatNames(st); st.GameNo != 0 || !slices.Equal(got, want) {
		t.Fatalf("the rematch: game %d, seats %v, want %v", st.GameNo, got, want)
	}
	if !strings.HasPrefix(st.Log[len(st.Log)-1], "game 1 is dealt; ") || !slices.ContainsFunc(want, func(n string) bool {
		return strings.HasSuffix(st.Log[len(st.Log)-1], "; "+n+" plays first")
	}) {
		t.Fatalf("the rematch's deal is logged as %q", st.Log[len(st.Log)-1])
	}
}
