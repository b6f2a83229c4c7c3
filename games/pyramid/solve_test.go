package pyramid

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The pairing test behind the solver's dead ends: slot 0 (the apex) lies
// over every slot; slots 1 and 2 lie side by side in row 1.
func TestPairsUp(t *testing.T) {
	apex, left, right := uint32(1<<0), uint32(1<<1), uint32(1<<2)
	assert.True(t, pairsUp(left, 0, 0, right, 0, 0), "side by side, both can be free at once")
	assert.False(t, pairsUp(apex, 0, 0, right, 0, 0), "the apex is free only once the card under it is gone")
	assert.True(t, pairsUp(apex, 0, 0, 0, 0, 1), "a talon card meets any card")
	assert.False(t, pairsUp(0, 1, 0, 0, 1, 0), "two waste cards on the last pass never meet")
	assert.True(t, pairsUp(0, 1, 0, 0, 0, 1), "a waste card meets a stock card")
	// Two of each rank: the apex can only take the talon card, so the
	// other pair must be the side-by-side one.
	assert.True(t, pairsUp(apex|left, 0, 0, right, 0, 1))
	assert.False(t, pairsUp(apex|left, 0, 0, right|1<<3, 0, 0), "the apex can't meet either")
}

// A won deal and a lost one of the report, decided within the budget the
// arcade uses.
func TestSolveDecides(t *testing.T) {
	assert.Equal(t, "solved", Solve(spec(2), 1_000_000).Outcome.String())
	assert.Equal(t, "impossible", Solve(spec(849), 1_000_000).Outcome.String())
}
