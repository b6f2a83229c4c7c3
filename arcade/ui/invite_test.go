package ui

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/engine"
)

// Y on an invitation to a room that has ended since says that the room
// has ended, as its code says it anywhere else, not that the invitation
// is gone.
func TestInvitationToAnEndedRoom(t *testing.T) {
	clk := hub.NewManualClock()
	h := hub.New(hub.Config{Clock: clk, Rand: engine.NewRNG(1), Grace: 10 * time.Second})
	defer h.Close()
	ann := hub.Person{ID: "id-ann", Name: "ann"}
	bob := hub.Person{ID: "id-bob", Name: "bob"}
	from := h.Connect(ann, true, func(hub.Notice) {})
	notices := make(chan hub.Notice, 4)
	r, _ := testRouter(t, &text{body: "menu", w: 20, h: 5}, nil)
	r.env.Hub, r.env.Player = h, &Player{ID: bob.ID, Name: bob.Name}
	r.env.Live = h.Connect(bob, true, func(n hub.Notice) { notices <- n })
	race, err := h.NewRace(hub.RaceConfig{Spec: engine.Spec{Game: "klondike", Variant: "draw1", Seed: 7}, Host: ann})
	require.NoError(t, err)
	require.NoError(t, from.Invite(bob, race.Code()))
	r.Update(NoticeMsg{Notice: <-notices})
	require.Contains(t, r.View().Content, "Y join")
	clk.Advance(10 * time.Second) // nobody came: the race closes
	<-race.Done()
	r.Update(key("Y"))
	require.Contains(t, r.View().Content, "The room "+race.Code()+" has ended, and its code with it.")
}
