package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var strengths = []string{"easy", "normal", "hard"}

// Every table of up to four seats, each seat any strength: the computers
// all have names of their own, and none is another seat's name.
func TestComputerNamesDistinctAtEveryTable(t *testing.T) {
	var walk func(seats []string)
	walk = func(seats []string) {
		if len(seats) > 0 {
			seen := map[string]int{}
			for i, s := range seats {
				n := ComputerName(s, i)
				require.NotContains(t, n, "computer", "seat %d (%s) has a name", i+1, s)
				prev, dup := seen[strings.ToLower(n)]
				require.False(t, dup, "seats %d and %d of %v are both %s", prev+1, i+1, seats, n)
				seen[strings.ToLower(n)] = i
			}
		}
		if len(seats) == 4 {
			return
		}
		for _, s := range strengths {
			walk(append(seats, s))
		}
	}
	walk(nil)
}

// The name tells the strength apart: a name belongs to one family only.
func TestComputerNamesOneFamilyEach(t *testing.T) {
	owner := map[string]string{}
	for _, s := range strengths {
		for seat := range 4 {
			n := strings.ToLower(ComputerName(s, seat))
			if o, ok := owner[n]; ok {
				require.Equal(t, s, o, "%s is both %s and %s", n, o, s)
			}
			owner[n] = s
		}
	}
	require.Len(t, owner, 12)
}

// Names fit a seat line with the strength beside them and have an account
// name's form, so that refusing them to people means something.
func TestComputerNamesAreShortAndClaimableInForm(t *testing.T) {
	for _, s := range strengths {
		for seat := range 4 {
			n := ComputerName(s, seat)
			require.GreaterOrEqual(t, len(n), 3, n)
			// 15: the Kings seat line's room for a name and what it is.
			require.LessOrEqual(t, len(ComputerLabel(s, seat)), 15, "%q with its strength", n)
			for _, c := range n {
				require.True(t, c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z', "%q has %q", n, c)
			}
			require.True(t, IsComputerName(n), n)
			require.True(t, IsComputerName(strings.ToLower(n)), n)
			require.True(t, IsComputerName(strings.ToUpper(n)), n)
		}
	}
	require.Equal(t, "Ada (hard)", ComputerLabel("hard", 0))
	require.False(t, IsComputerName("alice"))
	require.False(t, IsComputerName("ada2"))
	require.False(t, IsComputerName(""))
}

// A strength with no family, or a seat past the names, keeps the old
// wording, which has a space and so is no account's name.
func TestComputerNameOutsideTheFamilies(t *testing.T) {
	require.Equal(t, "computer 3", ComputerName("wild", 2))
	require.Equal(t, "computer 6", ComputerName("hard", 5))
}

func TestNearestStrength(t *testing.T) {
	in := TableInfo{Strengths: []string{"easy", "normal", "hard"}, Ratings: map[string]StrengthRating{
		"easy": {Rating: 1000}, "normal": {Rating: 1500}, "hard": {Rating: 1800}}}
	for r, want := range map[float64]string{0: "easy", 1249: "easy", 1250: "easy", 1251: "normal", 1650: "normal",
		1651: "hard", 3000: "hard"} {
		if got := in.NearestStrength(r); got != want {
			t.Errorf("NearestStrength(%v) = %q, want %q", r, got, want)
		}
	}
	if got := (TableInfo{Strengths: []string{"easy"}}).NearestStrength(1500); got != "" {
		t.Errorf("no ratings: %q", got)
	}
}
