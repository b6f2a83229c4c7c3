package main

import (
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The table mode (--tables N): N tables of Kings in the Corner, each with
// two load-generator people and two normal computer players. A person whose
// turn it is ends it (e); the figure is the time from that key until the
// other person's screen no longer shows it as the mover's turn: a move
// reaching the other seat's screen, as a person sees it (through a
// terminal emulator). The computers play at the server's pace between.

var tableCode = regexp.MustCompile(`join ([A-Z0-9]{5})`)

// tableGame is how the load people play one game of the tables.
type tableGame struct {
	command, title string
	// end is the keys that end a person's turn: in Kings, e; in Spite,
	// the first hand card taken (1, space) and dropped on the side stack
	// above it (up, space), a discard.
	end  string
	over func([]string) bool // the game is over: a rematch is asked
}

var tableGames = map[string]tableGame{
	"kings": {command: "table kings person normal normal", title: "Kings in the Corner", end: "e",
		over: func(l []string) bool { return containsLine("went out.")(l) }},
	"spite": {command: "table spite person", title: "Spite and Malice", end: "1 \x1b[A ",
		over: func(l []string) bool {
			return containsLine("wins, scoring")(l) || containsLine("The game is drawn.")(l)
		}},
}

// lineHas is a cond's test on one line.
func lineHas(y int, s string, want bool) func([]string) bool {
	return func(l []string) bool { return strings.Contains(l[y], s) == want }
}

// runTable opens table n with watchers watching it and plays until stopAt;
// a person thinks up to think (at random) before ending a turn, so that
// the turn clocks tick on every screen meanwhile.
func runTable(addr string, g tableGame, n, watchers int, think time.Duration, stopAt time.Time) raceResult {
	var res raceResult
	people, lookers, err := seatTable(addr, g, n, watchers)
	defer func() {
		for _, r := range append(people, lookers...) {
			r.close()
		}
	}()
	if err != nil {
		return raceResult{err: err}
	}
	for time.Now().Before(stopAt) {
		for k, mover := range people {
			// Everyone but the mover: the other seat and the watchers.
			others := append([]*racer{people[1-k]}, lookers...)
			switch {
			case mover.has(g.over):
				// The hand is over: each person says yes to the rematch
				// (it is dealt, same seats, once both have).
				_, _ = io.WriteString(mover.in, "r")
				time.Sleep(200 * time.Millisecond)
			case mover.has(lineHas(0, "your turn", true)):
				// The other screens first show it as the mover's turn.
				theirs := mover.name + "'s turn"
				if _, ok := others[0].until(lineHas(0, theirs, true), time.Now(), 10*time.Second); !ok {
					res.missed++
					continue
				}
				if think > 0 {
					time.Sleep(mrand.N(think))
				}
				sent := time.Now()
				cs := make([]*cond, len(others))
				b0 := make([]int, len(others))
				for j, o := range others {
					b0[j] = o.read()
					cs[j] = newCond(lineHas(0, theirs, false), sent)
					o.expect(cs[j])
				}
				if _, err := io.WriteString(mover.in, g.end); err != nil {
					res.err = err
					return res
				}
				res.moves++
				timeout := time.NewTimer(10 * time.Second)
				for j, c := range cs {
					select {
					case d := <-c.seen:
						res.lat, res.sent = append(res.lat, d), append(res.sent, sent)
						res.moveBytes = append(res.moveBytes, others[j].read()-b0[j])
					case <-timeout.C:
						res.missed++
						others[j].drop(c)
					}
				}
				timeout.Stop()
				// The mover's own screen too, before its next look: a
				// frame still saying "your turn" would be taken for the
				// next turn.
				mover.until(lineHas(0, "your turn", false), time.Now(), 10*time.Second)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, r := range append(people, lookers...) {
		res.tickBytes = append(res.tickBytes, r.ticks()...)
	}
	return res
}

// seatTable opens table n (its host, the second person joining by code,
// then the watchers) and starts it; it returns every session it opened,
// to be closed, even when it fails.
func seatTable(addr string, g tableGame, n, watchers int) (people, lookers []*racer, err error) {
	local := func(k int) net.IP { return net.IPv4(127, 2+byte(n/250), byte(n%250), byte(k+1)) }
	name := func(k int) string { return fmt.Sprintf("%s%04dt%d", runPrefix, n, k) }
	host, err := openRacer(addr, local(0), name(0), g.command)
	if err != nil {
		return nil, nil, err
	}
	people = []*racer{host}
	s, err := host.waitFor("Invite: ", 30*time.Second)
	if err != nil {
		return people, nil, err
	}
	m := tableCode.FindStringSubmatch(s)
	if m == nil {
		return people, nil, errors.New("no table code on the host's screen")
	}
	other, err := openRacer(addr, local(1), name(1), "join "+m[1])
	if err != nil {
		return people, nil, err
	}
	people = append(people, other)
	if _, err := other.waitFor("You sit in seat 2", 30*time.Second); err != nil {
		return people, nil, err
	}
	for k := range watchers {
		w, err := openRacer(addr, local(2+k), name(2+k), "watch "+m[1])
		if err != nil {
			return people, lookers, err
		}
		lookers = append(lookers, w)
	}
	if _, err := io.WriteString(host.in, "s"); err != nil {
		return people, lookers, err
	}
	for _, r := range append(people, lookers...) {
		if _, err := r.waitFor(g.title, 30*time.Second); err != nil {
			return people, lookers, err
		}
	}
	return people, lookers, nil
}

// tableCount is how many tables of one game a run opens.
type tableCount struct {
	game string
	n    int
}

// parseMix reads --mix: game:tables pairs, comma-separated (kings:400,spite:200).
func parseMix(s string) ([]tableCount, error) {
	var out []tableCount
	for _, f := range strings.Split(s, ",") {
		game, count, ok := strings.Cut(strings.TrimSpace(f), ":")
		n, err := strconv.Atoi(count)
		if _, known := tableGames[game]; !ok || !known || err != nil || n <= 0 {
			return nil, fmt.Errorf("--mix wants game:tables pairs such as kings:400,spite:200 (games: kings, spite), not %q", f)
		}
		if slices.ContainsFunc(out, func(c tableCount) bool { return c.game == game }) {
			return nil, fmt.Errorf("--mix names %s twice", game)
		}
		out = append(out, tableCount{game, n})
	}
	return out, nil
}

// tableMode runs the tables of every game in mix against the server at
// once, opened interleaved over one ramp and measured over one window, and
// prints what they measured, together and (with more than one game) each
// game's own; its exit status is 1 when a table failed or a move never
// reached the other screen.
func tableMode(addr string, mix []tableCount, watchers int, think, ramp, duration time.Duration, pid int) int {
	groups := make([]roomGroup, len(mix))
	var what []string
	for k, c := range mix {
		g := tableGames[c.game]
		groups[k] = roomGroup{kind: c.game, n: c.n, people: 2, watchers: watchers, run: func(i int, stopAt time.Time) raceResult {
			return runTable(addr, g, i, watchers, think, stopAt)
		}}
		what = append(what, fmt.Sprintf("%s tables %d (%s)", c.game, c.n,
			map[string]string{"kings": "2 people, 2 computers", "spite": "2 people"}[c.game]))
	}
	return runRooms(groups, ramp, duration, pid, func(r roomTotals) string {
		return fmt.Sprintf("%s, %d watchers each; %d failed; moves %d, reached another screen %d times, missed %d; move to the other screens",
			strings.Join(what, " and "), watchers, r.failed, r.moves, r.reached, r.missed)
	})
}
