package hostkeys

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCreateThenReuse(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	k1, err := LoadOrCreate(dir)
	require.NoError(t, err)
	require.True(t, k1.Created)
	require.Contains(t, k1.Fingerprint, "SHA256:")
	st, err := os.Stat(k1.Path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	k2, err := LoadOrCreate(dir)
	require.NoError(t, err)
	require.False(t, k2.Created)
	require.Equal(t, k1.Fingerprint, k2.Fingerprint)
}

func TestRefusesOpenModeAndGarbage(t *testing.T) {
	dir := t.TempDir()
	k, err := LoadOrCreate(dir)
	require.NoError(t, err)
	require.NoError(t, os.Chmod(k.Path, 0o644))
	_, err = LoadOrCreate(dir)
	require.ErrorContains(t, err, "chmod 600")

	dir2 := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir2, FileName), []byte("not a key"), 0o600))
	_, err = LoadOrCreate(dir2)
	require.ErrorContains(t, err, "not a valid private key")
}
