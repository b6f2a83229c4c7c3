package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/command"
	"sshuffle/games"
	"sshuffle/internal/historytest"
	"sshuffle/store"
	"sshuffle/store/badger"
)

// What export writes of a finished table game is a docs/tablegames.md
// record that the project's own replay passes, line for line, for each
// game; the solitaire lines among them are not table records.
func TestExportPassesReplay(t *testing.T) {
	s, err := badger.OpenInMemory()
	require.NoError(t, err)
	defer s.Close()
	ctx := context.Background()
	ann, err := s.CreateAccount(ctx, "SHA256:ann", "ann")
	require.NoError(t, err)
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	c := games.Default()
	for i, game := range []string{"spite", "kings", "spite"} {
		kit, _ := c.TableKit(game)
		seats := map[string]int{"spite": 2, "kings": 3}[game]
		g := historytest.TableGame(t, kit, "CODE"+string(rune('A'+i)), uint64(40+i), seats, at.Add(time.Duration(i)*time.Minute), ann)
		require.NoError(t, s.RecordTableGame(ctx, g))
	}
	require.NoError(t, s.RecordResult(ctx, store.Result{Account: ann.ID, Spec: "freecell/3", Key: "freecell", Moves: 1,
		Finished: at.Add(time.Hour), Abandoned: true}))
	out, code := command.Run(command.Request{Args: []string{"export"}, ID: ann.ID, Store: s, Games: c})
	require.Equal(t, command.Done, code, out)
	byGame := map[string]*bytes.Buffer{"spite": {}, "kings": {}}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		switch {
		case strings.Contains(line, `"game":"spite"`):
			byGame["spite"].WriteString(line + "\n")
		case strings.Contains(line, `"game":"kings"`):
			byGame["kings"].WriteString(line + "\n")
		default:
			require.Contains(t, line, `"kind":"solitaire"`)
		}
	}
	for game, in := range byGame {
		kit, _ := c.TableKit(game)
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, replayTable(kit.Replay, in, &stdout, &stderr), "%s: %s%s", game, stdout.String(), stderr.String())
		n := map[string]string{"spite": "2 passed, 0 failed", "kings": "1 passed, 0 failed"}[game]
		require.Contains(t, stdout.String(), n)
	}
}
