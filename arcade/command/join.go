package command

import (
	"sshuffle/arcade/ui"
	"sshuffle/games"
)

func init() {
	register(command{names: []string{"join"}, usage: "CODE",
		help: "join a race or a table by its invite code (needs ssh -t)", run: needsTerminal})
	registerPlay("join", joinRoute)
	register(command{names: []string{"watch"}, usage: "CODE",
		help: "watch a race or a table by its invite code (needs ssh -t)", run: needsTerminal})
	registerPlay("watch", watchRoute)
}

// watchRoute opens the room of an invite code as a watcher, never in a
// seat or a racer's place (join CODE makes a guest a watcher too).
func watchRoute(c *games.Catalogue, args []string) (*ui.Route, string) {
	if len(args) != 2 {
		return nil, "Usage: ssh -t HOST watch CODE (the code of an invite line)."
	}
	r, why := joinRoute(c, args)
	if r != nil {
		r.Watch = true
	}
	return r, why
}

// joinRoute opens the room of an invite code. The route names a race; the
// arcade's builder opens a table instead when the code is a table's, and
// the hub normalises and checks the code.
func joinRoute(_ *games.Catalogue, args []string) (*ui.Route, string) {
	if len(args) != 2 {
		return nil, "Usage: ssh -t HOST join CODE (the code of an invite line)."
	}
	return &ui.Route{Page: ui.Race, Code: args[1]}, ""
}
