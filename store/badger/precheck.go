package badger

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/dgraph-io/badger/v4"
)

// precheck opens the store read-only and checks what is in it (the
// markers, the name index) before it is opened for writing, so that a
// refusal changes no file: opened for writing, Badger replays and cuts its
// memtable logs, starts new ones and rewrites the MANIFEST before anything
// could be checked. With accept, markers that disagree are left to the
// open that follows, which adopts them.
//
// When no read-only copy can be made after a crash (no room beside the
// store, or a refusal from Badger this code cannot read), it returns
// errNoReadOnlyCheck, and the caller checks after opening instead: a crash
// must not stop the server from starting.
func precheck(dir string, bo badger.Options, beside *marker, accept bool) error {
	db, cleanup, err := openReadOnly(dir, bo)
	if err != nil {
		return err
	}
	defer cleanup()
	inside, empty, err := readInsideMarker(db)
	if err != nil {
		return fmt.Errorf("%w: reading the marker of %s: %v; nothing was changed", ErrDamaged, dir, err)
	}
	if _, _, err := agree(dir, inside, beside, empty); err != nil && !accept {
		return err
	}
	return checkNameIndex(db, dir)
}

// openReadOnly opens dir read-only. Read-only, Badger refuses a memtable
// log with a tail to cut, which every crash leaves (the log files are made
// at full size and filled as writes come); opened for writing it cuts the
// tail, as the open that follows will. For the check the logs are copied
// aside (into DIR.check-*), cut there, and the rest of the files linked
// beside them, so the store's own files stay untouched.
func openReadOnly(dir string, bo badger.Options) (*badger.DB, func(), error) {
	ro := bo.WithReadOnly(true)
	db, err := openBadger(ro)
	if err == nil {
		return db, func() { _ = db.Close() }, nil
	}
	if !truncateNeededErr(err) {
		return nil, nil, fmt.Errorf("%w; found opening it read-only, nothing was changed", err)
	}
	// Beside the store, on the disk whose free space was checked; one
	// left by a check that was killed is removed first.
	pattern := filepath.Clean(dir) + ".check-"
	if old, _ := filepath.Glob(pattern + "*"); len(old) > 0 {
		for _, o := range old {
			_ = os.RemoveAll(o)
		}
	}
	scratch, err := os.MkdirTemp(filepath.Dir(pattern), filepath.Base(pattern))
	if err != nil {
		return nil, nil, fmt.Errorf("%w: a directory to check %s in: %w", errNoReadOnlyCheck, dir, err)
	}
	remove := func() { _ = os.RemoveAll(scratch) }
	if err := mirrorFiles(dir, scratch); err != nil {
		remove()
		return nil, nil, fmt.Errorf("%w: %w", errNoReadOnlyCheck, err)
	}
	ro.Dir, ro.ValueDir = scratch, scratch
	for range 2 * (bo.NumMemtables + 2) {
		db, err = openBadger(ro)
		if err == nil {
			return db, func() { _ = db.Close(); remove() }, nil
		}
		if !truncateNeededErr(err) {
			break
		}
		if err = cutLog(scratch, err); err != nil {
			remove()
			return nil, nil, fmt.Errorf("%w: %w", errNoReadOnlyCheck, err)
		}
	}
	remove()
	// Name the store's files, not their copies.
	return nil, nil, fmt.Errorf("%w: %s; found opening it read-only, nothing was changed", ErrDamaged,
		strings.TrimPrefix(strings.ReplaceAll(err.Error(), scratch, dir), ErrDamaged.Error()+": "))
}

// mirrorFiles is mirror; tests make it fail.
var mirrorFiles = mirror

// mirror copies dir's memtable logs into scratch and links every other
// file there; Badger opens them read-only.
func mirror(dir, scratch string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return fmt.Errorf("store: reading %s: %w", dir, err)
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == "LOCK" || e.IsDir():
		case strings.HasSuffix(name, ".mem"):
			if err := copyFile(filepath.Join(abs, name), filepath.Join(scratch, name)); err != nil {
				return fmt.Errorf("store: copying %s to check it: %w", name, err)
			}
		default:
			if err := os.Symlink(filepath.Join(abs, name), filepath.Join(scratch, name)); err != nil {
				return fmt.Errorf("store: linking %s to check it: %w", name, err)
			}
		}
	}
	return nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}

// errNoReadOnlyCheck: the store cannot be checked read-only after a crash.
var errNoReadOnlyCheck = errors.New("store: no read-only check after a crash")

// Badger's refusal says which log and where its entries end.
var truncateNeeded = regexp.MustCompile(`while opening fid: (\d+) .*end offset: (\d+) < size`)

// cutLog cuts the copied log that Badger refused at the end of its last
// whole entry, as Badger does when it opens for writing.
func cutLog(scratch string, refusal error) error {
	m := truncateNeeded.FindStringSubmatch(refusal.Error())
	if m == nil {
		return refusal
	}
	fid, _ := strconv.Atoi(m[1])
	end, _ := strconv.ParseInt(m[2], 10, 64)
	return os.Truncate(filepath.Join(scratch, fmt.Sprintf("%05d.mem", fid)), end)
}

// truncateNeededErr: Badger wraps its errors as text, so the chain is lost.
func truncateNeededErr(err error) bool {
	return err != nil && strings.Contains(err.Error(), badger.ErrTruncateNeeded.Error())
}
