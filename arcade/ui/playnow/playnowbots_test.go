package playnow

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/internal/uitest"
)

// b refuses bots: the player waits on with a bot in the pool and is not
// seated with it, the choice is kept with the account, and b again allows
// bots, which seats the player with the waiting bot at once. Friends see
// the player looking for a game meanwhile.
func TestPlayNowRefuseBots(t *testing.T) {
	g := newRig(t, true, spite(t), "ann")
	g.shows("Bots may sit at your table (b refuses them).")
	g.fit("bots allowed", uitest.Fit{Keys: []string{"esc"}})
	act, ok := g.r.Current().(ui.Activitied)
	require.True(t, ok)
	require.Equal(t, hub.Activity{Doing: hub.LookingForGame, Game: "spite"}, act.Activity())

	uitest.Press(g.r, "b")
	g.shows("No bots at your table (b allows them).")
	g.shows("No bots: you are seated with people and computer players only.")
	g.fit("bots refused", uitest.Fit{Keys: []string{"esc"}})
	v, err := g.e.Store.Setting(t.Context(), g.e.Player.ID, ui.PlayNowBotsSetting)
	require.NoError(t, err)
	require.Equal(t, "off", v)
	require.True(t, ui.PlayNowNoBots(g.e), "kept for the next visit")

	robo := hub.Person{ID: "SHA256:robo", Name: "robo", Bot: true}
	seated := make(chan string, 4)
	_, err = g.h.PlayNow(robo, hub.PoolWant{Game: "spite"}, func(st hub.PoolState) {
		if st.Phase == hub.PoolSeated {
			seated <- st.Code
		}
	}, func(hub.TableState) {})
	require.NoError(t, err)
	g.shows("In the pool: 2 for this table, 2 in all.")
	require.Empty(t, seated)

	uitest.Press(g.r, "b")
	g.until("the table", func(string) bool { _, ok := g.r.Current().(*uitest.Page); return ok })
	rt := uitest.PageOf(t, g.r.Current())
	require.Equal(t, ui.Table, rt.Page)
	require.Equal(t, <-seated, rt.State.Code)
	v, err = g.e.Store.Setting(t.Context(), g.e.Player.ID, ui.PlayNowBotsSetting)
	require.NoError(t, err)
	require.Equal(t, "on", v)
}
