package arcade

import (
	"sshuffle/arcade/hub"
)

// poolConfig is the play-now pool's configuration: the server's table
// times for the tables it opens, its wait before a computer is offered,
// and where ratings come from.
//
// No rating is stored yet, so every person pairs as a new player (the
// hub's default 1500, deviation 350: the pool's Rating left nil), and the
// computer players' ratings are the placeholders below. Both are meant to
// be replaced by the stored ratings and the strengths' measured ones.
func (s *Server) poolConfig() hub.PoolConfig {
	return hub.PoolConfig{
		Wait:      s.cfg.PlayNowWait,
		Table:     s.tableDefaults(),
		Computers: func(string) map[string]float64 { return placeholderComputerRatings },
	}
}

// placeholderComputerRatings are guesses, spaced so that a new player
// (1500) is offered the middle strength, a strong one the hard player and
// a weak one the easy player. They are not measured.
var placeholderComputerRatings = map[string]float64{"easy": 1200, "normal": 1500, "hard": 1800}
