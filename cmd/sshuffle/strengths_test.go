package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestStrengthsCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run([]string{"strengths", "spite", "--games", "10", "--pairs", "hard:easy,easy:hard", "--json"}, &out, &errOut), errOut.String())
	var pairs []strengthPair
	require.NoError(t, json.Unmarshal(out.Bytes(), &pairs))
	require.Len(t, pairs, 2)
	for _, p := range pairs {
		require.Equal(t, 20, p.Games, "ten deals, the tested strength in each of two seats")
	}
	// Seats rotate on the same deals: the two lines are one set of games
	// seen from either side.
	require.Equal(t, pairs[0].Games-pairs[0].Draws, pairs[0].Wins+pairs[1].Wins)
	require.Greater(t, pairs[0].Wins, pairs[1].Wins, "hard beats easy")
	require.Equal(t, pairs[0].MeanScore, pairs[1].OtherScore)

	out.Reset()
	require.Equal(t, 0, run([]string{"strengths", "kings", "--players", "3", "--games", "4", "--pairs", "hard:easy"}, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "kings (defaults), 3 players")
	require.Regexp(t, `hard\s+easy\s+12\s`, out.String())
	require.Contains(t, out.String(), "scores are penalty points")

	for _, bad := range [][]string{{"strengths"}, {"strengths", "klondike"}, {"strengths", "kings", "--players", "5"},
		{"strengths", "spite", "--pairs", "hard"}, {"strengths", "spite", "--games", "0"}, {"strengths", "spite", "--settings", "payoff=7"}} {
		errOut.Reset()
		require.Equal(t, 2, run(bad, &out, &errOut), "%v", bad)
		require.NotEmpty(t, errOut.String())
	}
}
