package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"sshuffle/engine"
	"sshuffle/engine/rating"
	"sshuffle/games"
)

const ratingsUsage = `usage: sshuffle ratings spite|kings [--players N,...] [--games N] [--seed S] [--settings k=v,...] [--json]
`

// strengthRating is one line of the ratings report.
type strengthRating struct {
	Strength  string  `json:"strength"`
	Rating    float64 `json:"rating"`
	Deviation float64 `json:"deviation"`
	// Results counts the pairwise results against other strengths that
	// the rating was fitted from (a game of four is three for each seat).
	Results float64 `json:"results"`
}

type ratingsReport struct {
	Game     string           `json:"game"`
	Settings string           `json:"settings"`
	Players  []int            `json:"players"`
	Games    int              `json:"games"` // games played in all
	Anchor   string           `json:"anchor"`
	Ratings  []strengthRating `json:"ratings"`
}

// ratings measures the computer strengths' fixed ratings: every pair of
// strengths plays with one of them in one seat and the other in the rest,
// each seat in turn, on the same deals; every game gives pairwise results
// by finishing place (as rated tables count them), and the ratings are the
// Bradley-Terry fit of those on the Glicko scale, the stand-in strength
// anchored at the newcomer's 1500.
func ratings(args []string, cat *games.Catalogue, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, ratingsUsage)
		return 2
	}
	tg, ok := cat.TableKit(args[0])
	if !ok {
		fmt.Fprintf(stderr, "sshuffle ratings: %q is not a table game\n%s", args[0], ratingsUsage)
		return 2
	}
	info := tg.Info()
	fs := flag.NewFlagSet("ratings", flag.ContinueOnError)
	fs.SetOutput(stderr)
	players := fs.String("players", "", "numbers of seats, comma-separated (default: every number the game takes)")
	deals := fs.Int("games", 500, "deals for each pair of strengths and each seat the lone strength takes")
	seed := fs.Uint64("seed", 1, "deal i comes from seed+i")
	settings := fs.String("settings", "", "table settings, k=v,... (see TABLEGAMES)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 {
		fmt.Fprint(stderr, ratingsUsage)
		return 2
	}
	var counts []int
	if *players == "" {
		for n := info.MinPlayers; n <= info.MaxPlayers; n++ {
			counts = append(counts, n)
		}
	}
	for _, w := range strings.Split(*players, ",") {
		if w == "" && *players == "" {
			break
		}
		n, err := strconv.Atoi(w)
		if err != nil || n < info.MinPlayers || n > info.MaxPlayers || slices.Contains(counts, n) {
			fmt.Fprintf(stderr, "sshuffle ratings: %s is for %s players, not %q\n", info.Name, playerRange(info.MinPlayers, info.MaxPlayers), w)
			return 2
		}
		counts = append(counts, n)
	}
	if *deals <= 0 {
		fmt.Fprintln(stderr, "sshuffle ratings: --games must be at least 1")
		return 2
	}
	canon, err := engine.NormalizeSettings(*settings, info.Settings)
	if err != nil {
		fmt.Fprintf(stderr, "sshuffle ratings: %v\n", err)
		return 2
	}
	rep, err := measureRatings(tg, counts, *deals, *seed, canon)
	if err != nil {
		fmt.Fprintln(stderr, "sshuffle ratings:", err)
		return 2
	}
	if *asJSON {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	label := canon
	if label == "" {
		label = "defaults"
	}
	var ns []string
	for _, n := range rep.Players {
		ns = append(ns, strconv.Itoa(n))
	}
	fmt.Fprintf(stdout, "%s (%s), %s players, %d games: pairwise results by place, %s anchored at %.0f\n",
		info.Name, label, strings.Join(ns, "/"), rep.Games, rep.Anchor, rating.DefaultRating)
	tw := tabwriter.NewWriter(stdout, 2, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "strength\trating\tdeviation\tresults")
	for _, r := range rep.Ratings {
		fmt.Fprintf(tw, "%s\t%.0f\t%.1f\t%.0f\n", r.Strength, r.Rating, r.Deviation, r.Results)
	}
	_ = tw.Flush()
	return 0
}

// measureRatings plays every pair of strengths at tables of each number of
// players and fits their ratings to all the results at once.
func measureRatings(tg engine.TableKit, counts []int, deals int, seed uint64, settings string) (ratingsReport, error) {
	info := tg.Info()
	n := len(info.Strengths)
	index := map[string]int{}
	for i, s := range info.Strengths {
		index[s] = i
	}
	anchor := info.StandInStrength()
	rep := ratingsReport{Game: info.Name, Settings: settings, Players: counts, Anchor: anchor}
	wins := make([][]float64, n)
	for i := range wins {
		wins[i] = make([]float64, n)
	}
	for _, players := range counts {
		if err := playPairs(tg, info.Strengths, index, players, deals, seed, settings, wins, &rep.Games); err != nil {
			return rep, err
		}
	}
	fit := rating.Fit(wins, index[anchor], rating.DefaultRating)
	for i, s := range info.Strengths {
		var results float64
		for j := range n {
			results += wins[i][j] + wins[j][i]
		}
		rep.Ratings = append(rep.Ratings, strengthRating{Strength: s, Rating: math.Round(fit[i].Rating*10) / 10,
			Deviation: math.Round(fit[i].Deviation*10) / 10, Results: results})
	}
	return rep, nil
}

// playPairs plays every pair of strengths at tables of players seats: the
// lone strength of the pair in each seat in turn, the other in the rest,
// on the same deals; each game's pairwise results by place go into wins.
func playPairs(tg engine.TableKit, strengths []string, index map[string]int, players, deals int, seed uint64,
	settings string, wins [][]float64, games *int) error {
	n := len(strengths)
	for a := range n {
		for b := a + 1; b < n; b++ {
			// The lone strength is a in one pass and b in the other, so
			// that at tables of more than two neither pair member always
			// has the company of its own kind.
			for _, lone := range [][2]string{{strengths[a], strengths[b]}, {strengths[b], strengths[a]}} {
				for mine := range players {
					seats := make([]string, players)
					who := make([]int, players)
					for s := range seats {
						seats[s], who[s] = lone[1], index[lone[1]]
					}
					seats[mine], who[mine] = lone[0], index[lone[0]]
					cfg := selfplayConfig{seats: seats, games: deals, seed: seed, settings: settings,
						onHand: func(res engine.TableResult) {
							*games++
							rating.PairwiseScores(wins, who, rating.Places(rating.Outcome{Winner: res.Winner,
								Points: res.Points, LowWins: res.LowWins}))
						}}
					if _, err := selfplayRun(tg, cfg, nil); err != nil {
						return err
					}
				}
				if players == 2 {
					break // the two seats were both a's and both b's already
				}
			}
		}
	}
	return nil
}
