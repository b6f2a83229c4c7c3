package race

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/internal/uitest"
)

// TestQuickPhrasesInARace: while racing, p opens the phrases on the
// message line and a digit says one (the board does not take it); the
// room shows it on the message line; a second one too soon gets the
// room's sentence.
func TestQuickPhrasesInARace(t *testing.T) {
	s, msgs := startedRace(t, "klondike/draw1")
	moves := s.game.Game().Moves()
	s.Update(uitest.Key("p"))
	require.Contains(t, screenText(s), "1 Good game  2 Well played  3 Good luck  4 Thanks  5 Oops  6 Rematch?  m mute")
	s.Update(uitest.Key("3"))
	until(t, s, msgs, func() bool { return s.st.Said != nil })
	require.Equal(t, moves, s.game.Game().Moves(), "the digit went to the phrases, not the board")
	lines := strings.Split(screenText(s), "\n")
	require.Equal(t, "tess: Good luck", strings.TrimSpace(lines[len(lines)-3]))
	uitest.Fits(t, screenText(s), 80, 24)

	s.Update(uitest.Key("p"))
	s.Update(uitest.Key("1"))
	require.Contains(t, screenText(s), "One quick phrase every 3 seconds: wait a moment.")
	// Any other key closes the list and does what it does.
	s.Update(uitest.Key("p"))
	s.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	require.Contains(t, screenText(s), "Press q again to give up")
}

// TestRaceWatcherMutesPhrases: a watcher hears a racer's phrase until they
// mute phrases (p then m); then the next one never shows.
func TestRaceWatcherMutesPhrases(t *testing.T) {
	s, msgs := startedRace(t, "klondike/draw1")
	e, _ := uitest.Env(t, uitest.Player("SHA256:w", "wat"))
	e.Hub, e.Done = s.env.Hub, make(chan struct{})
	t.Cleanup(func() { close(e.Done) })
	wmsgs := make(chan tea.Msg, 64)
	e.Prepare()
	e.SetSend(func(m tea.Msg) { wmsgs <- m })
	sc, err := Open(e, ui.Route{Page: ui.Race, Code: s.st.Code, Watch: true}, boards)
	require.NoError(t, err)
	w := sc.(*raceScreen)
	until(t, w, wmsgs, func() bool { return w.have && w.st.Phase == hub.Running })
	require.Contains(t, screenText(w), "p phrases", "the watcher's key bar offers them")
	s.Update(uitest.Key("p"))
	s.Update(uitest.Key("4"))
	until(t, w, wmsgs, func() bool { return strings.Contains(screenText(w), "tess: Thanks") })
	w.Update(uitest.Key("p"))
	w.Update(uitest.Key("m"))
	require.Contains(t, screenText(w), "Quick phrases are off")
	require.NotContains(t, screenText(w), "tess: Thanks")
	until(t, s, msgs, func() bool { return s.st.Said != nil })
	require.Eventually(t, func() bool {
		st, err := w.m.State()
		return err == nil && st.Said == nil
	}, 10*time.Second, time.Millisecond, "the room hears the mute")
}
