package command

import (
	"fmt"
	"strings"

	"sshuffle/internal/format"
)

func init() {
	register(command{names: []string{"stats"}, help: "your stats for every game", run: stats})
}

func stats(r Request) (string, int) {
	if r.ID == "" {
		return "Guests have no stats.\n", 0
	}
	st, err := r.Store.Stats(r.Ctx, r.ID)
	if err != nil {
		return "Stats are not available right now.\n", 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-22s %6s %6s %10s %10s\n", "game", "played", "won", "best score", "best time")
	for _, key := range keys(r.Games) {
		x := st[key]
		fmt.Fprintf(&b, "%-22s %6d %6d %10d %10s\n", key, x.Played, x.Won, x.BestScore, format.Duration(x.BestTime))
	}
	return b.String(), 0
}
