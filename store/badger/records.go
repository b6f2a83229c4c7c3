package badger

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/dgraph-io/badger/v4"

	"sshuffle/store"
)

// Daily returns the deal spec kept for key on day ("2026-11-30"), choosing it
// with choose the first time and keeping it. Concurrent first callers get the
// same answer; choose runs once per key and day in this process (again only
// if it failed).
func (s *Store) Daily(ctx context.Context, key, day string, choose func() (string, error)) (string, error) {
	if err := store.CheckKey(key); err != nil {
		return "", err
	}
	if err := store.CheckDay(day); err != nil {
		return "", err
	}
	if choose == nil {
		return "", fmt.Errorf("%w: nil choose", store.ErrInvalid)
	}
	k := dbKey(kDaily, key, day)
	what := "daily deal " + key + " " + day
	read := func() (string, error) {
		var spec string
		err := s.view(ctx, func(txn *badger.Txn) error {
			v, err := getBytes(txn, k, what)
			spec = string(v)
			return err
		})
		return spec, err
	}
	if spec, err := read(); !errors.Is(err, store.ErrNotFound) {
		return spec, err
	}

	// One chooser per key and day at a time in this process.
	unlock := s.lockDaily(string(k))
	defer unlock()
	if spec, err := read(); !errors.Is(err, store.ErrNotFound) {
		return spec, err
	}
	chosen, err := choose()
	if err != nil {
		return "", fmt.Errorf("store: choose %s: %w", what, err)
	}
	if err := store.CheckSpec(chosen); err != nil {
		return "", fmt.Errorf("store: choose %s: %w", what, err)
	}
	var spec string
	err = s.update(ctx, func(txn *badger.Txn) error {
		v, err := getBytes(txn, k, what)
		if err == nil {
			spec = string(v) // someone else was first
			return nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		spec = chosen
		return txn.Set(k, []byte(chosen))
	})
	if err != nil {
		return "", err
	}
	return spec, nil
}

type dailyLock struct {
	mu   sync.Mutex
	refs int
}

func (s *Store) lockDaily(k string) (unlock func()) {
	s.dailyMu.Lock()
	l := s.dailyLocks[k]
	if l == nil {
		l = &dailyLock{}
		s.dailyLocks[k] = l
	}
	l.refs++
	s.dailyMu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		s.dailyMu.Lock()
		if l.refs--; l.refs == 0 {
			delete(s.dailyLocks, k)
		}
		s.dailyMu.Unlock()
	}
}

// PutSave keeps data as the account's save for key, replacing any earlier one.
func (s *Store) PutSave(ctx context.Context, account, key string, data []byte) error {
	if err := store.CheckID(account); err != nil {
		return err
	}
	if err := store.CheckKey(key); err != nil {
		return err
	}
	if len(data) > store.MaxSaveLen {
		return fmt.Errorf("%w: save of %d bytes (max %d)", store.ErrInvalid, len(data), store.MaxSaveLen)
	}
	b := append([]byte(nil), data...)
	return s.update(ctx, func(txn *badger.Txn) error {
		return txn.Set(dbKey(kSave, account, key), b)
	})
}

// GetSave returns the account's save for key, or store.ErrNotFound.
func (s *Store) GetSave(ctx context.Context, account, key string) ([]byte, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	if err := store.CheckKey(key); err != nil {
		return nil, err
	}
	var data []byte
	err := s.view(ctx, func(txn *badger.Txn) error {
		var err error
		data, err = getBytes(txn, dbKey(kSave, account, key), "save "+key+" of "+account)
		return err
	})
	return data, err
}

// DeleteSave removes the account's save for key; a missing save is not an error.
func (s *Store) DeleteSave(ctx context.Context, account, key string) error {
	if err := store.CheckID(account); err != nil {
		return err
	}
	if err := store.CheckKey(key); err != nil {
		return err
	}
	return s.update(ctx, func(txn *badger.Txn) error {
		return txn.Delete(dbKey(kSave, account, key))
	})
}

// Saves lists the keys the account has a save for.
func (s *Store) Saves(ctx context.Context, account string) ([]string, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	var keys []string
	err := s.view(ctx, func(txn *badger.Txn) error {
		p := prefix(kSave, account)
		it := txn.NewIterator(badger.IteratorOptions{Prefix: p})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			keys = append(keys, string(it.Item().Key()[len(p):]))
		}
		return nil
	})
	return keys, err
}

// PutSetting stores one named setting of the account.
func (s *Store) PutSetting(ctx context.Context, account, name, value string) error {
	if err := store.CheckID(account); err != nil {
		return err
	}
	if err := store.CheckField("setting name", name, store.MaxSettingLen); err != nil {
		return err
	}
	if len(value) > store.MaxSettingLen {
		return fmt.Errorf("%w: setting %s longer than %d bytes", store.ErrInvalid, name, store.MaxSettingLen)
	}
	return s.update(ctx, func(txn *badger.Txn) error {
		return txn.Set(dbKey(kSetting, account, name), []byte(value))
	})
}

// Setting returns one named setting of the account, or store.ErrNotFound.
func (s *Store) Setting(ctx context.Context, account, name string) (string, error) {
	if err := store.CheckID(account); err != nil {
		return "", err
	}
	if err := store.CheckField("setting name", name, store.MaxSettingLen); err != nil {
		return "", err
	}
	var v []byte
	err := s.view(ctx, func(txn *badger.Txn) error {
		var err error
		v, err = getBytes(txn, dbKey(kSetting, account, name), "setting "+name+" of "+account)
		return err
	})
	return string(v), err
}

// Settings returns all settings of the account.
func (s *Store) Settings(ctx context.Context, account string) (map[string]string, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	out := map[string]string{}
	err := s.view(ctx, func(txn *badger.Txn) error {
		p := prefix(kSetting, account)
		it := txn.NewIterator(badger.IteratorOptions{Prefix: p, PrefetchValues: true, PrefetchSize: 16})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			v, err := it.Item().ValueCopy(nil)
			if err != nil {
				return err
			}
			out[string(it.Item().Key()[len(p):])] = string(v)
		}
		return nil
	})
	return out, err
}
