package command

import (
	"strconv"
	"strings"

	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/internal/format"
)

func init() {
	register(command{names: []string{"play"}, usage: "spite|kings [--players N] | GAME",
		help: "play now: a table with players near your rating (a computer player is offered after a while), or a solitaire (needs ssh -t)",
		run:  needsTerminal})
	registerPlay("play", playRoute)
}

// playRoute opens "play now" for a table game (play spite, play kings
// --players 3), or a solitaire as the menu would (play freecell).
func playRoute(c *games.Catalogue, args []string) (*ui.Route, string) {
	usage := "Usage: ssh -t HOST play spite|kings [--players N], or play GAME for a solitaire (klondike/draw1, freecell...)."
	if len(args) < 2 {
		return nil, usage
	}
	if kit, ok := c.TableKit(args[1]); ok {
		info := kit.Info()
		e, ok := c.Entry(info.Name)
		if !ok {
			return nil, usage
		}
		players := 0
		for i := 2; i < len(args); i++ {
			w, n := args[i], ""
			switch {
			case w == "--players" && i+1 < len(args):
				n = args[i+1]
				i++
			case strings.HasPrefix(w, "--players="):
				n = strings.TrimPrefix(w, "--players=")
			default:
				return nil, usage
			}
			v, err := strconv.Atoi(n)
			if err != nil || v < info.MinPlayers || v > info.MaxPlayers {
				if info.MinPlayers == info.MaxPlayers {
					return nil, info.Title + " is for " + strconv.Itoa(info.MinPlayers) + " players."
				}
				return nil, info.Title + " is for " + strconv.Itoa(info.MinPlayers) + " to " + strconv.Itoa(info.MaxPlayers) + " players: --players " + strconv.Itoa(info.MinPlayers) + " to " + strconv.Itoa(info.MaxPlayers) + "."
			}
			players = v
		}
		return &ui.Route{Page: ui.PlayNow, Game: e, Players: players}, ""
	}
	e, ok := c.Entry(args[1])
	if !ok || !e.Playable() || len(args) > 2 {
		var names []string
		for _, g := range c.TableGames() {
			names = append(names, g.Name)
		}
		if !ok || !e.Playable() {
			return nil, "There is no game " + format.Clean(args[1], 40) + " to play; try " + strings.Join(names, ", ") + " or klondike/draw1."
		}
		return nil, usage
	}
	return &ui.Route{Page: ui.Play, Game: e}, ""
}
