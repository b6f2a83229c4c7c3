package store

import (
	"fmt"
	"strings"
	"time"
)

// The checks on what a backend is asked to keep live here, once, so that
// every backend refuses the same things with ErrInvalid.

// CheckField rejects empty, oversized or NUL-containing identifiers.
func CheckField(what, v string, max int) error {
	switch {
	case v == "":
		return fmt.Errorf("%w: empty %s", ErrInvalid, what)
	case len(v) > max:
		return fmt.Errorf("%w: %s longer than %d bytes", ErrInvalid, what, max)
	case strings.IndexByte(v, 0) >= 0:
		return fmt.Errorf("%w: %s contains a NUL byte", ErrInvalid, what)
	}
	return nil
}

// CheckID, CheckKey and CheckSpec check an account id, a game key and a
// deal spec as identifiers.
func CheckID(id string) error   { return CheckField("account id", id, MaxIDLen) }
func CheckKey(k string) error   { return CheckField("game key", k, MaxKeyLen) }
func CheckSpec(sp string) error { return CheckField("deal spec", sp, MaxSpecLen) }

// CheckDay accepts "2006-01-02".
func CheckDay(day string) error {
	if _, err := time.Parse(time.DateOnly, day); err != nil || len(day) != len(time.DateOnly) {
		return fmt.Errorf("%w: day %q is not YYYY-MM-DD", ErrInvalid, day)
	}
	return nil
}

// CheckResult checks r and fills in what it may leave out (a daily's Day,
// Finished in UTC).
func CheckResult(r *Result) error {
	if err := CheckID(r.Account); err != nil {
		return err
	}
	if err := CheckKey(r.Key); err != nil {
		return err
	}
	if err := CheckSpec(r.Spec); err != nil {
		return err
	}
	if len(r.Name) > 64 {
		return fmt.Errorf("%w: player name longer than 64 bytes", ErrInvalid)
	}
	if r.Won && r.Abandoned {
		return fmt.Errorf("%w: a won game cannot be abandoned", ErrInvalid)
	}
	if r.Elapsed < 0 || r.Moves < 0 {
		return fmt.Errorf("%w: negative time or moves", ErrInvalid)
	}
	if len(r.Timeline) > MaxTimeline {
		return fmt.Errorf("%w: a timeline of %d steps (at most %d)", ErrInvalid, len(r.Timeline), MaxTimeline)
	}
	if len(r.Actions) > MaxActions || (len(r.Times) != 0 && len(r.Times) != len(r.Actions)) {
		return fmt.Errorf("%w: %d moves with %d times (at most %d moves, one time each or none)", ErrInvalid, len(r.Actions), len(r.Times), MaxActions)
	}
	if r.Finished.IsZero() {
		return fmt.Errorf("%w: result without a Finished time", ErrInvalid)
	}
	if r.Daily {
		if r.Day == "" {
			r.Day = Day(r.Finished)
		}
		if err := CheckDay(r.Day); err != nil {
			return err
		}
	} else if r.Day != "" {
		return fmt.Errorf("%w: Day %q on a result that is not Daily", ErrInvalid, r.Day)
	}
	r.Finished = r.Finished.UTC()
	return nil
}
