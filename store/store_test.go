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
