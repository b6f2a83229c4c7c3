package nats

import (
	"fmt"
	"strings"
	"time"

	"sshuffle/store"
)

// The checks on input are the Badger backend's, so both refuse the same
// things with ErrInvalid.

// checkField rejects empty, oversized or NUL-containing identifiers.
func checkField(what, v string, max int) error {
	switch {
	case v == "":
		return fmt.Errorf("%w: empty %s", store.ErrInvalid, what)
	case len(v) > max:
		return fmt.Errorf("%w: %s longer than %d bytes", store.ErrInvalid, what, max)
	case strings.IndexByte(v, 0) >= 0:
		return fmt.Errorf("%w: %s contains a NUL byte", store.ErrInvalid, what)
	}
	return nil
}

func checkID(id string) error   { return checkField("account id", id, store.MaxIDLen) }
func checkKey(k string) error   { return checkField("game key", k, store.MaxKeyLen) }
func checkSpec(sp string) error { return checkField("deal spec", sp, store.MaxSpecLen) }

// checkDay accepts "2006-01-02".
func checkDay(day string) error {
	if _, err := time.Parse(time.DateOnly, day); err != nil || len(day) != len(time.DateOnly) {
		return fmt.Errorf("%w: day %q is not YYYY-MM-DD", store.ErrInvalid, day)
	}
	return nil
}

// checkResult checks r and fills in what it may leave out (a daily's Day,
// Finished in UTC).
func checkResult(r *store.Result) error {
	if err := checkID(r.Account); err != nil {
		return err
	}
	if err := checkKey(r.Key); err != nil {
		return err
	}
	if err := checkSpec(r.Spec); err != nil {
		return err
	}
	if len(r.Name) > 64 {
		return fmt.Errorf("%w: player name longer than 64 bytes", store.ErrInvalid)
	}
	if r.Won && r.Abandoned {
		return fmt.Errorf("%w: a won game cannot be abandoned", store.ErrInvalid)
	}
	if r.Elapsed < 0 || r.Moves < 0 {
		return fmt.Errorf("%w: negative time or moves", store.ErrInvalid)
	}
	if len(r.Timeline) > store.MaxTimeline {
		return fmt.Errorf("%w: a timeline of %d steps (at most %d)", store.ErrInvalid, len(r.Timeline), store.MaxTimeline)
	}
	if len(r.Actions) > store.MaxActions || (len(r.Times) != 0 && len(r.Times) != len(r.Actions)) {
		return fmt.Errorf("%w: %d moves with %d times (at most %d moves, one time each or none)", store.ErrInvalid, len(r.Actions), len(r.Times), store.MaxActions)
	}
	if r.Finished.IsZero() {
		return fmt.Errorf("%w: result without a Finished time", store.ErrInvalid)
	}
	if r.Daily {
		if r.Day == "" {
			r.Day = store.Day(r.Finished)
		}
		if err := checkDay(r.Day); err != nil {
			return err
		}
	} else if r.Day != "" {
		return fmt.Errorf("%w: Day %q on a result that is not Daily", store.ErrInvalid, r.Day)
	}
	r.Finished = r.Finished.UTC()
	return nil
}
