package nats

import (
	"context"
	"fmt"

	"sshuffle/store"
)

// botKey marks a bot account, in the accounts bucket beside the account.
func botKey(id string) string { return key("o", tok(id)) }

// MarkBot marks the account as a bot (see store.Bots). The mark is written
// in one batch with the account's record at the revision read, so an
// account is never marked unless it exists.
func (s *Store) MarkBot(ctx context.Context, id string) error {
	if err := store.CheckID(id); err != nil {
		return err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	_, err = s.update(ctx, s.accounts, func() ([]op, error) {
		es, err := s.accounts.getAll(ctx, accountKey(id), botKey(id))
		if err != nil {
			return nil, err
		}
		if !es[0].found() {
			return nil, fmt.Errorf("account %s: %w", id, store.ErrNotFound)
		}
		if es[1].found() {
			return nil, nil // marked already
		}
		return []op{es[0].set(es[0].val), es[1].set([]byte("1"))}, nil
	})
	return err
}

// IsBot says whether the account is marked as a bot.
func (s *Store) IsBot(ctx context.Context, id string) (bool, error) {
	if err := store.CheckID(id); err != nil {
		return false, err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return false, err
	}
	defer done()
	e, err := s.accounts.get(ctx, botKey(id))
	if err != nil {
		return false, err
	}
	return e.found(), nil
}
