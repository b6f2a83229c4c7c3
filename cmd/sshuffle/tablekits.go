package main

import (
	"sshuffle/engine"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
)

// tableGames lists the table games the command line can play and replay.
func tableGames() []tableCommand {
	return []tableCommand{
		tableKit[spite.Action, spite.View, *spite.Game]{
			name: spite.Name, settings: spite.Settings, minP: spite.MinPlayers, maxP: spite.MaxPlayers,
			newMatch: func(s engine.Spec, n int) (matchOf[*spite.Game], error) {
				m, err := spite.NewMatch(s, n)
				if err != nil {
					return nil, err
				}
				return m, nil
			},
			newPlayer: spite.NewPlayer,
			record:    func(g *spite.Game, seats []string) any { return g.Record(seats) },
		}.command(spite.Replay),
		tableKit[kings.Action, kings.View, *kings.Game]{
			name: kings.Name, settings: kings.Settings, minP: kings.MinPlayers, maxP: kings.MaxPlayers,
			newMatch: func(s engine.Spec, n int) (matchOf[*kings.Game], error) {
				m, err := kings.NewMatch(s, n)
				if err != nil {
					return nil, err
				}
				return m, nil
			},
			newPlayer: kings.NewPlayer,
			record:    func(g *kings.Game, seats []string) any { return g.Record(seats) },
		}.command(kings.Replay),
	}
}
