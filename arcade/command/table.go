package command

import (
	"fmt"
	"slices"
	"strings"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/format"
)

func init() {
	register(command{names: []string{"table"}, usage: "spite|kings [--rated] [--pace steady|quick|instant] [SEAT]... [SETTING=VALUE]...",
		help: "open a table; each SEAT after yours: person, easy, normal or hard; --rated: its games move ratings; --pace: how fast the computers play; settings as in the new-table form, e.g. match=25 (needs ssh -t)", run: needsTerminal})
	registerPlay("table", tableRoute)
}

// tableRoute opens a table at once: table GAME [person|easy|normal|hard]...
// names the seats after the host's (default: one seat for a person);
// --pace WORD (or --pace=WORD), anywhere after the game, sets the computer
// players' pace; --rated makes the table rated (casual without it);
// KEY=VALUE words are the game's settings.
func tableRoute(c *games.Catalogue, args []string) (*ui.Route, string) {
	usage := "Usage: ssh -t HOST table spite|kings [--rated] [--pace steady|quick|instant] [person|easy|normal|hard]... [SETTING=VALUE]... (the seats after yours)."
	if len(args) < 2 {
		return nil, usage
	}
	kit, ok := c.TableKit(args[1])
	if !ok {
		var names []string
		for _, g := range c.TableGames() {
			names = append(names, g.Name)
		}
		return nil, "There is no table game " + format.Clean(args[1], 40) + "; try " + strings.Join(names, " or ") + "."
	}
	info := kit.Info()
	e, ok := c.Entry(info.Name)
	if !ok {
		return nil, usage
	}
	cfg := hub.TableConfig{Game: info.Name, Seats: []hub.SeatPlan{{}}}
	var others, settings []string
	for i := 2; i < len(args); i++ {
		w, pace, isPace := args[i], "", false
		switch {
		case w == "--pace" && i+1 < len(args):
			pace, isPace = args[i+1], true
			i++
		case strings.HasPrefix(w, "--pace="):
			pace, isPace = strings.TrimPrefix(w, "--pace="), true
		case w == "--rated":
			cfg.Rated = true
			continue
		case strings.HasPrefix(w, "-"):
			return nil, usage
		case strings.Contains(w, "="):
			settings = append(settings, w)
			continue
		}
		if !isPace {
			others = append(others, w)
			continue
		}
		sp, err := hub.ParseSpeed(pace)
		if err != nil || pace == "" {
			return nil, "A table's pace is steady, quick or instant. " + usage
		}
		cfg.Speed = sp
	}
	if len(others) == 0 {
		others = []string{"person"}
	}
	if len(settings) > 0 {
		canon, err := engine.NormalizeSettings(strings.Join(settings, ","), info.Settings)
		if err != nil {
			return nil, "Those settings do not work: " + format.Clean(err.Error(), 120) + "."
		}
		cfg.Settings = canon
	}
	for _, w := range others {
		switch {
		case w == "person":
			cfg.Seats = append(cfg.Seats, hub.SeatPlan{})
		case slices.Contains(info.Strengths, w):
			cfg.Seats = append(cfg.Seats, hub.SeatPlan{Computer: w})
		default:
			return nil, usage
		}
	}
	if len(cfg.Seats) < info.MinPlayers || len(cfg.Seats) > info.MaxPlayers {
		return nil, fmt.Sprintf("%s seats %d to %d players.", info.Title, info.MinPlayers, info.MaxPlayers)
	}
	return &ui.Route{Page: ui.Lobby, Game: e, OpenTable: &cfg}, ""
}
