package store

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func openTemp(t testing.TB) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(dir, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s, dir
}

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func TestAccountsAndNames(t *testing.T) {
	s, _ := openTemp(t)
	s.now = func() time.Time { return t0 }

	_, err := s.Account("SHA256:abc/def+1")
	require.ErrorIs(t, err, ErrNotFound)

	a, err := s.CreateAccount("SHA256:abc/def+1", "Alice_1")
	require.NoError(t, err)
	assert.Equal(t, Account{ID: "SHA256:abc/def+1", Name: "alice_1", Created: t0, LastSeen: t0}, a)

	got, err := s.Account("SHA256:abc/def+1")
	require.NoError(t, err)
	assert.Equal(t, a, got)

	again, err := s.CreateAccount("SHA256:abc/def+1", "other")
	require.ErrorIs(t, err, ErrExists)
	assert.Equal(t, a, again)

	// the name is case-insensitively taken
	_, err = s.CreateAccount("SHA256:bob", "ALICE_1")
	require.ErrorIs(t, err, ErrNameTaken)
	_, err = s.Account("SHA256:bob")
	require.ErrorIs(t, err, ErrNotFound, "a failed create leaves nothing")

	b, err := s.CreateAccount("SHA256:bob", "")
	require.NoError(t, err)
	assert.Empty(t, b.Name)
	_, err = s.ClaimName("SHA256:bob", "alice_1")
	require.ErrorIs(t, err, ErrNameTaken)

	// rename releases the old name
	a, err = s.Rename("SHA256:abc/def+1", "Alice-2")
	require.NoError(t, err)
	assert.Equal(t, "alice-2", a.Name)
	b, err = s.ClaimName("SHA256:bob", "alice_1")
	require.NoError(t, err)
	assert.Equal(t, "alice_1", b.Name)
	byName, err := s.AccountByName("ALICE_1")
	require.NoError(t, err)
	assert.Equal(t, "SHA256:bob", byName.ID)
	byName, err = s.AccountByName("alice-2")
	require.NoError(t, err)
	assert.Equal(t, "SHA256:abc/def+1", byName.ID)
	// claiming one's own name is fine
	_, err = s.ClaimName("SHA256:bob", "Alice_1")
	require.NoError(t, err)

	later := t0.Add(48 * time.Hour)
	require.NoError(t, s.Touch("SHA256:bob", later))
	b, err = s.Account("SHA256:bob")
	require.NoError(t, err)
	assert.Equal(t, later, b.LastSeen)
	assert.Equal(t, t0, b.Created)
	require.ErrorIs(t, s.Touch("SHA256:nobody", later), ErrNotFound)
	_, err = s.ClaimName("SHA256:nobody", "nobody")
	require.ErrorIs(t, err, ErrNotFound)
}

func TestValidName(t *testing.T) {
	for _, ok := range []string{"abc", "a_b-c", "ABC", "x1234567890123456789"} {
		assert.NoError(t, ValidName(ok), ok)
	}
	for _, bad := range []string{"", "ab", "x12345678901234567890", "a b", "é-abc", "ab.c", "a\x00bc", strings.Repeat("a", 1<<20)} {
		err := ValidName(bad)
		if assert.Error(t, err, bad) {
			assert.True(t, strings.HasSuffix(err.Error(), "."), "a sentence: %q", err)
		}
	}
	s, _ := openTemp(t)
	_, err := s.CreateAccount("id", "no way")
	assert.ErrorIs(t, err, ErrInvalid)
}

