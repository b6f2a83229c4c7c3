package nats

import (
	"context"
	"fmt"
	"slices"

	"sshuffle/store"
)

func saveKey(account, k string) string       { return key("v", tok(account), tok(k)) }
func settingKey(account, name string) string { return key("s", tok(account), tok(name)) }
func dailyKey(k, day string) string          { return key("d", tok(k), day) }

// PutSave keeps data as the account's save for key, replacing any earlier one.
func (s *Store) PutSave(ctx context.Context, account, k string, data []byte) error {
	if err := store.CheckID(account); err != nil {
		return err
	}
	if err := store.CheckKey(k); err != nil {
		return err
	}
	if len(data) > store.MaxSaveLen {
		return fmt.Errorf("%w: save of %d bytes (max %d)", store.ErrInvalid, len(data), store.MaxSaveLen)
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	_, err = s.saves.write(ctx, []op{put(saveKey(account, k), slices.Clone(data))})
	return err
}

// GetSave returns the account's save for key, or store.ErrNotFound.
func (s *Store) GetSave(ctx context.Context, account, k string) ([]byte, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	if err := store.CheckKey(k); err != nil {
		return nil, err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	e, err := s.saves.get(ctx, saveKey(account, k))
	if err != nil {
		return nil, err
	}
	if !e.found() {
		return nil, fmt.Errorf("save %s of %s: %w", k, account, store.ErrNotFound)
	}
	if e.val == nil {
		return []byte{}, nil
	}
	return e.val, nil
}

// DeleteSave removes a save; a missing one is not an error.
func (s *Store) DeleteSave(ctx context.Context, account, k string) error {
	if err := store.CheckID(account); err != nil {
		return err
	}
	if err := store.CheckKey(k); err != nil {
		return err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	return s.deleteKey(ctx, s.saves, saveKey(account, k))
}

// deleteKey deletes k if it is there.
func (s *Store) deleteKey(ctx context.Context, b *bucket, k string) error {
	_, err := s.update(ctx, b, func() ([]op, error) {
		e, err := b.get(ctx, k)
		if err != nil || !e.found() {
			return nil, err
		}
		return []op{e.del()}, nil
	})
	return err
}

// Saves lists the keys the account has a save for, in order.
func (s *Store) Saves(ctx context.Context, account string) ([]string, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	es, err := s.saves.list(ctx, key("v", tok(account), "*"))
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, e := range es {
		k, err := lastPart(e.key)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys, nil
}

// lastPart is the string in the last token of a key.
func lastPart(k string) (string, error) {
	i := len(k) - 1
	for i >= 0 && k[i] != '.' {
		i--
	}
	v, err := untok(k[i+1:])
	if err != nil {
		return "", fmt.Errorf("%w: key %s", store.ErrCorrupt, k)
	}
	return v, nil
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
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	_, err = s.saves.write(ctx, []op{put(settingKey(account, name), []byte(value))})
	return err
}

// Setting returns one setting, or store.ErrNotFound.
func (s *Store) Setting(ctx context.Context, account, name string) (string, error) {
	if err := store.CheckID(account); err != nil {
		return "", err
	}
	if err := store.CheckField("setting name", name, store.MaxSettingLen); err != nil {
		return "", err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return "", err
	}
	defer done()
	e, err := s.saves.get(ctx, settingKey(account, name))
	if err != nil {
		return "", err
	}
	if !e.found() {
		return "", fmt.Errorf("setting %s of %s: %w", name, account, store.ErrNotFound)
	}
	return string(e.val), nil
}

// Settings returns every setting of the account.
func (s *Store) Settings(ctx context.Context, account string) (map[string]string, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	es, err := s.saves.list(ctx, key("s", tok(account), "*"))
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, e := range es {
		name, err := lastPart(e.key)
		if err != nil {
			return nil, err
		}
		out[name] = string(e.val)
	}
	return out, nil
}

// Daily returns the deal kept for key on day, choosing it the first time
// (see store.Dailies). The deal is created once on the whole cluster: the
// first node's write wins and the others read it. choose runs once per
// key and day in this process (again only if it failed), and at most once
// per node that gets there before any deal is kept.
func (s *Store) Daily(ctx context.Context, k, day string, choose func() (string, error)) (string, error) {
	if err := store.CheckKey(k); err != nil {
		return "", err
	}
	if err := store.CheckDay(day); err != nil {
		return "", err
	}
	if choose == nil {
		return "", fmt.Errorf("%w: nil choose", store.ErrInvalid)
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return "", err
	}
	defer done()
	dk := dailyKey(k, day)
	what := "daily deal " + k + " " + day
	read := func() (entry, error) { return s.dailies.get(ctx, dk) }
	if e, err := read(); err != nil || e.found() {
		return string(e.val), err
	}
	unlock := s.lock(dk)
	defer unlock()
	var spec string
	_, err = s.update(ctx, s.dailies, func() ([]op, error) {
		e, err := read()
		if err != nil {
			return nil, err
		}
		if e.found() {
			spec = string(e.val) // another was first
			return nil, nil
		}
		if spec == "" {
			chosen, err := choose()
			if err != nil {
				return nil, fmt.Errorf("store: choose %s: %w", what, err)
			}
			if err := store.CheckSpec(chosen); err != nil {
				return nil, fmt.Errorf("store: choose %s: %w", what, err)
			}
			spec = chosen
		}
		return []op{e.set([]byte(spec))}, nil
	})
	if err != nil {
		return "", err
	}
	return spec, nil
}
