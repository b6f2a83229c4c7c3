package hub

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sshuffle/engine"
)

// unlimited turns a test hub's limits off, before it is used.
func unlimited(h *Hub) { h.limits.lim = NoLimits() }

func personAt(name, addr string) Person {
	p := person(name)
	p.Addr = addr
	return p
}

// openBurst opens n tables for host at once (no clock between them) and
// returns the tables opened and the first refusal.
func openBurst(e *tenv, n int, host func(i int) Person) ([]*Table, error) {
	var opened []*Table
	var first error
	for i := range n {
		t, err := e.h.OpenTable(kingsTable(host(i), open, open))
		if err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		opened = append(opened, t)
	}
	return opened, first
}

// TestTableFloodFromOneAccount: a burst of opens (n and Enter held down in
// the lobby) stops at the account's cap, with a sentence; rooms count
// while they live, and once they end the account may open again.
func TestTableFloodFromOneAccount(t *testing.T) {
	e := newTenv(t)
	opened, err := openBurst(e, 300, func(int) Person { return personAt("ann", "192.0.2.1") })
	if len(opened) != DefaultRoomsPerAccount {
		t.Fatalf("%d tables opened in a burst; the cap is %d", len(opened), DefaultRoomsPerAccount)
	}
	if !errors.Is(err, ErrTooManyRooms) || err.Error() != "You have 4 rooms open; close one first (an empty room closes within 30s)." {
		t.Fatalf("the refusal: %v", err)
	}
	// Slowly is no way around it: the cap counts live rooms.
	e.clock.Advance(5 * time.Second)
	if _, err := e.h.OpenTable(kingsTable(personAt("ann", "192.0.2.1"), open, open)); !errors.Is(err, ErrTooManyRooms) {
		t.Fatalf("a fifth table later: %v", err)
	}
	// A race is a room too.
	if _, err := e.h.NewRace(RaceConfig{Spec: deal, Host: personAt("ann", "192.0.2.1")}); !errors.Is(err, ErrTooManyRooms) {
		t.Fatalf("a race beside four tables: %v", err)
	}
	// Nobody joined: the tables close after the grace, and count no more.
	e.clock.Advance(30 * time.Second)
	for _, tb := range opened {
		<-tb.Done()
	}
	if _, err := e.h.OpenTable(kingsTable(personAt("ann", "192.0.2.1"), open, open)); err != nil {
		t.Fatalf("a table once the others ended: %v", err)
	}
	// Another account is not held back by ann's.
	if _, err := e.h.OpenTable(kingsTable(personAt("bob", "192.0.2.2"), open, open)); err != nil {
		t.Fatal(err)
	}
}

// TestTableFloodFromOneAddress: fresh keys are free, so one address making
// an account per table stops at the address's cap.
func TestTableFloodFromOneAddress(t *testing.T) {
	e := newTenv(t)
	opened, err := openBurst(e, 300, func(i int) Person { return personAt(fmt.Sprintf("p%d", i), "198.51.100.7") })
	if len(opened) != DefaultRoomsPerAddr {
		t.Fatalf("%d tables opened from one address; the cap is %d", len(opened), DefaultRoomsPerAddr)
	}
	if !errors.Is(err, ErrTooManyRooms) || !strings.HasPrefix(err.Error(), "Your address has 16 rooms open; close one first") {
		t.Fatalf("the refusal: %v", err)
	}
	// Races from that address too, once its rate allows; another address
	// is not held back.
	e.clock.Advance(5 * time.Second)
	if _, err := e.h.NewRace(RaceConfig{Spec: deal, Host: personAt("zed", "198.51.100.7")}); !errors.Is(err, ErrTooManyRooms) {
		t.Fatalf("a race from the full address: %v", err)
	}
	if _, err := e.h.NewRace(RaceConfig{Spec: deal, Host: personAt("zed", "198.51.100.8")}); err != nil {
		t.Fatal(err)
	}
}

