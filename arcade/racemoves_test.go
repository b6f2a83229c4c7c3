package arcade

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/save"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/store"
)

// A racer's last save gives their result its moves and options; a save
// that does not read, or holds more moves than a result keeps, gives none.
func TestRaceMoves(t *testing.T) {
	info, _ := games.Default().Entry("freecell")
	opts := games.Options{"auto": false, "return": true}
	g, err := info.Game.New(info.Spec(5), opts)
	require.NoError(t, err)
	data, err := save.Encode(g, opts, 0, 0)
	require.NoError(t, err)
	acts, got := raceMoves(data)
	require.Nil(t, acts, "no moves yet")
	require.Nil(t, got)

	moves := []engine.Action{{Kind: engine.Move, From: 0, Index: 6, To: 8}, {Kind: engine.Move, From: 1, Index: 6, To: 9}}
	data, err = json.Marshal(save.Game{V: save.Version, Spec: info.Spec(5).String(), Actions: moves, Options: opts})
	require.NoError(t, err)
	acts, got = raceMoves(data)
	require.Equal(t, moves, acts)
	require.Equal(t, map[string]bool{"auto": false, "return": true}, got)

	many, err := json.Marshal(save.Game{V: save.Version, Spec: info.Spec(5).String(), Actions: make([]engine.Action, store.MaxActions+1)})
	require.NoError(t, err)
	for _, bad := range [][]byte{nil, []byte("{"), []byte(`{"v":99,"actions":[{"k":1}]}`), many} {
		acts, got = raceMoves(bad)
		require.Nil(t, acts)
		require.Nil(t, got)
	}
}

// A racer's timeline gives each kept move its time; an undo drops the
// undone move's; a timeline that does not count the moves gives none.
func TestRaceTimes(t *testing.T) {
	sec := func(n int) time.Duration { return time.Duration(n) * time.Second }
	steps := []store.Step{{At: sec(1), Moves: 1}, {At: sec(2), Moves: 2}, {At: sec(3), Moves: 1}, {At: sec(5), Moves: 2}, {At: sec(6), Moves: 3}}
	require.Equal(t, []time.Duration{sec(1), sec(5), sec(6)}, raceTimes(steps, 3))
	require.Nil(t, raceTimes(steps, 4), "a move the timeline never reached")
	require.Nil(t, raceTimes(steps, 2), "more moves counted than kept")
	require.Nil(t, raceTimes(nil, 0))
}
