package rating

import (
	"fmt"
	"math"
	"strconv"
)

// Outcome is a finished table game as the rating reads it: who went out or
// won, each seat's points, and whether low points are better (Kings in the
// Corner's penalties). Gone seats are people who left the game to the
// computer for good.
type Outcome struct {
	Winner  int // the seat that won or went out first; negative when nobody did
	Points  []int
	LowWins bool
	Gone    []bool // by seat; nil when nobody left
}

// Places ranks the seats of a finished game, 1 the best, equal places for
// seats that tie. The seat that won or went out first is alone in first
// place; the others follow by their points (fewer is better when LowWins,
// more otherwise), equal points tying. A seat whose person left the game
// for good comes after every seat that stayed, all such seats tying: who
// walks away loses to everyone who played on, whatever the computer then
// made of their cards.
func Places(o Outcome) []int {
	n := len(o.Points)
	type key struct {
		gone, notWinner int
		points          int
	}
	keys := make([]key, n)
	for i := range n {
		k := key{points: o.Points[i]}
		if !o.LowWins {
			k.points = -k.points
		}
		if i < len(o.Gone) && o.Gone[i] {
			k = key{gone: 1}
		} else if i != o.Winner {
			k.notWinner = 1
		}
		keys[i] = k
	}
	less := func(a, b key) bool {
		if a.gone != b.gone {
			return a.gone < b.gone
		}
		if a.notWinner != b.notWinner {
			return a.notWinner < b.notWinner
		}
		return a.points < b.points
	}
	places := make([]int, n)
	for i := range n {
		places[i] = 1
		for j := range n {
			if less(keys[j], keys[i]) {
				places[i]++
			}
		}
	}
	return places
}

// Seat is one seat of a rated game: its rating before the game, and
// whether that rating is fixed (a computer player's, measured once by
// selfplay) rather than moved by the game.
type Seat struct {
	Rating Rating
	Fixed  bool
}

// RateGame is every seat's rating after a game with the given places (as
// Places makes them): one rating period in which each seat played every
// other, a better place a win, an equal one a draw. Each seat is rated
// against the others' ratings from before the game. A fixed seat keeps its
// rating.
func RateGame(seats []Seat, places []int) ([]Rating, error) {
	if len(seats) != len(places) {
		return nil, fmt.Errorf("rating: %d seats but %d places", len(seats), len(places))
	}
	for _, p := range places {
		if p < 1 || p > len(places) {
			return nil, fmt.Errorf("rating: place %d of %d seats", p, len(places))
		}
	}
	out := make([]Rating, len(seats))
	for i, s := range seats {
		if s.Fixed {
			out[i] = s.Rating
			continue
		}
		var rs []Result
		for j, o := range seats {
			if j == i {
				continue
			}
			score := Draw
			switch {
			case places[i] < places[j]:
				score = Win
			case places[i] > places[j]:
				score = Loss
			}
			rs = append(rs, Result{Opponent: o.Rating, Score: score})
		}
		out[i] = Update(s.Rating, rs)
	}
	return out, nil
}

// Label is a rating as players read it: rounded to a whole point, with a
// question mark while it is provisional ("1500?").
func Label(r Rating) string {
	s := strconv.Itoa(int(math.Round(r.Rating)))
	if r.IsProvisional() {
		s += "?"
	}
	return s
}

// Fit is the ratings that best explain a set of pairwise results between
// fixed players (the computer strengths), on the Elo-Glicko logistic scale:
// the maximum-likelihood ratings of the Bradley-Terry model, draws counting
// half a win each way. wins[i][j] counts i's wins over j (with halves for
// draws). The ratings are shifted so that anchor's is at to. Deviation is
// each rating's standard error with the others held at theirs: the spread
// that Glicko-2 would give a player after these results from no prior
// knowledge. A player with no results keeps the default deviation.
func Fit(wins [][]float64, anchor int, to float64) []Rating {
	n := len(wins)
	r := make([]float64, n)
	q := 1 / scale
	// Newton steps on each rating in turn converge fast on this convex
	// problem; a player who won or lost every game has no finite maximum,
	// so steps are capped and the ratings bounded.
	for range 500 {
		moved := 0.0
		for i := range n {
			var grad, hess float64
			for j := range n {
				if i == j {
					continue
				}
				games := wins[i][j] + wins[j][i]
				if games == 0 {
					continue
				}
				e := 1 / (1 + math.Exp(-q*(r[i]-r[j])))
				grad += q * (wins[i][j] - games*e)
				hess += q * q * games * e * (1 - e)
			}
			if hess == 0 {
				continue
			}
			step := min(max(grad/hess, -200), 200)
			r[i] += step
			r[i] = min(max(r[i], -3000), 3000)
			moved = max(moved, math.Abs(step))
		}
		if moved < 1e-6 {
			break
		}
	}
	shift := 0.0
	if anchor >= 0 && anchor < n {
		shift = to - r[anchor]
	}
	out := make([]Rating, n)
	for i := range n {
		var info float64
		for j := range n {
			if i == j {
				continue
			}
			games := wins[i][j] + wins[j][i]
			e := 1 / (1 + math.Exp(-q*(r[i]-r[j])))
			info += q * q * games * e * (1 - e)
		}
		dev := DefaultDeviation
		if info > 0 {
			dev = min(1/math.Sqrt(info), DefaultDeviation)
		}
		out[i] = Rating{Rating: r[i] + shift, Deviation: dev, Volatility: DefaultVolatility}
	}
	return out
}

// PairwiseScores adds a game's pairwise results by places to wins (as Fit
// reads it): a better place a win, equal places half a win each.
func PairwiseScores(wins [][]float64, who []int, places []int) {
	for a := range places {
		for b := range places {
			if a == b || who[a] == who[b] {
				continue
			}
			switch {
			case places[a] < places[b]:
				wins[who[a]][who[b]]++
			case places[a] == places[b]:
				wins[who[a]][who[b]] += 0.5
			}
		}
	}
}
