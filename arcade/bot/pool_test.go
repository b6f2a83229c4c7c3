package bot

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
)

// TestPoolSeekMeetsAPerson: a bot's pool seek waits in the play-now pool
// (a seeking with no table), and a person pressing play now is seated with
// it at a table the pool deals; the bot is told the table as after any
// seek.
func TestPoolSeekMeetsAPerson(t *testing.T) {
	x := newHarness(t, Config{Rated: true})
	x.send(`{"type":"seek","game":"spite","pool":true}`)
	s := x.expect(TSeeking)
	require.Equal(t, true, s["pool"])
	require.Equal(t, "", s["table"])
	require.Equal(t, "spite", s["game"])
	x.send(`{"type":"seek","game":"spite","pool":true}`)
	require.Contains(t, x.expect(TError)["error"], "in the play-now pool already")

	ann := hub.Person{ID: "SHA256:ann", Name: "ann"}
	seated := make(chan hub.PoolState, 64)
	_, err := x.h.PlayNow(ann, hub.PoolWant{Game: "spite"}, func(st hub.PoolState) {
		if st.Phase == hub.PoolSeated {
			seated <- st
		}
	}, func(hub.TableState) {})
	require.NoError(t, err)
	ts := x.until(TTableStart, TSeeking)
	st := <-seated
	require.Equal(t, st.Code, ts["table"])
	require.ElementsMatch(t, []any{map[string]any{"name": "robot1", "kind": "bot"}, map[string]any{"name": "ann", "kind": "person"}}, ts["seats"])
	require.Equal(t, TState, x.expect(TState)["type"])
	x.sendJSON(map[string]any{"type": TLeave, "table": ts["table"]})
	require.Equal(t, "You left the table.", x.until(TTableEnd, TState)["reason"])
}

// TestPoolSeekStopped: stopSeek takes the bot out of the pool (a seekEnd),
// gives back its place among its open games, and nobody is seated with it
// after.
func TestPoolSeekStopped(t *testing.T) {
	x := newHarness(t, Config{Limits: Limits{OpenGames: 1}})
	x.send(`{"type":"stopSeek"}`)
	require.Contains(t, x.expect(TError)["error"], "not waiting in the play-now pool")
	x.send(`{"type":"seek","game":"kings","pool":true,"against":["easy"]}`)
	require.Contains(t, x.expect(TError)["error"], "leave out settings, against and pace")
	x.send(`{"type":"seek","game":"kings","pool":true,"players":3}`)
	x.expect(TSeeking)
	require.Equal(t, 1, x.h.PoolWaiting())
	x.send(`{"type":"stopSeek"}`)
	require.Equal(t, "You left the play-now pool.", x.expect(TSeekEnd)["reason"])
	require.Equal(t, 0, x.h.PoolWaiting())
	x.send(`{"type":"seek","game":"spite","pool":true}`)
	x.expect(TSeeking) // the open game the first seek held is free again
}
