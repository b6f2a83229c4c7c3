// Package hostkeys loads the server's SSH host key, creating it on first
// start, so that a restarted server keeps the identity clients have pinned.
package hostkeys

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"
)

// FileName is the key's name inside the data directory.
const FileName = "host_ed25519"

// Key is a loaded host key.
type Key struct {
	Path        string
	PEM         []byte
	Fingerprint string // SHA256:..., as ssh-keygen -l prints it
	Created     bool   // true when this call made the key
}

// LoadOrCreate reads dir/host_ed25519, or creates an ed25519 key there with
// mode 0600. A key file readable by others is refused: a leaked host key lets
// anyone impersonate the server.
func LoadOrCreate(dir string) (Key, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Key{}, fmt.Errorf("host key: make %s: %w", dir, err)
	}
	path := filepath.Join(dir, FileName)
	data, err := os.ReadFile(path)
	created := false
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data, err = create(path)
		if err != nil {
			return Key{}, err
		}
		created = true
	case err != nil:
		return Key{}, fmt.Errorf("host key: read %s: %w", path, err)
	default:
		st, err := os.Stat(path)
		if err != nil {
			return Key{}, fmt.Errorf("host key: %w", err)
		}
		if st.Mode().Perm()&0o077 != 0 {
			return Key{}, fmt.Errorf("host key %s has mode %v: it must be readable by its owner only (chmod 600)", path, st.Mode().Perm())
		}
	}
	signer, err := gossh.ParsePrivateKey(data)
	if err != nil {
		return Key{}, fmt.Errorf("host key %s is not a valid private key: %w", path, err)
	}
	return Key{Path: path, PEM: data, Fingerprint: gossh.FingerprintSHA256(signer.PublicKey()), Created: created}, nil
}

func create(path string) ([]byte, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("host key: generate: %w", err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "sshuffle host key")
	if err != nil {
		return nil, fmt.Errorf("host key: encode: %w", err)
	}
	data := pem.EncodeToMemory(block)
	// The key is written whole under another name and linked into place:
	// a server starting beside this one never reads a key half written,
	// and a link, like O_EXCL, never overwrites a key another server made.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".host-key-*")
	if err != nil {
		return nil, fmt.Errorf("host key: create %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("host key: write %s: %w", tmp.Name(), err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("host key: sync %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("host key: write %s: %w", tmp.Name(), err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		return nil, fmt.Errorf("host key: create %s: %w", path, err)
	}
	return data, nil
}
