package nats

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"sshuffle/store"
)

func accountKey(id string) string  { return key("a", tok(id)) }
func nameKey(name string) string   { return key("n", name) } // a normal name is key-safe
func followKey(id string) string   { return key("f", tok(id)) }
func accountWhat(id string) string { return "account " + id }

// Account returns the account with this id, or store.ErrNotFound.
func (s *Store) Account(ctx context.Context, id string) (store.Account, error) {
	if err := store.CheckID(id); err != nil {
		return store.Account{}, err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return store.Account{}, err
	}
	defer done()
	return s.account(ctx, id)
}

func (s *Store) account(ctx context.Context, id string) (store.Account, error) {
	var a store.Account
	e, err := s.accounts.getJSON(ctx, accountKey(id), accountWhat(id), &a)
	if err != nil {
		return store.Account{}, err
	}
	if !e.found() {
		return store.Account{}, fmt.Errorf("account %s: %w", id, store.ErrNotFound)
	}
	return a, nil
}

// AccountByName returns the account holding name, or store.ErrNotFound.
func (s *Store) AccountByName(ctx context.Context, name string) (store.Account, error) {
	if store.ValidName(name) != nil {
		return store.Account{}, fmt.Errorf("name %q: %w", name, store.ErrNotFound)
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return store.Account{}, err
	}
	defer done()
	e, err := s.accounts.get(ctx, nameKey(store.NormalName(name)))
	if err != nil {
		return store.Account{}, err
	}
	if !e.found() {
		return store.Account{}, fmt.Errorf("name %s: %w", name, store.ErrNotFound)
	}
	return s.account(ctx, string(e.val))
}

// CreateAccount creates the account id, claiming name unless name is ""
// (see store.Accounts): the account and its name are written in one batch
// that expects neither to exist.
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
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return store.Account{}, err
	}
	defer done()
	now := s.now().UTC()
	a := store.Account{ID: id, Name: name, Created: now, LastSeen: now}
	// Most creates find neither key: written blind first, read only when
	// one was there (or was once, and was deleted).
	v, err := encode(accountWhat(id), a)
	if err != nil {
		return store.Account{}, err
	}
	blind := []op{create(accountKey(id), v)}
	if name != "" {
		blind = append(blind, create(nameKey(name), []byte(id)))
	}
	_, resent, err := s.accounts.writeTrying(ctx, blind)
	if !errors.Is(err, errConflict) {
		if err != nil {
			return store.Account{}, err
		}
		return a, nil
	}
	if resent {
		// Sent again after no answer, it may have met itself: the
		// account as written, stamped now, is this call's.
		if got, err := s.account(ctx, id); err == nil && got.Name == a.Name && got.Created.Equal(a.Created) {
			return a, nil
		}
	}
	_, err = s.update(ctx, s.accounts, func() ([]op, error) {
		a = store.Account{}
		ae, err := s.accounts.getJSON(ctx, accountKey(id), accountWhat(id), &a)
		if err != nil {
			return nil, err
		}
		if ae.found() {
			return nil, store.ErrExists
		}
		a = store.Account{ID: id, Created: now, LastSeen: now}
		var ops []op
		if name != "" {
			ne, err := s.accounts.get(ctx, nameKey(name))
			if err != nil {
				return nil, err
			}
			if ne.found() {
				return nil, store.ErrNameTaken
			}
			a.Name = name
			ops = append(ops, ne.set([]byte(id)))
		}
		v, err := encode(accountWhat(id), a)
		if err != nil {
			return nil, err
		}
		return append(ops, ae.set(v)), nil
	})
	if err != nil && !errors.Is(err, store.ErrExists) {
		return store.Account{}, err
	}
	return a, err
}

