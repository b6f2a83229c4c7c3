package badger

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dgraph-io/badger/v4"

	"sshuffle/store"
)

// Account returns the account with this id, or store.ErrNotFound.
func (s *Store) Account(ctx context.Context, id string) (store.Account, error) {
	if err := store.CheckID(id); err != nil {
		return store.Account{}, err
	}
	var a store.Account
	err := s.view(ctx, func(txn *badger.Txn) error {
		return getJSON(txn, dbKey(kAccount, id), "account "+id, &a)
	})
	return a, err
}

// AccountByName returns the account holding name, or store.ErrNotFound.
func (s *Store) AccountByName(ctx context.Context, name string) (store.Account, error) {
	if store.ValidName(name) != nil {
		return store.Account{}, fmt.Errorf("name %q: %w", name, store.ErrNotFound)
	}
	var a store.Account
	err := s.view(ctx, func(txn *badger.Txn) error {
		id, err := getBytes(txn, dbKey(kName, store.NormalName(name)), "name "+name)
		if err != nil {
			return err
		}
		return getJSON(txn, dbKey(kAccount, string(id)), "account "+string(id), &a)
	})
	return a, err
}

// CreateAccount creates the account id, claiming name unless name is "".
// Created and LastSeen are set to the current time. If the account exists it
// returns the existing account and store.ErrExists; if the name is taken,
// ErrNameTaken and nothing is created.
func (s *Store) CreateAccount(ctx context.Context, id, name string) (store.Account, error) {
	if err := store.CheckID(id); err != nil {
		return store.Account{}, err
	}
	if name != "" {
		if err := store.ClaimableName(name); err != nil {
			return store.Account{}, fmt.Errorf("%w: %v", store.ErrInvalid, err)
		}
		name = store.NormalName(name)
	}
	now := s.now().UTC()
	var a store.Account
	err := s.update(ctx, func(txn *badger.Txn) error {
		err := getJSON(txn, dbKey(kAccount, id), "account "+id, &a)
		if err == nil {
			return store.ErrExists
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		a = store.Account{ID: id, Created: now, LastSeen: now}
		if name != "" {
			if err := claim(txn, &a, name); err != nil {
				return err
			}
		}
		return setJSON(txn, dbKey(kAccount, id), "account "+id, a)
	})
	if err != nil && !errors.Is(err, store.ErrExists) {
		return store.Account{}, err
	}
	return a, err
}

// Touch sets the account's LastSeen to now.
func (s *Store) Touch(ctx context.Context, id string, now time.Time) error {
	if err := store.CheckID(id); err != nil {
		return err
	}
	return s.update(ctx, func(txn *badger.Txn) error {
		var a store.Account
		if err := getJSON(txn, dbKey(kAccount, id), "account "+id, &a); err != nil {
			return err
		}
		a.LastSeen = now.UTC()
		return setJSON(txn, dbKey(kAccount, id), "account "+id, a)
	})
}

// ClaimName gives name (lower-cased) to the account, releasing its old name.
// A name belongs to one account: if another holds it, or wins a race for it,
// the result is store.ErrNameTaken. Claiming the name one already holds is a no-op.
func (s *Store) ClaimName(ctx context.Context, id, name string) (store.Account, error) {
	if err := store.CheckID(id); err != nil {
		return store.Account{}, err
	}
	if err := store.ClaimableName(name); err != nil {
		return store.Account{}, fmt.Errorf("%w: %v", store.ErrInvalid, err)
	}
	name = store.NormalName(name)
	var a store.Account
	err := s.update(ctx, func(txn *badger.Txn) error {
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
		return store.Account{}, err
	}
	return a, nil
}

// Rename is ClaimName.
func (s *Store) Rename(ctx context.Context, id, name string) (store.Account, error) {
	return s.ClaimName(ctx, id, name)
}

// claim points the name index at a.ID, releasing a's old name, and sets a.Name.
func claim(txn *badger.Txn, a *store.Account, name string) error {
	holder, err := getBytes(txn, dbKey(kName, name), "name "+name)
	switch {
	case err == nil && string(holder) != a.ID:
		return store.ErrNameTaken
	case err != nil && !errors.Is(err, store.ErrNotFound):
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
