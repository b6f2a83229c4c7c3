package lobby

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
)

// f opens play now for the game the player came for, else that of the
// table under the cursor; a seat taken in the lobby is given up for it.
func TestPlayNowKey(t *testing.T) {
	route := func(g *rig) ui.Route {
		t.Helper()
		p, ok := g.r.Current().(*page)
		require.True(t, ok, "still the lobby:\n%s", g.frame())
		return p.r
	}

	g := newRig(t, true, someTables())
	g.s.env.Games = games.Default()
	g.s.ComeFor(kings.Name)
	g.press("down", PlayNowKey)
	r := route(g)
	require.Equal(t, ui.PlayNow, r.Page)
	require.Equal(t, kings.Name, r.Game.Key())
	require.Zero(t, r.Players)

	g = newRig(t, true, someTables())
	g.s.env.Games = games.Default()
	g.r.Update(Seated{Table: someTables()[0], Seat: 0, Host: true})
	g.press("down", PlayNowKey)
	require.Equal(t, spite.Name, route(g).Game.Key())
	require.Equal(t, []string{"KQRST"}, g.req.stands)

	g = newRig(t, true, nil)
	g.s.env.Games = games.Default()
	g.s.env.Player.Guest = true
	g.press(PlayNowKey)
	require.Contains(t, g.frame(), hub.ErrGuest.Error()[:30])
}
