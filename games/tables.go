package games

import (
	"sshuffle/engine"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
)

// SpiteKit is Spite and Malice as the server holds it.
func SpiteKit() engine.TableKit {
	return TablePackage[spite.Action, spite.View, *spite.Game, *spite.Match]{
		Info: engine.TableInfo{Name: spite.Name, Title: "Spite and Malice", Settings: spite.Settings,
			MinPlayers: spite.MinPlayers, MaxPlayers: spite.MaxPlayers, Strengths: spite.Strengths,
			StandIn: "normal", // the one docs/tablegames.md names
			// reports/ratings.md: `sshuffle ratings spite --games 2000`.
			Ratings: map[string]engine.StrengthRating{
				"easy": {Rating: 972, Deviation: 11.9}, "normal": {Rating: 1500, Deviation: 6.4}, "hard": {Rating: 1781, Deviation: 7.1},
			}},
		NewMatch: spite.NewMatch, Resume: spite.Resume, ResumeMatch: spite.ResumeMatch,
		NewPlayer: spite.NewPlayer, Describe: spite.Describe, Replay: spite.Replay,
		Record:       func(g *spite.Game, seats []string) any { return g.Record(seats) },
		RecordHead:   func(g *spite.Game, seats []string) any { return g.RecordHead(seats) },
		RecordAction: func(g *spite.Game, i int) any { return g.RecordAction(i) },
		NotYourTurn:  spite.ErrNotYourTurn,
		EncodeAction: spite.EncodeAction, DecodeAction: spite.DecodeAction,
		EncodeView: spite.EncodeView, DecodeView: spite.DecodeView,
	}.Kit()
}

// KingsKit is Kings in the Corner as the server holds it.
func KingsKit() engine.TableKit {
	return TablePackage[kings.Action, kings.View, *kings.Game, *kings.Match]{
		Info: engine.TableInfo{Name: kings.Name, Title: "Kings in the Corner", Settings: kings.Settings,
			MinPlayers: kings.MinPlayers, MaxPlayers: kings.MaxPlayers, Strengths: kings.Strengths,
			StandIn: "normal", WinsAre: "hands gone out (matches won, with a match setting)", PointsAre: "penalty points",
			// reports/ratings.md: `sshuffle ratings kings --games 400`.
			Ratings: map[string]engine.StrengthRating{
				"easy": {Rating: 1197, Deviation: 2.8}, "normal": {Rating: 1500, Deviation: 2.3}, "hard": {Rating: 1490, Deviation: 2.3},
			}},
		NewMatch: kings.NewMatch, Resume: kings.Resume, ResumeMatch: kings.ResumeMatch,
		NewPlayer: kings.NewPlayer, Describe: kings.Describe, Replay: kings.Replay,
		Record:       func(g *kings.Game, seats []string) any { return g.Record(seats) },
		RecordHead:   func(g *kings.Game, seats []string) any { return g.RecordHead(seats) },
		RecordAction: func(g *kings.Game, i int) any { return g.RecordAction(i) },
		NotYourTurn:  kings.ErrNotYourTurn,
		EncodeAction: kings.EncodeAction, DecodeAction: kings.DecodeAction,
		EncodeView: kings.EncodeView, DecodeView: kings.DecodeView,
	}.Kit()
}
