// Package reports holds the solver reports that the strategy screens and
// solvers.md quote, each made by the command on its first line (`make
// bench-solve` makes them all), and the solver-won deals they list. The
// Markdown reports beside them are for readers and are not embedded.
package reports

import (
	"bufio"
	"embed"
	"regexp"
	"strconv"
	"strings"
)

//go:embed *.txt
var files embed.FS

// Report is what a strategy screen shows of one report.
type Report struct {
	Key     string  // game/variant
	Command string  // the command that made it
	Deals   int     // deals tried
	Solved  int     // deals the solver won
	WinPct  float64 // Solved as a share of Deals, in percent
	Summary string  // the report's text, without the won-deal list
	Won     []uint64
}

var (
	dealsRe  = regexp.MustCompile(`deals \d+-\d+ \((\d+)\)`)
	solvedRe = regexp.MustCompile(`solved (\d+) \(([0-9.]+)%\)`)
)

// fileName maps "klondike/draw1" to "klondike-draw1.txt".
func fileName(key string) string { return strings.ReplaceAll(key, "/", "-") + ".txt" }

// For returns the report of a game key, if one is kept.
func For(key string) (Report, bool) {
	data, err := files.ReadFile(fileName(key))
	if err != nil {
		return Report{}, false
	}
	return parse(key, string(data)), true
}

func parse(key, text string) Report {
	r := Report{Key: key}
	var summary []string
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if n, err := strconv.ParseUint(line, 10, 64); err == nil {
			r.Won = append(r.Won, n)
			continue
		}
		if c, ok := strings.CutPrefix(line, "$ "); ok && r.Command == "" {
			r.Command = c
			continue
		}
		if m := dealsRe.FindStringSubmatch(line); m != nil && r.Deals == 0 {
			r.Deals, _ = strconv.Atoi(m[1])
		}
		if m := solvedRe.FindStringSubmatch(line); m != nil && r.Solved == 0 {
			r.Solved, _ = strconv.Atoi(m[1])
			r.WinPct, _ = strconv.ParseFloat(m[2], 64)
		}
		if line != "" {
			summary = append(summary, line)
		}
	}
	r.Summary = strings.Join(summary, "\n")
	return r
}
