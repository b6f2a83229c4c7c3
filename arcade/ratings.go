package arcade

import (
	"context"
	"time"

	"sshuffle/arcade/hub"
	"sshuffle/engine/rating"
	"sshuffle/store"
)

// rate makes g a rated game: each seat's place by the rules of
// engine/rating (Places), and each computer's fixed rating from its game's
// kit; the store moves the people's ratings as it keeps the game. A
// computer without a fixed rating leaves the game casual, logged: it
// cannot be rated against fairly.
func (s *Server) rate(g *store.TableGame, res hub.TableResult) {
	k, ok := s.cfg.Games.TableKit(res.Spec.Game)
	if !ok {
		return
	}
	fixed := k.Info().Ratings
	gone := make([]bool, len(res.Seats))
	for i, x := range res.Seats {
		gone[i] = x.Gone
	}
	places := rating.Places(rating.Outcome{Winner: res.Outcome.Winner, Points: res.Outcome.Points,
		LowWins: res.Outcome.LowWins, Gone: gone})
	if len(places) != len(g.Seats) {
		s.log.Error("a rated table game's points do not match its seats", "code", res.Code, "game", res.GameNo)
		return
	}
	for i := range g.Seats {
		g.Seats[i].Place = places[i]
		if g.Seats[i].Account != "" {
			continue
		}
		r, ok := fixed[g.Seats[i].Strength]
		if !ok {
			s.log.Error("a computer without a fixed rating: the game stays casual", "code", res.Code,
				"strength", g.Seats[i].Strength)
			for j := range g.Seats {
				g.Seats[j].Place, g.Seats[j].Rating = 0, nil
			}
			return
		}
		d := rating.Default()
		g.Seats[i].Rating = &store.SeatRating{Rating: r.Rating, Deviation: r.Deviation, Volatility: d.Volatility}
	}
	g.Rated = true
}

// ratingLabel is an account's rating at a table game as the seats show it
// ("1523", "1500?"); "" when the store cannot say.
func (s *Server) ratingLabel(account, game string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	r, err := s.store.Rating(ctx, account, game)
	if err != nil {
		return ""
	}
	return rating.Label(rating.Rating{Rating: r.Rating, Deviation: r.Deviation})
}
