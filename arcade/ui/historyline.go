package ui

import (
	"fmt"
	"strings"

	"sshuffle/internal/format"
	"sshuffle/store"
)

// HistoryLine words one finished game for the player whose history it is
// (account): what was played ("Klondike draw1", "Spite and Malice with
// bob") and how it went ("won in 3:02, 112 moves", "lost 0-12"). The
// history page and the history command print the same words.
func HistoryLine(e store.HistoryEntry, account string) (what, outcome string) {
	switch {
	case e.Table != nil:
		return tableLine(e.Table, account)
	case e.Race != nil:
		return raceLine(e.Race, account)
	case e.Result != nil:
		r := e.Result
		what = strings.ReplaceAll(r.Key, "/", " ")
		switch {
		case r.Won:
			outcome = fmt.Sprintf("won in %s, %s", format.Duration(r.Elapsed), moves(r.Moves))
		case r.Abandoned:
			outcome = "left after " + moves(r.Moves)
		default:
			outcome = "lost after " + moves(r.Moves)
		}
		if r.ByPoints {
			outcome += fmt.Sprintf(", %d points", r.Score)
		}
		if r.Daily {
			what += " (today's deal of " + r.Day + ")"
		}
		return what, outcome
	}
	return e.Game, ""
}

func tableLine(g *store.TableGame, account string) (what, outcome string) {
	me := -1
	var others []string
	for i, s := range g.Seats {
		if s.Account == account && me < 0 {
			me = i
			continue
		}
		others = append(others, format.Clean(s.Name, store.MaxNameLen))
	}
	what = g.Game
	if len(others) > 0 {
		what += " with " + strings.Join(others, ", ")
	}
	if g.GameNo > 0 {
		what += fmt.Sprintf(" (game %d)", g.GameNo+1)
	}
	pts := make([]string, len(g.Points))
	for i, p := range g.Points {
		pts[i] = fmt.Sprint(p)
	}
	score := strings.Join(pts, "-")
	switch {
	case g.Winner < 0:
		outcome = "nobody won"
	case g.Winner == me:
		outcome = "won"
	case g.Winner < len(g.Seats):
		outcome = format.Clean(g.Seats[g.Winner].Name, store.MaxNameLen) + " won"
	}
	if g.LowWins {
		outcome += ", penalties " + score
	} else {
		outcome += " " + score
	}
	if g.MatchEnd {
		switch {
		case g.MatchWinner == me:
			outcome += "; match won"
		case g.MatchWinner < 0:
			outcome += "; match tied"
		default:
			outcome += "; match over"
		}
	}
	return what, outcome
}

func raceLine(r *store.RaceRecord, account string) (what, outcome string) {
	what = "race " + strings.ReplaceAll(r.Key, "/", " ")
	var others []string
	for _, x := range r.Racers {
		if x.Account == account && !x.Ghost {
			switch {
			case x.Place > 0:
				outcome = fmt.Sprintf("%s of %d, %s", format.Ordinal(x.Place), len(r.Racers), format.Duration(x.Time))
			default:
				outcome = x.Status
			}
			continue
		}
		others = append(others, format.Clean(x.Name, store.MaxNameLen))
	}
	if len(others) > 0 {
		what += " with " + strings.Join(others, ", ")
	}
	return what, outcome
}

func moves(n int) string {
	if n == 1 {
		return "1 move"
	}
	return fmt.Sprintf("%d moves", n)
}
