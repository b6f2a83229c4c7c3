package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"sshuffle/engine"
	"sshuffle/games"
)

type selfplayConfig struct {
	seats    []string
	games    int
	seed     uint64
	settings string // canonical
	// onHand, when set, is told the outcome of every game dealt (each
	// game of a match).
	onHand func(engine.TableResult)
}

type seatReport struct {
	Seat          int        `json:"seat"`
	Strength      string     `json:"strength"`
	Wins          int        `json:"wins"`
	WinRate       float64    `json:"winRate"`
	CI95          [2]float64 `json:"ci95"`
	MeanScore     float64    `json:"meanScore"`
	DecisionP50Ms float64    `json:"decisionP50Ms"`
	DecisionP99Ms float64    `json:"decisionP99Ms"`
}

type selfplayReport struct {
	Game           string       `json:"game"`
	Settings       string       `json:"settings"`
	Games          int          `json:"games"`
	Seconds        float64      `json:"seconds"`
	GamesPerSecond float64      `json:"gamesPerSecond"`
	Seats          []seatReport `json:"seats"`
	// Draws counts games (or matches) that nobody won.
	Draws int `json:"draws"`
	// Hands counts every game dealt, which is more than Games when the
	// settings ask for matches.
	Hands int `json:"hands"`
}

// A game that has not ended after this many actions has a computer player
// that loops; no real game of either table game comes near it.
const maxActionsPerGame = 20000

