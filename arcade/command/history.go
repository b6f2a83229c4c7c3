package command

import (
	"fmt"
	"strings"
	"time"

	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/internal/format"
	"sshuffle/store"
)

func init() {
	register(command{names: []string{"history"}, usage: "[--game GAME] [--limit N]",
		help: "your finished games, newest first, with the id that replays one", run: history})
	register(command{names: []string{"replay"}, usage: "ID",
		help: "replay a finished game of your history by its id (needs ssh -t)", run: needsTerminal})
	registerPlay("replay", replayRoute)
}

// replayRoute opens the replay of a game of the player's history; the
// screen looks the id up (only the player's own games are found).
func replayRoute(_ *games.Catalogue, args []string) (*ui.Route, string) {
	if len(args) != 2 {
		return nil, "Usage: ssh -t HOST replay ID (an id from your history)."
	}
	return &ui.Route{Page: ui.Replay, ID: args[1]}, ""
}

// historyLimit is how many games history lists unless told.
const historyLimit = 20

type historyValue struct {
	Name  string        `json:"name"`
	Games []historyGame `json:"games"`
}

type historyGame struct {
	ID       string    `json:"id"`
	Kind     string    `json:"kind"` // solitaire, race or table
	Game     string    `json:"game"` // "klondike", "spite"
	Spec     string    `json:"spec"` // the deal
	Finished time.Time `json:"finished"`
	What     string    `json:"what"`    // the game in words
	Outcome  string    `json:"outcome"` // how it went, in words
}

func (v historyValue) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", v.Name)
	if len(v.Games) == 0 {
		b.WriteString("No finished games yet.\n")
		return b.String()
	}
	fmt.Fprintf(&b, "%-19s  %-16s  %s\n", "id", "finished (UTC)", "game")
	for _, g := range v.Games {
		fmt.Fprintf(&b, "%-19s  %-16s  %s: %s\n", g.ID, g.Finished.UTC().Format("2006-01-02 15:04"), g.What, g.Outcome)
	}
	b.WriteString("Replay one with: ssh -t HOST replay ID\n")
	return b.String()
}

// gameFlag takes "--game G" or "--game=G" (and any other string flag named
// name) out of args.
func stringFlag(usage, name string, args []string) (val string, rest []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == name:
			if i+1 == len(args) {
				return "", nil, refuse(usage, "%s needs a value", name)
			}
			val = args[i+1]
			i++
		case strings.HasPrefix(a, name+"="):
			val = strings.TrimPrefix(a, name+"=")
		default:
			rest = append(rest, a)
		}
	}
	return val, rest, nil
}

func history(r Request, name string, args []string) (value, error) {
	usage := name + " [--game GAME] [--limit N]"
	game, args, err := stringFlag(usage, "--game", args)
	if err != nil {
		return nil, err
	}
	limit := historyLimit
	rest, err := flags(usage, args, nil, map[string]*int{"--limit": &limit})
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, refuse(usage, "%s takes no words, only flags", name)
	}
	if limit < 1 || limit > store.MaxBoard {
		return nil, refuse(usage, "--limit takes 1 to %d", store.MaxBoard)
	}
	game = store.GameOfKey(game) // "klondike/draw1" is klondike's
	if game != "" && !knownGame(r, game) {
		return nil, unknownGame(r.Games, game)
	}
	if r.ID == "" {
		return nil, refuse(usage, "Guests' games are not kept: connect with an SSH key.")
	}
	es, err := r.Store.History(r.ctx(), r.ID, store.HistoryQuery{Game: game, N: limit})
	if err != nil {
		return nil, fail("your history", err)
	}
	v := historyValue{Name: "you", Games: []historyGame{}}
	if acc, err := r.Store.Account(r.ctx(), r.ID); err == nil && acc.Name != "" {
		v.Name = acc.Name
	}
	for _, e := range es {
		what, outcome := ui.HistoryLine(e, r.ID)
		v.Games = append(v.Games, historyGame{ID: e.ID, Kind: e.Kind, Game: e.Game, Spec: entrySpec(e),
			Finished: e.Finished, What: format.Clean(what, 200), Outcome: outcome})
	}
	return v, nil
}

// knownGame: name is a game's name ("klondike", "spite").
func knownGame(r Request, name string) bool {
	for _, e := range r.Games.Entries() {
		if e.Game.Name == name {
			return true
		}
	}
	return false
}

// entrySpec is the deal of a history entry. A table game's is its match's
// deal, whose seed deals the match's later games too: it is "" until the
// match is over, so that nobody at a table still in play can work out the
// hands to come.
func entrySpec(e store.HistoryEntry) string {
	switch {
	case e.Table != nil:
		if !e.Table.MatchEnd {
			return ""
		}
		return e.Table.Spec
	case e.Race != nil:
		return e.Race.Spec
	case e.Result != nil:
		return e.Result.Spec
	}
	return ""
}