func TestConcurrentNameClaims(t *testing.T) {
	s, _ := openTemp(t)
	const n = 16
	for i := range n {
		_, err := s.CreateAccount(fmt.Sprintf("id%d", i), "")
		require.NoError(t, err)
	}
	for round := range 5 {
		name := fmt.Sprintf("prize%d", round)
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() { _, errs[i] = s.ClaimName(fmt.Sprintf("id%d", i), name) })
		}
		wg.Wait()
		winners := 0
		for i, err := range errs {
			if err == nil {
				winners++
				a, err := s.AccountByName(name)
				require.NoError(t, err)
				assert.Equal(t, fmt.Sprintf("id%d", i), a.ID)
			} else {
				require.ErrorIs(t, err, ErrNameTaken)
			}
		}
		require.Equal(t, 1, winners, "round %d", round)
	}
	// Every name index entry points to an account that holds that name.
	holders := map[string]string{}
	for i := range n {
		a, err := s.Account(fmt.Sprintf("id%d", i))
		require.NoError(t, err)
		if a.Name != "" {
			require.NotContains(t, holders, a.Name)
			holders[a.Name] = a.ID
		}
	}
	require.NoError(t, s.view(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kName}, PrefetchValues: true})
		defer it.Close()
		count := 0
		for it.Rewind(); it.Valid(); it.Next() {
			v, _ := it.Item().ValueCopy(nil)
			assert.Equal(t, holders[string(it.Item().Key()[1:])], string(v))
			count++
		}
		assert.Equal(t, len(holders), count, "no orphan names")
		return nil
	}))
}

func TestBadInput(t *testing.T) {
	s, _ := openTemp(t)
	huge := strings.Repeat("x", 1<<16)
	_, err := s.Account("")
	assert.ErrorIs(t, err, ErrInvalid)
	_, err = s.Account(huge)
	assert.ErrorIs(t, err, ErrInvalid)
	_, err = s.CreateAccount("a\x00b", "")
	assert.ErrorIs(t, err, ErrInvalid)
	_, err = s.ClaimName("id", huge)
	assert.ErrorIs(t, err, ErrInvalid)
	assert.ErrorIs(t, s.Touch("", t0), ErrInvalid)
	_, err = s.AccountByName(huge)
	assert.ErrorIs(t, err, ErrNotFound)

	good := Result{Account: "a", Spec: "freecell/1", Key: "freecell", Finished: t0}
	for name, mut := range map[string]func(*Result){
		"no account":  func(r *Result) { r.Account = "" },
		"no key":      func(r *Result) { r.Key = "" },
		"huge key":    func(r *Result) { r.Key = huge },
		"no spec":     func(r *Result) { r.Spec = "" },
		"huge name":   func(r *Result) { r.Name = huge },
		"no finished": func(r *Result) { r.Finished = time.Time{} },
		"neg elapsed": func(r *Result) { r.Elapsed = -time.Second },
		"neg moves":   func(r *Result) { r.Moves = -1 },
		"bad day":     func(r *Result) { r.Daily, r.Day = true, "30/11/2026" },
		"day not daily": func(r *Result) {
			r.Day = "2026-11-30"
		},
	} {
		r := good
		mut(&r)
		assert.ErrorIs(t, s.RecordResult(r), ErrInvalid, name)
	}
	_, err = s.Board("", "", 10)
	assert.ErrorIs(t, err, ErrInvalid)
	_, err = s.Board("freecell", "yesterday", 10)
	assert.ErrorIs(t, err, ErrInvalid)
	b, err := s.Board("freecell", "", -5)
	assert.NoError(t, err)
	assert.Empty(t, b)
	_, err = s.Daily("klondike/draw1", "2026-11-30", nil)
	assert.ErrorIs(t, err, ErrInvalid)
	_, err = s.Daily("klondike/draw1", "2026-11-30", func() (string, error) { return huge, nil })
	assert.ErrorIs(t, err, ErrInvalid)
	assert.ErrorIs(t, s.PutSave("a", "k", make([]byte, MaxSaveLen+1)), ErrInvalid)
	assert.ErrorIs(t, s.PutSave("", "k", nil), ErrInvalid)
	assert.ErrorIs(t, s.PutSetting("a", "", "v"), ErrInvalid)
	assert.ErrorIs(t, s.PutSetting("a", "n", huge), ErrInvalid)
	_, err = s.StatsFor("a", "")
	assert.ErrorIs(t, err, ErrInvalid)
	_, err = s.Streak("", "k", t0)
	assert.ErrorIs(t, err, ErrInvalid)
}

