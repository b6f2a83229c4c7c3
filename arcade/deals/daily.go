package deals

import (
	"context"
	"errors"
	"time"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/store"
)

// Today is today's deal of a game: one per game and settings per UTC day,
// the same for everyone, chosen once and kept in the store. It is a
// solver-won deal wherever the game offers those.
func Today(ctx context.Context, st store.Dailies, pools *Pools, g games.Entry, now time.Time) (engine.Spec, string, error) {
	day := store.Day(now)
	text, err := st.Daily(ctx, g.Key(), day, func() (string, error) {
		return Fresh(pools, g, games.Options{games.Winnable.Key: true}).String(), nil
	})
	if err != nil {
		return engine.Spec{}, day, errors.New("today's deal is not available right now")
	}
	spec, err := engine.ParseSpec(text)
	if err != nil {
		return engine.Spec{}, day, errors.New("today's deal is damaged in the store")
	}
	return spec, day, nil
}
