package store

import (
	"errors"
	"fmt"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// MaxFollowing bounds how many accounts one account follows.
const MaxFollowing = 500

// ErrSelf is following oneself.
var ErrSelf = errors.New("You cannot follow yourself.")

// ErrTooMany is following more than MaxFollowing accounts.
var ErrTooMany = fmt.Errorf("You can follow at most %d players.", MaxFollowing)

// Follow makes account follow other (one-way, like following on a chess
// site: other is not asked). Following twice is a no-op. Both accounts
// must exist.
func (s *Store) Follow(account, other string, now time.Time) error {
	if err := checkID(account); err != nil {
		return err
	}
	if err := checkID(other); err != nil {
		return err
	}
	if account == other {
		return ErrSelf
	}
	return s.update(func(txn *badger.Txn) error {
		for _, id := range []string{account, other} {
			if _, err := txn.Get(dbKey(kAccount, id)); err != nil {
				if errors.Is(err, badger.ErrKeyNotFound) {
					return fmt.Errorf("account %s: %w", id, ErrNotFound)
				}
				return fmt.Errorf("store: read account: %w", err)
			}
		}
		k := dbKey(kFollow, account, other)
		if _, err := txn.Get(k); err == nil {
			return nil
		}
		n := 0
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix(kFollow, account)})
		for it.Rewind(); it.Valid(); it.Next() {
			n++
		}
		it.Close()
		if n >= MaxFollowing {
			return ErrTooMany
		}
		if err := txn.Set(k, []byte(now.UTC().Format(time.RFC3339))); err != nil {
			return fmt.Errorf("store: write follow: %w", err)
		}
		return nil
	})
}

// Unfollow stops account following other; ErrNotFound if it did not.
func (s *Store) Unfollow(account, other string) error {
	if err := checkID(account); err != nil {
		return err
	}
	if err := checkID(other); err != nil {
		return err
	}
	return s.update(func(txn *badger.Txn) error {
		k := dbKey(kFollow, account, other)
		if _, err := txn.Get(k); errors.Is(err, badger.ErrKeyNotFound) {
			return fmt.Errorf("follow of %s: %w", other, ErrNotFound)
		} else if err != nil {
			return fmt.Errorf("store: read follow: %w", err)
		}
		if err := txn.Delete(k); err != nil {
			return fmt.Errorf("store: delete follow: %w", err)
		}
		return nil
	})
}

// Following lists the ids account follows, in id order.
func (s *Store) Following(account string) ([]string, error) {
	if err := checkID(account); err != nil {
		return nil, err
	}
	out := []string{}
	err := s.view(func(txn *badger.Txn) error {
		p := prefix(kFollow, account)
		it := txn.NewIterator(badger.IteratorOptions{Prefix: p})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			out = append(out, string(it.Item().Key()[len(p):]))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Follows reports whether account follows other.
func (s *Store) Follows(account, other string) (bool, error) {
	if err := checkID(account); err != nil {
		return false, err
	}
	if err := checkID(other); err != nil {
		return false, err
	}
	found := false
	err := s.view(func(txn *badger.Txn) error {
		_, err := txn.Get(dbKey(kFollow, account, other))
		switch {
		case err == nil:
			found = true
		case !errors.Is(err, badger.ErrKeyNotFound):
			return fmt.Errorf("store: read follow: %w", err)
		}
		return nil
	})
	return found, err
}
