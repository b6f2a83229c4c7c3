package badger

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/stretchr/testify/require"

	"sshuffle/store"
)

var (
	flipsPerFile = flag.Int("flips", 40, "byte positions flipped in each table file by TestFlippedTableByteIsRefused")
	flipAccounts = flag.Int("flipaccounts", 0, "TestFlippedTableByteIsRefused on a store of this many accounts "+
		"with the server's table sizes (a few tables of megabytes) instead of 600 in small tables")
)

// realStore writes a store with every kind of record the server keeps
// (accounts and their names, results with their stats and boards, follows,
// saves, finished table games, table snapshots) in small tables, so that
// several table files at more than one level hold them.
func realStore(t *testing.T, dir string, accounts int) {
	t.Helper()
	realStoreWith(t, dir, accounts, tinyTables)
}

func realStoreWith(t *testing.T, dir string, accounts int, tune func(badger.Options) badger.Options) {
	t.Helper()
	ctx := context.Background()
	s, err := OpenWith(dir, Options{MinFree: -1, tune: tune})
	require.NoError(t, err)
	for i := range accounts {
		id := fmt.Sprintf("SHA256:acct%05d", i)
		name := fmt.Sprintf("p%05d", i)
		_, err := s.CreateAccount(ctx, id, name)
		require.NoError(t, err)
		require.NoError(t, s.RecordResult(ctx, store.Result{Account: id, Name: name, Spec: fmt.Sprintf("freecell %d", i),
			Key: "freecell", Won: i%3 != 0, Moves: 90 + i, Elapsed: time.Duration(i) * time.Second, Finished: t0.Add(time.Duration(i) * time.Minute)}))
		require.NoError(t, s.PutSave(ctx, id, "klondike", []byte(strings.Repeat(fmt.Sprintf("%d,", i), 40))))
		if i > 0 {
			require.NoError(t, s.Follow(ctx, id, fmt.Sprintf("SHA256:acct%05d", i-1)))
		}
		if i%10 == 0 {
			code := fmt.Sprintf("T%04d", i)
			require.NoError(t, s.PutTable(ctx, code, []byte(fmt.Sprintf(`{"code":%q,"state":%q}`, code, strings.Repeat("c", 600)))))
			require.NoError(t, s.RecordTableGame(ctx, store.TableGame{Code: code, Game: "spite", Spec: "spite 1",
				Seats:  []store.TableSeat{{Account: id, Name: name}, {Name: "bot", Strength: "easy"}},
				Record: []byte(`{"moves":[1,2,3]}`), Started: t0, Finished: t0.Add(time.Hour)}))
		}
	}
	require.NoError(t, s.Close())
}

// snapshot is every file in dir by name, with a hash of its bytes.
func snapshot(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	m := map[string][32]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		m[e.Name()] = sha256.Sum256(b)
	}
	return m
}

// positions spreads n byte offsets over a file of size bytes: one at a
// random place in each of n equal stretches, and the last bytes (the
// lengths that say where the index and its checksum are) always.
func positions(size, n int, r *rand.Rand) []int {
	seen := map[int]bool{}
	var out []int
	add := func(p int) {
		if p >= 0 && p < size && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range []int{size - 1, size - 4, size - 5, size - 8} {
		add(p)
	}
	for i := 0; len(out) < n && i < n; i++ {
		lo, hi := i*size/n, (i+1)*size/n
		if hi > lo {
			add(lo + r.IntN(hi-lo))
		}
	}
	sort.Ints(out)
	return out
}

type flipTally struct{ tried, refused, recovered, started, unnamed, changed int }

// flipEach flips one byte at each position of each table file in dir,
// opens, and puts the byte back. Every open must be refused with a
// sentence naming the file and leave every file as it was.
func flipEach(t *testing.T, dir string, perFile int) flipTally {
	t.Helper()
	tables := files(t, dir, ".sst")
	require.GreaterOrEqual(t, len(tables), 2, "the store should span several table files")
	r := rand.New(rand.NewPCG(1, 2))
	var tally flipTally
	report := func(format string, args ...any) {
		if tally.started+tally.unnamed+tally.changed <= 5 {
			t.Errorf(format, args...)
		}
	}
	for _, name := range tables {
		orig, err := os.ReadFile(name)
		require.NoError(t, err)
		for _, pos := range positions(len(orig), perFile, r) {
			b := append([]byte(nil), orig...)
			b[pos] ^= byte(1 + r.IntN(255))
			require.NoError(t, os.WriteFile(name, b, 0o600))
			before := snapshot(t, dir)
			tally.tried++
			s, err := OpenWith(dir, Options{MinFree: -1, tune: tinyTables})
			switch {
			case err == nil:
				tally.started++
				require.NoError(t, s.Close())
				report("%s with byte %d of %d flipped: the store started", filepath.Base(name), pos, len(orig))
			case !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), name):
				tally.unnamed++
				report("%s with byte %d flipped: the refusal does not name the file: %v", filepath.Base(name), pos, err)
			default:
				tally.refused++
				if strings.Contains(err.Error(), "panic") {
					tally.recovered++
				}
			}
			if err != nil && !maps.Equal(before, snapshot(t, dir)) {
				tally.changed++
				report("%s with byte %d flipped: the refusal changed files", filepath.Base(name), pos)
			}
			// Put back every file as it was: a start may have rewritten some.
			require.NoError(t, os.WriteFile(name, orig, 0o600))
		}
	}
	return tally
}

