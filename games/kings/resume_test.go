package kings

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"sshuffle/engine"
)

// TestResume cuts hands at many points, rebuilds each from its record so
// far, checks every seat sees the same table and the rebuilt hand plays on
// to a record that replays, and that a resumed match deals the same next
// hand (same first seat) as the match that was never cut.
func TestResume(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		players := 2 + int(seed)%3
		sp := spec(seed, "match=25")
		m, err := NewMatch(sp, players)
		if err != nil {
			t.Fatal(err)
		}
		strengths := []string{"normal", "easy", "normal", "easy"}[:players]
		ps := newPlayers(t, strengths, seed)
		seats := make([]string, players)
		for hand := 0; ; hand++ {
			g := m.Game()
			totals := m.Totals()
			cut := int(seed*13+uint64(hand)*7) % 25
			for n := 0; g.Turn() != engine.NoSeat; n++ {
				if n == cut {
					line, _ := json.Marshal(g.Record(seats))
					r, err := Resume(line)
					if err != nil {
						t.Fatalf("seed %d hand %d: resume after %d actions: %v", seed, hand, n, err)
					}
					for s := -1; s < players; s++ {
						if !reflect.DeepEqual(r.View(s), g.View(s)) {
							t.Fatalf("seed %d: seat %d sees another table after the resume", seed, s)
						}
					}
					playOut(t, r, newPlayers(t, strengths, seed+99), nil)
					line, _ = json.Marshal(r.Record(seats))
					if err := Replay(line); err != nil {
						t.Fatalf("seed %d: the resumed hand's record: %v", seed, err)
					}
				}
				s := g.Turn()
				if err := g.Do(s, ps[s].Choose(g.View(s))); err != nil {
					t.Fatal(err)
				}
			}
			line, _ := json.Marshal(g.Record(seats))
			again, err := Resume(line)
			if err != nil {
				t.Fatal(err)
			}
			rm, err := ResumeMatch(sp, hand, totals, again)
			if err != nil {
				t.Fatal(err)
			}
			next, more := m.Next()
			rnext, rmore := rm.Next()
			if more != rmore || !reflect.DeepEqual(m.Totals(), rm.Totals()) {
				t.Fatalf("seed %d hand %d: the resumed match goes on %v with %v, the match %v with %v", seed, hand, rmore, rm.Totals(), more, m.Totals())
			}
			if !more {
				break
			}
			if !reflect.DeepEqual(next.start, rnext.start) || next.First() != rnext.First() {
				t.Fatalf("seed %d: the resumed match deals hand %d differently", seed, hand+1)
			}
		}
	}
	if _, err := ResumeMatch(spec(1, ""), 1, []int{0, 0}, mustNew(t, 1, 2, "")); err == nil {
		t.Error("ResumeMatch took a second hand of a one-hand match")
	}
	if _, err := ResumeMatch(spec(1, "draw=end"), 0, []int{0, 0}, mustNew(t, 1, 2, "")); err == nil {
		t.Error("ResumeMatch took a hand of other settings")
	}
}

func TestDescribe(t *testing.T) {
	names := []string{"ann", "bob", "cy"}
	seen := map[string]bool{}
	for _, settings := range []string{"", "draw=end"} {
		for seed := uint64(1); seed <= 6; seed++ {
			g := mustNew(t, seed, 3, settings)
			ps := newPlayers(t, []string{"normal", "normal", "normal"}, seed)
			for g.Turn() != engine.NoSeat {
				s := g.Turn()
				a := ps[s].Choose(g.View(s))
				before := g.View(engine.Spectator)
				if err := g.Do(s, a); err != nil {
					t.Fatal(err)
				}
				lines := Describe(before, g.View(engine.Spectator), s, a, names)
				if len(lines) == 0 || !strings.HasPrefix(lines[0], names[s]+" ") {
					t.Fatalf("%v worded %q", a, lines)
				}
				for _, l := range lines {
					for _, w := range []string{" played ", " moved the ", " put ", " drew", " ended the turn", " went out"} {
						if strings.Contains(l, w) {
							seen[w] = true
						}
					}
				}
			}
		}
	}
	for _, w := range []string{" played ", " moved the ", " put ", " drew", " ended the turn", " went out"} {
		if !seen[w] {
			t.Errorf("no line says %q", w)
		}
	}
	var v View
	v.Piles[N] = Cards(engine.MustCards("5♠"))
	if got := Describe(v, v, 0, Action{Do: Play, Card: engine.MustCards("4♥")[0], To: N}, names)[0]; got != "ann played 4♥ on the 5♠ at N" {
		t.Errorf("a play is worded %q", got)
	}
	if got := Describe(v, v, 2, Action{Do: Move, From: E, To: N}, names)[0]; got != "cy moved the E pile onto N" {
		t.Errorf("a move is worded %q", got)
	}
}
