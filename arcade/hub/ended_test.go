package hub

import (
	"errors"
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
