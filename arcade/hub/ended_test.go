package hub

import (
	"errors"
	"math"
	"testing"
)

// A code the wiring says has ended (a race lost with the server) answers
// as ended, not as unknown; a live room with the code still wins.
func TestEndedHookAnswersEnded(t *testing.T) {
	h := New(Config{Ended: func(code string) bool { return code == "KQTWX" }})
	defer h.Close()
	_, err := h.Room("kqtwx")
	if !errors.Is(err, ErrExpired) || err.Error() != "The room KQTWX has ended, and its code with it." {
		t.Fatalf("an ended code: %v", err)
	}
	if _, err := h.Room("KQTWY"); !errors.Is(err, ErrNoRoom) {
		t.Fatalf("an unknown code: %v", err)
	}
	if _, err := h.Race("KQTWX"); !errors.Is(err, ErrExpired) {
		t.Fatalf("a race by an ended code: %v", err)
	}
}

// A new room never takes a code that the wiring says has ended (before a
// restart, where the hub's own memory of ended codes does not reach), so
// that yesterday's invite line still says the room has ended.
func TestNewRoomsSkipEndedCodes(t *testing.T) {
	high := (math.MaxUint64/uint64(len(CodeAlphabet)) - 1) * uint64(len(CodeAlphabet))
	var vals []uint64
	for _, k := range []uint64{0, 1} { // AAAAA, then BBBBB
		for range CodeLen {
			vals = append(vals, high+k)
		}
	}
	h := New(Config{Rand: &replay{vals: vals}, Ended: func(code string) bool { return code == "AAAAA" }})
	defer h.Close()
	r, err := h.NewRace(RaceConfig{Spec: deal})
	if err != nil {
		t.Fatal(err)
	}
	if r.Code() != "BBBBB" {
		t.Fatalf("a new room took %s, want BBBBB: AAAAA has ended", r.Code())
	}
	if _, err := h.Room("AAAAA"); !errors.Is(err, ErrExpired) {
		t.Fatalf("the ended code: %v", err)
	}
}
