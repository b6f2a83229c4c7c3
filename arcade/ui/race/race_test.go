package race

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/internal/uitest"
	"sshuffle/store"
)

// raceEnv is a test env with a hub on a manual clock; what the race's
// member goroutine sends into the program arrives on msgs.
func raceEnv(t testing.TB) (*ui.Env, *hub.ManualClock, chan tea.Msg) {
	t.Helper()
	e, _ := uitest.Env(t)
	clk := hub.NewManualClock()
	h := hub.New(hub.Config{Clock: clk})
	t.Cleanup(h.Close)
	e.Hub = h
	e.Done = make(chan struct{})
	t.Cleanup(func() { close(e.Done) })
	msgs := make(chan tea.Msg, 64)
	e.Prepare()
	e.SetSend(func(m tea.Msg) { msgs <- m })
	return e, clk, msgs
}

// until feeds the screen what the room sends until ok holds of it.
func until(t testing.TB, s ui.Screen, msgs chan tea.Msg, ok func() bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !ok() {
		select {
		case m := <-msgs:
			s.Update(m)
		case <-deadline:
			t.Fatalf("the screen never got there; it shows:\n%s", screenText(s))
		}
	}
}

// screenText is the screen as text, without its styles.
func screenText(s ui.Screen) string { return uitest.Plain(s.View()) }

func startedRace(t testing.TB, key string) (*raceScreen, chan tea.Msg) {
	t.Helper()
	e, clk, msgs := raceEnv(t)
	info, ok := games.Default().Entry(key)
	require.True(t, ok)
	sc, err := Open(e, ui.Route{Page: ui.Race, Game: info, Spec: info.Spec(7)}, boards)
	require.NoError(t, err)
	s := sc.(*raceScreen)
	until(t, s, msgs, func() bool { return s.have && s.st.Phase == hub.Lobby })
	require.Contains(t, screenText(s), "Invite: ssh -t localhost join "+s.st.Code)
	s.Update(tea.KeyPressMsg{Code: 's', Text: "s"})
	until(t, s, msgs, func() bool { return s.st.Phase == hub.Countdown })
	require.Contains(t, screenText(s), "Starting in 3")
	clk.Advance(3 * time.Second)
	until(t, s, msgs, func() bool { return s.st.Phase == hub.Running && s.game != nil })
	require.Equal(t, hub.Activity{Doing: hub.Racing, Game: key, Room: s.st.Code, Watchable: true}, s.Activity())
	return s, msgs
}

// At 80x24 the panel sits beside a board that leaves room for it, and
// folds to one line under one that does not.
func TestRacePanelBesideOrFolded(t *testing.T) {
	s, msgs := startedRace(t, "klondike/draw1")
	until(t, s, msgs, func() bool { return strings.Contains(screenText(s), "0/52 0m") })
	v := screenText(s)
	lines := strings.Split(v, "\n")
	require.LessOrEqual(t, len(lines), 24)
	require.Contains(t, lines[1], "Race "+s.st.Code, "the panel's head beside the board's first row")
	require.Contains(t, lines[2], "1 tess (you)")
	require.Contains(t, lines[3], "0/52 0m")

	f, msgs2 := startedRace(t, "freecell")
	until(t, f, msgs2, func() bool { return strings.Contains(screenText(f), "/52 0m") })
	lines = strings.Split(screenText(f), "\n")
	require.LessOrEqual(t, len(lines), 24)
	require.Regexp(t, `^Race 0:00 · you \d+/52 0m$`, lines[len(lines)-2], "folded under the board")
	require.NotContains(t, screenText(f), "# deal number", "a race refuses a new deal")
}

// Giving up takes two presses and leaves the player in the room.
func TestRaceGiveUpStaysToWatch(t *testing.T) {
	s, msgs := startedRace(t, "klondike/draw1")
	s.Update(tea.KeyPressMsg{Code: 'd', Text: "d"})
	until(t, s, msgs, func() bool { me, _ := s.me(); return me.Moves == 1 })
	s.Update(tea.KeyPressMsg{Code: 'n', Text: "n"})
	require.Contains(t, screenText(s), "Not during a race")
	s.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	require.Contains(t, screenText(s), "Press q again")
	s.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	require.Contains(t, screenText(s), "and so it ends", "nobody else races on")
	require.NotContains(t, screenText(s), "the others race on")
	// The only racer gave up: the race is over, and its results show.
	until(t, s, msgs, func() bool { return s.st.Phase == hub.Finished })
	v := screenText(s)
	require.Contains(t, v, "results")
	require.Contains(t, v, "tess (you)")
	require.Contains(t, v, "out")
	require.NotContains(t, v, "You are out of this race", "the results replace what giving up was told")
}

// A race of a deal finds the stored runs of it as ghosts: the followed
// players' runs first (a win before a loss), then the day's board; runs
// of another deal are not ghosts of this one.
func TestGhostRuns(t *testing.T) {
	e, _ := uitest.Env(t)
	info, ok := games.Default().Entry("klondike/draw1")
	require.True(t, ok)
	spec := info.Spec(11)

	ctx := e.Ctx()
	today := store.Day(e.Now())
	put := func(id, name string, won bool, elapsed time.Duration, daily bool) {
		_, _ = e.Store.CreateAccount(ctx, id, name)
		res := store.Result{Account: id, Name: name, Spec: spec.String(), Key: spec.Key(), Won: won, Moves: 2,
			Elapsed: elapsed, Finished: e.Now(), Total: 52, Daily: daily,
			Timeline: []store.Step{{At: time.Second, Moves: 1}, {At: elapsed, Home: 52, Moves: 2}}}
		if daily {
			res.Day = today
		}
		if !won {
			res.Timeline[1].Home = 9
		}
		require.NoError(t, e.Store.RecordResult(ctx, res))
	}
	put("SHA256:f1", "fran", false, 50*time.Second, false)
	put("SHA256:f2", "gus", true, 90*time.Second, false)
	put("SHA256:d1", "dora", true, 30*time.Second, true)
	require.NoError(t, e.Store.Follow(ctx, e.Player.ID, "SHA256:f1"))
	require.NoError(t, e.Store.Follow(ctx, e.Player.ID, "SHA256:f2"))

	runs, err := GhostRuns(e, spec)
	require.NoError(t, err)
	var names []string
	for _, r := range runs {
		names = append(names, r.Name)
	}
	require.Equal(t, []string{"gus", "fran", "dora"}, names, "friends (a win before a loss), then the day's best")
	require.Equal(t, hub.Won, runs[0].Steps[len(runs[0].Steps)-1].Status)
	require.Equal(t, hub.Over, runs[1].Steps[len(runs[1].Steps)-1].Status)
	other := spec
	other.Seed++
	runs, err = GhostRuns(e, other)
	require.NoError(t, err)
	require.Empty(t, runs, "runs of another deal are not ghosts of this one")
}