func tablesSize(t *testing.T, dir string) int64 {
	var n int64
	for _, f := range files(t, dir, ".sst") {
		st, err := os.Stat(f)
		require.NoError(t, err)
		n += st.Size()
	}
	return n
}

// One flipped byte anywhere in any table file is a refusal that names the
// file, never a start on damaged records and never a crash, and the
// refusal changes nothing in the directory. go test -run
// TestFlippedTableByteIsRefused -flips 200 -v tries 200 a file.
func TestFlippedTableByteIsRefused(t *testing.T) {
	dir := storeDir(t)
	if *flipAccounts > 0 {
		// Unsynced: the store is closed cleanly, and this many synced
		// writes would take minutes.
		realStoreWith(t, dir, *flipAccounts, func(o badger.Options) badger.Options { return o.WithSyncWrites(false) })
	} else {
		realStore(t, dir, 600)
	}
	s, err := OpenWith(dir, Options{MinFree: -1, tune: tinyTables})
	require.NoError(t, err, "the undamaged store opens")
	require.NoError(t, s.Close())

	tally := flipEach(t, dir, *flipsPerFile)
	t.Logf("%d table files (%d bytes), %d flips: %d refused naming the file (%d after a recovered panic), %d started, "+
		"%d refused without naming it, %d refusals changed files",
		len(files(t, dir, ".sst")), tablesSize(t, dir), tally.tried, tally.refused, tally.recovered, tally.started, tally.unnamed, tally.changed)
	require.Equal(t, tally.tried, tally.refused)
	require.Zero(t, tally.changed)

	s, err = OpenWith(dir, Options{MinFree: -1, tune: tinyTables})
	require.NoError(t, err, "with every byte put back the store opens")
	a, err := s.AccountByName(context.Background(), "p00123")
	require.NoError(t, err)
	require.Equal(t, "SHA256:acct00123", a.ID)
	require.NoError(t, s.Close())
}

// A store written before tables were left uncompressed still opens: each
// table is checked with the compression the MANIFEST gives it.
func TestSnappyTablesStillOpen(t *testing.T) {
	dir := storeDir(t)
	snappy := func(o badger.Options) badger.Options { return tinyTables(o).WithCompression(options.Snappy) }
	s, err := OpenWith(dir, Options{MinFree: -1, tune: snappy})
	require.NoError(t, err)
	fill(t, s, 0, 200)
	require.NoError(t, s.Close())
	require.NotEmpty(t, files(t, dir, ".sst"))

	s, err = OpenWith(dir, Options{MinFree: -1})
	require.NoError(t, err)
	a, err := s.AccountByName(context.Background(), "p150")
	require.NoError(t, err)
	require.Equal(t, "SHA256:acct150", a.ID)
	require.NoError(t, s.Close())
}

// A table the MANIFEST lists but the directory lacks is a refusal naming
// it, before Badger opens anything.
func TestMissingTableIsRefused(t *testing.T) {
	dir := storeDir(t)
	realStore(t, dir, 100)
	tables := files(t, dir, ".sst")
	require.NotEmpty(t, tables)
	require.NoError(t, os.Rename(tables[0], filepath.Join(t.TempDir(), "moved.sst")))
	before := snapshot(t, dir)
	_, err := OpenWith(dir, Options{MinFree: -1})
	require.ErrorIs(t, err, ErrDamaged)
	require.Contains(t, err.Error(), tables[0])
	require.Equal(t, before, snapshot(t, dir))
}

// damage changes records behind the store's back, as lost or damaged
// blocks would, and closes it.
func damage(t *testing.T, dir string, fn func(txn *badger.Txn) error) {
	t.Helper()
	s, err := OpenWith(dir, Options{MinFree: -1})
	require.NoError(t, err)
	require.NoError(t, s.db.Update(fn))
	require.NoError(t, s.Close())
}

