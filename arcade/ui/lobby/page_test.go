package lobby

import (
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/games/spite"
	"sshuffle/internal/uitest"
)

func TestTableStateInTheLobby(t *testing.T) {
	st := uitest.KingsTable()
	require.Equal(t, Table{Code: "ABCDE", Game: "kings", Host: "ann", Watchers: 1, Playing: true,
		Seats: []Seat{{Name: "ann"}, {Name: "bob"}, {Name: "Hopper", Computer: true, Strength: "hard"},
			{Name: "cy", Computer: true, Strength: "normal"}, {Reserved: "dee"}}}, stateTable(st))
}

// TestOneOpenAtATime: keys typed ahead (n and enter, again and again) send
// one open to the hub at a time; the others are refused with a sentence.
func TestOneOpenAtATime(t *testing.T) {
	h := hub.New(hub.Config{TableKit: games.Default().TableKit})
	defer h.Close()
	e := &ui.Env{
		Log: slog.New(slog.DiscardHandler), Now: time.Now, Player: &ui.Player{ID: "k", Name: "ann", Addr: "192.0.2.1"},
		Unicode: true, Width: 80, Height: 24, Idle: time.Hour, Games: games.Default(), Hub: h,
	}
	s, err := OpenPage(e, ui.Route{Page: ui.Lobby}, hub.TableConfig{})
	require.NoError(t, err)
	pg := s.(*Page)
	o := Open{Game: spite.Name, Seats: []SeatChoice{{}, {Computer: true, Strength: "normal"}}}
	pg.Open(o) // its answer never comes: this env has no program to send it to
	require.NotContains(t, pg.View(), "on its way")
	pg.Open(o)
	require.Contains(t, pg.View(), "A table is on its way; wait for it.")
	pg.Join(Join{Code: "ABCDE"})
	require.Contains(t, pg.View(), "A table is on its way; wait for it.")
}

// The invite line is a whole command or the code alone, never a command
// cut at the edge.
func TestInviteLineIsNeverCut(t *testing.T) {
	e := &ui.Env{Width: 80, InviteHost: "cards.example.org", InvitePort: 2222}
	require.Equal(t, "Invite: ssh -t -p 2222 cards.example.org join ABCDE", inviteLine(e, "ABCDE"))
	e.InviteHost = "a-rather-long-name-for-a-card-server.example.org"
	require.Equal(t, "ssh -t -p 2222 a-rather-long-name-for-a-card-server.example.org join ABCDE", inviteLine(e, "ABCDE"))
	e.InviteHost += ".and-then-some"
	require.Equal(t, "Invite code: ABCDE", inviteLine(e, "ABCDE"))
}
