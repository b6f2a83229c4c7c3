package table

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/games/kings"
	"sshuffle/internal/uitest"
)

// TestQuickPhrasesAtTheTable: p opens the phrases on the message lines, a
// digit hands the room that phrase's number, and a phrase the room shows
// takes one line under the message, within 80 cells; p then m mutes them,
// hides the one shown, tells the room, and is kept with the account.
func TestQuickPhrasesAtTheTable(t *testing.T) {
	e, _ := uitest.Env(t, uitest.Player("SHA256:k", "ann"))
	var said []int
	var mutes []bool
	pk := ui.NewPhrasePicker(e, func(n int) { said = append(said, n) }, func(on bool) { mutes = append(mutes, on) })
	g := kingsGame(t, 7, 4)
	seat := g.Turn()
	common := Common{Table: "KINGS", Seats: fourSeats(), Clock: 42 * time.Second}
	s := NewKings(e, Config[kings.Action]{Table: "KINGS", Act: func(kings.Action) {}, Phrases: pk}, KingsState{Common: common, View: g.View(seat)})
	r := ui.NewRouter(e, uitest.Pages, s, "")
	require.Empty(t, mutes, "phrases start on")

	uitest.Press(r, "p")
	f := uitest.Frame(r)
	uitest.Fits(t, f, 80, 24)
	lines := strings.Split(f, "\n")
	require.Equal(t, "1 Good game  2 Well played  3 Good luck  4 Thanks  5 Oops  6 Rematch?  m mute", strings.TrimSpace(lines[21]))
	uitest.Press(r, "3")
	require.Equal(t, []int{2}, said)
	require.NotContains(t, uitest.Frame(r), "Well played", "the list closes")
	// A digit with the list closed picks a card, as before.
	uitest.Press(r, "2")
	require.Equal(t, []int{2}, said)

	bob := &hub.Said{By: hub.Person{ID: "b", Name: "bobby-twenty-letters"}, Phrase: 0}
	common.Said = bob
	r.Update(KingsState{Common: common, View: g.View(seat)})
	f = uitest.Frame(r)
	uitest.Fits(t, f, 80, 24)
	saidAt := func() int {
		for i, l := range strings.Split(uitest.Frame(r), "\n") {
			if strings.TrimSpace(l) == "bobby-twenty-letters: Good game" {
				return i
			}
		}
		t.Fatalf("no line says the phrase:\n%s", uitest.Frame(r))
		return 0
	}
	require.Greater(t, saidAt(), 20, "under the table, over the keys")
	// The player's own sentence stays, above it.
	r.Update(Refused{Table: "KINGS", Text: "It is not your turn."})
	lines = strings.Split(uitest.Frame(r), "\n")
	require.Equal(t, "It is not your turn.", strings.TrimSpace(lines[saidAt()-1]))
	require.Equal(t, 23, saidAt()+1, "the keys right under it")

	uitest.Press(r, "p", "m")
	require.Equal(t, []bool{true}, mutes)
	f = uitest.Frame(r)
	require.NotContains(t, f, "bobby-twenty-letters: Good game")
	require.Contains(t, f, "Quick phrases are off")
	v, err := e.Store.Setting(context.Background(), "SHA256:k", ui.PhrasesSetting)
	require.NoError(t, err)
	require.Equal(t, "off", v)
	require.True(t, ui.PhrasesMuted(e))
	// A new screen (the next table) starts muted and tells its room so.
	var again []bool
	pk2 := ui.NewPhrasePicker(e, func(int) {}, func(on bool) { again = append(again, on) })
	require.Equal(t, []bool{true}, again)
	require.Empty(t, pk2.Said(bob))
	uitest.Press(r, "p")
	require.Contains(t, uitest.Frame(r), "m unmute")
	uitest.Press(r, "m")
	require.Equal(t, []bool{true, false}, mutes)
	require.Contains(t, uitest.Frame(r), "bobby-twenty-letters: Good game")
}

// TestHeaderSaysThePace: a table at a pace other than the default says
// it in the header, and the turn still shows beside it.
func TestHeaderSaysThePace(t *testing.T) {
	g := kingsGame(t, 7, 4)
	seat := g.Turn()
	rg := newKingsRig(t, g, seat, true)
	require.NotContains(t, strings.Split(rg.frame(), "\n")[0], "steady", "the default goes unsaid")
	rg.r.Update(KingsState{Common: Common{Table: "KINGS", Seats: fourSeats(), Clock: 42 * time.Second, Pace: "instant", Watchers: 2}, View: g.View(seat)})
	head := strings.Split(rg.frame(), "\n")[0]
	require.Contains(t, head, "· 2 watching · instant ")
	require.Contains(t, head, "your turn 0:42")
}
