package spite

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"sshuffle/engine"
)

// TestResume cuts games at many points, rebuilds each from its record so
// far, and checks that every seat sees the same table, that the rebuilt
// game plays on to a record that replays, and that a resumed match deals
// the same next game as the match that was never cut.
func TestResume(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		spec := specOf("match=50,payoff=13", seed)
		m, err := NewMatch(spec, 2)
		if err != nil {
			t.Fatal(err)
		}
		ps := newPlayers(t, "normal", "easy", seed)
		cut := int(seed*37) % 60
		for gameNo := 0; ; gameNo++ {
			g := m.Game()
			totals := m.Totals()
			for n := 0; g.Turn() != engine.NoSeat; n++ {
				if n == cut {
					line, _ := json.Marshal(g.Record([]string{"person", "person"}))
					r, err := Resume(line)
					if err != nil {
						t.Fatalf("seed %d game %d: resume after %d actions: %v", seed, gameNo, n, err)
					}
					for _, s := range []int{0, 1, engine.Spectator} {
						if !reflect.DeepEqual(r.View(s), g.View(s)) {
							t.Fatalf("seed %d: seat %d sees another table after the resume", seed, s)
						}
					}
					if _, err := ResumeMatch(spec, gameNo, totals, r); err != nil {
						t.Fatal(err)
					}
					fresh := newPlayers(t, "normal", "normal", seed)
					if !playOut(t, r, fresh) {
						t.Fatalf("seed %d: the resumed game did not end", seed)
					}
					if err := Replay(mustJSON(t, r.Record([]string{"person", "person"}))); err != nil {
						t.Fatalf("seed %d: the resumed game's record: %v", seed, err)
					}
				}
				s := g.Turn()
				if err := g.Do(s, ps[s].Choose(g.View(s))); err != nil {
					t.Fatal(err)
				}
			}
			// Resume the finished game into a match and deal on from both.
			again, err := Resume(mustJSON(t, g.Record([]string{"a", "b"})))
			if err != nil {
				t.Fatal(err)
			}
			rm, err := ResumeMatch(spec, gameNo, totals, again)
			if err != nil {
				t.Fatal(err)
			}
			next, more := m.Next()
			rnext, rmore := rm.Next()
			if more != rmore || !reflect.DeepEqual(m.Totals(), rm.Totals()) {
				t.Fatalf("seed %d game %d: the resumed match goes on %v with %v, the match %v with %v", seed, gameNo, rmore, rm.Totals(), more, m.Totals())
			}
			if !more {
				break
			}
			if !reflect.DeepEqual(next.View(0), rnext.View(0)) || !reflect.DeepEqual(next.start, rnext.start) {
				t.Fatalf("seed %d: the resumed match deals game %d differently", seed, gameNo+1)
			}
		}
	}
	if _, err := ResumeMatch(specOf("", 1), 1, []int{0, 0}, nil); err == nil {
		t.Error("ResumeMatch took no game")
	}
	g, _ := New(specOf("payoff=13", 1), 2)
	if _, err := ResumeMatch(specOf("", 1), 0, []int{0, 0}, g); err == nil {
		t.Error("ResumeMatch took a game of other settings")
	}
}

func TestDescribe(t *testing.T) {
	names := []string{"ann", "bob"}
	g, _ := New(specOf("", 3), 2)
	ps := newPlayers(t, "normal", "normal", 3)
	kinds := map[string]bool{}
	for g.Turn() != engine.NoSeat {
		s := g.Turn()
		a := ps[s].Choose(g.View(s))
		before := g.View(engine.Spectator)
		n := len(g.History())
		if err := g.Do(s, a); err != nil {
			t.Fatal(err)
		}
		after := g.View(engine.Spectator)
		for _, h := range g.History()[n:] {
			lines := Describe(before, after, h.Seat, h.Action, names)
			if len(lines) == 0 {
				t.Fatalf("%v: no words", h.Action)
			}
			first := lines[0]
			switch {
			case h.Action.Do == Reshuffle:
				kinds["reshuffle"] = true
			case h.Seat >= 0 && !strings.HasPrefix(first, names[h.Seat]+" "):
				t.Fatalf("%q does not begin with the seat's name", first)
			case h.Action.Do == Discard && first != names[s]+" discarded "+h.Action.Card.String()+" on side stack "+string(rune('1'+h.Action.Side)):
				t.Fatalf("discard %v worded %q", h.Action, first)
			case h.Action.Do == Play:
				kinds[h.Action.From] = true
				if !strings.Contains(first, " stack") {
					t.Fatalf("play %v worded %q", h.Action, first)
				}
			}
			for _, l := range lines[1:] {
				if strings.Contains(l, " drew ") {
					kinds["drew"] = true
				}
			}
		}
	}
	for _, k := range []string{FromHand, FromPayoff, FromSide, "drew"} {
		if !kinds[k] {
			t.Errorf("a whole game worded no %s line", k)
		}
	}
	v := View{Stacks: [][]engine.Card{cards("A♣ 2♦ 3♠ 4♥ 5♣")}, Players: [2]SeatView{{HandCount: 3}}}
	got := Describe(v, v, 0, PlayHand(card("K♠"), 0), names)
	if want := "ann played K♠ as a 6 on the 5 stack"; got[0] != want {
		t.Errorf("a King is worded %q, want %q", got[0], want)
	}
}
