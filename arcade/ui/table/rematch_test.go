package table

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games/kings"
	"sshuffle/internal/uitest"
)

// offerSeats are four seats with names of the longest kind.
func offerSeats() []Seat {
	return []Seat{{Name: "annabelle-longname-x"}, {Name: "computer 2", Computer: true, Strength: "hard"},
		{Name: "cyrano-de-bergerac-y"}, {Name: "deirdre-of-sorrows-z"}}
}

// The end of a match at 80x24: who won it, the rematch asked of everyone
// (who said yes, who is awaited, the time left, counting down by itself),
// r and n in the key bar; r says yes, n says no; once the table closes, why.
func TestMatchOverOffersARematch(t *testing.T) {
	g := kingsGame(t, 9, 4)
	require.False(t, playKingsUntil(t, g, func() bool { return false }), "played to the end")
	e, clk := uitest.Env(nil, uitest.NoStore(), uitest.Player("SHA256:k", "ann"), uitest.At(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)))
	yes, no := 0, 0
	v := g.View(0)
	offer := &hub.RematchOffer{Yes: []bool{false, true, true, false}, Waiting: []string{"annabelle-longname-x", "deirdre-of-sorrows-z"}, Left: 42 * time.Second}
	state := func(o *hub.RematchOffer, closed bool, note string) KingsState {
		return KingsState{Common: Common{Table: "K", Seats: offerSeats(), Totals: []int{3, 12, 0, 25}, CanRematch: !closed && o != nil,
			Offer: o, MatchOver: true, MatchWinner: 2, Closed: closed, Note: note}, View: v}
	}
	s := NewKings(e, Config[kings.Action]{Table: "K", Act: func(kings.Action) {}, Rematch: func() { yes++ }, Decline: func() { no++ }}, state(offer, false, ""))
	r := ui.NewRouter(e, uitest.Pages, s, "")
	f := uitest.Frame(r)
	uitest.Fits(t, f, 80, 24)
	all := strings.Join(strings.Fields(f), " ")
	require.Contains(t, all, "cyrano-de-bergerac-y wins the match. Rematch? r: yes, n: no (0:42 left). Yes: computer 2, cyrano-de-bergerac-y. Waiting for annabelle-longname-x, deirdre-of-sorrows-z.",
		"whole names, wrapped")
	require.Contains(t, f, "(match total)", "the totals stay on the table")
	require.Contains(t, lineWith(t, f, "no rematch"), "rematch", "the key bar offers both answers")

	// The time left counts down with no message.
	require.Equal(t, time.Second, s.NextChange())
	clk.Advance(time.Second)
	require.Contains(t, uitest.Frame(r), "(0:41 left)")

	uitest.Press(r, "r")
	require.Equal(t, 1, yes)
	require.Contains(t, uitest.Frame(r), "Asked for a rematch")
	mine := *offer
	mine.Yes = []bool{true, true, true, false}
	mine.Waiting = []string{"deirdre-of-sorrows-z"}
	r.Update(state(&mine, false, ""))
	uitest.Press(r, "left")
	all = strings.Join(strings.Fields(uitest.Frame(r)), " ")
	require.Contains(t, all, "Rematch: you said yes (0:42 left). Yes: computer 2, cyrano-de-bergerac-y. Waiting for deirdre-of-sorrows-z.")

	uitest.Press(r, "n")
	require.Equal(t, 1, no)
	require.Contains(t, uitest.Frame(r), "No rematch: the table closes.")
	r.Update(state(nil, true, "deirdre-of-sorrows-z declined the rematch."))
	f = uitest.Frame(r)
	require.NotContains(t, f, "No rematch: the table closes.", "answered: the table has closed")
	uitest.Fits(t, f, 80, 24)
	require.Contains(t, f, "deirdre-of-sorrows-z declined the rematch. q: the menu.")
	require.NotContains(t, f, "no rematch", "nothing to answer any more")
	require.Contains(t, f, "q the menu")
	require.NotContains(t, f, "end turn")
	require.Zero(t, s.NextChange())
	uitest.Press(r, "r", "n")
	require.Equal(t, 1, yes)
	require.Equal(t, 1, no)
	require.Contains(t, uitest.Frame(r), "No rematch is on offer here now.")
}

// A watcher sees the offer and who is awaited, and has nothing to answer.
func TestWatcherSeesTheOffer(t *testing.T) {
	g := kingsGame(t, 9, 4)
	require.False(t, playKingsUntil(t, g, func() bool { return false }))
	rg := newKingsRig(t, g, engine.Spectator, true)
	rg.r.Update(KingsState{Common: Common{Table: "KINGS", Seats: fourSeats(), CanRematch: true, MatchOver: true, MatchWinner: engine.NoSeat,
		Offer: &hub.RematchOffer{Yes: []bool{true, true, false, false}, Waiting: []string{"cy", "dee"}, Left: time.Minute}}, View: g.View(engine.Spectator)})
	f := rg.frame()
	uitest.Fits(t, f, 80, 24)
	require.Contains(t, strings.Join(strings.Fields(f), " "), "The match is drawn. Rematch offered (1:00 left). Yes: ann, bob. Waiting for cy, dee.")
	require.NotContains(t, f, "no rematch")
	uitest.Press(rg.r, "n")
	require.NotContains(t, rg.frame(), "No rematch", "a watcher's n does nothing")
}