// TestLobbyActionsRate: joins (and opens, starts) past the rate are refused
// with a sentence, and allowed again as the rate allows.
func TestLobbyActionsRate(t *testing.T) {
	e := newTenv(t)
	tb := e.open(kingsTable(person("host"), open, open))
	cy := personAt("cy", "203.0.113.9")
	refused := 0
	for range 100 {
		m, err := tb.Join(cy, Watch, func(TableState) {})
		switch {
		case errors.Is(err, ErrTooFast):
			refused++
		case err != nil:
			t.Fatal(err)
		default:
			_ = m.Leave()
		}
	}
	if refused != 100-DefaultActionsBurst {
		t.Fatalf("%d of 100 joins at once refused; the burst is %d", refused, DefaultActionsBurst)
	}
	if _, err := tb.Join(cy, Watch, func(TableState) {}); err == nil || err.Error() != "That is faster than the lobby goes; wait a moment and try again." {
		t.Fatalf("the refusal: %v", err)
	}
	e.clock.Advance(time.Second)
	if _, err := tb.Join(cy, Watch, func(TableState) {}); err != nil {
		t.Fatalf("a join a second later: %v", err)
	}
}

// TestCodeGuessing: failed lookups past a few are refused per account and
// per address, without looking at the code, so a right guess then tells
// nothing either; the rate comes back with time.
func TestCodeGuessing(t *testing.T) {
	e := newTenv(t)
	priv := e.open(TableConfig{Game: "kings", Seats: []SeatPlan{open, open}, Host: person("ann"), Private: true})
	eve := personAt("eve", "203.0.113.66")
	codes := unusedCodes(e.h, 100)
	fails := 0
	var err error
	for _, c := range codes {
		if _, err = e.h.FindTable(eve, c); errors.Is(err, ErrTooManyLookups) {
			break
		}
		if !errors.Is(err, ErrNoRoom) {
			t.Fatalf("a guess: %v", err)
		}
		fails++
	}
	if fails != DefaultFailedLookupsBurst || err == nil || err.Error() != "Too many codes tried; wait a few seconds and try again." {
		t.Fatalf("%d guesses answered, then %v", fails, err)
	}
	if _, err := e.h.FindTable(eve, priv.Code()); !errors.Is(err, ErrTooManyLookups) {
		t.Fatalf("a right guess past the limit: %v", err)
	}
	e.clock.Advance(time.Second)
	if tb, err := e.h.FindTable(eve, priv.Code()); err != nil || tb != priv {
		t.Fatalf("a right code a second later: %v", err)
	}
	// Another address is not held back, but the same one under fresh
	// accounts is, as one account would be.
	if _, err := e.h.FindTable(personAt("fay", "203.0.113.67"), priv.Code()); err != nil {
		t.Fatal(err)
	}
	fails = 0
	for i, c := range codes {
		_, err = e.h.FindRace(personAt(fmt.Sprintf("sock%d", i), "198.51.100.99"), c)
		if errors.Is(err, ErrTooManyLookups) {
			break
		}
		fails++
	}
	if fails != DefaultFailedLookupsBurst {
		t.Fatalf("%d guesses from fresh accounts at one address", fails)
	}
	// Lookups that find rooms are bounded too, at a higher rate.
	found := 0
	for range 100 {
		if _, err := e.h.Find(personAt("gus", "192.0.2.50"), priv.Code()); err != nil {
			if !errors.Is(err, ErrTooManyLookups) {
				t.Fatal(err)
			}
			break
		}
		found++
	}
	if found != DefaultLookupsBurst {
		t.Fatalf("%d lookups at once; the burst is %d", found, DefaultLookupsBurst)
	}
}

// unusedCodes are n codes no room holds.
func unusedCodes(h *Hub, n int) []string {
	live := map[string]bool{}
	for _, c := range h.codes() {
		live[c] = true
	}
	var out []string
	r := engine.NewRNG(99)
	for len(out) < n {
		if c := drawCode(r); !live[c] {
			out = append(out, c)
		}
	}
	return out
}