func TestCorruptRecord(t *testing.T) {
	s, _ := openTemp(t)
	_, err := s.CreateAccount("acc", "corrupt")
	require.NoError(t, err)
	require.NoError(t, s.RecordResult(Result{Account: "acc", Spec: "freecell/1", Key: "freecell", Won: true, Finished: t0}))
	require.NoError(t, s.db.Update(func(txn *badger.Txn) error {
		if err := txn.Set(dbKey(kAccount, "acc"), []byte("{not json")); err != nil {
			return err
		}
		return txn.Set(dbKey(kStats, "acc", "freecell"), []byte("[]"))
	}))
	_, err = s.Account("acc")
	require.ErrorIs(t, err, ErrCorrupt)
	assert.Contains(t, err.Error(), "account acc")
	_, err = s.AccountByName("corrupt")
	require.ErrorIs(t, err, ErrCorrupt)
	_, err = s.ClaimName("acc", "newname")
	require.ErrorIs(t, err, ErrCorrupt)
	_, err = s.StatsFor("acc", "freecell")
	require.ErrorIs(t, err, ErrCorrupt)
	assert.Contains(t, err.Error(), "stats freecell of acc")
	_, err = s.Stats("acc")
	require.ErrorIs(t, err, ErrCorrupt)
	err = s.RecordResult(Result{Account: "acc", Spec: "freecell/2", Key: "freecell", Finished: t0.Add(time.Minute)})
	require.ErrorIs(t, err, ErrCorrupt)
	// The board still reads; it cannot refresh the corrupt account's name.
	b, err := s.Board("freecell", "", 10)
	require.NoError(t, err)
	assert.Len(t, b, 1)
}

func TestClosed(t *testing.T) {
	s, _ := openTemp(t)
	require.NoError(t, s.Close())
	require.NoError(t, s.Close())
	_, err := s.Account("a")
	assert.ErrorIs(t, err, ErrClosed)
	assert.ErrorIs(t, s.RecordResult(Result{Account: "a", Spec: "freecell/1", Key: "freecell", Finished: t0}), ErrClosed)
	_, err = s.Board("freecell", "", 3)
	assert.ErrorIs(t, err, ErrClosed)

	m, err := OpenInMemory()
	require.NoError(t, err)
	_, err = m.CreateAccount("x", "xyz")
	require.NoError(t, err)
	require.NoError(t, m.Close())
	require.NoError(t, m.Close())

	_, err = Open("", nil)
	assert.ErrorIs(t, err, ErrInvalid)
}

func TestGCLoopRunsAndStops(t *testing.T) {
	old := gcEvery
	gcEvery = 5 * time.Millisecond
	defer func() { gcEvery = old }()
	s, _ := openTemp(t)
	for i := range 5 {
		require.NoError(t, s.PutSave("a", "k", make([]byte, 64<<10-i)))
	}
	require.Eventually(t, func() bool { return s.gcRuns.Load() >= 2 }, 10*time.Second, time.Millisecond)
	done := make(chan struct{})
	go func() { _ = s.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not stop the GC loop")
	}
}

