package command

import (
	"fmt"
	"strings"

	"sshuffle/internal/format"
)

func init() {
	register(command{names: []string{"top"}, usage: "GAME", help: "the all-time leaderboard of GAME", run: top})
}

func top(r Request) (string, int) {
	if len(r.Args) != 2 {
		return "usage: top GAME (for example: top klondike/draw1)\n", 1
	}
	g, ok := entry(r.Games, r.Args[1])
	if !ok {
		return fmt.Sprintf("unknown game %q\n\n%s", format.Clean(r.Args[1], 40), Usage(r.Games)), 1
	}
	rows, err := r.Store.Board(r.Ctx, g.Key(), "", 20)
	if err != nil {
		return "The leaderboard is not available right now.\n", 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: all time\n", g.Title())
	for i, row := range rows {
		won := "lost"
		if row.Won {
			won = "won"
		}
		fmt.Fprintf(&b, "%3d. %-20s %-4s %6d pts %8s %5d moves\n", i+1, format.Clean(row.Name, 20), won, row.Score, format.Duration(row.Elapsed), row.Moves)
	}
	if len(rows) == 0 {
		b.WriteString("  nobody yet\n")
	}
	return b.String(), 0
}
