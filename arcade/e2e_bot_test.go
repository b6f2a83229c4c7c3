package arcade

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/examples/bot-go/botclient"
	"sshuffle/games"
	"sshuffle/internal/sshtest"
	"sshuffle/store"
)

// startBotServer is a server whose tables move fast enough for whole games
// in a test: the computers play at once, the break between games is short.
func startBotServer(t *testing.T) *testServer {
	t.Helper()
	return startServerWith(t, Config{TableClock: 20 * time.Second, TablePace: time.Millisecond, TableBreak: 50 * time.Millisecond})
}

// registerBot makes a fresh key's account, named name, a bot.
func registerBot(t *testing.T, ts *testServer, name string) gossh.Signer {
	t.Helper()
	key := sshtest.NewClientKey(t)
	c := sshtest.Dial(t, ts.addr, name, key)
	defer c.Close()
	sess, err := c.NewSession()
	require.NoError(t, err)
	out, err := sess.Output("bot register")
	require.NoError(t, err)
	require.Contains(t, string(out), "The new account "+name+" is a bot now.")
	return key
}

// TestEndToEndGoExampleBot: the Go example bot, over real SSH, plays a whole
// Spite and Malice game against the built-in easy player, then a
// three-seat Kings in the Corner game against two, with never an action
// refused; each game is stored on the bot's record and replays with the
// rules.
func TestEndToEndGoExampleBot(t *testing.T) {
	ts := startBotServer(t)
	key := registerBot(t, ts, "gobot")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	run := func(seek botclient.Seek) botclient.Summary {
		sum, err := botclient.Run(ctx, botclient.Config{Addr: ts.addr, User: "gobot", Signer: key,
			HostKey: gossh.InsecureIgnoreHostKey(), Seek: &seek, Matches: 1})
		require.NoError(t, err)
		require.Equal(t, 1, sum.Matches)
		require.Equal(t, 1, sum.Games, "a single game's match")
		require.Zero(t, sum.Rejected, "the bot plays only legal actions")
		require.Zero(t, sum.Errors)
		return sum
	}
	spite := run(botclient.Seek{Game: "spite", Settings: "payoff=13", Against: []string{"easy"}, Pace: "instant"})
	kings := run(botclient.Seek{Game: "kings", Against: []string{"easy", "easy"}, Pace: "instant"})

	id := gossh.FingerprintSHA256(key.PublicKey())
	var recs []string
	require.Eventually(t, func() bool {
		tg, err := ts.store.TableGames(ctx, id, 10)
		require.NoError(t, err)
		recs = recs[:0]
		for _, g := range tg {
			recs = append(recs, g.Code+"/0")
		}
		return len(tg) == 2
	}, 10*time.Second, 20*time.Millisecond, "both games are on the bot's record")
	require.ElementsMatch(t, []string{spite.Records[0], kings.Records[0]}, recs, "gameOver named the records")
	tg, err := ts.store.TableGames(ctx, id, 10)
	require.NoError(t, err)
	cat := games.Default()
	seen := map[string]int{}
	for _, g := range tg {
		kit, ok := cat.TableKit(g.Game)
		require.True(t, ok)
		require.NoError(t, kit.Replay(g.Record), "the %s record replays", g.Game)
		seen[g.Game] = len(g.Seats)
		bot := -1
		for i, s := range g.Seats {
			if s.Account == id {
				bot = i
			}
		}
		require.GreaterOrEqual(t, bot, 0, "the bot has a seat")
		require.False(t, g.Seats[bot].StoodIn, "the bot played every turn of its own")
	}
	require.Equal(t, map[string]int{"spite": 2, "kings": 3}, seen)
}

// TestEndToEndPythonExampleBot: the Python example, driving the OpenSSH
// client, plays a whole Spite and Malice game against the easy computer;
// the game is on its record and replays.
func TestEndToEndPythonExampleBot(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the Python example bot is not run")
	}
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("the ssh client is not installed: the Python example bot is not run")
	}
	ts := startBotServer(t)
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	block, err := gossh.MarshalPrivateKey(priv, "")
	require.NoError(t, err)
	keyFile := filepath.Join(t.TempDir(), "bot_key")
	require.NoError(t, os.WriteFile(keyFile, pem.EncodeToMemory(block), 0o600))
	signer, err := gossh.NewSignerFromKey(priv)
	require.NoError(t, err)
	c := sshtest.Dial(t, ts.addr, "pybot", signer)
	sess, err := c.NewSession()
	require.NoError(t, err)
	out, err := sess.Output("bot register")
	require.NoError(t, err, string(out))
	c.Close()

	host, port, err := net.SplitHostPort(ts.addr)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "../examples/bot-python/bot.py", "--host", host, "--port", port,
		"--user", "pybot", "--key", keyFile, "--any-host-key", "--quiet",
		"--seek", "spite", "--settings", "payoff=13", "--against", "easy", "--pace", "instant", "--matches", "1")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir()) // no user's ssh config or agent
	var stderr strings.Builder
	cmd.Stderr = &stderr
	res, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	require.Regexp(t, `^matches 1, games 1, won \d, rejected 0, errors 0\n$`, string(res))

	id := gossh.FingerprintSHA256(signer.PublicKey())
	require.Eventually(t, func() bool {
		tg, err := ts.store.TableGames(ctx, id, 10)
		require.NoError(t, err)
		return len(tg) == 1
	}, 10*time.Second, 20*time.Millisecond)
	tg, err := ts.store.TableGames(ctx, id, 10)
	require.NoError(t, err)
	kit, ok := games.Default().TableKit("spite")
	require.True(t, ok)
	require.NoError(t, kit.Replay(tg[0].Record))
}

