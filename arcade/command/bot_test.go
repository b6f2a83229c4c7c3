package command

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
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

// TestBotsMarkedInCommands: tables marks a bot's seat in its text and
// JSON; friends marks a followed bot.
func TestBotsMarkedInCommands(t *testing.T) {
	r := Request{Tables: func() []hub.TableInfo {
		return []hub.TableInfo{{Code: "KQRST", Game: "spite", Host: hub.Person{ID: "a", Name: "ann"},
			Seats: []hub.SeatInfo{{Name: "ann", Person: hub.Person{ID: "a", Name: "ann"}},
				{Name: "robo", Person: hub.Person{ID: "b", Name: "robo", Bot: true}}}}}
	}}
	l := Tables(r)
	require.Equal(t, []TableSeat{{Name: "ann"}, {Name: "robo", Bot: true}}, l.Tables[0].Seats)
	require.Contains(t, l.Text(), "seats: ann, robo [bot];")

	st, err := badger.OpenInMemory()
	require.NoError(t, err)
	defer st.Close()
	for _, a := range [][2]string{{"SHA256:a", "ann"}, {"SHA256:b", "qwerty"}} {
		_, err := st.CreateAccount(t.Context(), a[0], a[1])
		require.NoError(t, err)
	}
	require.NoError(t, st.MarkBot(t.Context(), "SHA256:b"))
	require.NoError(t, st.Follow(t.Context(), "SHA256:a", "SHA256:b"))
	fl, err := Friends(Request{Store: st, ID: "SHA256:a"})
	require.NoError(t, err)
	require.Equal(t, []Friend{{Name: "qwerty", Bot: true}}, fl.Friends)
	require.Contains(t, fl.Text(), "qwerty [bot]")
}