// Touch sets the account's LastSeen.
func (s *Store) Touch(ctx context.Context, id string, now time.Time) error {
	if err := store.CheckID(id); err != nil {
		return err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	_, err = s.update(ctx, s.accounts, func() ([]op, error) {
		var a store.Account
		ae, err := s.accounts.getJSON(ctx, accountKey(id), accountWhat(id), &a)
		if err != nil {
			return nil, err
		}
		if !ae.found() {
			return nil, fmt.Errorf("account %s: %w", id, store.ErrNotFound)
		}
		a.LastSeen = now.UTC()
		v, err := encode(accountWhat(id), a)
		if err != nil {
			return nil, err
		}
		return []op{ae.set(v)}, nil
	})
	return err
}

// ClaimName gives name (lower-cased) to the account, releasing its old one
// (see store.Accounts): the new name, the old one and the account change
// in one batch that expects each as it was read.
func (s *Store) ClaimName(ctx context.Context, id, name string) (store.Account, error) {
	if err := store.CheckID(id); err != nil {
		return store.Account{}, err
	}
	if err := store.ClaimableName(name); err != nil {
		return store.Account{}, fmt.Errorf("%w: %v", store.ErrInvalid, err)
	}
	name = store.NormalName(name)
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return store.Account{}, err
	}
	defer done()
	defer s.lock(accountKey(id), nameKey(name))()
	var a store.Account
	_, err = s.update(ctx, s.accounts, func() ([]op, error) {
		a = store.Account{}
		ae, err := s.accounts.getJSON(ctx, accountKey(id), accountWhat(id), &a)
		if err != nil {
			return nil, err
		}
		if !ae.found() {
			return nil, fmt.Errorf("account %s: %w", id, store.ErrNotFound)
		}
		if a.Name == name {
			return nil, nil
		}
		ne, err := s.accounts.get(ctx, nameKey(name))
		if err != nil {
			return nil, err
		}
		if ne.found() && string(ne.val) != id {
			return nil, store.ErrNameTaken
		}
		ops := []op{ne.set([]byte(id))}
		if a.Name != "" {
			oe, err := s.accounts.get(ctx, nameKey(a.Name))
			if err != nil {
				return nil, err
			}
			if oe.found() && string(oe.val) == id {
				ops = append(ops, oe.del())
			}
		}
		a.Name = name
		v, err := encode(accountWhat(id), a)
		if err != nil {
			return nil, err
		}
		return append(ops, ae.set(v)), nil
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

// Follow makes account follow other (see store.Friends). The list is one
// record, so the cap holds under concurrent follows: each writes the list
// it counted, at the revision it counted.
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
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	defer s.lock(followKey(account))()
	_, err = s.update(ctx, s.accounts, func() ([]op, error) {
		// The list and the account followed, read at once.
		es, err := s.accounts.getAll(ctx, followKey(account), accountKey(other))
		if err != nil {
			return nil, err
		}
		fe := es[0]
		if !es[1].found() {
			return nil, fmt.Errorf("account %s: %w", other, store.ErrNotFound)
		}
		var list []string
		if fe.found() {
			if err := decode(fe.val, "following of "+account, &list); err != nil {
				return nil, err
			}
		}
		i, ok := slices.BinarySearch(list, other)
		if ok {
			return nil, nil
		}
		if len(list) >= store.MaxFollowing {
			return nil, fmt.Errorf("%w: already following %d accounts", store.ErrInvalid, store.MaxFollowing)
		}
		list = slices.Insert(list, i, other)
		v, err := encode("following of "+account, list)
		if err != nil {
			return nil, err
		}
		return []op{fe.set(v)}, nil
	})
	return err
}

// Unfollow undoes Follow.
func (s *Store) Unfollow(ctx context.Context, account, other string) error {
	if err := store.CheckID(account); err != nil {
		return err
	}
	if err := store.CheckID(other); err != nil {
		return err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	defer s.lock(followKey(account))()
	_, err = s.update(ctx, s.accounts, func() ([]op, error) {
		var list []string
		fe, err := s.accounts.getJSON(ctx, followKey(account), "following of "+account, &list)
		if err != nil {
			return nil, err
		}
		i, ok := slices.BinarySearch(list, other)
		if !ok {
			return nil, nil
		}
		v, err := encode("following of "+account, slices.Delete(list, i, i+1))
		if err != nil {
			return nil, err
		}
		return []op{fe.set(v)}, nil
	})
	return err
}

// Following lists the ids account follows, in id order.
func (s *Store) Following(ctx context.Context, account string) ([]string, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	list := []string{}
	if _, err := s.accounts.getJSON(ctx, followKey(account), "following of "+account, &list); err != nil {
		return nil, err
	}
	if list == nil {
		list = []string{}
	}
	return list, nil
}
