package store

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestValidName(t *testing.T) {
	for _, ok := range []string{"abc", "a_b-c", "ABC", "x1234567890123456789"} {
		assert.NoError(t, ValidName(ok), ok)
	}
	for _, bad := range []string{"", "ab", "x12345678901234567890", "a b", "é-abc", "ab.c", "a\x00bc", strings.Repeat("a", 1<<20)} {
		err := ValidName(bad)
		if assert.Error(t, err, bad) {
			assert.True(t, strings.HasSuffix(err.Error(), "."), "a sentence: %q", err)
		}
	}
}

// A computer player's name passes ValidName (lookups of old accounts still
// work) but no one may claim it; everything else claimable is as valid.
func TestClaimableName(t *testing.T) {
	for _, ok := range []string{"abc", "alice", "ada2", "turingmachine"} {
		assert.NoError(t, ClaimableName(ok), ok)
	}
	for _, computer := range []string{"Ada", "ada", "TURING", "Widget", "pip"} {
		assert.NoError(t, ValidName(computer), computer)
		err := ClaimableName(computer)
		if assert.Error(t, err, computer) {
			assert.Equal(t, `The name "`+computer+`" belongs to a computer player at the tables; pick another.`, err.Error())
		}
	}
	assert.Equal(t, ValidName("ab"), ClaimableName("ab"))
}
