package race

import (
	"log/slog"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/deals"
	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/games"
)

// slot is one search slot, as the server's: Run gives up once done closes.
type slot chan struct{}

func (s slot) Run(_ string, done <-chan struct{}, fn func()) bool {
	select {
	case s <- struct{}{}:
	case <-done:
		return false
	}
	defer func() { <-s }()
	fn()
	return true
}

// The lobby shows the deal's difficulty once it is rated; a rating still
// waiting for its search slot when the race starts is dropped unsearched,
// and a later race on a deal already rated shows it at once.
func TestLobbyRating(t *testing.T) {
	pools := deals.NewPools(games.Default(), slog.New(slog.DiscardHandler))
	sl := make(slot, 1)
	pools.Share(sl)
	info, _ := games.Default().Entry("klondike/draw1")
	spec := info.Spec(7)
	open := func() (*raceScreen, *hub.ManualClock, chan tea.Msg) {
		e, clk, msgs := raceEnv(t)
		e.Pools = pools
		sc, err := Open(e, ui.Route{Page: ui.Race, Game: info, Spec: spec}, boards)
		require.NoError(t, err)
		s := sc.(*raceScreen)
		until(t, s, msgs, func() bool { return s.have && s.st.Phase == hub.Lobby })
		return s, clk, msgs
	}

	sl <- struct{}{} // the slot is busy
	s, clk, msgs := open()
	cmd := s.Init()
	require.NotNil(t, cmd)
	rated := make(chan tea.Msg, 1)
	go func() { rated <- cmd() }()
	require.NotContains(t, screenText(s), "Difficulty")
	s.Update(tea.KeyPressMsg{Code: 's', Text: "s"})
	until(t, s, msgs, func() bool { return s.st.Phase == hub.Countdown })
	clk.Advance(3 * time.Second)
	until(t, s, msgs, func() bool { return s.st.Phase == hub.Running })
	select {
	case m := <-rated:
		require.Equal(t, ratedMsg{spec: spec}, m, "the race left its lobby: not rated")
	case <-time.After(10 * time.Second):
		t.Fatal("the rating still waits for its slot after the race started")
	}
	_, ok := pools.Rated(spec)
	require.False(t, ok)
	<-sl

	s, _, _ = open()
	cmd = s.Init()
	require.NotNil(t, cmd)
	s.Update(cmd())
	want, ok := deals.Rate(info, spec)
	require.True(t, ok)
	require.Contains(t, screenText(s), "Difficulty: "+want.Text())

	s, _, _ = open()
	require.Nil(t, s.Init(), "rated already")
	require.Contains(t, screenText(s), "Difficulty: "+want.Text())

	// The rating of the player's race before is not this race's.
	other := info.Spec(8)
	e, _, msgs := raceEnv(t)
	e.Pools = pools
	sc, err := Open(e, ui.Route{Page: ui.Race, Game: info, Spec: other}, boards)
	require.NoError(t, err)
	s = sc.(*raceScreen)
	until(t, s, msgs, func() bool { return s.have && s.st.Phase == hub.Lobby })
	require.NotNil(t, s.Init())
	s.Update(ratedMsg{spec: spec, d: want, ok: true})
	require.NotContains(t, screenText(s), "Difficulty")
}
