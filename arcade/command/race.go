package command

import (
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/format"
)

func init() {
	register(command{names: []string{"race"}, usage: "[GAME | SPEC | today GAME]",
		help: "open a race room (needs ssh -t)", run: needsTerminal})
	registerPlay("race", raceRoute)
}

// raceRoute opens a race: race [GAME | SPEC | GAME NUMBER | today GAME]; a
// new deal of Klondike (draw one) when nothing is named.
func raceRoute(c *games.Catalogue, args []string) (*ui.Route, string) {
	rest := args[1:]
	daily := false
	if len(rest) > 0 && rest[0] == "today" {
		daily, rest = true, rest[1:]
	}
	key := "klondike/draw1"
	var spec engine.Spec
	switch len(rest) {
	case 0:
	case 1:
		if sp, err := engine.ParseSpec(rest[0]); err == nil && !daily {
			e, canon, err := c.Lookup(sp)
			if err != nil || !e.Playable() {
				return nil, "There is no such deal to race: " + format.Clean(rest[0], 40) + "."
			}
			return &ui.Route{Page: ui.Race, Game: e, Spec: canon}, ""
		}
		key = rest[0]
	default:
		return nil, "Usage: ssh -t HOST race [GAME | GAME/…/NUMBER | today GAME]."
	}
	e, ok := c.Entry(key)
	if !ok || !e.Playable() {
		return nil, "There is no game " + format.Clean(key, 40) + " to race; try klondike/draw1."
	}
	return &ui.Route{Page: ui.Race, Game: e, Spec: spec, Daily: daily}, ""
}
