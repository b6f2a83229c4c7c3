// Package rating is the players' ratings at the table games: Glickman's
// Glicko-2 (http://www.glicko.net/glicko/glicko2.pdf), and how a finished
// table game becomes the results it counts. It is pure: no clock, no I/O,
// no random source. Each finished rated game is one rating period for the
// people at it, so a rating moves after every game, and a period without
// games (Idle) only widens the deviation.
package rating

import "math"

// The starting rating and the system constant, Glickman's suggested
// values: a new player is 1500 with a deviation of 350 (about a 95% chance
// of being within 700 points of it) and a volatility of 0.06; Tau 0.5
// keeps a rating from swinging far on one surprising result.
const (
	DefaultRating     = 1500.0
	DefaultDeviation  = 350.0
	DefaultVolatility = 0.06
	Tau               = 0.5
)

// Bounds that keep every rating finite and meaningful whatever it is fed:
// a deviation never grows past a newcomer's, nor shrinks below the point
// where one game could no longer move it; a volatility stays within what
// real play produces; ratings stay in a range a board can show.
const (
	MinDeviation  = 30.0
	MaxDeviation  = DefaultDeviation
	MaxVolatility = 0.1
	MinRating     = 0.0
	MaxRating     = 4000.0
	// Provisional is the deviation above which a rating is marked as not
	// yet settled ("1500?"), as lichess marks it.
	Provisional = 110.0
)

// scale turns the Glicko scale into Glicko-2's (the paper's 173.7178).
const scale = 400 / math.Ln10

// convergence is the paper's epsilon for the volatility iteration.
const convergence = 0.000001

// Rating is one player's Glicko-2 rating on the Glicko scale.
type Rating struct {
	Rating     float64
	Deviation  float64
	Volatility float64
}

// Default is a player with no rated games.
func Default() Rating {
	return Rating{Rating: DefaultRating, Deviation: DefaultDeviation, Volatility: DefaultVolatility}
}

// IsProvisional says the rating is not settled yet: its deviation is still
// above Provisional.
func (r Rating) IsProvisional() bool { return r.Deviation > Provisional }

// Result is one game of a rating period against one opponent.
type Result struct {
	Opponent Rating
	Score    float64 // 1 a win, 0.5 a draw, 0 a loss
}

// Win, Draw and Loss are the scores of a Result.
const (
	Win  = 1.0
	Draw = 0.5
	Loss = 0.0
)

// Clean replaces what is not a number, or out of bounds, by the nearest
// sensible value: a stored or sent rating that went wrong rates as a
// newcomer's rather than poisoning everyone it meets.
func (r Rating) Clean() Rating {
	if !finite(r.Rating) {
		r.Rating = DefaultRating
	}
	if !finite(r.Deviation) || r.Deviation <= 0 {
		r.Deviation = DefaultDeviation
	}
	if !finite(r.Volatility) || r.Volatility <= 0 {
		r.Volatility = DefaultVolatility
	}
	r.Rating = min(max(r.Rating, MinRating), MaxRating)
	r.Deviation = min(max(r.Deviation, MinDeviation), MaxDeviation)
	r.Volatility = min(r.Volatility, MaxVolatility)
	return r
}

// Update is Glickman's step 1-8 for one rating period: the player's rating
// after the period's results. With no results the deviation widens by the
// volatility (step 6 alone), as the paper says for a player who did not
// compete. The result is within the package's bounds.
func Update(player Rating, results []Result) Rating {
	return update(player.Clean(), results).Clean()
}

// update is the paper's algorithm exactly, without the bounds: the worked
// example's figures come from it unrounded.
func update(p Rating, results []Result) Rating {
	mu := (p.Rating - DefaultRating) / scale
	phi := p.Deviation / scale
	sigma := p.Volatility
	if len(results) == 0 {
		p.Deviation = math.Sqrt(phi*phi+sigma*sigma) * scale
		return p
	}
	// Step 3 and 4: the estimated variance v from the outcomes' expected
	// values, and the improvement delta over them.
	var info, gain float64
	for _, r := range results {
		o := r.Opponent.Clean()
		muj := (o.Rating - DefaultRating) / scale
		g := gfn(o.Deviation / scale)
		e := expect(mu, muj, g)
		info += g * g * e * (1 - e)
		gain += g * (r.Score - e)
	}
	v := 1 / info
	delta := v * gain
	// Step 5: the new volatility, by the Illinois method on f.
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(Tau*Tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*Tau) < 0 && k < 1000 {
			k++
		}
		B = a - k*Tau
	}
	fA, fB := f(A), f(B)
	// The iteration converges in a handful of steps; the cap only keeps a
	// pathological input from spinning.
	for i := 0; math.Abs(B-A) > convergence && i < 200; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	sigma2 := math.Exp(A / 2)
	// Steps 6-8: the pre-period deviation, the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigma2*sigma2)
	phi2 := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu2 := mu + phi2*phi2*gain
	return Rating{Rating: mu2*scale + DefaultRating, Deviation: phi2 * scale, Volatility: sigma2}
}

func gfn(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// expect is the expected score against an opponent; it never reaches 0 or
// 1, so that a period always carries some information (v stays finite)
// however far apart the ratings are.
func expect(mu, muj, g float64) float64 {
	e := 1 / (1 + math.Exp(-g*(mu-muj)))
	return min(max(e, 1e-9), 1-1e-9)
}

// Expected is the expected score of a against b (the chance a wins, a draw
// counting half), on the Glicko-2 model.
func Expected(a, b Rating) float64 {
	a, b = a.Clean(), b.Clean()
	return expect((a.Rating-DefaultRating)/scale, (b.Rating-DefaultRating)/scale,
		gfn(math.Hypot(a.Deviation, b.Deviation)/scale))
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
