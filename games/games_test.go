package games

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// A spec a game can't deal is neither won nor lost: the solver says
// undecided, and the game's Text says why.
func TestBadSpecIsNotADecision(t *testing.T) {
	for name, e := range All {
		spec := engine.Spec{Game: name, Variant: "nosuch", Seed: 1}
		_, err := e.Text(spec)
		require.Error(t, err, name)
		r := e.Solve(spec, 1000)
		require.Equal(t, engine.Undecided, r.Outcome, name)
		require.Empty(t, r.Moves, name)
		// The same game dealt properly is decided or searched, not refused.
		ok := engine.Spec{Game: name, Seed: 1}
		switch name {
		case "klondike":
			ok.Variant = "draw1"
		case "spider":
			ok.Variant = "1suit"
		}
		_, err = e.Text(ok)
		require.NoError(t, err, name)
	}
}
