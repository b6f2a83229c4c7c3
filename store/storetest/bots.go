package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/store"
)

// testBots: an account is no bot until marked, stays one, and marking it
// again changes nothing; an account that does not exist cannot be marked
// and is no bot; the mark is the account's alone.
func testBots(t *testing.T, open Opener) {
	s := open(t, nil)
	_, err := s.CreateAccount(ctx, "SHA256:bot", "qwerty")
	require.NoError(t, err)
	_, err = s.CreateAccount(ctx, "SHA256:ann", "ann")
	require.NoError(t, err)

	bot, err := s.IsBot(ctx, "SHA256:bot")
	require.NoError(t, err)
	require.False(t, bot)

	require.NoError(t, s.MarkBot(ctx, "SHA256:bot"))
	require.NoError(t, s.MarkBot(ctx, "SHA256:bot"), "again is a no-op")
	bot, err = s.IsBot(ctx, "SHA256:bot")
	require.NoError(t, err)
	require.True(t, bot)
	bot, err = s.IsBot(ctx, "SHA256:ann")
	require.NoError(t, err)
	require.False(t, bot, "the mark is one account's")

	require.ErrorIs(t, s.MarkBot(ctx, "SHA256:nobody"), store.ErrNotFound)
	bot, err = s.IsBot(ctx, "SHA256:nobody")
	require.NoError(t, err)
	require.False(t, bot)

	// A rename keeps the mark: it is the account's, not the name's.
	_, err = s.Rename(ctx, "SHA256:bot", "qwerty2")
	require.NoError(t, err)
	bot, err = s.IsBot(ctx, "SHA256:bot")
	require.NoError(t, err)
	require.True(t, bot)
}
