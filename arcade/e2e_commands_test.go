package arcade

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/arcade/deals"
	"sshuffle/arcade/save"
	"sshuffle/engine"
	"sshuffle/internal/sshtest"
	"sshuffle/store"
)

// run runs one command over a real SSH session (no PTY): stdout, stderr
// and the exit status.
func run(t *testing.T, c *gossh.Client, cmd string) (string, string, int) {
	t.Helper()
	sess, err := c.NewSession()
	require.NoError(t, err)
	defer sess.Close()
	var out, errOut bytes.Buffer
	sess.Stdout, sess.Stderr = &out, &errOut
	err = sess.Run(cmd)
	code := 0
	var exit *gossh.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitStatus()
	} else {
		require.NoError(t, err)
	}
	return out.String(), errOut.String(), code
}

// runJSON runs a command with --json and decodes what it printed.
func runJSON(t *testing.T, c *gossh.Client, cmd string, v any) {
	t.Helper()
	out, errOut, code := run(t, c, cmd+" --json")
	require.Equal(t, 0, code, "%s: %s", cmd, errOut)
	require.NoError(t, json.Unmarshal([]byte(out), v), out)
}

func TestCommandsHelpWhoamiRename(t *testing.T) {
	ts := startServer(t)
	_, port, _ := net.SplitHostPort(ts.addr)
	c := sshtest.Dial(t, ts.addr, "newbie", sshtest.NewClientKey(t))
	defer c.Close()

	out, _, code := run(t, c, "help")
	require.Equal(t, 0, code)
	require.Contains(t, out, "ssh -p "+port+" 127.0.0.1 leaderboard GAME")
	var help struct {
		Host     string
		Port     int
		Commands []struct{ Name, Usage string }
		Games    []string
	}
	runJSON(t, c, "help", &help)
	require.Equal(t, "127.0.0.1", help.Host)
	require.Equal(t, port, strconv.Itoa(help.Port))
	require.Contains(t, help.Games, "klondike/draw1")
	require.Equal(t, "leaderboard", help.Commands[len(help.Commands)-1].Name)

	out, _, code = run(t, c, "whoami")
	require.Equal(t, 0, code)
	require.Contains(t, out, "You have not played yet")
	var who struct {
		Guest, Account    bool
		Name, Fingerprint string
	}
	runJSON(t, c, "whoami", &who)
	require.False(t, who.Account)
	require.Contains(t, who.Fingerprint, "SHA256:")

	// The name picker's rules, with the usage on a bad one.
	_, errOut, code := run(t, c, "rename x")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "A name needs 3 to 20 characters.")
	require.Contains(t, errOut, "usage: rename NAME")
	_, errOut, code = run(t, c, "rename")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "usage: rename NAME")
	// A computer player's name is no person's.
	_, errOut, code = run(t, c, "rename Ada")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, `The name "Ada" belongs to a computer player at the tables; pick another.`)

	var renamed struct{ Name, Fingerprint string }
	runJSON(t, c, "rename Newbie_1", &renamed)
	require.Equal(t, "newbie_1", renamed.Name)
	require.Equal(t, who.Fingerprint, renamed.Fingerprint)
	out, _, code = run(t, c, "whoami")
	require.Equal(t, 0, code)
	require.Contains(t, out, "newbie_1\n"+who.Fingerprint)

	// A name another account holds is refused; the JSON error says so too.
	other := sshtest.Dial(t, ts.addr, "x", sshtest.NewClientKey(t))
	defer other.Close()
	out, errOut, code = run(t, other, "rename newbie_1 --json")
	require.Equal(t, 1, code)
	require.Empty(t, out)
	var jerr struct {
		Error string
		Code  int
	}
	require.NoError(t, json.Unmarshal([]byte(errOut), &jerr), errOut)
	require.Equal(t, 1, jerr.Code)
	require.Contains(t, jerr.Error, "is taken")

	// A guest has neither name nor stats of its own.
	g := sshtest.Dial(t, ts.addr, "guest", nil)
	defer g.Close()
	runJSON(t, g, "whoami", &who)
	require.True(t, who.Guest)
	_, _, code = run(t, g, "rename guesty")
	require.Equal(t, 1, code)
	_, errOut, code = run(t, g, "stats")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "Guests have no stats")
	_, _, code = run(t, g, "stats --bogus")
	require.Equal(t, 1, code)
}

