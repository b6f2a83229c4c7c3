package arcade

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/examples/bot-go/botclient"
	"sshuffle/store"
)

// TestEndToEndBotRatedGameOver: the Go example plays a rated Spite and
// Malice game against the easy computer over real SSH; its gameOver
// carries the rating change the stored game made (from a new player's
// 1500 and 350 to the rating the store now holds) and the stored game's
// history id, and a casual game's carries its id and no rating.
func TestEndToEndBotRatedGameOver(t *testing.T) {
	ts := startBotServer(t)
	key := registerBot(t, ts, "ratedbot")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	run := func(rated bool) botclient.Summary {
		sum, err := botclient.Run(ctx, botclient.Config{Addr: ts.addr, User: "ratedbot", Signer: key,
			HostKey: gossh.InsecureIgnoreHostKey(), Matches: 1,
			Seek: &botclient.Seek{Game: "spite", Settings: "payoff=13", Against: []string{"easy"}, Pace: "instant", Rated: rated}})
		require.NoError(t, err)
		require.Equal(t, 1, sum.Games)
		return sum
	}
	casual := run(false)
	require.Nil(t, casual.Rating, "a casual game moves no rating")
	sum := run(true)

	id := gossh.FingerprintSHA256(key.PublicKey())
	r, err := ts.store.Rating(ctx, id, "spite")
	require.NoError(t, err)
	require.Equal(t, 1, r.Games)
	require.NotNil(t, sum.Rating, "a rated game's gameOver carries the rating change")
	require.Equal(t, botclient.RatingChange{Before: 1500, DeviationBefore: 350,
		After: int(math.Round(r.Rating)), DeviationAfter: int(math.Round(r.Deviation))}, *sum.Rating)
	require.NotEqual(t, sum.Rating.Before, sum.Rating.After)

	tg, err := ts.store.TableGames(ctx, id, 10)
	require.NoError(t, err)
	require.Len(t, tg, 2)
	ids := map[string]bool{}
	for _, g := range tg {
		ids[store.TableGameID(g)] = true
	}
	require.Len(t, casual.Histories, 1)
	require.Len(t, sum.Histories, 1)
	require.True(t, ids[casual.Histories[0]], "the casual gameOver names the stored game's history id")
	require.True(t, ids[sum.Histories[0]], "the rated gameOver names the stored game's history id")
	require.NotEqual(t, casual.Histories[0], sum.Histories[0])
}
