package hostkeys

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Three nodes starting at once with one key file end with one key.
func TestLoadOrCreateFileShared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys", "host_ed25519")
	keys := make([]Key, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() { keys[i], errs[i] = LoadOrCreateFile(path) })
	}
	wg.Wait()
	created := 0
	for i := range keys {
		require.NoError(t, errs[i])
		assert.Equal(t, keys[0].Fingerprint, keys[i].Fingerprint)
		if keys[i].Created {
			created++
		}
	}
	assert.Equal(t, 1, created)
	again, err := LoadOrCreateFile(path)
	require.NoError(t, err)
	assert.False(t, again.Created)
	assert.Equal(t, keys[0].Fingerprint, again.Fingerprint)

	require.NoError(t, os.Chmod(path, 0o644))
	_, err = LoadOrCreateFile(path)
	assert.ErrorContains(t, err, "chmod 600")
}
