package command

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/games"
	"sshuffle/store"
	"sshuffle/store/badger"
)

// TestBotRegister: a fresh key becomes a new bot account named after its
// SSH user; again is no error; an account that has played as a person
// stays a person's; a key without a usable name is told how to give one;
// plain "bot" without the protocol's session says how to connect.
func TestBotRegister(t *testing.T) {
	st, err := badger.OpenInMemory()
	require.NoError(t, err)
	defer st.Close()
	run := func(id, user string, args ...string) (string, int) {
		return Run(Request{Args: args, ID: id, User: user, Store: st, Games: games.Default()})
	}

	out, code := run("SHA256:b", "Robo-One", "bot", "register")
	require.Equal(t, Done, code, out)
	require.Contains(t, out, "The new account robo-one is a bot now.")
	bot, err := st.IsBot(t.Context(), "SHA256:b")
	require.NoError(t, err)
	require.True(t, bot)
	out, code = run("SHA256:b", "whoever", "bot", "register", "--json")
	require.Equal(t, Done, code, out)
	require.JSONEq(t, `{"account":"SHA256:b","name":"robo-one","bot":true,"new":false}`, out)

	_, err = st.CreateAccount(t.Context(), "SHA256:p", "person1")
	require.NoError(t, err)
	require.NoError(t, st.RecordResult(t.Context(), store.Result{Account: "SHA256:p", Spec: "klondike/draw1/1", Key: "klondike/draw1", Finished: time.Now()}))
	out, code = run("SHA256:p", "person1", "bot", "register")
	require.Equal(t, Refused, code)
	require.Contains(t, out, "person1 has played as a person")
	bot, err = st.IsBot(t.Context(), "SHA256:p")
	require.NoError(t, err)
	require.False(t, bot)

	out, code = run("SHA256:n", "x", "bot", "register")
	require.Equal(t, Refused, code)
	require.Contains(t, out, "A bot needs a name")

	out, code = run("", "guest", "bot", "register")
	require.Equal(t, Refused, code)
	require.Contains(t, out, "A bot needs a key")

	out, code = run("SHA256:b", "robo-one", "bot")
	require.Equal(t, Refused, code)
	require.Contains(t, out, "connect with ssh -T HOST bot")
}