// A name index that disagrees with the accounts is refused at start with
// what disagrees, and the refusal changes no file: left running, a new key
// could claim a name an account already holds.
func TestNameIndexDisagreementIsRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		fn   func(txn *badger.Txn) error
		want string
	}{
		{"entry gone", func(txn *badger.Txn) error { return txn.Delete(dbKey(kName, "p00042")) },
			`account SHA256:acct00042 holds the name "p00042", which the name index lacks`},
		{"entry points elsewhere", func(txn *badger.Txn) error {
			return txn.Set(dbKey(kName, "p00042"), []byte("SHA256:acct00007"))
		}, `account SHA256:acct00042 holds the name "p00042", which the name index gives to SHA256:acct00007`},
		{"entry for nobody", func(txn *badger.Txn) error {
			return txn.Set(dbKey(kName, "ghost"), []byte("SHA256:acct00007"))
		}, `the name index gives "ghost" to account SHA256:acct00007, which does not hold it`},
		{"account gone", func(txn *badger.Txn) error { return txn.Delete(dbKey(kAccount, "SHA256:acct00042")) },
			`the name index gives "p00042" to account SHA256:acct00042, which does not hold it`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := storeDir(t)
			realStore(t, dir, 100)
			damage(t, dir, c.fn)
			before := snapshot(t, dir)
			_, err := OpenWith(dir, Options{MinFree: -1})
			require.ErrorIs(t, err, ErrDamaged)
			require.Contains(t, err.Error(), c.want)
			require.Contains(t, err.Error(), "name index disagrees")
			require.Equal(t, before, snapshot(t, dir), "a refusal changes no file")
			_, err = OpenWith(dir, Options{MinFree: -1, Accept: true})
			require.ErrorIs(t, err, ErrDamaged, "--accept-store is about markers, not damaged records")
		})
	}
}

// After a crash the memtable logs hold a tail Badger cuts when it opens
// for writing; the check before that runs on copies, so a store damaged
// and then crashed is still refused with its files untouched, and an
// undamaged crashed store opens with every acknowledged write.
func TestCrashedStoreIsCheckedWithoutChange(t *testing.T) {
	dir := storeDir(t)
	realStore(t, dir, 50)
	s, err := OpenWith(dir, Options{MinFree: -1})
	require.NoError(t, err)
	_, err = s.CreateAccount(context.Background(), "SHA256:late", "latecomer")
	require.NoError(t, err)
	crashed := filepath.Join(t.TempDir(), "crashed")
	copyDir(t, dir, crashed)
	require.NoError(t, s.db.Update(func(txn *badger.Txn) error { return txn.Delete(dbKey(kName, "p00010")) }))
	damaged := filepath.Join(t.TempDir(), "damaged")
	copyDir(t, dir, damaged)
	require.NoError(t, s.Close())
	copyMarker := func(to string) {
		b, err := os.ReadFile(markerPath(dir))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(markerPath(to), b, 0o600))
	}
	copyMarker(damaged)
	require.NotEmpty(t, files(t, damaged, ".mem"), "the copy is of a store that was running")

	before := snapshot(t, damaged)
	_, err = OpenWith(damaged, Options{MinFree: -1})
	require.ErrorIs(t, err, ErrDamaged)
	require.Contains(t, err.Error(), `"p00010", which the name index lacks`)
	require.Equal(t, before, snapshot(t, damaged), "a refusal changes no file")
	tmp, err := filepath.Glob(damaged + ".check-*")
	require.NoError(t, err)
	require.Empty(t, tmp, "the copies made for the check are removed")
	require.NoError(t, os.Mkdir(damaged+".check-killed", 0o700))
	_, err = OpenWith(damaged, Options{MinFree: -1})
	require.ErrorIs(t, err, ErrDamaged)
	tmp, err = filepath.Glob(damaged + ".check-*")
	require.NoError(t, err)
	require.Empty(t, tmp, "copies left by a check that was killed are removed")

	copyMarker(crashed)
	s, err = OpenWith(crashed, Options{MinFree: -1, Accept: true})
	require.NoError(t, err)
	a, err := s.AccountByName(context.Background(), "latecomer")
	require.NoError(t, err)
	require.Equal(t, "SHA256:late", a.ID)
	require.NoError(t, s.Close())
}

