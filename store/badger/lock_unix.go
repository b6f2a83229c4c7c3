//go:build unix

package badger

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// checkUnlocked refuses a store whose directory another process holds
// open, before anything reads it: Badger's own refusal comes only from the
// read-only check, which would report a locked store as damaged. Badger
// locks the directory itself with flock, so a lock held here, on another
// open of the directory, is refused the same way.
func checkUnlocked(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return nil // no directory yet, or one the checks after describe
	}
	defer f.Close()
	switch err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); {
	case errors.Is(err, syscall.EWOULDBLOCK):
		return fmt.Errorf("%w: another sshuffle (or another program) is using %s; stop it first", ErrInUse, dir)
	case err == nil:
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	}
	return nil
}
