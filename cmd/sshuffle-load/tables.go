package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
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

// header is the first line of a screen: whose turn it is.
func header(s string) string {
	h, _, _ := strings.Cut(s, "\n")
	return h
}

// runTable opens table n and plays until stopAt.
func runTable(addr string, n int, stopAt time.Time) raceResult {
	var res raceResult
	local := func(k int) net.IP { return net.IPv4(127, 2+byte(n/250), byte(n%250), byte(k+1)) }
	name := func(k int) string { return fmt.Sprintf("%s%04dt%d", runPrefix, n, k) }
	host, err := openRacer(addr, local(0), name(0), "table kings person normal normal")
	if err != nil {
		return raceResult{err: err}
	}
	people := []*racer{host}
	defer func() {
		for _, r := range people {
			r.close()
		}
	}()
	s, err := host.waitFor("Invite: ", 30*time.Second)
	if err != nil {
		return raceResult{err: err}
	}
	m := tableCode.FindStringSubmatch(s)
	if m == nil {
		return raceResult{err: errors.New("no table code on the host's screen")}
	}
	other, err := openRacer(addr, local(1), name(1), "join "+m[1])
	if err != nil {
		return raceResult{err: err}
	}
	people = append(people, other)
	if _, err := other.waitFor("You sit in seat 2", 30*time.Second); err != nil {
		return raceResult{err: err}
	}
	if _, err := io.WriteString(host.in, "s"); err != nil {
		return raceResult{err: err}
	}
	for _, r := range people {
		if _, err := r.waitFor("Kings in the Corner", 30*time.Second); err != nil {
			return raceResult{err: err}
		}
	}
	for time.Now().Before(stopAt) {
		for k, mover := range people {
			watcher := people[1-k]
			s := mover.screen()
			switch {
			case strings.Contains(s, "went out.") || strings.Contains(s, "Nobody went out."):
				// The hand is over: each person says yes to the rematch
				// (it is dealt, same seats, once both have).
				_, _ = io.WriteString(mover.in, "r")
				time.Sleep(200 * time.Millisecond)
			case strings.Contains(header(s), "your turn"):
				// The other screen first shows it as the mover's turn.
				theirs := mover.name + "'s turn"
				if _, err := watcher.waitFor(theirs, 10*time.Second); err != nil {
					res.missed++
					continue
				}
				sent := time.Now()
				if _, err := io.WriteString(mover.in, "e"); err != nil {
					res.err = err
					return res
				}
				res.moves++
				seen := false
				for deadline := sent.Add(10 * time.Second); time.Now().Before(deadline); {
					if !strings.Contains(header(watcher.screen()), theirs) {
						res.lat = append(res.lat, time.Since(sent))
						seen = true
						break
					}
					time.Sleep(time.Millisecond)
				}
				if !seen {
					res.missed++
				}
				// The mover's own screen too, before its next look: a
				// frame still saying "your turn" would be taken for the
				// next turn.
				for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
					if !strings.Contains(header(mover.screen()), "your turn") {
						break
					}
					time.Sleep(time.Millisecond)
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return res
}

// tableMode runs the tables and prints what they measured; its exit
// status is 1 when a table failed or a move never reached the other screen.
func tableMode(addr string, n int, ramp, duration time.Duration) int {
	return runRooms("table", n, ramp, duration, func(i int, stopAt time.Time) raceResult {
		return runTable(addr, i, stopAt)
	}, func(r roomTotals) string {
		return fmt.Sprintf("tables %d (2 people, 2 computers each; %d failed); moves %d, reached the other seat's screen %d times, missed %d; move to the other screen",
			n, r.failed, r.moves, r.reached, r.missed)
	})
}
