package command

import (
	"sshuffle/arcade/ui"
	"sshuffle/games"
)

func init() {
	register(command{names: []string{"join"}, usage: "CODE",
		help: "join a race or a table by its invite code (needs ssh -t)", run: needsTerminal})
	registerPlay("join", joinRoute)
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
