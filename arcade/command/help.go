package command

import (
	"net"
	"strconv"

	"sshuffle/internal/format"
)

func init() {
	register(command{names: []string{"help", "--help", "-h"}, help: "this text", run: help})
}

// helpValue is the help text's facts: where the server was reached, its
// commands and the games they take.
type helpValue struct {
	Host     string        `json:"host"` // "" when unknown
	Port     int           `json:"port"` // 0 when unknown
	Commands []helpCommand `json:"commands"`
	Games    []string      `json:"games"`
	text     string
}

type helpCommand struct {
	Name    string   `json:"name"`
	Usage   string   `json:"usage"` // the words after the name
	Help    string   `json:"help"`
	Aliases []string `json:"aliases"`
}

func (h helpValue) Text() string { return h.text }

func help(r Request, _ string, args []string) (value, error) {
	if len(args) > 0 {
		return nil, refuse("help", "help takes nothing after it, not %q.", format.Clean(args[0], 40))
	}
	v := helpValue{Commands: []helpCommand{}, Games: keys(r.Games), text: UsageAt(r.Games, r.Host)}
	if h, p, err := net.SplitHostPort(r.Host); err == nil {
		v.Host = h
		v.Port, _ = strconv.Atoi(p)
	}
	for _, name := range order {
		c := commands[name]
		aliases := []string{}
		for _, a := range c.names[1:] {
			if a[0] != '-' {
				aliases = append(aliases, a)
			}
		}
		v.Commands = append(v.Commands, helpCommand{Name: name, Usage: c.usage, Help: c.help, Aliases: aliases})
	}
	return v, nil
}
