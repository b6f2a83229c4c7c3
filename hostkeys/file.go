package hostkeys

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// LoadOrCreateFile is LoadOrCreate for a key at path rather than in a data
// directory: several nodes behind one balancer share one key file, so
// clients see one server whichever node answers. Nodes starting at once
// on one machine make it once: the one that loses the race reads it.
func LoadOrCreateFile(path string) (Key, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return Key{}, fmt.Errorf("host key: make %s: %w", filepath.Dir(path), err)
	}
	data, err := os.ReadFile(path)
	created := false
	if errors.Is(err, fs.ErrNotExist) {
		data, err = create(path)
		if errors.Is(err, fs.ErrExist) {
			// The winner may still be writing it.
			for range 40 {
				if data, err = os.ReadFile(path); err != nil || ValidPEM(data) {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
		} else if err == nil {
			created = true
		}
	}
	if err != nil {
		return Key{}, fmt.Errorf("host key: read %s: %w", path, err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return Key{}, fmt.Errorf("host key: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return Key{}, fmt.Errorf("host key %s has mode %v: it must be readable by its owner only (chmod 600)", path, st.Mode().Perm())
	}
	signer, err := gossh.ParsePrivateKey(data)
	if err != nil {
		return Key{}, fmt.Errorf("host key %s is not a valid private key: %w", path, err)
	}
	return Key{Path: path, PEM: data, Fingerprint: gossh.FingerprintSHA256(signer.PublicKey()), Created: created}, nil
}

// ValidPEM says whether data is a private key.
func ValidPEM(data []byte) bool {
	_, err := gossh.ParsePrivateKey(data)
	return err == nil
}
