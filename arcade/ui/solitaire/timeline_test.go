package solitaire

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/internal/uitest"
)

// A solo game keeps its timeline with its result, at the pace it was
// played, so that a later race of the same deal can replay it as a ghost
// (arcade/ui/race finds such runs).
func TestTimelineKept(t *testing.T) {
	e, clk := uitest.Env(t)
	info := klondikeInfo()
	spec := info.Spec(11)
	g, err := info.Game.New(spec, info.Defaults())
	require.NoError(t, err)
	s := newGameScreen(e, info, g, info.Defaults())
	rt := drive(s)
	for range 3 {
		clk.T = clk.T.Add(2 * time.Second)
		uitest.Press(rt, "d")
	}
	require.Len(t, s.steps, 3)
	r := s.result(false)
	require.Equal(t, 52, r.Total)
	require.Equal(t, []int{1, 2, 3}, []int{r.Timeline[0].Moves, r.Timeline[1].Moves, r.Timeline[2].Moves})
	require.Less(t, r.Timeline[0].At, r.Timeline[2].At, "at the pace it was played")
}