// selfplayRun plays cfg.games matches of the kit's game between computer
// players. It holds the game through its kit alone, so any table game of a
// catalogue plays here with nothing written for it.
func selfplayRun(k engine.TableKit, cfg selfplayConfig, records io.Writer) (selfplayReport, error) {
	n := len(cfg.seats)
	name := k.Info().Name
	rep := selfplayReport{Game: name, Settings: cfg.settings, Games: cfg.games}
	wins := make([]int, n)
	score := make([]float64, n)
	times := map[string][]time.Duration{}
	start := time.Now()
	for gi := 0; gi < cfg.games; gi++ {
		// Game gi deals from seed+gi, and each seat's player has a seed of
		// its own: the same --seed gives the same games and records.
		spec := engine.Spec{Game: name, Settings: cfg.settings, Seed: cfg.seed + uint64(gi)}
		m, err := k.NewMatch(spec, n)
		if err != nil {
			return rep, err
		}
		players := make([]engine.TablePlayer, n)
		for s := range players {
			pseed := engine.NewRNG(spec.Seed ^ uint64(s+1)*0x9e3779b97f4a7c15).Uint64()
			if players[s], err = k.NewPlayer(cfg.seats[s], pseed); err != nil {
				return rep, err
			}
		}
		g := m.Game()
		for {
			rep.Hands++
			for acts := 0; ; acts++ {
				if _, over := g.Over(); over {
					break
				}
				if acts == maxActionsPerGame {
					return rep, fmt.Errorf("game %d (%s): no end after %d actions", gi+1, spec, acts)
				}
				seat := g.Turn()
				// The time of a decision includes making the chosen move,
				// which is small beside the choice for every strength.
				t0 := time.Now()
				err := g.Play(seat, players[seat])
				times[cfg.seats[seat]] = append(times[cfg.seats[seat]], time.Since(t0))
				if err != nil {
					return rep, fmt.Errorf("game %d (%s): the %s player in seat %d found no legal action: %v", gi+1, spec, cfg.seats[seat], seat, err)
				}
			}
			if cfg.onHand != nil {
				res, _ := g.Over()
				cfg.onHand(res)
			}
			if records != nil {
				line, err := games.RecordJSON(g, cfg.seats)
				if err != nil {
					return rep, err
				}
				if _, err := records.Write(append(line, '\n')); err != nil {
					return rep, err
				}
			}
			if !m.Next() {
				break
			}
			g = m.Game()
		}
		if w := m.Winner(); w >= 0 {
			wins[w]++
		} else {
			rep.Draws++
		}
		for s, t := range m.Totals() {
			score[s] += float64(t)
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	if rep.Seconds > 0 {
		rep.GamesPerSecond = float64(cfg.games) / rep.Seconds
	}
	for s := range n {
		lo, hi := wilson(wins[s], cfg.games)
		p50, p99 := percentileMs(times[cfg.seats[s]], 0.50), percentileMs(times[cfg.seats[s]], 0.99)
		rep.Seats = append(rep.Seats, seatReport{Seat: s, Strength: cfg.seats[s], Wins: wins[s],
			WinRate: ratio(wins[s], cfg.games), CI95: [2]float64{lo, hi}, MeanScore: score[s] / float64(max(cfg.games, 1)),
			DecisionP50Ms: p50, DecisionP99Ms: p99})
	}
	return rep, nil
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// wilson is the Wilson score interval at 95%: unlike the normal
// approximation it stays inside [0,1] and is honest near 0% and 100%.
func wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	p := float64(k) / float64(n)
	nf := float64(n)
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return math.Max(0, mid-half), math.Min(1, mid+half)
}

// percentileMs is the nearest-rank percentile, in milliseconds.
func percentileMs(d []time.Duration, q float64) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	i = min(max(i, 0), len(s)-1)
	return float64(s[i].Microseconds()) / 1000
}

const selfplayUsage = `usage: sshuffle selfplay spite|kings [--players N] --seats hard,easy,... --games N [--seed S]
        [--settings k=v,...] [--records FILE] [--json]
`

// selfplay plays a table game of the catalogue between computer players.
func selfplay(args []string, cat *games.Catalogue, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, selfplayUsage)
		return 2
	}
	tg, ok := cat.TableKit(args[0])
	if !ok {
		fmt.Fprintf(stderr, "sshuffle selfplay: %q is not a table game\n%s", args[0], selfplayUsage)
		return 2
	}
	fs := flag.NewFlagSet("selfplay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	players := fs.Int("players", 0, "number of seats (default: the number of --seats)")
	seats := fs.String("seats", "", "strength of each seat, comma-separated: easy, normal or hard")
	games := fs.Int("games", 1000, "games (or matches, when --settings asks for one) to play")
	seed := fs.Uint64("seed", 1, "game i deals from seed+i")
	settings := fs.String("settings", "", "table settings, k=v,... (see TABLEGAMES)")
	recordsPath := fs.String("records", "", "write every game as a JSON Lines record to this file")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 {
		fmt.Fprint(stderr, selfplayUsage)
		return 2
	}
	cfg := selfplayConfig{games: *games, seed: *seed}
	if *seats != "" {
		cfg.seats = strings.Split(*seats, ",")
	}
	n := *players
	if n == 0 {
		n = len(cfg.seats)
	}
	info := tg.Info()
	switch {
	case n < info.MinPlayers || n > info.MaxPlayers:
		fmt.Fprintf(stderr, "sshuffle selfplay: %s is for %s players, not %d\n", info.Name, playerRange(info.MinPlayers, info.MaxPlayers), n)
		return 2
	case len(cfg.seats) == 1:
		for len(cfg.seats) < n {
			cfg.seats = append(cfg.seats, cfg.seats[0])
		}
	case len(cfg.seats) != n:
		fmt.Fprintf(stderr, "sshuffle selfplay: --seats names %d seats for %d players\n", len(cfg.seats), n)
		return 2
	}
	if cfg.games <= 0 {
		fmt.Fprintln(stderr, "sshuffle selfplay: --games must be at least 1")
		return 2
	}
	var err error
	if cfg.settings, err = engine.NormalizeSettings(*settings, info.Settings); err != nil {
		fmt.Fprintf(stderr, "sshuffle selfplay: %v\n", err)
		return 2
	}
	var records io.Writer
	if *recordsPath != "" {
		f, err := os.Create(*recordsPath)
		if err != nil {
			fmt.Fprintln(stderr, "sshuffle selfplay:", err)
			return 2
		}
		bw := bufio.NewWriter(f)
		defer func() { _ = bw.Flush(); _ = f.Close() }()
		records = bw
	}
	rep, err := selfplayRun(tg, cfg, records)
	if err != nil {
		fmt.Fprintln(stderr, "sshuffle selfplay:", err)
		return 2
	}
	if *asJSON {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	printSelfplay(stdout, rep, info)
	return 0
}

func playerRange(lo, hi int) string {
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}

func printSelfplay(w io.Writer, r selfplayReport, info engine.TableInfo) {
	settings := r.Settings
	if settings == "" {
		settings = "defaults"
	}
	fmt.Fprintf(w, "%s (%s): %d games", r.Game, settings, r.Games)
	if r.Hands != r.Games {
		fmt.Fprintf(w, " (%d deals)", r.Hands)
	}
	fmt.Fprintf(w, " in %.1f s, %.0f games/s; %d won by nobody\n", r.Seconds, r.GamesPerSecond, r.Draws)
	tw := tabwriter.NewWriter(w, 2, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "seat\tstrength\twins\twin rate\t95% interval\tmean score\tdecision p50\tp99")
	for _, s := range r.Seats {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.1f%%\t%.1f%%-%.1f%%\t%.2f\t%.3f ms\t%.3f ms\n", s.Seat, s.Strength, s.Wins,
			100*s.WinRate, 100*s.CI95[0], 100*s.CI95[1], s.MeanScore, s.DecisionP50Ms, s.DecisionP99Ms)
	}
	_ = tw.Flush()
	if info.WinsAre != "" && info.PointsAre != "" {
		fmt.Fprintf(w, "wins are %s; mean score is %s\n", info.WinsAre, info.PointsAre)
	}
}

// replayTable checks every record on in with replay: a table game's own
// rules (its kit's Replay).
func replayTable(replay func(line []byte) error, in io.Reader, stdout, stderr io.Writer) int {
	br := bufio.NewReaderSize(in, 1<<16)
	passed, failed := 0, 0
	for n := 1; ; n++ {
		line, err := readLine(br, 64<<20)
		if errors.Is(err, io.EOF) && len(line) == 0 {
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			fmt.Fprintf(stderr, "sshuffle replay: record %d: %v\n", n, err)
			return 2
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			n--
			continue
		}
		if rerr := replay(line); rerr != nil {
			failed++
			fmt.Fprintf(stdout, "record %d: %v\n", n, rerr)
		} else {
			passed++
			fmt.Fprintf(stdout, "record %d: legal, result as recorded\n", n)
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}

// readLine reads one line of any length up to limit, so a long game's
// record never trips a scanner's token limit.
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var out []byte
	for {
		chunk, isPrefix, err := br.ReadLine()
		out = append(out, chunk...)
		if len(out) > limit {
			return nil, fmt.Errorf("longer than %d bytes", limit)
		}
		if err != nil {
			return out, err
		}
		if !isPrefix {
			return out, nil
		}
	}
}
