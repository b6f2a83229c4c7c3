package race

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/internal/uitest"
)

// The longest names a race shows: 20 characters, the most a name may
// have.
var longRacers = []string{"Bartholomew_Fairfax1", "Wilhelmina-Cavendish", "Maximilian_Oberhaus9", "Konstantinos_Papado1"}

// longRace is a race of key with four racers of the longest names, the
// player (the host) first, and a watcher; started when start is set.
func longRace(t *testing.T, key string, start bool) (*raceScreen, chan tea.Msg, []*hub.RaceMember) {
	t.Helper()
	e, _ := uitest.Env(t, uitest.Player("SHA256:long0", longRacers[0]))
	clk := hub.NewManualClock()
	h := hub.New(hub.Config{Clock: clk})
	t.Cleanup(h.Close)
	e.Hub = h
	e.Done = make(chan struct{})
	t.Cleanup(func() { close(e.Done) })
	msgs := make(chan tea.Msg, 256)
	e.Prepare()
	e.SetSend(func(m tea.Msg) { msgs <- m })
	info, ok := games.Default().Entry(key)
	require.True(t, ok)
	sc, err := Open(e, ui.Route{Page: ui.Race, Game: info, Spec: info.Spec(7)}, boards)
	require.NoError(t, err)
	s := sc.(*raceScreen)
	until(t, s, msgs, func() bool { return s.have && s.st.Phase == hub.Lobby })
	var others []*hub.RaceMember
	for i, n := range longRacers[1:] {
		m, err := s.m.Race().Join(hub.Person{ID: fmt.Sprintf("SHA256:long%d", i+1), Name: n}, hub.Racer, func(hub.RaceState) {})
		require.NoError(t, err)
		others = append(others, m)
	}
	_, err = s.m.Race().Join(hub.Person{ID: "SHA256:watch", Name: "Evangeline_Watcher22"}, hub.Watcher, func(hub.RaceState) {})
	require.NoError(t, err)
	until(t, s, msgs, func() bool { return len(s.st.Racers) == 4 && len(s.st.Watchers) == 1 })
	if start {
		s.Update(tea.KeyPressMsg{Code: 's', Text: "s"})
		until(t, s, msgs, func() bool { return s.st.Phase == hub.Countdown })
		clk.Advance(3 * time.Second)
		until(t, s, msgs, func() bool { return s.st.Phase == hub.Running && s.game != nil })
	}
	return s, msgs, others
}

func checkRaceFit(t *testing.T, state string, s *raceScreen, f uitest.Fit) {
	t.Helper()
	frame := screenText(s)
	if os.Getenv("FIT_DUMP") != "" {
		fmt.Printf("=== %s\n%s\n", state, frame)
	}
	f.W, f.H = 80, 24
	if p := uitest.FitProblems(frame, f); len(p) > 0 {
		t.Errorf("%s:\n  %s\n%s", state, strings.Join(p, "\n  "), frame)
	}
}

func TestRaceLobbyFits80x24(t *testing.T) {
	s, _, _ := longRace(t, "klondike/draw1", false)
	names := []string{longRacers[0] + " (you)", longRacers[1], longRacers[2], longRacers[3]}
	keys := []string{"s", "g", "i", "q"}
	checkRaceFit(t, "race lobby, host", s, uitest.Fit{Whole: names, Keys: keys, Wrapped: []string{"Watching: Evangeline_Watcher22"}})
	s.st.Ranked = true
	s.frame = raceParts{}
	checkRaceFit(t, "race lobby, host of a ranked race", s, uitest.Fit{Whole: names, Keys: keys,
		Wrapped: []string{"A first try at today's deal counts as the daily one."}})
	s.st.Ranked = false
	s.setMsg(ui.ToneInfo, "No stored run of this deal to race: ghosts come from your friends' games and the day's best.")
	checkRaceFit(t, "race lobby, a notice", s, uitest.Fit{Whole: names, Keys: keys, Wrapped: []string{s.msg}})
	s.setMsg(ui.ToneOK, "")
	s.Update(tea.KeyPressMsg{Code: 'i', Text: "i"})
	for _, r := range longRacers[3] {
		s.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	checkRaceFit(t, "race lobby, typing an invitation", s, uitest.Fit{Whole: append(names, longRacers[3]+"_")})
}

func TestRaceFits80x24(t *testing.T) {
	for _, key := range []string{"klondike/draw1", "freecell", "spider/1suit"} {
		s, msgs, others := longRace(t, key, true)
		until(t, s, msgs, func() bool { return strings.Contains(screenText(s), "/52") || strings.Contains(screenText(s), "/104") })
		whole := []string{longRacers[0], longRacers[1], longRacers[2], longRacers[3]}
		if key != "klondike/draw1" {
			// A board too wide for the panel folds it to one line under
			// the board: as many racers as fit whole, then how many more.
			whole = []string{longRacers[1], "+2 more"}
		}
		checkRaceFit(t, key+": racing", s, uitest.Fit{Whole: whole, Keys: []string{"q"}})
		s.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
		checkRaceFit(t, key+": asked to give up", s, uitest.Fit{Whole: whole, Wrapped: []string{s.msg}})
		s.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
		until(t, s, msgs, func() bool { me, _ := s.me(); return me.Status == hub.GaveUp })
		checkRaceFit(t, key+": out, watching", s, uitest.Fit{Whole: whole, Keys: []string{"1-8", "q"}})
		for _, m := range others {
			require.NoError(t, m.Leave())
		}
		until(t, s, msgs, func() bool { return s.st.Phase == hub.Finished })
		checkRaceFit(t, key+": results", s, uitest.Fit{Whole: append(whole[:0:0], longRacers[0]+" (you)", longRacers[1], longRacers[2], longRacers[3]),
			Keys: []string{"1-8", "q"}})
	}
}
