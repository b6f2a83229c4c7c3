package command

import (
	"sshuffle/arcade/ui"
	"sshuffle/games"
)

// A play command (ssh -t HOST race, join CODE, table GAME) opens the arcade
// on a screen of its own rather than printing text: what it builds is the
// route of that screen. Without a terminal, the same name is a text
// command that says it needs one (needsTerminal).

// route builds the screen a play command opens from its words (args[0] is
// the command's name), or a sentence saying why it cannot.
type route func(c *games.Catalogue, args []string) (*ui.Route, string)

// plays are the play commands by name, each file registering its own.
var plays = map[string]route{}

func registerPlay(name string, r route) { plays[name] = r }

// IsPlay reports whether args name a play command.
func IsPlay(args []string) bool {
	if len(args) == 0 {
		return false
	}
	_, ok := plays[args[0]]
	return ok
}

// PlayRoute is the screen a play command opens, or a sentence saying why
// it cannot (the menu opens instead, showing it). Words that name no play
// command give neither.
func PlayRoute(c *games.Catalogue, args []string) (*ui.Route, string) {
	if !IsPlay(args) {
		return nil, ""
	}
	return plays[args[0]](c, args)
}

// needsTerminal answers a command that opens a screen when it was run
// without a terminal.
func needsTerminal(_ Request, name string, _ []string) (value, error) {
	return nil, refuse("ssh -t HOST "+commands[name].names[0]+" "+commands[name].usage,
		"%s opens a screen, so it needs a terminal: connect with ssh -t.", name)
}