// When no copy can be made for the check after a crash, the store is
// checked after it opens: a crash must not stop the server from starting,
// and damage is still refused.
func TestCrashedStoreWithoutRoomForCopiesIsCheckedAfterOpening(t *testing.T) {
	mirrorFiles = func(string, string) error { return errors.New("no space left on device") }
	defer func() { mirrorFiles = mirror }()
	dir := storeDir(t)
	realStore(t, dir, 50)
	s, err := OpenWith(dir, Options{MinFree: -1})
	require.NoError(t, err)
	_, err = s.CreateAccount(context.Background(), "SHA256:late", "latecomer")
	require.NoError(t, err)
	crashed := filepath.Join(t.TempDir(), "crashed")
	copyDir(t, dir, crashed)
	require.NoError(t, s.db.Update(func(txn *badger.Txn) error { return txn.Delete(dbKey(kName, "p00010")) }))
	damaged := filepath.Join(t.TempDir(), "damaged")
	copyDir(t, dir, damaged)
	require.NoError(t, s.Close())
	require.NotEmpty(t, files(t, damaged, ".mem"), "the copy is of a store that was running")

	var logs logBuf
	_, err = OpenWith(damaged, Options{MinFree: -1, Accept: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	require.ErrorIs(t, err, ErrDamaged)
	require.Contains(t, err.Error(), `"p00010", which the name index lacks`)
	require.Contains(t, logs.String(), "checking after opening")

	s, err = OpenWith(crashed, Options{MinFree: -1, Accept: true})
	require.NoError(t, err)
	a, err := s.AccountByName(context.Background(), "latecomer")
	require.NoError(t, err)
	require.Equal(t, "SHA256:late", a.ID)
	require.NoError(t, s.Close())
}

// A zero-length memtable log is refused and the refusal changes no file;
// opened for writing, Badger rewrote store files before refusing it.
func TestEmptyMemtableLogIsRefusedWithoutChange(t *testing.T) {
	dir := storeDir(t)
	realStore(t, dir, 50)
	s, err := OpenWith(dir, Options{MinFree: -1})
	require.NoError(t, err)
	fill(t, s, 0, 5)
	crashed := filepath.Join(t.TempDir(), "crashed")
	copyDir(t, dir, crashed)
	require.NoError(t, s.Close())
	b, err := os.ReadFile(markerPath(dir))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(markerPath(crashed), b, 0o600))
	mems := files(t, crashed, ".mem")
	require.NotEmpty(t, mems)
	for _, m := range mems {
		require.NoError(t, os.Truncate(m, 0))
	}
	before := snapshot(t, crashed)
	_, err = OpenWith(crashed, Options{MinFree: -1})
	require.ErrorIs(t, err, ErrDamaged)
	require.Contains(t, err.Error(), "the memtable log "+mems[0]+" is empty")
	require.Equal(t, before, snapshot(t, crashed), "a refusal changes no file")
}

var benchAccounts = flag.Int("accounts", 20000, "accounts in the store BenchmarkNameIndexCheck checks")

// BenchmarkNameIndexCheck times the start's name index check over a store
// of -accounts accounts, each with a name (the check's worst case), written
// in batches to keep the setup short:
//
//	go test ./store/badger -run '^$' -bench NameIndexCheck -accounts 1000000 -benchtime 3x
func BenchmarkNameIndexCheck(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "store")
	s, err := OpenWith(dir, Options{MinFree: -1})
	require.NoError(b, err)
	wb := s.db.NewWriteBatch()
	for i := range *benchAccounts {
		id := fmt.Sprintf("SHA256:%043d", i)
		name := fmt.Sprintf("player%07d", i)
		a, err := json.Marshal(store.Account{ID: id, Name: name, Created: t0, LastSeen: t0})
		require.NoError(b, err)
		require.NoError(b, wb.Set(dbKey(kAccount, id), a))
		require.NoError(b, wb.Set(dbKey(kName, name), []byte(id)))
	}
	require.NoError(b, wb.Flush())
	require.NoError(b, s.Close())
	start := time.Now()
	s, err = OpenWith(dir, Options{MinFree: -1}) // as a server starts: every check runs
	require.NoError(b, err)
	b.Logf("%d accounts: the whole open took %v", *benchAccounts, time.Since(start).Round(time.Millisecond))
	defer s.Close()
	b.ResetTimer()
	for b.Loop() {
		require.NoError(b, checkNameIndex(s.db, dir))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(*benchAccounts), "ns/account")
}

// The name is read from an account record without decoding all of it;
// every record gives the name encoding/json would.
func TestAccountName(t *testing.T) {
	for _, a := range []store.Account{
		{ID: "SHA256:abc", Name: "ann", Created: t0},
		{ID: "SHA256:abc"},
		{ID: `x","Name":"mallory`, Name: "bob"},
		{ID: "id", Name: `qu"ote`},
		{ID: "id", Name: "caf\u00e9"},
	} {
		v, err := json.Marshal(a)
		require.NoError(t, err)
		got, err := accountName(v)
		require.NoError(t, err)
		require.Equal(t, a.Name, got, "%s", v)
	}
	for _, v := range []string{`{"Name":"zed","ID":"x"}`, `{"ID":"x", "Name": "zed"}`} {
		got, err := accountName([]byte(v))
		require.NoError(t, err)
		require.Equal(t, "zed", got, v)
	}
	_, err := accountName([]byte(`{"ID":"x","Name":"zed","Created":`))
	require.Error(t, err, "a record cut short is not read as its name")
}
