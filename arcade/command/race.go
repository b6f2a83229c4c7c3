package command

func init() {
	register(command{names: []string{"race"}, usage: "[GAME | SPEC | today GAME]",
		help: "open a race room (needs ssh -t)", run: needsTerminal})
	register(command{names: []string{"join"}, usage: "CODE",
		help: "join a race or a table by its invite code (needs ssh -t)", run: needsTerminal})
}

// needsTerminal answers a command that opens a screen when it was run
// without a terminal.
func needsTerminal(_ Request, name string, _ []string) (value, error) {
	return nil, refuse("ssh -t HOST "+commands[name].names[0]+" "+commands[name].usage,
		"%s opens a screen, so it needs a terminal: connect with ssh -t.", name)
}
