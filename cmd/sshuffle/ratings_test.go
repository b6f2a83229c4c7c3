package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRatingsCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run([]string{"ratings", "spite", "--games", "15", "--json"}, &out, &errOut), errOut.String())
	var rep ratingsReport
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	// Three pairs, each on fifteen deals from both seats.
	require.Equal(t, 90, rep.Games)
	require.Equal(t, "normal", rep.Anchor)
	byName := map[string]strengthRating{}
	for _, r := range rep.Ratings {
		byName[r.Strength] = r
		require.Equal(t, 60.0, r.Results, "two pairs of 30 games each")
		require.Greater(t, r.Deviation, 0.0)
	}
	require.Len(t, byName, 3)
	require.Equal(t, 1500.0, byName["normal"].Rating)
	require.Greater(t, byName["hard"].Rating, byName["easy"].Rating+200, "hard beats easy nearly always")

	out.Reset()
	require.Equal(t, 0, run([]string{"ratings", "kings", "--players", "3", "--games", "2"}, &out, &errOut), errOut.String())
	// Three pairs, each lone strength of a pair in each of three seats.
	require.Contains(t, out.String(), "kings (defaults), 3 players, 36 games")
	require.Regexp(t, `normal\s+1500\s`, out.String())

	// By default, every number of players the game takes, fitted together.
	out.Reset()
	require.Equal(t, 0, run([]string{"ratings", "kings", "--games", "1", "--json"}, &out, &errOut), errOut.String())
	rep = ratingsReport{}
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	require.Equal(t, []int{2, 3, 4}, rep.Players)
	require.Equal(t, 6+18+24, rep.Games)

	for _, bad := range [][]string{{"ratings"}, {"ratings", "klondike"}, {"ratings", "kings", "--players", "5"}, {"ratings", "kings", "--players", "2,2"},
		{"ratings", "kings", "--players", "2,"},
		{"ratings", "spite", "--games", "0"}, {"ratings", "spite", "--settings", "payoff=7"}} {
		errOut.Reset()
		require.Equal(t, 2, run(bad, &out, &errOut), "%v", bad)
		require.NotEmpty(t, errOut.String())
	}
}
