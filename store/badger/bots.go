package badger

import (
	"context"
	"errors"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"sshuffle/store"
)

// kBot marks a bot account: b id -> "".
const kBot = 'b'

// MarkBot marks the account as a bot (see store.Bots).
func (s *Store) MarkBot(ctx context.Context, id string) error {
	if err := store.CheckID(id); err != nil {
		return err
	}
	return s.update(ctx, func(txn *badger.Txn) error {
		if _, err := txn.Get(dbKey(kAccount, id)); err != nil {
			if errors.Is(err, badger.ErrKeyNotFound) {
				return fmt.Errorf("account %s: %w", id, store.ErrNotFound)
			}
			return fmt.Errorf("store: read account %s: %w", id, err)
		}
		return txn.Set(dbKey(kBot, id), nil)
	})
}

// IsBot says whether the account is marked as a bot.
func (s *Store) IsBot(ctx context.Context, id string) (bool, error) {
	if err := store.CheckID(id); err != nil {
		return false, err
	}
	bot := false
	err := s.view(ctx, func(txn *badger.Txn) error {
		_, err := txn.Get(dbKey(kBot, id))
		switch {
		case err == nil:
			bot = true
		case !errors.Is(err, badger.ErrKeyNotFound):
			return fmt.Errorf("store: read bot mark %s: %w", id, err)
		}
		return nil
	})
	return bot, err
}
