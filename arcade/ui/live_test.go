package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/engine"
)

type raceHold = Live[hub.RaceState, *hub.RaceMember]

// TestLiveHoldsItsOwnMembership: three holds on one race, in one session's
// program: each takes only the states pushed to its own membership; Drop
// and Leave end a membership as a lost connection and a player's choice
// do; a hold the room closed tells the room nothing more.
func TestLiveHoldsItsOwnMembership(t *testing.T) {
	clk := hub.NewManualClock()
	h := hub.New(hub.Config{Clock: clk})
	t.Cleanup(h.Close)
	e := &Env{Done: make(chan struct{})}
	t.Cleanup(func() { close(e.Done) })
	msgs := make(chan tea.Msg, 256)
	e.Prepare()
	e.SetSend(func(m tea.Msg) { msgs <- m })

	race, err := h.NewRace(hub.RaceConfig{Spec: engine.Spec{Game: "klondike", Variant: "draw1", Seed: 7}})
	require.NoError(t, err)
	join := func(id string, role hub.Role) *raceHold {
		l, err := Join(e, func(sink func(hub.RaceState)) (*hub.RaceMember, error) {
			return race.Join(hub.Person{ID: id, Name: id}, role, sink)
		})
		require.NoError(t, err)
		return l
	}
	a, b, c := join("ann", hub.Racer), join("bob", hub.Racer), join("cy", hub.Watcher)
	holds := map[string]*raceHold{"ann": a, "bob": b, "cy": c}

	// seen is the newest state ann's hold took; every state pushed is
	// taken by exactly the hold of the member it was pushed to.
	var seen hub.RaceState
	until := func(ok func() bool) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for !ok() {
			select {
			case m := <-msgs:
				takers := 0
				for id, l := range holds {
					if st, mine := l.State(m); mine {
						takers++
						require.Equal(t, id, st.You, "a state taken by the wrong hold")
						if id == "ann" && st.Version > seen.Version {
							seen = st
						}
					}
				}
				require.Equal(t, 1, takers, "a state for no hold, or for several")
			case <-deadline:
				t.Fatalf("the room never got there; ann last saw %+v", seen)
			}
		}
	}
	standing := func(id string) hub.Standing {
		for _, x := range seen.Racers {
			if x.ID == id {
				return x
			}
		}
		return hub.Standing{}
	}
	until(func() bool { return len(seen.Racers) == 2 && len(seen.Watchers) == 1 })

	require.NoError(t, a.Member().Start())
	until(func() bool { return seen.Phase == hub.Countdown })
	clk.Advance(3 * time.Second)
	until(func() bool { return seen.Phase == hub.Running })

	b.Drop()
	require.True(t, b.Done())
	until(func() bool { return standing("bob").Status == hub.Dropped })

	// The room closed cy's membership (say): a later Leave tells it
	// nothing, so the room still counts cy as watching.
	c.Closed()
	c.Leave()
	require.True(t, c.Done())
	require.NoError(t, a.Member().Follow("bob"))
	until(func() bool { return seen.Following == "bob" })
	require.Len(t, seen.Watchers, 1, "a closed hold told the room it left")

	a.Leave()
	require.True(t, a.Done())
	state, err := race.State()
	require.NoError(t, err)
	for _, x := range state.Racers {
		if x.ID == "ann" {
			require.Equal(t, hub.GaveUp, x.Status, "leaving a running race gives it up")
		}
	}
	a.Drop() // once left, a drop is nothing
}
