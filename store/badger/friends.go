package badger

import (
	"context"
	"errors"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"sshuffle/store"
)

// Follow makes account follow other (see store.Friends). Badger detects
// conflicts on keys read, and a follow added by another transaction is a
// key this one never read (iterating does not register it), so two follows
// at once would both count 499 and both be added. Every follow therefore
// reads and rewrites one guard key per account: two follows of the same
// account at once conflict, and the retry counts again.
func (s *Store) Follow(ctx context.Context, account, other string) error {
	if err := store.CheckID(account); err != nil {
		return err
	}
	if err := store.CheckID(other); err != nil {
		return err
	}
	if account == other {
		return fmt.Errorf("%w: an account cannot follow itself", store.ErrInvalid)
	}
	return s.update(ctx, func(txn *badger.Txn) error {
		guard := dbKey(kFollowN, account)
		if _, err := txn.Get(guard); err != nil && !errors.Is(err, badger.ErrKeyNotFound) {
			return fmt.Errorf("store: read follow guard: %w", err)
		}
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
		if err := txn.Set(guard, nil); err != nil {
			return fmt.Errorf("store: write follow guard: %w", err)
		}
		return txn.Set(k, nil)
	})
}

// Unfollow undoes Follow.
func (s *Store) Unfollow(ctx context.Context, account, other string) error {
	if err := store.CheckID(account); err != nil {
		return err
	}
	if err := store.CheckID(other); err != nil {
		return err
	}
	return s.update(ctx, func(txn *badger.Txn) error {
		return txn.Delete(dbKey(kFollow, account, other))
	})
}

// Following lists whom account follows, in id order (key order).
func (s *Store) Following(ctx context.Context, account string) ([]string, error) {
	if err := store.CheckID(account); err != nil {
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
