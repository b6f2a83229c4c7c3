// Package command answers the sessions that run a command instead of
// playing (ssh HOST stats): one file a command. Each command builds a value
// and Run prints it as readable text, or as JSON with --json, so scripts
// read the same facts a person does. It knows no SSH: the arcade hands it
// the arguments, who is asking and where they connected to.
package command

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"time"

	"sshuffle/arcade/deals"
	"sshuffle/arcade/hub"
	"sshuffle/arcade/throttle"
	"sshuffle/games"
	"sshuffle/internal/format"
	"sshuffle/store"
)

// Exit statuses.
const (
	Done    = 0 // the command did what it was asked
	Refused = 1 // a bad command: its usage is printed
	Failed  = 2 // the server could not do it right now
)

// Request is one command and what it may use.
type Request struct {
	Ctx    context.Context // nil: background
	Args   []string
	ID     string // the caller's key fingerprint; "" for a guest
	Store  store.Store
	Games  *games.Catalogue
	Pools  *deals.Pools
	Health func() error // nil: always healthy
	// Presence reports the given accounts as the live hub sees them; nil:
	// everyone offline.
	Presence func(ids ...string) []hub.Presence
	// Tables lists the hub's open tables; nil: none.
	Tables func() []hub.TableInfo
	// InviteLine is the line that opens the room with a code; nil: none.
	InviteLine func(code string) string
	Log        *slog.Logger // nil: discard
	Now        func() time.Time
	// Host is the address the client connected to ("127.0.0.1:2222"),
	// so that help prints commands that work as they are; "" prints HOST.
	Host string
	// Addr is where the client connects from (limits per address); ""
	// for none.
	Addr string
	// Names throttles lookups of names that find nobody; nil: none.
	Names *throttle.Names
	// User is the SSH user name, the name a new account claims (bot
	// register); "" for none.
	User string
}

func (r Request) ctx() context.Context {
	if r.Ctx == nil {
		return context.Background()
	}
	return r.Ctx
}

// value is what a command builds: its exported fields are the JSON, and
// Text is the same facts for a person.
type value interface{ Text() string }

// command is one text command.
type command struct {
	names []string // the first is the one help shows; the others are aliases
	usage string   // "GAME [--daily]": the words after the command name
	help  string   // one line
	run   func(r Request, name string, args []string) (value, error)
}

// refusal is a bad command (exit 1): the sentence, then the usage line.
type refusal struct {
	msg   string
	usage string // "top GAME": printed as "usage: top GAME"; "" prints the help text
}

func (e refusal) Error() string { return e.msg }

// unknownGame refuses a game name, listing what the player may have
// meant: a game's variants when the name is the game's ("klondike"),
// else every game.
func unknownGame(c *games.Catalogue, name string) error {
	var like []string
	for _, k := range keys(c) {
		if strings.HasPrefix(k, name+"/") {
			like = append(like, k)
		}
	}
	if len(like) > 0 {
		return refuse("", "unknown game %q: name one of its variants: %s", format.Clean(name, 40), strings.Join(like, ", "))
	}
	return refuse("", "unknown game %q; the games are: %s", format.Clean(name, 40), strings.Join(keys(c), ", "))
}

func refuse(usage, format string, a ...any) error {
	return refusal{msg: fmt.Sprintf(format, a...), usage: usage}
}

// failure is a server-side failure (exit 2): what could not be done, for
// the caller, and the error behind it, for nobody but the log.
type failure struct {
	what string
	err  error
}

func (e failure) Error() string {
	return e.what + " is not available right now; try again in a minute."
}
func (e failure) Unwrap() error { return e.err }

func fail(what string, err error) error { return failure{what: what, err: err} }

// commands are the commands by name, each file registering its own.
var commands = map[string]command{}

// order is the order help lists them in.
var order = []string{"help", "health", "whoami", "rename", "daily", "stats", "friends", "friend", "race", "join", "watch", "tables", "table", "play", "history", "replay", "export", "bot", "leaderboard"}

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

// Run runs a request: what to print and the exit status (Done, Refused,
// Failed). Done's text goes to stdout, the others' to stderr.
func Run(r Request) (string, int) {
	if r.Now == nil {
		r.Now = time.Now
	}
	if len(r.Args) == 0 {
		return "sshuffle needs a terminal to play: connect with ssh -t, or run a command:\n\n" + UsageAt(r.Games, r.Host), Refused
	}
	asJSON := false
	args := make([]string, 0, len(r.Args))
	for _, a := range r.Args[1:] {
		if a == "--json" {
			asJSON = true
			continue
		}
		args = append(args, a)
	}
	name := r.Args[0]
	c, ok := find(name)
	if !ok {
		return fmt.Sprintf("unknown command %q\n\n%s", format.Clean(strings.Join(r.Args, " "), 60), UsageAt(r.Games, r.Host)), Refused
	}
	v, err := c.run(r, name, args)
	if err != nil {
		return printError(err, asJSON, r)
	}
	if asJSON {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return printError(fail("this answer", err), true, r)
		}
		return string(b) + "\n", Done
	}
	return v.Text(), Done
}

