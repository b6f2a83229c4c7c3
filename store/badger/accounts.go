package store

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// Account is a player, known by the SHA256 fingerprint of their SSH key.
type Account struct {
	ID       string // SHA256 key fingerprint
	Name     string // lower-case, unique; "" until claimed
	Created  time.Time
	LastSeen time.Time
}

// Name rules.
const (
	MinNameLen = 3
	MaxNameLen = 20
)

// ValidName says whether name can be claimed (case-insensitively). The error
// is a sentence to show the player.
func ValidName(name string) error {
	n := len(name)
	if n < MinNameLen || n > MaxNameLen {
		return fmt.Errorf("A name needs %d to %d characters.", MinNameLen, MaxNameLen)
	}
	for i := 0; i < n; i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
		default:
			return errors.New("A name may use only letters a-z, digits, _ and -.")
		}
	}
	return nil
}

// NormalName is the form a valid name is stored in: lower-case.
func NormalName(name string) string { return strings.ToLower(name) }

// Account returns the account with this id, or ErrNotFound.
func (s *Store) Account(id string) (Account, error) {
	if err := checkID(id); err != nil {
		return Account{}, err
	}
	var a Account
	err := s.view(func(txn *badger.Txn) error {
		return getJSON(txn, dbKey(kAccount, id), "account "+id, &a)
	})
	return a, err
}

// AccountByName returns the account holding name, or ErrNotFound.
func (s *Store) AccountByName(name string) (Account, error) {
	if ValidName(name) != nil {
		return Account{}, fmt.Errorf("name %q: %w", name, ErrNotFound)
	}
	var a Account
	err := s.view(func(txn *badger.Txn) error {
		id, err := getBytes(txn, dbKey(kName, NormalName(name)), "name "+name)
		if err != nil {
			return err
		}
		return getJSON(txn, dbKey(kAccount, string(id)), "account "+string(id), &a)
	})
	return a, err
}

// CreateAccount creates the account id, claiming name unless name is "".
// Created and LastSeen are set to the current time. If the account exists it
// returns the existing account and ErrExists; if the name is taken,
// ErrNameTaken and nothing is created.
func (s *Store) CreateAccount(id, name string) (Account, error) {
	if err := checkID(id); err != nil {
		return Account{}, err
	}
	if name != "" {
		if err := ValidName(name); err != nil {
			return Account{}, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		name = NormalName(name)
	}
	now := s.now().UTC()
	var a Account
	err := s.update(func(txn *badger.Txn) error {
		err := getJSON(txn, dbKey(kAccount, id), "account "+id, &a)
		if err == nil {
			return ErrExists
		}
		if !errors.Is(err, ErrNotFound) {
			return err
		}
		a = Account{ID: id, Created: now, LastSeen: now}
		if name != "" {
			if err := claim(txn, &a, name); err != nil {
				return err
			}
		}
		return setJSON(txn, dbKey(kAccount, id), "account "+id, a)
	})
	if err != nil && !errors.Is(err, ErrExists) {
		return Account{}, err
	}
	return a, err
}

// Touch sets the account's LastSeen to now.
func (s *Store) Touch(id string, now time.Time) error {
	if err := checkID(id); err != nil {
		return err
	}
	return s.update(func(txn *badger.Txn) error {
		var a Account
		if err := getJSON(txn, dbKey(kAccount, id), "account "+id, &a); err != nil {
			return err
		}
		a.LastSeen = now.UTC()
		return setJSON(txn, dbKey(kAccount, id), "account "+id, a)
	})
}

// ClaimName gives name (lower-cased) to the account, releasing its old name.
// A name belongs to one account: if another holds it, or wins a race for it,
// the result is ErrNameTaken. Claiming the name one already holds is a no-op.
func (s *Store) ClaimName(id, name string) (Account, error) {
	if err := checkID(id); err != nil {
		return Account{}, err
	}
	if err := ValidName(name); err != nil {
		return Account{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	name = NormalName(name)
	var a Account
	err := s.update(func(txn *badger.Txn) error {
		if err := getJSON(txn, dbKey(kAccount, id), "account "+id, &a); err != nil {
			return err
		}
		if a.Name == name {
			return nil
		}
		if err := claim(txn, &a, name); err != nil {
			return err
		}
		return setJSON(txn, dbKey(kAccount, id), "account "+id, a)
	})
	if err != nil {
		return Account{}, err
	}
	return a, nil
}

// Rename is ClaimName.
func (s *Store) Rename(id, name string) (Account, error) { return s.ClaimName(id, name) }

// claim points the name index at a.ID, releasing a's old name, and sets a.Name.
func claim(txn *badger.Txn, a *Account, name string) error {
	holder, err := getBytes(txn, dbKey(kName, name), "name "+name)
	switch {
	case err == nil && string(holder) != a.ID:
		return ErrNameTaken
	case err != nil && !errors.Is(err, ErrNotFound):
		return err
	}
	if a.Name != "" && a.Name != name {
		if err := txn.Delete(dbKey(kName, a.Name)); err != nil {
			return fmt.Errorf("store: release name %s: %w", a.Name, err)
		}
	}
	if err := txn.Set(dbKey(kName, name), []byte(a.ID)); err != nil {
		return fmt.Errorf("store: write name %s: %w", name, err)
	}
	a.Name = name
	return nil
}