// TestEndToEndChallengeABotFromTheLobby: a person at 80x24 opens the Spite
// and Malice lobby, presses b, picks the one bot online (the Go example,
// waiting for challenges), opens a table for it with the form, and starts
// once the bot has accepted and sat; the game is played to its end (the
// person lets the clock play their turns) and both see it over. The bot's
// name is marked wherever the person reads it.
func TestEndToEndChallengeABotFromTheLobby(t *testing.T) {
	ts := startServerWith(t, Config{TableClock: 250 * time.Millisecond, TablePace: time.Millisecond, TableBreak: 50 * time.Millisecond})
	key := registerBot(t, ts, "gobot")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	type answer struct {
		sum botclient.Summary
		err error
	}
	bot := make(chan answer, 1)
	go func() {
		sum, err := botclient.Run(ctx, botclient.Config{Addr: ts.addr, User: "gobot", Signer: key,
			HostKey: gossh.InsecureIgnoreHostKey(), Matches: 1})
		bot <- answer{sum, err}
	}()
	require.Eventually(t, func() bool {
		for _, p := range ts.srv.hub.Online() {
			if p.Name == "gobot" && p.Bot {
				return true
			}
		}
		return false
	}, 10*time.Second, 10*time.Millisecond, "the bot is online")

	c := sshtest.Dial(t, ts.addr, "ann", sshtest.NewClientKey(t))
	defer c.Close()
	tm := sshtest.OpenTermSize(t, c, map[string]string{"LANG": "en_US.UTF-8"}, "", 80, 24)
	tm.WaitFor("Playing as ann")
	tm.Send("9") // Spite and Malice
	tm.WaitFor("b challenge a bot")
	tm.Send("b")
	tm.WaitFor("Challenge which bot?")
	tm.WaitFor("gobot [bot] (1 of 1)")
	tm.Send("\r")
	tm.WaitFor("Challenge gobot [bot]")
	tm.Send("\x1b[B") // the pay-off pile: 20, 26, 30, 13
	tm.Send("\x1b[C\x1b[C\x1b[C")
	tm.WaitFor("13")
	tm.Send("\r\r") // to the button, and open
	tm.WaitFor("seated 2/2")
	tm.WaitFor("2 gobot [bot]")
	tm.Send("s")
	tm.WaitFor("ann (you)")
	tm.WaitFor("gobot [bot]")
	// The bot hangs up once the match is over: a game takes longer than
	// one screen wait on a busy machine.
	a := <-bot
	require.NoError(t, a.err)
	tm.WaitFunc("the game over", func(s string) bool {
		return strings.Contains(s, "wins the game") || strings.Contains(s, "draw")
	})
	// Rejections are not counted here: the short clock that plays the
	// person's turns runs out on the bot's now and then too.
	require.Equal(t, 1, a.sum.Games)
}

// TestEndToEndBotRefusals: ssh HOST bot answers on stderr with exit
// status 1 for a key with no account, an account that is not a bot's, and
// a session with a terminal; bot register refuses an account that has
// played as a person.
func TestEndToEndBotRefusals(t *testing.T) {
	ts := startServer(t)
	try := func(c *gossh.Client, cmd string, pty bool) (string, int) {
		t.Helper()
		sess, err := c.NewSession()
		require.NoError(t, err)
		defer sess.Close()
		if pty {
			require.NoError(t, sess.RequestPty("xterm", 24, 80, gossh.TerminalModes{}))
		}
		var stderr strings.Builder
		sess.Stderr = &stderr
		out, err := sess.Output(cmd)
		code := 0
		if ee, ok := err.(*gossh.ExitError); ok {
			code = ee.ExitStatus()
		} else {
			require.NoError(t, err)
		}
		return string(out) + stderr.String(), code
	}
	fresh := sshtest.Dial(t, ts.addr, "nobody1", sshtest.NewClientKey(t))
	defer fresh.Close()
	out, code := try(fresh, "bot", false)
	require.Equal(t, 1, code)
	require.Contains(t, out, "this key has no bot account yet; register it first: ssh NAME@HOST bot register")

	personKey := sshtest.NewClientKey(t)
	p := sshtest.Dial(t, ts.addr, "carla", personKey)
	defer p.Close()
	tm := sshtest.OpenTerm(t, p, nil)
	tm.WaitFor("Playing as carla")
	out, code = try(p, "bot", false)
	require.Equal(t, 1, code)
	require.Contains(t, out, "carla is not a bot account")
	require.NoError(t, ts.store.RecordResult(t.Context(), store.Result{Account: gossh.FingerprintSHA256(personKey.PublicKey()),
		Spec: "klondike/draw1/1", Key: "klondike/draw1", Finished: time.Now()}))
	out, code = try(p, "bot register", false)
	require.Equal(t, 1, code)
	require.Contains(t, out, "carla has played as a person")

	botKey := registerBot(t, ts, "botty")
	b := sshtest.Dial(t, ts.addr, "botty", botKey)
	defer b.Close()
	out, code = try(b, "bot", true)
	require.Equal(t, 1, code)
	require.Contains(t, out, "a bot speaks JSON Lines without a terminal")
}