func TestCommandsStatsDailyLeaderboard(t *testing.T) {
	now := time.Now()
	ts := startServerWith(t, Config{Now: func() time.Time { return now }})
	ctx := context.Background()
	today := store.Day(now)
	mk := func(name string) (*gossh.Client, string) {
		key := sshtest.NewClientKey(t)
		id := gossh.FingerprintSHA256(key.PublicKey())
		_, err := ts.store.CreateAccount(ctx, id, name)
		require.NoError(t, err)
		c := sshtest.Dial(t, ts.addr, name, key)
		t.Cleanup(func() { c.Close() })
		return c, id
	}
	amy, amyID := mk("amy")
	_, benID := mk("ben")
	_, calID := mk("cal")

	g, ok := ts.srv.games.Entry("tripeaks")
	require.True(t, ok)
	spec, _, err := deals.Today(ctx, ts.store, ts.srv.pools, g, now)
	require.NoError(t, err)
	rec := func(id, name string, score int, won, abandoned, daily bool) {
		r := store.Result{Account: id, Name: name, Spec: spec.String(), Key: g.Key(), Won: won, Abandoned: abandoned,
			Score: score, Moves: 30, Elapsed: 90 * time.Second, Finished: now.Add(-time.Duration(score) * time.Second), ByPoints: true}
		if daily {
			r.Daily, r.Day = true, today
		} else {
			r.Spec = g.Spec(uint64(1000 + score)).String()
		}
		require.NoError(t, ts.store.RecordResult(ctx, r))
	}
	rec(amyID, "amy", 40, true, false, true)
	rec(amyID, "amy", 99, false, true, false) // abandoned: no best score, no board
	rec(benID, "ben", 55, true, false, true)
	rec(calID, "cal", 70, true, false, false)

	// stats: played, won and abandoned apart; best score from the game
	// played out.
	var st struct {
		Name  string
		Games []struct {
			Game        string
			Played, Won int
			Abandoned   int
			WinRate     float64 `json:"win_rate"`
			BestScore   *int    `json:"best_score"`
			BestTime    *int64  `json:"best_time_seconds"`
			Streak      struct{ Current, Best int }
		}
	}
	runJSON(t, amy, "stats", &st)
	require.Equal(t, "amy", st.Name)
	var tp = st.Games[0]
	for _, x := range st.Games {
		if x.Game == "tripeaks" {
			tp = x
		}
	}
	require.Equal(t, "tripeaks", tp.Game)
	require.Equal(t, 2, tp.Played)
	require.Equal(t, 1, tp.Won)
	require.Equal(t, 1, tp.Abandoned)
	require.InDelta(t, 0.5, tp.WinRate, 1e-9)
	require.NotNil(t, tp.BestScore)
	require.Equal(t, 40, *tp.BestScore, "the abandoned 99 is not a best score")
	require.EqualValues(t, 90, *tp.BestTime)
	require.Equal(t, 1, tp.Streak.Current)
	out, _, code := run(t, amy, "stats ben")
	require.Equal(t, 0, code)
	require.Contains(t, out, "ben\n")
	require.Regexp(t, `tripeaks\s+1\s+1\s+0\s+100%\s+55\s+1:30\s+1/1`, out)
	_, errOut, code := run(t, amy, "stats nobody_here")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, `no player named "nobody_here"`)

	// daily: today's deal of every game, and how the caller's went.
	var d struct {
		Day        string
		NextDeal   time.Time `json:"next_deal"`
		NextDealIn int64     `json:"next_deal_in_seconds"`
		Games      []struct{ Game, Spec, Status string }
	}
	status := func() map[string]string {
		runJSON(t, amy, "daily", &d)
		m := map[string]string{}
		for _, x := range d.Games {
			m[x.Game] = x.Status
		}
		return m
	}
	m := status()
	require.Equal(t, today, d.Day)
	require.Greater(t, d.NextDealIn, int64(0))
	require.LessOrEqual(t, d.NextDealIn, int64(24*3600))
	require.Equal(t, "won", m["tripeaks"])
	require.Equal(t, "not_started", m["pyramid"])
	require.Len(t, d.Games, 8, "every playable game and variant")
	// A daily deal in progress (saved as the screen saves it) and one given up.
	py, _ := ts.srv.games.Entry("pyramid")
	pySpec, _, err := deals.Today(ctx, ts.store, ts.srv.pools, py, now)
	require.NoError(t, err)
	pg, err := py.Game.New(pySpec, py.Defaults())
	require.NoError(t, err)
	require.NoError(t, pg.Do(engine.Action{Kind: engine.Draw}))
	data, err := save.Encode(pg, py.Defaults(), time.Minute, 0)
	require.NoError(t, err)
	require.NoError(t, ts.store.PutSave(ctx, amyID, save.DailyKey(py.Key()), data))
	fc, _ := ts.srv.games.Entry("freecell")
	fcSpec, _, err := deals.Today(ctx, ts.store, ts.srv.pools, fc, now)
	require.NoError(t, err)
	require.NoError(t, ts.store.RecordResult(ctx, store.Result{Account: amyID, Spec: fcSpec.String(), Key: fc.Key(),
		Abandoned: true, Moves: 3, Finished: now, Daily: true, Day: today}))
	m = status()
	require.Equal(t, "in_progress", m["pyramid"])
	require.Equal(t, "lost", m["freecell"])
	out, _, code = run(t, amy, "daily")
	require.Equal(t, 0, code)
	require.Regexp(t, `Pyramid\s+`+pySpec.String()+`\s+in progress`, out)

	// leaderboard: all time, today's, friends, limit; top an alias.
	type board struct {
		Board, Day, Spec string
		Friends          bool
		Rows             []struct {
			Rank  int
			Name  string
			Won   bool
			Score int
		}
	}
	var b board
	runJSON(t, amy, "leaderboard tripeaks", &b)
	require.Equal(t, "all-time", b.Board)
	require.Len(t, b.Rows, 3, "the abandoned game is not on the board")
	require.Equal(t, []string{"cal", "ben", "amy"}, []string{b.Rows[0].Name, b.Rows[1].Name, b.Rows[2].Name})
	runJSON(t, amy, "top tripeaks --daily", &b)
	require.Equal(t, "daily", b.Board)
	require.Equal(t, spec.String(), b.Spec)
	require.Len(t, b.Rows, 2)
	runJSON(t, amy, "leaderboard tripeaks --limit 1", &b)
	require.Len(t, b.Rows, 1)
	require.Equal(t, "cal", b.Rows[0].Name)

	runJSON(t, amy, "leaderboard tripeaks --friends", &b)
	require.True(t, b.Friends)
	require.Len(t, b.Rows, 1, "amy follows nobody yet")
	require.Equal(t, 3, b.Rows[0].Rank, "a friends board keeps the places of the whole board")
	require.NoError(t, ts.store.Follow(ctx, amyID, benID))
	runJSON(t, amy, "leaderboard tripeaks --friends --all-time", &b)
	require.Len(t, b.Rows, 2)
	require.Equal(t, "ben", b.Rows[0].Name)
	require.Equal(t, 2, b.Rows[0].Rank)
	out, _, code = run(t, amy, "leaderboard tripeaks --friends --daily")
	require.Equal(t, 0, code)
	require.Contains(t, out, "you and whom you follow")
	require.Regexp(t, `1\. ben\s+won\s+55 pts`, out)

	for _, bad := range []string{"leaderboard", "leaderboard tripeaks --daily --all-time", "leaderboard tripeaks --limit 0",
		"leaderboard tripeaks --limit x", "leaderboard spite --daily", "top tripeaks --wat"} {
		_, errOut, code := run(t, amy, bad)
		require.Equal(t, 1, code, bad)
		require.NotEmpty(t, errOut, bad)
	}
}

// A store that has failed answers exit 2, with a sentence and no detail.
func TestCommandsServerFailure(t *testing.T) {
	ts := startServer(t)
	c := sshtest.Dial(t, ts.addr, "zed", sshtest.NewClientKey(t))
	defer c.Close()
	require.NoError(t, ts.store.Close())
	for _, cmd := range []string{"stats", "whoami", "daily", "leaderboard klondike/draw1", "rename zeddy"} {
		out, errOut, code := run(t, c, cmd)
		require.Equal(t, 2, code, cmd)
		require.Empty(t, out, cmd)
		require.Contains(t, errOut, "not available right now", cmd)
		require.NotContains(t, errOut, "store:", cmd)
	}
	_, errOut, code := run(t, c, "stats --json")
	require.Equal(t, 2, code)
	require.JSONEq(t, `{"error":"stats is not available right now; try again in a minute.","code":2}`, errOut)
}
