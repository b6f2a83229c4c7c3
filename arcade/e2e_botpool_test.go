package arcade

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/examples/bot-go/botclient"
	"sshuffle/internal/sshtest"
)

// TestEndToEndPlayNowMeetsABot: the Go example waits in the play-now pool
// over real SSH; a person pressing play now at 80x24 is seated with it at
// once, and both are at one dealt table.
func TestEndToEndPlayNowMeetsABot(t *testing.T) {
	ts := startBotServer(t)
	key := registerBot(t, ts, "poolbot")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := botclient.Run(ctx, botclient.Config{Addr: ts.addr, User: "poolbot", Signer: key,
			HostKey: gossh.InsecureIgnoreHostKey(), Seek: &botclient.Seek{Game: "spite", Pool: true}, Matches: 1})
		done <- err
	}()
	require.Eventually(t, func() bool { return ts.srv.hub.PoolWaiting() == 1 }, 20*time.Second, 10*time.Millisecond,
		"the bot waits in the pool")

	dora := &player{name: "dora", key: sshtest.NewClientKey(t)}
	dora.c = sshtest.Dial(t, ts.addr, dora.name, dora.key)
	t.Cleanup(func() { _ = dora.c.Close() })
	dora.tm = sshtest.OpenTermSize(t, dora.c, map[string]string{"LANG": "en_US.UTF-8"}, "play spite", 80, 24)
	s := dora.tm.WaitFor("dora (you)")
	require.Contains(t, s, "poolbot")
	require.Contains(t, s, "[bot]")
	require.Zero(t, ts.srv.hub.PoolWaiting())
	// The lobby's list is rebuilt a moment after a change.
	require.Eventually(t, func() bool { return len(ts.srv.hub.Tables()) == 1 }, 10*time.Second, 10*time.Millisecond)
	tables := ts.srv.hub.Tables()
	require.True(t, tables[0].Rated, "a play-now table is rated")
	var names []string
	for _, x := range tables[0].Seats {
		names = append(names, x.Person.Name)
	}
	require.ElementsMatch(t, []string{"dora", "poolbot"}, names)
	cancel()
	<-done
}
