package hub

import (
	"bytes"
	"errors"
	"testing"

	"sshuffle/games/kings"
)

// TestTableStateOnRequest: a member that lost states on the way asks for
// the whole state and gets the room's current one: the newest version the
// room sent anyone, and the same view and seats its next push would carry.
// A member replaced by another session is refused.
func TestTableStateOnRequest(t *testing.T) {
	e := newTenv(t)
	tb := e.open(kingsTable(person("ann"), open, SeatPlan{Computer: "easy"}))
	a := e.sit(tb, "ann", AnySeat)
	w := e.sit(tb, "wat", Watch)
	seating, err := a.m.State()
	if err != nil || seating.View != nil || seating.Phase != TableSeating {
		t.Fatalf("while seating: %+v, %v", seating, err)
	}
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	// The computer moves while the watcher's screen is not looked at.
	e.play(tb, []*seatAt{a}, func() bool { return inspect(tb, func() int { return tb.game.Actions() }) >= 3 })
	pushed := e.current(tb, w)
	got, err := w.m.State()
	if err != nil {
		t.Fatal(err)
	}
	roomV := inspect(tb, func() uint64 { return tb.version })
	if got.Version != roomV || got.Version < seating.Version {
		t.Fatalf("version %d; the room is at %d", got.Version, roomV)
	}
	if !bytes.Equal(got.View, pushed.View) || got.Turn != pushed.Turn || got.Seat != Watch || len(got.Seats) != 2 {
		t.Fatalf("asked for:\n%+v\npushed:\n%+v", got, pushed)
	}
	mine, err := a.m.State()
	if err != nil || mine.Seat != 0 || bytes.Equal(mine.View, got.View) {
		t.Fatalf("the seat's own state is its own view: %+v, %v", mine, err)
	}
	// The same account from another session takes over; the old handle
	// asks in vain.
	old := a.m
	e.sit(tb, "ann", AnySeat)
	if _, err := old.State(); !errors.Is(err, ErrReplaced) {
		t.Fatalf("a replaced member asks: %v", err)
	}
}

// TestTableActionBytes: bytes that are no action of the table's game are
// refused with the game's sentence and change nothing.
func TestTableActionBytes(t *testing.T) {
	e := newTenv(t)
	tb := e.open(kingsTable(person("ann"), open, SeatPlan{Computer: "easy"}))
	a := e.sit(tb, "ann", AnySeat)
	if err := a.m.Start(); err != nil {
		t.Fatal(err)
	}
	e.play(tb, []*seatAt{a}, func() bool { return e.current(tb, a).Turn == 0 })
	n := inspect(tb, func() int { return tb.game.Actions() })
	for _, b := range [][]byte{nil, []byte("garbage"), []byte(`{"do":"play","card":"ZZ","to":"N"}`), []byte(`{"do":"pass"}`)} {
		err := a.m.Do(b)
		if err == nil || err.Error() != "That is not a move of Kings in the Corner." {
			t.Fatalf("%q: %v", b, err)
		}
		if st := e.current(tb, a); st.Refused != err.Error() {
			t.Fatalf("%q: the refusal pushed is %q", b, st.Refused)
		}
	}
	if got := inspect(tb, func() int { return tb.game.Actions() }); got != n {
		t.Fatalf("refused bytes changed the game: %d actions, was %d", got, n)
	}
	if err := a.m.Do(act(kings.Action{Do: kings.End})); err != nil {
		t.Fatalf("a well-formed action after them: %v", err)
	}
}
