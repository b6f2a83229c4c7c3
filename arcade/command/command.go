// Package command answers the sessions that run a command instead of
// playing (ssh HOST stats): one file a command, each printing plain text.
// It knows no SSH: the arcade hands it the arguments and who is asking.
package command

import (
	"context"
	"fmt"
	"strings"
	"time"

	"sshuffle/arcade/hub"
	"sshuffle/games"
	"sshuffle/internal/format"
	"sshuffle/store"
)

// Request is one command and what it may use.
type Request struct {
	Ctx    context.Context
	Args   []string
	ID     string // the caller's key fingerprint; "" for a guest
	Store  store.Store
	Games  *games.Catalogue
	Health func() error // nil: always healthy
	// Presence reports the given accounts as the live hub sees them; nil:
	// everyone offline.
	Presence func(ids ...string) []hub.Presence
	Now      func() time.Time
}

// command is one text command.
type command struct {
	names []string // the first is the one help shows
	usage string   // "top GAME": the words after the command name
	help  string   // one line
	run   func(Request) (string, int)
}

// commands are the commands by name, each file registering its own.
var commands = map[string]command{}

// order is the order help lists them in.
var order = []string{"help", "health", "whoami", "stats", "top", "friends", "friend", "race", "join"}

func register(c command) { commands[c.names[0]] = c }

func find(name string) (command, bool) {
	for _, c := range commands {
		for _, n := range c.names {
			if n == name {
				return c, true
			}
		}
	}
	return command{}, false
}

// Run runs a request: its text and the exit status (0 done, 1 refused).
func Run(r Request) (string, int) {
	if len(r.Args) == 0 {
		return "sshuffle needs a terminal to play: connect with ssh -t, or run a command:\n\n" + Usage(r.Games), 1
	}
	c, ok := find(r.Args[0])
	if !ok {
		return fmt.Sprintf("unknown command %q\n\n%s", format.Clean(strings.Join(r.Args, " "), 60), Usage(r.Games)), 1
	}
	return c.run(r)
}

// Usage is the help text.
func Usage(c *games.Catalogue) string {
	var b strings.Builder
	b.WriteString("sshuffle: card games over SSH\n\n")
	line := func(words, help string) {
		fmt.Fprintf(&b, "  %-28s%s\n", "ssh -p 2222 HOST"+words, help)
	}
	line("", "play (needs a terminal)")
	for _, name := range order {
		cmd := commands[name]
		words := " " + cmd.names[0]
		if cmd.usage != "" {
			words += " " + cmd.usage
		}
		line(words, cmd.help)
		if cmd.usage == "GAME" {
			for _, l := range wrapList(keys(c), 44) {
				b.WriteString(strings.Repeat(" ", 30) + l + "\n")
			}
		}
	}
	return b.String()
}

// keys are the playable games' keys, for the commands that take a GAME.
func keys(c *games.Catalogue) []string {
	var out []string
	for _, e := range c.Entries() {
		if e.Playable() {
			out = append(out, e.Key())
		}
	}
	return out
}

// wrapList writes "(a, b, c)" in lines of at most width characters.
func wrapList(items []string, width int) []string {
	var lines []string
	line := "("
	for i, it := range items {
		word := it + ","
		if i == len(items)-1 {
			word = it + ")"
		}
		if len(line)+len(word)+1 > width && line != "(" {
			lines = append(lines, line)
			line = ""
		}
		line += " " + word
		if line[:2] == "( " {
			line = "(" + line[2:]
		}
	}
	return append(lines, line)
}

// entry finds a playable game by its key.
func entry(c *games.Catalogue, key string) (games.Entry, bool) {
	e, ok := c.Entry(key)
	return e, ok && e.Playable()
}
