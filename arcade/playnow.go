package arcade

import (
	"context"
	"time"

	"sshuffle/arcade/hub"
)

// poolConfig is the play-now pool's configuration: the server's table
// times for the tables it opens (rated: play now is how strangers meet,
// and their games should count), its wait before a computer is offered,
// and the stored ratings it pairs by.
func (s *Server) poolConfig() hub.PoolConfig {
	table := s.tableDefaults()
	table.Rated = true
	return hub.PoolConfig{
		Wait:      s.cfg.PlayNowWait,
		Table:     table,
		Rating:    s.poolRating,
		Computers: s.computerRatings,
	}
}

// poolRating is an account's stored rating at game; a store that cannot
// answer pairs the player as a new one (the pool's default) rather than
// keeping them out of play.
func (s *Server) poolRating(account, game string) (float64, float64) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	r, err := s.store.Rating(ctx, account, game)
	if err != nil {
		s.log.Warn("play now: rating unread, paired as new", "game", game, "err", err)
		return hub.DefaultRating, hub.DefaultDeviation
	}
	return r.Rating, r.Deviation
}

// computerRatings are the fixed ratings of game's computer strengths, as
// its kit carries them.
func (s *Server) computerRatings(game string) map[string]float64 {
	k, ok := s.cfg.Games.TableKit(game)
	if !ok {
		return nil
	}
	out := make(map[string]float64, len(k.Info().Ratings))
	for name, r := range k.Info().Ratings {
		out[name] = r.Rating
	}
	return out
}
