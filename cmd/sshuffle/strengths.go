package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"sshuffle/engine"
	"sshuffle/games"
)

const strengthsUsage = `usage: sshuffle strengths spite|kings [--players N] [--pairs hard:easy,...] [--games N] [--seed S]
        [--settings k=v,...] [--json]
`

// strengthPair is one line of the strengths report: tested in one seat
// against other in every other seat, the tested seat taking each position
// in turn on the same deals, so neither the deal nor the seat favours it.
type strengthPair struct {
	Tested  string     `json:"tested"`
	Other   string     `json:"other"`
	Games   int        `json:"games"`
	Wins    int        `json:"wins"`
	WinRate float64    `json:"winRate"`
	CI95    [2]float64 `json:"ci95"`
	// MeanScore is the tested seat's mean points, and OtherScore the mean
	// of the other seats' (penalty points in Kings in the Corner).
	MeanScore  float64 `json:"meanScore"`
	OtherScore float64 `json:"otherScore"`
	Draws      int     `json:"draws"`
}

// strengths measures the computer players against one another: what the
// strength targets in docs/tablegames.md are checked with.
func strengths(args []string, cat *games.Catalogue, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, strengthsUsage)
		return 2
	}
	tg, ok := cat.TableKit(args[0])
	if !ok {
		fmt.Fprintf(stderr, "sshuffle strengths: %q is not a table game\n%s", args[0], strengthsUsage)
		return 2
	}
	info := tg.Info()
	fs := flag.NewFlagSet("strengths", flag.ContinueOnError)
	fs.SetOutput(stderr)
	players := fs.Int("players", info.MinPlayers, "number of seats")
	pairs := fs.String("pairs", "hard:easy,hard:normal,normal:easy", "tested:other pairs, comma-separated")
	deals := fs.Int("games", 1000, "deals per pair; each is played once with the tested strength in every seat")
	seed := fs.Uint64("seed", 1, "deal i comes from seed+i")
	settings := fs.String("settings", "", "table settings, k=v,... (see TABLEGAMES)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 {
		fmt.Fprint(stderr, strengthsUsage)
		return 2
	}
	if *players < info.MinPlayers || *players > info.MaxPlayers {
		fmt.Fprintf(stderr, "sshuffle strengths: %s is for %s players, not %d\n", info.Name, playerRange(info.MinPlayers, info.MaxPlayers), *players)
		return 2
	}
	if *deals <= 0 {
		fmt.Fprintln(stderr, "sshuffle strengths: --games must be at least 1")
		return 2
	}
	canon, err := engine.NormalizeSettings(*settings, info.Settings)
	if err != nil {
		fmt.Fprintf(stderr, "sshuffle strengths: %v\n", err)
		return 2
	}
	var out []strengthPair
	for _, p := range strings.Split(*pairs, ",") {
		tested, other, ok := strings.Cut(p, ":")
		if !ok {
			fmt.Fprintf(stderr, "sshuffle strengths: %q is not tested:other\n", p)
			return 2
		}
		r, err := measurePair(tg, *players, tested, other, *deals, *seed, canon)
		if err != nil {
			fmt.Fprintln(stderr, "sshuffle strengths:", err)
			return 2
		}
		out = append(out, r)
	}
	if *asJSON {
		b, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	label := canon
	if label == "" {
		label = "defaults"
	}
	fmt.Fprintf(stdout, "%s (%s), %d players: each deal played with the tested strength in every seat\n", info.Name, label, *players)
	tw := tabwriter.NewWriter(stdout, 2, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "tested\tagainst\tgames\twins\twin rate\t95% interval\tmean score\tothers' mean\twon by nobody")
	for _, r := range out {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.1f%%\t%.1f%%-%.1f%%\t%.2f\t%.2f\t%d\n", r.Tested, r.Other, r.Games, r.Wins,
			100*r.WinRate, 100*r.CI95[0], 100*r.CI95[1], r.MeanScore, r.OtherScore, r.Draws)
	}
	_ = tw.Flush()
	if info.WinsAre != "" && info.PointsAre != "" {
		fmt.Fprintf(stdout, "wins are %s; scores are %s\n", info.WinsAre, info.PointsAre)
	}
	return 0
}

// measurePair plays games deals once for each seat the tested strength
// can take, the others all playing other.
func measurePair(tg engine.TableKit, players int, tested, other string, games int, seed uint64, settings string) (strengthPair, error) {
	r := strengthPair{Tested: tested, Other: other}
	var score, otherScore float64
	for mine := range players {
		seats := make([]string, players)
		for s := range seats {
			seats[s] = other
		}
		seats[mine] = tested
		rep, err := selfplayRun(tg, selfplayConfig{seats: seats, games: games, seed: seed, settings: settings}, nil)
		if err != nil {
			return r, err
		}
		r.Games += rep.Games
		r.Draws += rep.Draws
		for _, s := range rep.Seats {
			if s.Seat == mine {
				r.Wins += s.Wins
				score += s.MeanScore * float64(rep.Games)
			} else {
				otherScore += s.MeanScore * float64(rep.Games)
			}
		}
	}
	r.WinRate = ratio(r.Wins, r.Games)
	lo, hi := wilson(r.Wins, r.Games)
	r.CI95 = [2]float64{lo, hi}
	r.MeanScore = score / float64(r.Games)
	r.OtherScore = otherScore / float64(r.Games*(players-1))
	return r, nil
}
