package engine

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestUndoStack(t *testing.T) {
	var u UndoStack[[2]int]
	st := [2]int{7, 7}
	require.False(t, u.Pop(&st), "nothing to undo on a fresh stack")
	require.Equal(t, [2]int{7, 7}, st, "a failed Pop leaves the state alone")
	require.Zero(t, u.Len())
	require.Empty(t, u.History())

	draw := Action{Kind: Draw}
	move := Action{Kind: Move, From: 1, Index: 2, To: 3}
	u.Push([2]int{0, 0}, draw)
	u.Push([2]int{1, 0}, move)
	require.Equal(t, 2, u.Len())
	require.Equal(t, []Action{draw, move}, u.History())

	h := u.History()
	h[0] = Action{Kind: Auto}
	require.Equal(t, []Action{draw, move}, u.History(), "History is a copy")

	require.True(t, u.Pop(&st))
	require.Equal(t, [2]int{1, 0}, st, "the last push comes back first")
	require.Equal(t, []Action{draw}, u.History())
	require.True(t, u.Pop(&st))
	require.Equal(t, [2]int{0, 0}, st)
	require.False(t, u.Pop(&st))
	require.Zero(t, u.Len())
}

func TestUndoStackClone(t *testing.T) {
	var u UndoStack[int]
	u.Push(1, Action{Kind: Draw})
	u.Push(2, Action{Kind: Move, From: 4})
	c := u.Clone()
	var st int
	require.True(t, c.Pop(&st))
	// The clone's next push lands where u still keeps its second entry.
	c.Push(9, Action{Kind: Auto, From: 9})
	require.Equal(t, []Action{{Kind: Draw}, {Kind: Move, From: 4}}, u.History())
	require.True(t, u.Pop(&st))
	require.Equal(t, 2, st)
	require.Equal(t, []Action{{Kind: Draw}, {Kind: Auto, From: 9}}, c.History())
	require.True(t, c.Pop(&st))
	require.Equal(t, 9, st)
}