func printError(err error, asJSON bool, r Request) (string, int) {
	code, text := Failed, err.Error()
	var ref refusal
	var f failure
	switch {
	case errors.As(err, &ref):
		code = Refused
	case errors.As(err, &f) && r.Log != nil:
		r.Log.Error("command failed", "command", r.Args[0], "error", f.err.Error())
	}
	if asJSON {
		b, _ := json.Marshal(struct {
			Error string `json:"error"`
			Code  int    `json:"code"`
		}{text, code})
		return string(b) + "\n", code
	}
	switch {
	case code == Refused && ref.usage != "":
		text += "\nusage: " + ref.usage + "\n"
	case code == Refused:
		text += "\n\n" + UsageAt(r.Games, r.Host)
	default:
		text += "\n"
	}
	return text, code
}

// flags reads the words after a command: the boolean flags named in
// bools, the integer flags in ints (as "--limit N" or "--limit=N"), and
// the rest, which must not look like a flag.
func flags(usage string, args []string, bools map[string]*bool, ints map[string]*int) ([]string, error) {
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			rest = append(rest, a)
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		if p, ok := bools[name]; ok && !hasVal {
			*p = true
			continue
		}
		if p, ok := ints[name]; ok {
			if !hasVal {
				if i+1 == len(args) {
					return nil, refuse(usage, "%s needs a number", name)
				}
				i++
				val = args[i]
			}
			n, err := strconv.Atoi(val)
			if err != nil {
				return nil, refuse(usage, "%s needs a number, not %q", name, format.Clean(val, 20))
			}
			*p = n
			continue
		}
		return nil, refuse(usage, "unknown flag %q", format.Clean(a, 30))
	}
	return rest, nil
}

// Usage is the help text with HOST for the server's address.
func Usage(c *games.Catalogue) string { return UsageAt(c, "") }

// sshLine is how a client reaches host ("127.0.0.1:2222"): "ssh -p 2222
// 127.0.0.1", or "ssh HOST" when the address is unknown.
func sshLine(host string) string {
	h, port, err := net.SplitHostPort(host)
	switch {
	case host == "" || err != nil:
		return "ssh HOST"
	case port == "22":
		return "ssh " + h
	}
	return "ssh -p " + port + " " + h
}

// UsageAt is the help text for a client that connected to host.
func UsageAt(c *games.Catalogue, host string) string {
	var b strings.Builder
	b.WriteString("sshuffle: card games over SSH\n\n")
	ssh := sshLine(host)
	// One line a command when it fits 80 columns, else the help under it.
	line := func(words, help string) {
		full := ssh + words
		if len(full) <= 32 && 2+34+len(help) <= 80 {
			fmt.Fprintf(&b, "  %-34s%s\n", full, help)
			return
		}
		fmt.Fprintf(&b, "  %s\n      %s\n", full, help)
	}
	line("", "play (needs a terminal)")
	for _, name := range order {
		cmd := commands[name]
		words := " " + cmd.names[0]
		if cmd.usage != "" {
			words += " " + cmd.usage
		}
		line(words, cmd.help)
		if strings.HasPrefix(cmd.usage, "GAME") {
			for _, l := range wrapList(keys(c), 72) {
				b.WriteString(strings.Repeat(" ", 6) + l + "\n")
			}
		}
		if len(cmd.names) > 1 && !strings.HasPrefix(cmd.names[1], "-") {
			fmt.Fprintf(&b, "      (also: %s)\n", strings.Join(cmd.names[1:], ", "))
		}
	}
	b.WriteString("\nEvery command takes --json to print the same facts as JSON (see the README).\n")
	b.WriteString("Exit status: 0 done, 1 a bad command (with its usage), 2 the server could not do it right now.\n")
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

// streak is a daily streak as the commands print it.
type streak struct {
	Current int `json:"current"`
	Best    int `json:"best"`
}

// seconds is a duration as whole seconds, for JSON.
func seconds(d time.Duration) int64 { return int64(d.Round(time.Second) / time.Second) }

// playerName is a stored name as shown to anyone: validated when claimed,
// cleaned again because it is shown to other players.
func playerName(n string) string {
	if n == "" {
		return "(no name)"
	}
	return format.Clean(n, store.MaxNameLen)
}
