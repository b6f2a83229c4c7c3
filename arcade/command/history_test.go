package command

import (
	"bufio"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/historytest"
	"sshuffle/store"
	"sshuffle/store/badger"
)

var hist0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// historyStore holds, for ann: a won Klondike with its moves, then a
// finished Spite game with bob; and for bob, the same Spite game.
func historyStore(t *testing.T) (store.Store, store.TableGame, store.Result) {
	t.Helper()
	s, err := badger.OpenInMemory()
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	ctx := context.Background()
	ann, err := s.CreateAccount(ctx, "SHA256:ann", "ann")
	require.NoError(t, err)
	bob, err := s.CreateAccount(ctx, "SHA256:bob", "bob")
	require.NoError(t, err)
	sol := store.Result{Account: ann.ID, Name: "ann", Spec: "klondike/draw1/7", Key: "klondike/draw1", Won: true,
		Moves: 2, Elapsed: 95 * time.Second, Finished: hist0,
		Actions: []engine.Action{{Kind: engine.Draw}, {Kind: engine.Draw}}, Times: []time.Duration{time.Second, 2500 * time.Millisecond}}
	require.NoError(t, s.RecordResult(ctx, sol))
	kit, _ := games.Default().TableKit("spite")
	tg := historytest.TableGame(t, kit, "SPITE", 5, 2, hist0.Add(time.Hour), ann, bob)
	require.NoError(t, s.RecordTableGame(ctx, tg))
	return s, tg, sol
}

func TestHistoryCommand(t *testing.T) {
	s, tg, sol := historyStore(t)
	run := func(id string, args ...string) (string, int) {
		return Run(Request{Args: args, ID: id, Store: s, Games: games.Default()})
	}
	out, code := run("SHA256:ann", "history")
	require.Equal(t, Done, code, out)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 5, out)
	require.Equal(t, "ann", lines[0])
	require.True(t, strings.HasPrefix(lines[2], store.TableGameID(tg)+"  2026-12-01 11:00  spite with bob: "), lines[2])
	require.Equal(t, store.ResultID(sol)+"  2026-12-01 10:00  klondike draw1: won in 1:35, 2 moves", lines[3])

	out, code = run("SHA256:bob", "history", "--json")
	require.Equal(t, Done, code, out)
	var v historyValue
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.Len(t, v.Games, 1, "bob has the table game only")
	require.Equal(t, store.TableGameID(tg), v.Games[0].ID, "the same id in both histories")
	require.Equal(t, "table", v.Games[0].Kind)
	require.Equal(t, "spite/5", v.Games[0].Spec)
	require.Equal(t, "spite with ann", v.Games[0].What)

	out, _ = run("SHA256:ann", "history", "--game", "klondike", "--json")
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.Len(t, v.Games, 1)
	require.Equal(t, store.ResultID(sol), v.Games[0].ID)
	out, _ = run("SHA256:ann", "history", "--limit=1", "--json")
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.Len(t, v.Games, 1)
	require.Equal(t, store.TableGameID(tg), v.Games[0].ID, "newest first")

	out, code = run("SHA256:ann", "history", "--game", "chess")
	require.Equal(t, Refused, code)
	require.Contains(t, out, `unknown game "chess"`)
	out, code = run("SHA256:ann", "history", "--limit", "0")
	require.Equal(t, Refused, code, out)
	out, code = run("", "history")
	require.Equal(t, Refused, code)
	require.Contains(t, out, "Guests' games are not kept")
	out, code = run("SHA256:cy", "history")
	require.Equal(t, Done, code, out)
	require.Contains(t, out, "No finished games yet.")
	out, code = run("SHA256:ann", "replay", "x")
	require.Equal(t, Refused, code)
	require.Contains(t, out, "needs a terminal")
}

// A table game's match deal (its seed deals the later games) is not told
// while the match goes on.
func TestHistoryHidesAMatchInPlay(t *testing.T) {
	s, tg, _ := historyStore(t)
	tg.Code, tg.MatchEnd, tg.MatchWinner, tg.Finished = "LATER", false, -1, tg.Finished.Add(time.Hour)
	require.NoError(t, s.RecordTableGame(context.Background(), tg))
	out, code := Run(Request{Args: []string{"history", "--json"}, ID: "SHA256:bob", Store: s, Games: games.Default()})
	require.Equal(t, Done, code, out)
	var v historyValue
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.Len(t, v.Games, 2)
	require.Equal(t, "", v.Games[0].Spec)
	require.Equal(t, "spite/5", v.Games[1].Spec)
	out, code = Run(Request{Args: []string{"export"}, ID: "SHA256:bob", Store: s, Games: games.Default()})
	require.Equal(t, Done, code, out)
	first, _, _ := strings.Cut(out, "\n")
	require.NotContains(t, first, `"spec"`)
}

func TestExportCommand(t *testing.T) {
	s, tg, sol := historyStore(t)
	out, code := Run(Request{Args: []string{"export"}, ID: "SHA256:ann", Store: s, Games: games.Default()})
	require.Equal(t, Done, code, out)
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	var lines []map[string]json.RawMessage
	for sc.Scan() {
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m), sc.Text())
		lines = append(lines, m)
	}
	require.Len(t, lines, 2)
	table, solitaire := lines[0], lines[1]
	require.JSONEq(t, `"`+store.TableGameID(tg)+`"`, string(table["id"]))
	require.JSONEq(t, `"spite"`, string(table["game"]))
	require.JSONEq(t, `["person","person"]`, string(table["seats"]))
	require.JSONEq(t, `["ann","bob"]`, string(table["players"]))
	for _, k := range []string{"settings", "start", "actions", "result"} {
		require.Contains(t, table, k, "the record's own fields")
	}
	require.JSONEq(t, `"klondike/draw1/7"`, string(solitaire["spec"]))
	require.JSONEq(t, `[{"k":1,"f":0,"i":0,"t":0},{"k":1,"f":0,"i":0,"t":0}]`, string(solitaire["actions"]))
	require.JSONEq(t, `[1000,2500]`, string(solitaire["timesMs"]))
	require.JSONEq(t, `95000`, string(solitaire["elapsedMs"]))
	_ = sol

	out, code = Run(Request{Args: []string{"export", "--since", "2026-12-01T10:30:00Z"}, ID: "SHA256:ann", Store: s, Games: games.Default()})
	require.Equal(t, Done, code, out)
	require.Equal(t, 1, strings.Count(out, "\n"), "only the table game is that recent")
	out, code = Run(Request{Args: []string{"export", "--since", "2026-12-02"}, ID: "SHA256:ann", Store: s, Games: games.Default()})
	require.Equal(t, Done, code, out)
	require.Equal(t, "", out)
	out, code = Run(Request{Args: []string{"export", "--since", "yesterday"}, ID: "SHA256:ann", Store: s, Games: games.Default()})
	require.Equal(t, Refused, code)
	require.Contains(t, out, "--since takes a date")
}
