package bot

import (
	"sync"
	"time"
)

// Shared holds the limits of every session of each bot account, so that a
// bot that opens several sessions still gets one account's lines a second
// and tables at once, not one session's each. The zero value is ready;
// the wiring keeps one for the server.
type Shared struct {
	mu    sync.Mutex
	accts map[string]*account
}

type account struct {
	sessions int
	tokens   float64 // lines left of the bucket
	topped   time.Time
	tables   int // tables sat at, over every session
}

// open counts a session of id in.
func (sh *Shared) open(id string, l Limits, now time.Time) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.accts == nil {
		sh.accts = map[string]*account{}
	}
	a := sh.accts[id]
	if a == nil {
		a = &account{tokens: float64(l.LinesPerSecond), topped: now}
		sh.accts[id] = a
	}
	a.sessions++
}

// close counts a session out; the account is forgotten with its last.
func (sh *Shared) close(id string) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if a := sh.accts[id]; a != nil {
		a.sessions--
		if a.sessions <= 0 {
			delete(sh.accts, id)
		}
	}
}

// allow spends one line of id's bucket, if one is left.
func (sh *Shared) allow(id string, rate int, now time.Time) bool {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	a := sh.accts[id]
	r := float64(rate)
	a.tokens = min(r, a.tokens+now.Sub(a.topped).Seconds()*r)
	a.topped = now
	if a.tokens < 1 {
		return false
	}
	a.tokens--
	return true
}

// sit takes one of id's tables, if it has fewer than most; stand gives
// one back.
func (sh *Shared) sit(id string, most int) bool {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	a := sh.accts[id]
	if a.tables >= most {
		return false
	}
	a.tables++
	return true
}

func (sh *Shared) stand(id string) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if a := sh.accts[id]; a != nil && a.tables > 0 {
		a.tables--
	}
}
