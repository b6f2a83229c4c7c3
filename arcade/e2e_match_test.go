package arcade

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/command"
	"sshuffle/internal/sshtest"
	"sshuffle/store"
)

// matchOf is the games of one match at a table (its deal spec), oldest
// first, as an account's record keeps them (newest first).
func matchesOf(gs []store.TableGame) map[string][]store.TableGame {
	out := map[string][]store.TableGame{}
	for i := len(gs) - 1; i >= 0; i-- {
		out[gs[i].Spec] = append(out[gs[i].Spec], gs[i])
	}
	return out
}

// flat is a screen's words on one line: the status lines wrap.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// A Kings match to 25 between two people and a hard computer, over SSH,
// played to its end (the people let their clocks run out: the computer
// plays each of their turns); the rematch is offered to both, accepted by
// both and played to its end; the next one bob declines, which closes the
// table for both. Both people's stats count every game and both matches,
// and every stored game replays.
func TestEndToEndKingsMatchAndRematches(t *testing.T) {
	ts := startTableServer(t, t.TempDir())
	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	bob := &player{name: "bob", key: sshtest.NewClientKey(t)}
	code := openTable(t, ts, "table kings person hard match=25", alice, bob)
	alice.tm.Send("s")
	for _, p := range []*player{alice, bob} {
		p.tm.WaitFor(p.name + " (you)")
	}
	aliceID, bobID := bobID(t, ts.testServer, "alice"), bobID(t, ts.testServer, "bob")
	ended := func(id string) int {
		n := 0
		for _, g := range recorded(t, ts, id, code) {
			if g.MatchEnd {
				n++
			}
		}
		return n
	}

	// The first match, hand after hand, to its end.
	runUntil(t, ts.clk, "the first match over", func() bool { return ended(bobID) == 1 })
	first := recorded(t, ts, bobID, code)
	require.GreaterOrEqual(t, len(first), 2, "a match to 25 takes more than one hand")
	for _, p := range []*player{alice, bob} {
		s := p.tm.WaitFor("Rematch? r: yes, n: no")
		require.Contains(t, s, "(match total)", "the totals stay on the table")
		require.Regexp(t, `(alice|bob|computer 3|[a-z]+) wins the match\.|The match is drawn\.`, s)
		require.Contains(t, flat(s), "Waiting for alice, bob.")
	}
	alice.tm.Send("r")
	alice.tm.WaitFor("Rematch: you said yes")
	s := bob.tm.WaitFunc("alice's yes", func(s string) bool { return strings.Contains(flat(s), "Waiting for bob.") })
	require.Regexp(t, `Yes: alice, [^.]+\.`, flat(s), "bob sees who said yes")
	bob.tm.Send("r")
	for _, p := range []*player{alice, bob} {
		p.tm.WaitFunc("the rematch dealt", func(s string) bool {
			return strings.Contains(s, "game 1 is dealt") && !strings.Contains(s, "Rematch")
		})
	}

	// The second match to its end; then bob says no.
	runUntil(t, ts.clk, "the second match over", func() bool { return ended(bobID) == 2 })
	for _, p := range []*player{alice, bob} {
		p.tm.WaitFor("Rematch? r: yes, n: no")
	}
	bob.tm.Send("n")
	for _, p := range []*player{alice, bob} {
		p.tm.WaitFor("bob declined the rematch. q: the menu.")
	}
	// The lobby's list is rebuilt a moment after a change.
	require.Eventually(t, func() bool {
		var list command.TableListing
		runJSON(t, alice.c, "tables --json", &list)
		return len(list.Tables) == 0
	}, 10*time.Second, 20*time.Millisecond, "the closed table is listed no more")

	// Every game of both matches is on both records, and replays.
	for _, id := range []string{aliceID, bobID} {
		gs := recorded(t, ts, id, code)
		ms := matchesOf(gs)
		require.Len(t, ms, 2, "two matches, told apart by their deal")
		for spec, m := range ms {
			for i, g := range m {
				require.Equal(t, i, g.GameNo, "%s", spec)
				require.Equal(t, i == len(m)-1, g.MatchEnd, "%s game %d", spec, i)
			}
		}
		replays(t, gs)

		st, err := ts.store.TableStats(t.Context(), id)
		require.NoError(t, err)
		require.Len(t, st, 1)
		require.Equal(t, len(gs), st[0].Played)
		require.Equal(t, 2, st[0].Matches)
	}
	// And as each of them reads their stats.
	for _, p := range []*player{alice, bob} {
		var v struct {
			Games []struct {
				Game       string `json:"game"`
				Played     int    `json:"played"`
				Won        int    `json:"won"`
				Matches    *int   `json:"matches"`
				MatchesWon *int   `json:"matches_won"`
			} `json:"games"`
		}
		runJSON(t, p.c, "stats", &v)
		found := false
		for _, g := range v.Games {
			if g.Game == "kings" {
				found = true
				require.Equal(t, len(recorded(t, ts, bobID, code)), g.Played, p.name)
				require.NotNil(t, g.Matches)
				require.Equal(t, 2, *g.Matches, p.name)
			}
		}
		require.True(t, found, "kings in %s's stats", p.name)
		out, _, status := run(t, p.c, "stats")
		require.Equal(t, 0, status)
		games := len(recorded(t, ts, bobID, code))
		require.Regexp(t, regexp.MustCompile(`(?m)^kings\s+`+strconv.Itoa(games)+`\s`), out)
		require.Regexp(t, regexp.MustCompile(`Kings in the Corner: `+strconv.Itoa(games)+` games? \(\d+ won\), 2 matches \(\d won\)`), out)
	}
}
