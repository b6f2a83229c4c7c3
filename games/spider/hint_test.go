package spider

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"sshuffle/engine"
)

// shuffleUnseen deals the face-down and stock cards out again in another
// order, keeping every seen card where it is.
func shuffleUnseen(g *Game, r *engine.RNG) *Game {
	h := *g
	var unseen []engine.Card
	s := 0
	for c := 0; c < numCols; c++ {
		unseen = append(unseen, h.p.cards[s:s+int(h.p.down[c])]...)
		s += int(h.p.n[c])
	}
	dealt := (numRows - int(h.p.rows)) * numCols
	unseen = append(unseen, h.stock[dealt:]...)
	r.Shuffle(unseen)
	s = 0
	for c := 0; c < numCols; c++ {
		s += copy(h.p.cards[s:], unseen[:h.p.down[c]])
		unseen = unseen[h.p.down[c]:]
		s += int(h.p.n[c]) - int(h.p.down[c])
	}
	copy(h.stock[dealt:], unseen)
	return &h
}

func TestHintUsesOnlySeenCards(t *testing.T) {
	positions := 0
	for n := 0; n < 300; n++ {
		spec := engine.Spec{Game: "spider", Variant: variants[n%3], Seed: uint64(1000 + n)}
		g, _ := New(spec)
		r := engine.NewRNG(uint64(n))
		for step := 0; step < 60; step++ {
			if step%6 == 0 {
				a, why, ok := g.Hint()
				for k := 0; k < 5; k++ {
					h := shuffleUnseen(g, r)
					require.Equal(t, g.Piles(), h.Piles(), "the player sees the same table")
					a2, why2, ok2 := h.Hint()
					require.Equal(t, a, a2)
					require.Equal(t, why, why2)
					require.Equal(t, ok, ok2)
				}
				if ok {
					require.NotEmpty(t, why)
					require.NoError(t, g.Clone().Do(a), "a hint is a legal action: %s", why)
				}
				positions++
			}
			_ = g.Do(randomAction(g, r))
		}
	}
	require.Greater(t, positions, 2000)
}

func TestHintChoices(t *testing.T) {
	cases := []struct {
		name string
		rows []string
		cols []string
		want engine.Action
		ok   bool
	}{
		{"completes a run", full, []string{"KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "4D | AS", "9H 8C"},
			mv(1, 1, 0), true},
		{"turns up a card", full, []string{"9H", "4D | 8C", "QS"}, mv(1, 1, 0), true},
		{"same suit beats other suit", full, []string{"9H", "4D | 8C", "9C", "KD"}, mv(1, 1, 2), true},
		{"nothing but equal places", full, []string{"3C | 5S", "9D 8C", "9D", "9D", "9D", "9D", "9D", "9D", "9D", "9D"},
			engine.Action{}, false},
		{"deal", []string{"2C 2C 2C 2C 2C 2C 2C 2C 2C 2C"}, []string{"3C | 5S", "9D 8C", "9D", "9D", "9D", "9D", "9D", "9D", "9D", "9D"},
			draw, true},
		{"a move that leads to a turn-up", nil, []string{"AH | 5S 8D", "", "6H", "KC", "KC", "KC", "KC", "KC", "KC", "KC"},
			mv(0, 2, 1), true},
		{"fill the gap", []string{"2C 2C 2C 2C 2C 2C 2C 2C 2C 2C"}, []string{"5S", "9D 8C", "9D 4H JD", "9D", "9D", "9D", "9D", "9D", "9D"},
			mv(2, 2, 9), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := layout(t, tc.rows, tc.cols...)
			a, why, ok := g.Hint()
			require.Equal(t, tc.ok, ok, why)
			require.Equal(t, tc.want, a, why)
		})
	}
}

// playedPositions are positions reached in play: every fourth position on
// the solver's winning line of each deal, so early, middle and late ones.
func playedPositions(tb testing.TB, variant string, deals []uint64) []*Game {
	tb.Helper()
	var out []*Game
	for _, n := range deals {
		spec := engine.Spec{Game: "spider", Variant: variant, Seed: n}
		r := Solve(spec, DefaultNodes)
		require.Equal(tb, engine.Solved, r.Outcome, "%s deal %d", variant, n)
		g, err := New(spec)
		require.NoError(tb, err)
		for i, a := range r.Moves {
			if i%4 == 0 {
				out = append(out, g.Clone())
			}
			require.NoError(tb, g.Do(a))
		}
	}
	return out
}

// hintDeals are deals of each variant the solver wins quickly (four suits
// 1, 3 and 9 within 170k positions), whose winning lines give the
// positions of the hint's benchmark and test.
var hintDeals = map[string][]uint64{
	"1suit": {1, 2, 3},
	"2suit": {1, 2, 3},
	"4suit": {1, 3, 9},
}

// A hint from a position reached in play is a legal action with a reason.
func TestHintOnPlayedPositions(t *testing.T) {
	hinted := 0
	for _, v := range variants {
		for _, g := range playedPositions(t, v, hintDeals[v]) {
			a, why, ok := g.Hint()
			if !ok {
				continue
			}
			hinted++
			require.NotEmpty(t, why)
			require.NoError(t, g.Clone().Do(a), "%s at move %d: %s", v, g.Moves(), why)
		}
	}
	require.Greater(t, hinted, 100)
}

// BenchmarkHint times the hint from positions reached in play, one, two
// and four suits, and reports the 99th percentile and the worst, in ms,
// and how many positions it had nothing for:
//
//	go test -run '^$' -bench Hint -benchtime 20x ./games/spider/
func BenchmarkHint(b *testing.B) {
	for _, v := range variants {
		b.Run(v, func(b *testing.B) {
			games := playedPositions(b, v, hintDeals[v])
			// Every pass's times count, so -benchtime 20x gives 20 samples
			// a position.
			var took []time.Duration
			empty := 0
			for b.Loop() {
				empty = 0
				for _, g := range games {
					t := time.Now()
					_, _, ok := g.Hint()
					took = append(took, time.Since(t))
					if !ok {
						empty++
					}
				}
			}
			slices.Sort(took)
			ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
			b.ReportMetric(float64(len(games)), "positions")
			b.ReportMetric(ms(took[len(took)*99/100]), "p99-ms")
			b.ReportMetric(ms(took[len(took)-1]), "max-ms")
			b.ReportMetric(float64(empty), "empty")
		})
	}
}
