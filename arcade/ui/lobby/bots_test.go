package lobby

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/games/kings"
)

// botsAsked is a Requests that lists bots online.
type botsAsked struct {
	asked
	bots []Bot
}

func (b *botsAsked) Bots() []Bot { return b.bots }

// TestChallengeABot: b lists the bots online on the message line; the
// arrows choose one and enter opens the new-table form for it, its second
// seat a person's (the bot's); the table opened carries the challenge.
// With no bot online, b says so.
func TestChallengeABot(t *testing.T) {
	g := newRig(t, false, nil)
	g.press("b")
	require.Contains(t, g.frame(), "No bot is online just now.")

	req := &botsAsked{bots: []Bot{{ID: "b1", Name: "alpha"}, {ID: "b2", Name: "beta"}}}
	g.s.req = req
	g.press("b")
	f := g.frame()
	require.Contains(t, f, "Challenge which bot?")
	require.Contains(t, f, "esc cancels: alpha [bot] (1 of 2)")
	fits(t, f, 80, 24)
	g.press("right")
	require.Contains(t, g.frame(), "esc cancels: beta [bot] (2 of 2)")
	g.press("enter")
	f = g.frame()
	require.Contains(t, f, "Challenge beta [bot]")
	require.Contains(t, f, "a person", "the bot's seat")
	fits(t, f, 80, 24)
	g.press("enter", "enter")
	require.Len(t, req.opens, 1)
	o := req.opens[0]
	require.Equal(t, &Bot{ID: "b2", Name: "beta"}, o.Challenge)
	require.Equal(t, []SeatChoice{{}, {}}, o.Seats)

	g.press("b", "esc")
	require.NotContains(t, g.frame(), "Challenge which bot?")
	require.Len(t, req.opens, 1)
}

// TestChallengeSeat: the bot gets the first person's seat after the
// host's, kept for it; a table of computers only has none for it.
func TestChallengeSeat(t *testing.T) {
	b := &Bot{ID: "b1", Name: "alpha"}
	cfg := hub.TableConfig{Game: kings.Name, Seats: []hub.SeatPlan{{}, {Computer: "easy"}, {}}}
	require.True(t, challengeSeat(&cfg, b))
	require.Equal(t, hub.Person{ID: "b1", Name: "alpha", Bot: true}, cfg.Seats[2].Reserved)
	require.Empty(t, cfg.Seats[1].Reserved)
	cfg = hub.TableConfig{Game: kings.Name, Seats: []hub.SeatPlan{{}, {Computer: "easy"}}}
	require.False(t, challengeSeat(&cfg, b))
}

// TestBotMarkedInList: a bot host and a bot's seat are marked in the
// list and the chosen table's detail.
func TestBotMarkedInList(t *testing.T) {
	g := newRig(t, false, nil)
	in := hub.TableInfo{Code: "KQRST", Game: kings.Name, Host: hub.Person{ID: "b1", Name: "alpha", Bot: true},
		Seats: []hub.SeatInfo{{Name: "alpha", Person: hub.Person{ID: "b1", Name: "alpha", Bot: true}}, {}}}
	g.r.Update(Tables{List: []Table{lobbyTable(in)}})
	f := g.frame()
	require.Contains(t, f, "host alpha [bot]")
	require.Contains(t, f, "Seats: 1 alpha [bot], 2 free.")
}