// TestWrongCodesAnswerAlike: a live private table's code asked for as a
// race, a live race's asked for as a table, and a code nobody holds get the
// same sentence (but for the code), and all count as failed guesses.
func TestWrongCodesAnswerAlike(t *testing.T) {
	e := newTenv(t)
	priv := e.open(TableConfig{Game: "kings", Seats: []SeatPlan{open, open}, Host: person("ann"), Private: true})
	race, err := e.h.NewRace(RaceConfig{Spec: deal})
	if err != nil {
		t.Fatal(err)
	}
	unknown := unusedCodes(e.h, 1)[0]
	sentence := func(err error, code string) string {
		if !errors.Is(err, ErrNoRoom) {
			t.Fatalf("%s: %v", code, err)
		}
		return strings.ReplaceAll(err.Error(), code, "CODE")
	}
	_, err1 := e.h.Race(priv.Code())
	_, err2 := e.h.Table(race.Code())
	_, err3 := e.h.Race(unknown)
	_, err4 := e.h.Table(unknown)
	want := sentence(err3, unknown)
	for _, c := range []struct {
		err  error
		code string
	}{{err1, priv.Code()}, {err2, race.Code()}, {err4, unknown}} {
		if got := sentence(c.err, c.code); got != want {
			t.Fatalf("%s answers %q; an unknown code %q", c.code, got, want)
		}
	}
	// Through the throttled lookups, the same, and each costs a guess.
	eve := personAt("eve", "203.0.113.66")
	for i := range DefaultFailedLookupsBurst {
		var err error
		switch i % 3 {
		case 0:
			_, err = e.h.FindRace(eve, priv.Code())
			err = errors.New(sentence(err, priv.Code()))
		case 1:
			_, err = e.h.FindTable(eve, race.Code())
			err = errors.New(sentence(err, race.Code()))
		default:
			_, err = e.h.FindRace(eve, unknown)
			err = errors.New(sentence(err, unknown))
		}
		if err.Error() != want {
			t.Fatalf("lookup %d: %q", i, err)
		}
	}
	if _, err := e.h.FindRace(eve, race.Code()); !errors.Is(err, ErrTooManyLookups) {
		t.Fatalf("after %d wrong codes of every kind: %v", DefaultFailedLookupsBurst, err)
	}
}

