package badger

import (
	"context"
	"errors"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"sshuffle/store"
)

// Follow makes account follow other (see store.Friends). The count under
// the cap is read in the same transaction as the write, so two follows at
// once cannot both slip under it.
func (s *Store) Follow(ctx context.Context, account, other string) error {
	if err := checkID(account); err != nil {
		return err
	}
	if err := checkID(other); err != nil {
		return err
	}
	if account == other {
		return fmt.Errorf("%w: an account cannot follow itself", store.ErrInvalid)
	}
	return s.update(ctx, func(txn *badger.Txn) error {
		if _, err := txn.Get(dbKey(kAccount, other)); err != nil {
			if errors.Is(err, badger.ErrKeyNotFound) {
				return fmt.Errorf("account %s: %w", other, store.ErrNotFound)
			}
			return fmt.Errorf("store: read account %s: %w", other, err)
		}
		k := dbKey(kFollow, account, other)
		if _, err := txn.Get(k); err == nil {
			return nil
		} else if !errors.Is(err, badger.ErrKeyNotFound) {
			return fmt.Errorf("store: read follow: %w", err)
		}
		n := 0
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix(kFollow, account)})
		for it.Rewind(); it.Valid(); it.Next() {
			n++
		}
		it.Close()
		if n >= store.MaxFollowing {
			return fmt.Errorf("%w: already following %d accounts", store.ErrInvalid, store.MaxFollowing)
		}
		return txn.Set(k, nil)
	})
}

// Unfollow undoes Follow.
func (s *Store) Unfollow(ctx context.Context, account, other string) error {
	if err := checkID(account); err != nil {
		return err
	}
	if err := checkID(other); err != nil {
		return err
	}
	return s.update(ctx, func(txn *badger.Txn) error {
		return txn.Delete(dbKey(kFollow, account, other))
	})
}

// Following lists whom account follows, in id order (key order).
func (s *Store) Following(ctx context.Context, account string) ([]string, error) {
	if err := checkID(account); err != nil {
		return nil, err
	}
	out := []string{}
	err := s.view(ctx, func(txn *badger.Txn) error {
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
