package arcade

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/examples/bot-go/botclient"
	"sshuffle/games"
	"sshuffle/internal/sshtest"
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
