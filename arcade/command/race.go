package command

func init() {
	register(command{names: []string{"race"}, usage: "[GAME | SPEC | today GAME]",
		help: "open a race room (needs ssh -t)", run: needsTerminal("race")})
	register(command{names: []string{"join"}, usage: "CODE",
		help: "join a race by its invite code (needs ssh -t)", run: needsTerminal("join")})
}

// needsTerminal answers a command that opens a screen when it was run
// without one.
func needsTerminal(name string) func(Request) (string, int) {
	return func(Request) (string, int) {
		return "sshuffle: " + name + " opens a screen, so it needs a terminal: ssh -t HOST " + name + " ...\n", 1
	}
}