func TestDailyChosenOnce(t *testing.T) {
	s, _ := openTemp(t)
	var mu sync.Mutex
	calls := 0
	choose := func() (string, error) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		time.Sleep(5 * time.Millisecond)
		return fmt.Sprintf("klondike/draw1/w/%d", calls), nil
	}
	const n = 32
	got := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { got[i], errs[i] = s.Daily("klondike/draw1", "2026-11-30", choose) })
	}
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i])
		assert.Equal(t, got[0], got[i])
	}
	assert.Equal(t, 1, calls)

	// another day or key chooses again; a failing chooser keeps nothing
	other, err := s.Daily("klondike/draw1", "2026-12-01", choose)
	require.NoError(t, err)
	assert.NotEqual(t, got[0], other)
	_, err = s.Daily("spider/1suit", "2026-11-30", func() (string, error) { return "", errors.New("no deal") })
	require.ErrorContains(t, err, "no deal")
	sp, err := s.Daily("spider/1suit", "2026-11-30", func() (string, error) { return "spider/1suit/w/7", nil })
	require.NoError(t, err)
	assert.Equal(t, "spider/1suit/w/7", sp)
	again, err := s.Daily("klondike/draw1", "2026-11-30", func() (string, error) { t.Fatal("chosen again"); return "", nil })
	require.NoError(t, err)
	assert.Equal(t, got[0], again)
	assert.Empty(t, s.dailyLocks, "lock map drained")
}

func TestSavesAndSettings(t *testing.T) {
	s, _ := openTemp(t)
	_, err := s.GetSave("a", "freecell")
	require.ErrorIs(t, err, ErrNotFound)
	require.NoError(t, s.PutSave("a", "freecell", []byte("v1")))
	require.NoError(t, s.PutSave("a", "freecell", []byte("v2")))
	require.NoError(t, s.PutSave("a", "klondike/draw3", []byte{0, 1, 2}))
	require.NoError(t, s.PutSave("b", "freecell", []byte("bee")))
	data, err := s.GetSave("a", "freecell")
	require.NoError(t, err)
	assert.Equal(t, []byte("v2"), data)
	keys, err := s.Saves("a")
	require.NoError(t, err)
	assert.Equal(t, []string{"freecell", "klondike/draw3"}, keys)
	require.NoError(t, s.DeleteSave("a", "freecell"))
	require.NoError(t, s.DeleteSave("a", "freecell"))
	_, err = s.GetSave("a", "freecell")
	require.ErrorIs(t, err, ErrNotFound)
	data, err = s.GetSave("b", "freecell")
	require.NoError(t, err)
	assert.Equal(t, []byte("bee"), data)

	_, err = s.Setting("a", "theme")
	require.ErrorIs(t, err, ErrNotFound)
	require.NoError(t, s.PutSetting("a", "theme", "dark"))
	require.NoError(t, s.PutSetting("a", "autofoundation", "off"))
	require.NoError(t, s.PutSetting("a", "theme", ""))
	v, err := s.Setting("a", "theme")
	require.NoError(t, err)
	assert.Equal(t, "", v)
	all, err := s.Settings("a")
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"theme": "", "autofoundation": "off"}, all)
}

// A damaged board or result entry is reported by name, not skipped or
// read as zero.
func TestCorruptListEntries(t *testing.T) {
	s, _ := openTemp(t)
	_, err := s.CreateAccount("acc", "lister")
	require.NoError(t, err)
	require.NoError(t, s.RecordResult(Result{Account: "acc", Spec: "freecell/1", Key: "freecell", Won: true, Finished: t0}))
	damage := func(p []byte) {
		require.NoError(t, s.db.Update(func(txn *badger.Txn) error {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: p})
			var keys [][]byte
			for it.Rewind(); it.Valid(); it.Next() {
				keys = append(keys, it.Item().KeyCopy(nil))
			}
			it.Close()
			require.NotEmpty(t, keys)
			for _, k := range keys {
				if err := txn.Set(k, []byte("{not json")); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	damage(prefix(kResult, "acc"))
	_, err = s.Results("acc", 10)
	require.ErrorIs(t, err, ErrCorrupt)
	assert.Contains(t, err.Error(), "of acc")
	damage(prefix(kBoard, "freecell", ""))
	_, err = s.Board("freecell", "", 10)
	require.ErrorIs(t, err, ErrCorrupt)
	assert.Contains(t, err.Error(), "board freecell")
}
