package hub

import (
	"errors"
	"math"
	"strings"
	"testing"

	"sshuffle/engine"
)

func TestDrawCodeUsesTheAlphabet(t *testing.T) {
	r := engine.NewRNG(3)
	seen := map[byte]bool{}
	for range 2000 {
		c := drawCode(r)
		if len(c) != CodeLen {
			t.Fatalf("code %q", c)
		}
		for i := 0; i < len(c); i++ {
			if strings.IndexByte(CodeAlphabet, c[i]) < 0 {
				t.Fatalf("code %q has %q", c, c[i])
			}
			seen[c[i]] = true
		}
	}
	if len(seen) != len(CodeAlphabet) {
		t.Fatalf("2000 codes used %d of %d letters", len(seen), len(CodeAlphabet))
	}
	for _, bad := range "01OIL" {
		if strings.ContainsRune(CodeAlphabet, bad) {
			t.Fatalf("the alphabet has the ambiguous %q", bad)
		}
	}
}

func TestNormalizeCode(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"KQTWX", "KQTWX"},
		{" kqtwx\n", "KQTWX"},
		{"KQTW", ""},
		{"KQTWXY", ""},
		{"KQTW0", ""},
		{"KQTWO", ""},
		{"KQTWI", ""},
		{"KQ TW", ""},
		{"\x1b[2J", ""},
		{"ÄQTWX", ""},
	} {
		got, err := NormalizeCode(tc.in)
		if tc.want == "" {
			if !errors.Is(err, ErrBadCode) || err.Error() != "An invite code is five letters, like KQTWX." {
				t.Errorf("NormalizeCode(%q) = %q, %v; want the bad-code sentence", tc.in, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("NormalizeCode(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestInviteLine(t *testing.T) {
	for _, tc := range []struct {
		host string
		port int
		want string
	}{
		{"cards.example.org", 2222, "ssh -t -p 2222 cards.example.org join KQTWX"},
		{"cards.example.org", 22, "ssh -t cards.example.org join KQTWX"},
		{"::1", 2022, "ssh -t -p 2022 ::1 join KQTWX"},
	} {
		if got := InviteLine(tc.host, tc.port, "KQTWX"); got != tc.want {
			t.Errorf("InviteLine(%q, %d) = %q, want %q", tc.host, tc.port, got, tc.want)
		}
	}
}

// replay hands out the same values again and again, to force collisions.
type replay struct {
	vals []uint64
	i    int
}

func (r *replay) Uint64() uint64 {
	v := r.vals[r.i%len(r.vals)]
	r.i++
	return v
}

func TestCodesUniqueAndNotReusedSoonAfterExpiry(t *testing.T) {
	// Five zeros make AAAAA, five ones BBBBB: the source offers AAAAA
	// twice before anything else.
	// Small values fall below the rejection limit and would be redrawn
	// forever; letter k is drawn from a high multiple of 23 plus k.
	high := (math.MaxUint64/uint64(len(CodeAlphabet)) - 1) * uint64(len(CodeAlphabet))
	var vals []uint64
	for _, k := range []uint64{0, 0, 1, 2} {
		for range CodeLen {
			vals = append(vals, high+k)
		}
	}
	src := &replay{vals: vals}
	clock := NewManualClock()
	h := New(Config{Clock: clock, Rand: src, Grace: 10 * 1e9})
	defer h.Close()
	a, err := h.NewRace(RaceConfig{Spec: deal})
	if err != nil {
		t.Fatal(err)
	}
	b, err := h.NewRace(RaceConfig{Spec: deal})
	if err != nil {
		t.Fatal(err)
	}
	if a.Code() != "AAAAA" || b.Code() != "BBBBB" {
		t.Fatalf("codes %s %s, want AAAAA then BBBBB (the repeat skipped)", a.Code(), b.Code())
	}
	// Nobody joined: both close after the grace, and their codes expire.
	clock.Advance(10 * 1e9)
	<-a.Done()
	<-b.Done()
	if _, err := h.Race("aaaaa"); !errors.Is(err, ErrExpired) || err.Error() != "The room AAAAA has ended, and its code with it." {
		t.Fatalf("expired code: %v", err)
	}
	src.i = 0 // offer AAAAA, then BBBBB, again
	c, err := h.NewRace(RaceConfig{Spec: deal})
	if err != nil {
		t.Fatal(err)
	}
	if c.Code() != "CCCCC" {
		t.Fatalf("a new room took %s, a code that expired moments ago", c.Code())
	}
}

func TestLookupSentences(t *testing.T) {
	e := newEnv(t)
	r := e.race(false)
	for _, tc := range []struct {
		name, code string
		want       error
		sentence   string
	}{
		{"live", strings.ToLower(r.Code()), nil, ""},
		{"malformed", "12345", ErrBadCode, "An invite code is five letters, like KQTWX."},
		{"unknown", "ZZZZZ", ErrNoRoom, "No room has the code ZZZZZ; check the letters."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := e.h.Race(tc.code)
			if tc.want == nil {
				if err != nil || got != r {
					t.Fatalf("Race(%q) = %v, %v", tc.code, got, err)
				}
				return
			}
			if !errors.Is(err, tc.want) || err.Error() != tc.sentence {
				t.Fatalf("Race(%q) error %q, want %q", tc.code, err, tc.sentence)
			}
		})
	}
}
