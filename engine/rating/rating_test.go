package rating

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Glickman's worked example (glicko2.pdf, section "Example calculation"):
// a 1500/200/0.06 player beats a 1400/30 player and loses to 1550/100 and
// 1700/300 players, with tau 0.5.
func TestGlickmanExample(t *testing.T) {
	p := Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}
	got := Update(p, []Result{
		{Opponent: Rating{Rating: 1400, Deviation: 30, Volatility: 0.06}, Score: Win},
		{Opponent: Rating{Rating: 1550, Deviation: 100, Volatility: 0.06}, Score: Loss},
		{Opponent: Rating{Rating: 1700, Deviation: 300, Volatility: 0.06}, Score: Loss},
	})
	assert.InDelta(t, 1464.06, got.Rating, 0.01)
	assert.InDelta(t, 151.52, got.Deviation, 0.01)
	assert.InDelta(t, 0.05999, got.Volatility, 0.00001)
}

func TestNoGamesWidensDeviation(t *testing.T) {
	p := Rating{Rating: 1620, Deviation: 80, Volatility: 0.06}
	got := Update(p, nil)
	assert.Equal(t, 1620.0, got.Rating)
	assert.Equal(t, 0.06, got.Volatility)
	// phi' = sqrt(phi^2 + sigma^2) on the Glicko-2 scale.
	want := math.Sqrt(math.Pow(80/scale, 2)+0.06*0.06) * scale
	assert.InDelta(t, want, got.Deviation, 1e-9)
	assert.Greater(t, got.Deviation, 80.0)
	// A newcomer is as uncertain as a rating gets.
	assert.Equal(t, DefaultDeviation, Update(Default(), nil).Deviation)
}

func TestWinRaisesLossLowers(t *testing.T) {
	a, b := Default(), Default()
	w := Update(a, []Result{{Opponent: b, Score: Win}})
	l := Update(b, []Result{{Opponent: a, Score: Loss}})
	d := Update(a, []Result{{Opponent: b, Score: Draw}})
	assert.Greater(t, w.Rating, 1500.0)
	assert.Less(t, l.Rating, 1500.0)
	assert.InDelta(t, 1500, d.Rating, 1e-9)
	assert.InDelta(t, w.Rating-1500, 1500-l.Rating, 1e-6, "equal players move by the same amount")
	assert.Less(t, w.Deviation, DefaultDeviation)
}

func TestExtremeInputsStayFinite(t *testing.T) {
	weird := []Rating{
		{},
		{Rating: math.NaN(), Deviation: math.Inf(1), Volatility: math.NaN()},
		{Rating: 1e12, Deviation: 1e-12, Volatility: 1e6},
		{Rating: -1e12, Deviation: 1e12, Volatility: -1},
		{Rating: 4000, Deviation: 30, Volatility: 0.1},
		{Rating: 0, Deviation: 350, Volatility: 1e-300},
	}
	for _, p := range weird {
		for _, o := range weird {
			for _, s := range []float64{Win, Draw, Loss} {
				got := Update(p, []Result{{Opponent: o, Score: s}, {Opponent: o, Score: 1 - s}, {Opponent: o, Score: s}})
				for _, x := range []float64{got.Rating, got.Deviation, got.Volatility} {
					require.False(t, math.IsNaN(x) || math.IsInf(x, 0), "%+v v %+v scoring %v: %+v", p, o, s, got)
				}
				require.GreaterOrEqual(t, got.Rating, MinRating)
				require.LessOrEqual(t, got.Rating, MaxRating)
				require.GreaterOrEqual(t, got.Deviation, MinDeviation)
				require.LessOrEqual(t, got.Deviation, MaxDeviation)
				require.Greater(t, got.Volatility, 0.0)
				require.LessOrEqual(t, got.Volatility, MaxVolatility)
			}
		}
	}
}

func TestPlaces(t *testing.T) {
	cases := []struct {
		name string
		o    Outcome
		want []int
	}{
		{"spite won", Outcome{Winner: 1, Points: []int{0, 12}}, []int{2, 1}},
		{"spite drawn stalemate", Outcome{Winner: -1, Points: []int{0, 0}}, []int{1, 1}},
		{"kings out, others by penalty", Outcome{Winner: 2, Points: []int{5, 3, 0, 9}, LowWins: true}, []int{3, 2, 1, 4}},
		{"kings equal penalties draw", Outcome{Winner: 0, Points: []int{0, 4, 4}, LowWins: true}, []int{1, 2, 2}},
		{"kings nobody out", Outcome{Winner: -1, Points: []int{2, 1, 2}, LowWins: true}, []int{2, 1, 2}},
		{"the out seat is first even with points", Outcome{Winner: 1, Points: []int{0, 1}, LowWins: true}, []int{2, 1}},
		{"gone seats last, tied", Outcome{Winner: 0, Points: []int{0, 1, 9, 2}, LowWins: true, Gone: []bool{false, true, false, true}}, []int{1, 3, 2, 3}},
		{"a gone winner is still last", Outcome{Winner: 1, Points: []int{0, 7}, Gone: []bool{false, true}}, []int{1, 2}},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, Places(c.o), c.name)
	}
}

func TestRateGame(t *testing.T) {
	a := Rating{Rating: 1600, Deviation: 120, Volatility: 0.06}
	b := Default()
	comp := Rating{Rating: 1450, Deviation: 40, Volatility: 0.06}
	got, err := RateGame([]Seat{{Rating: a}, {Rating: b}, {Rating: comp, Fixed: true}}, []int{1, 2, 2})
	require.NoError(t, err)
	// Each person is rated against the others' ratings from before the game.
	assert.Equal(t, Update(a, []Result{{b, Win}, {comp, Win}}), got[0])
	assert.Equal(t, Update(b, []Result{{a, Loss}, {comp, Draw}}), got[1])
	assert.Equal(t, comp, got[2], "a fixed rating does not move")

	_, err = RateGame([]Seat{{Rating: a}}, []int{1, 2})
	assert.Error(t, err)
	_, err = RateGame([]Seat{{Rating: a}, {Rating: b}}, []int{1, 3})
	assert.Error(t, err)
}

func TestLabel(t *testing.T) {
	assert.Equal(t, "1500?", Label(Default()))
	assert.Equal(t, "1623", Label(Rating{Rating: 1622.6, Deviation: 80}))
	assert.Equal(t, "1623", Label(Rating{Rating: 1622.6, Deviation: Provisional}), "the threshold itself is settled")
}

func TestFit(t *testing.T) {
	// Three players where each beats the next 3 times in 4: the fit
	// recovers the logistic gap log10(3)*400 (about 191) between them.
	wins := [][]float64{
		{0, 300, 0},
		{100, 0, 300},
		{0, 100, 0},
	}
	got := Fit(wins, 1, 1500)
	gap := 400 * math.Log10(3)
	assert.InDelta(t, 1500+gap, got[0].Rating, 0.5)
	assert.InDelta(t, 1500, got[1].Rating, 1e-9)
	assert.InDelta(t, 1500-gap, got[2].Rating, 0.5)
	// The middle player played twice the games: the smaller deviation.
	assert.Less(t, got[1].Deviation, got[0].Deviation)
	assert.Greater(t, got[0].Deviation, 10.0)

	scores := [][]float64{{0, 0}, {0, 0}}
	PairwiseScores(scores, []int{0, 1, 1}, []int{1, 2, 2})
	PairwiseScores(scores, []int{1, 0}, []int{1, 1})
	assert.Equal(t, [][]float64{{0, 2.5}, {0.5, 0}}, scores)
}