// TestLimitLogOncePerMinute: a flood of refusals is one log line a minute
// per kind of limit, counting them.
func TestLimitLogOncePerMinute(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	log := slog.New(slog.NewTextHandler(&lockedWriter{w: &buf, mu: &mu}, nil))
	clock := NewManualClock()
	h := New(Config{Clock: clock, Log: log})
	defer h.Close()
	p := personAt("eve", "203.0.113.66")
	for range 50 {
		_, _ = h.FindRace(p, "ZZZZZ")
		_, _ = h.NewRace(RaceConfig{Spec: deal, Host: p})
	}
	lines := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Split(strings.TrimSpace(buf.String()), "\n")
	}
	// One line for each kind hit: failed lookups, lookups, rooms and
	// actions.
	kinds := func(l []string) map[string]int {
		n := map[string]int{}
		for _, line := range l {
			_, k, _ := strings.Cut(line, "limit=")
			k, _, _ = strings.Cut(k, " account=")
			n[k]++
		}
		return n
	}
	want := map[string]int{`"failed code lookups"`: 1, `"code lookups"`: 1, `"rooms per account"`: 1, "actions": 1}
	if l := lines(); len(l) != 4 || fmt.Sprint(kinds(l)) != fmt.Sprint(want) {
		t.Fatalf("log:\n%s", strings.Join(l, "\n"))
	}
	clock.Advance(time.Minute)
	for range DefaultFailedLookupsBurst + 2 { // the buckets have refilled: five fail, two are refused
		_, _ = h.FindRace(p, "ZZZZZ")
	}
	l := lines()
	if len(l) != 5 || !strings.Contains(l[4], `limit="failed code lookups"`) || !strings.Contains(l[4], "addr=203.0.113.66") {
		t.Fatalf("log a minute later:\n%s", strings.Join(l, "\n"))
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (w *lockedWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(b)
}

// TestAddrStaysWithTheHub: the address a person connects from reaches no
// other player: not in presence, not in a table's seats.
func TestAddrStaysWithTheHub(t *testing.T) {
	e := newTenv(t)
	ann := personAt("ann", "192.0.2.1")
	s := e.h.Connect(ann, true, func(Notice) {})
	defer s.Close()
	if p := e.h.Presence(ann.ID)[0]; p.Addr != "" {
		t.Fatalf("presence shows the address: %+v", p)
	}
	tb, err := e.h.OpenTable(kingsTable(ann, open, open))
	if err != nil {
		t.Fatal(err)
	}
	r := e.rec()
	if _, err := tb.Join(ann, AnySeat, r.sink); err != nil {
		t.Fatal(err)
	}
	st := r.until(t, "seated", func(st TableState) bool { return len(st.Seats) > 0 && st.Seats[0].Person.ID == ann.ID })
	in, _ := tb.Info()
	if st.Seats[0].Person.Addr != "" || in.Host.Addr != "" {
		t.Fatalf("the table shows the address: %+v %+v", st.Seats[0], in.Host)
	}
}

// TestConnectWhileTheLobbyRebuilds: with the lobby list's rebuild held
// busy, and tables opening and closing all the while, people still connect,
// see presence, and open and list tables.
func TestConnectWhileTheLobbyRebuilds(t *testing.T) {
	e := newTenv(t)
	unlimited(e.h)
	held, release, _ := holdFirstRebuild(e.h)
	lw := e.h.WatchLobby(func(TableList) {})
	defer lw.Close()
	e.open(kingsTable(person("ann"), open, open))
	<-held // the rebuild has the list and is "sorting" it
	// Churn: tables opening and closing while the rebuild is held.
	stop := make(chan struct{})
	var churn sync.WaitGroup
	var churned atomic.Int64
	for g := range 4 {
		churn.Add(1)
		go func() {
			defer churn.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				tb, err := e.h.OpenTable(kingsTable(person(fmt.Sprintf("c%d-%d", g, i)), open, open))
				if err != nil {
					t.Error(err)
					return
				}
				tb.shut("churn")
				churned.Add(1)
			}
		}()
	}
	const n = 200
	done := make(chan struct{})
	go func() {
		defer close(done)
		// n connections at least, and on until the churn has gone on
		// beside them a while.
		for i := 0; i < n || churned.Load() < 50 && i < 100*n; i++ {
			p := person(fmt.Sprintf("late%d", i))
			s := e.h.Connect(p, true, func(Notice) {})
			s.SetActivity(Activity{Doing: InGame})
			if got := e.h.Presence(p.ID); !got[0].Online {
				t.Errorf("%s is not online", p.Name)
			}
			_ = e.h.Online()
			_ = e.h.Tables()
			_ = e.h.SeatedAt(p.ID)
			s.Close()
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second): // a failsafe, not a measure: held, Connect would never return
		t.Error("connecting waits for the lobby list's rebuild")
	}
	close(release)
	close(stop)
	churn.Wait()
	<-done
	if churned.Load() == 0 {
		t.Fatal("no churn")
	}
}

// TestLobbyRebuildsCoalesce: changes made while a rebuild is under way are
// all in the next one, so a burst of a hundred tables costs two lists, not a
// hundred.
func TestLobbyRebuildsCoalesce(t *testing.T) {
	e := newTenv(t)
	unlimited(e.h)
	held, release, rebuilds := holdFirstRebuild(e.h)
	lr := &lobbyRec{changed: make(chan struct{})}
	lw := e.h.WatchLobby(lr.sink)
	defer lw.Close()
	e.open(kingsTable(person("ann"), open, open))
	<-held
	for i := range 100 {
		e.open(kingsTable(person(fmt.Sprintf("p%d", i)), open, open))
	}
	close(release)
	l := lr.until(t, "every table listed", func(l TableList) bool { return len(l.Tables) == 101 })
	if l.Version != 2 || rebuilds.Load() != 2 {
		t.Fatalf("101 tables opened in two bursts took %d lists (version %d)", rebuilds.Load(), l.Version)
	}
}

// holdFirstRebuild holds the hub's first rebuild of the lobby list, once it
// has copied the tables, until release is closed; held is closed once it
// is held. Later rebuilds go through, counted in rebuilds.
func holdFirstRebuild(h *Hub) (held, release chan struct{}, rebuilds *atomic.Int64) {
	held, release, rebuilds = make(chan struct{}), make(chan struct{}), &atomic.Int64{}
	h.lobby.spy = func() {
		if rebuilds.Add(1) == 1 {
			close(held)
			<-release
		}
	}
	return held, release, rebuilds
}
