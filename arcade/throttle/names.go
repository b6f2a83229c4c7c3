// Package throttle limits lookups that fail, so that an answer such as
// "nobody is called that" cannot be asked for fast enough to list what
// exists.
package throttle

import (
	"log/slog"
	"sync"
	"time"
)

// TooManyNames is what a player is told while their lookups of names are
// held back.
const TooManyNames = "Too many names tried that nobody has; wait a few seconds and try again."

// The figures of name lookups that fail. A person mistypes a name or two
// in a row, not five; a household or a classroom behind one address does
// not look up twenty unknown names at once. Held to these rates a prober
// learns a few names a second per account and ten per address, instead of
// the thousands a second a loop of commands asks.
const (
	accountBurst = 5
	accountRate  = 2 // a second
	addrBurst    = 20
	addrRate     = 10 // a second
	// maxKeys bounds the memory kept: past it, keys whose buckets are
	// full again are forgotten, and if that is not enough, all are.
	maxKeys = 1 << 16
)

// Names throttles lookups of player names that fail, per account and per
// address. A nil *Names allows every lookup. Its methods are safe for
// concurrent use.
type Names struct {
	acct, addr buckets
	now        func() time.Time
	log        *slog.Logger
	mu         sync.Mutex
	logged     time.Time // the last "throttled" log line
}

// NewNames is a throttle on the given clock (nil: time.Now), logging to
// log (nil: nowhere) at most once a minute when it holds lookups back.
func NewNames(now func() time.Time, log *slog.Logger) *Names {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Names{
		acct: buckets{burst: accountBurst, rate: accountRate, m: map[string]*bucket{}},
		addr: buckets{burst: addrBurst, rate: addrRate, m: map[string]*bucket{}},
		now:  now, log: log,
	}
}

// Allow says whether account (a key fingerprint; "" for none) from addr
// ("" for none) may look a name up now. Ask before the lookup, whatever
// its answer will be: a refusal only for unknown names would tell which
// names exist.
func (n *Names) Allow(account, addr string) bool {
	if n == nil {
		return true
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	now := n.now()
	ok := n.acct.has(account, now) && n.addr.has(addr, now)
	if !ok && now.Sub(n.logged) >= time.Minute {
		n.logged = now
		n.log.Warn("name lookups throttled: too many unknown names", "account", account, "remote", addr)
	}
	return ok
}

// Failed counts a lookup that found nobody.
func (n *Names) Failed(account, addr string) {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	now := n.now()
	n.acct.take(account, now)
	n.addr.take(addr, now)
}

type bucket struct {
	tokens float64
	at     time.Time
}

type buckets struct {
	burst, rate float64
	m           map[string]*bucket
}

// level is key's tokens at now.
func (b *buckets) level(k *bucket, now time.Time) float64 {
	return min(b.burst, k.tokens+max(now.Sub(k.at).Seconds(), 0)*b.rate)
}

func (b *buckets) has(key string, now time.Time) bool {
	k := b.m[key]
	return key == "" || k == nil || b.level(k, now) >= 1
}

func (b *buckets) take(key string, now time.Time) {
	if key == "" {
		return
	}
	k := b.m[key]
	if k == nil {
		if len(b.m) >= maxKeys {
			b.prune(now)
		}
		k = &bucket{tokens: b.burst}
		b.m[key] = k
	}
	k.tokens, k.at = max(b.level(k, now)-1, 0), now
}

func (b *buckets) prune(now time.Time) {
	for key, k := range b.m {
		if b.level(k, now) >= b.burst {
			delete(b.m, key)
		}
	}
	if len(b.m) >= maxKeys {
		clear(b.m)
	}
}

// size is how many keys are kept, for tests.
func (n *Names) size() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.acct.m) + len(n.addr.m)
}
