package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/games"
	"sshuffle/internal/toygame"
)

// TestSelfplayAndReplayAToyGame: a table game that only a test's catalogue
// lists plays through selfplay, and its records replay, with nothing in
// this command written for it.
func TestSelfplayAndReplayAToyGame(t *testing.T) {
	cat := games.NewCatalogue(games.TableGame(toygame.Kit(), "Three cards each."))
	recs := t.TempDir() + "/r.jsonl"
	var out, errb bytes.Buffer
	args := []string{toygame.Name, "--seats", "hard,easy", "--games", "60", "--seed", "4", "--records", recs, "--json"}
	require.Equal(t, 0, selfplay(args, cat, &out, &errb), errb.String())
	var rep selfplayReport
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	require.Equal(t, toygame.Name, rep.Game)
	require.Equal(t, 60, rep.Seats[0].Wins+rep.Seats[1].Wins+rep.Draws)
	require.Greater(t, rep.Seats[0].Wins, rep.Seats[1].Wins, "the player that takes tricks cheaply wins more")

	data, err := os.ReadFile(recs)
	require.NoError(t, err)
	require.Equal(t, 60, strings.Count(string(data), "\n"))
	kit, ok := cat.TableKit(toygame.Name)
	require.True(t, ok)
	out.Reset()
	require.Equal(t, 0, replayTable(kit.Replay, bytes.NewReader(data), &out, &errb), out.String())
	require.Contains(t, out.String(), "60 passed, 0 failed")

	// A record with its first two actions swapped fails its replay.
	var rec toygame.Record
	require.NoError(t, json.Unmarshal([]byte(strings.SplitN(string(data), "\n", 2)[0]), &rec))
	rec.Actions[0], rec.Actions[1] = rec.Actions[1], rec.Actions[0]
	line, err := json.Marshal(rec)
	require.NoError(t, err)
	out.Reset()
	require.Equal(t, 1, replayTable(kit.Replay, bytes.NewReader(line), &out, &errb))

	// The house's catalogue does not list it.
	require.Equal(t, 2, selfplay(args, games.Default(), &out, &errb))
}
