package klondike

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// Every held fixed point twins skips because the plain one's steps already
// meet its goal without the held card (surelyFirst) does meet it when run,
// along the searches of deals of both draws; deal 59 in Draw 3 has talon
// cards that go up while they could be laid on a column.
func TestSurelyFirstNeverWrong(t *testing.T) {
	checkSurely = true
	defer func() { checkSurely = false }()
	surelyWrong.Store(0)
	surelySpared.Store(0)
	for _, c := range []struct {
		variant string
		seeds   []uint64
	}{{"draw3", []uint64{59, 409, 6096}}, {"draw1", []uint64{1585, 1033}}} {
		for _, seed := range c.seeds {
			g, err := New(engine.Spec{Game: "klondike", Variant: c.variant, Seed: seed})
			require.NoError(t, err)
			sv := &solver{draw: g.draw}
			s := fromGame(g)
			sv.auto(&s, nil)
			sv.search(s, 100_000)
		}
	}
	require.Greater(t, surelySpared.Load(), int64(1000))
	require.Zero(t, surelyWrong.Load())
}
