// Package storetest is the one suite every store backend must pass: what a
// store does (accounts and names, results, stats, streaks, boards, today's
// deals, saves, settings, friends, races live and lost), never how a
// backend keeps it. A backend runs it with Run from its own test, opening a
// fresh, empty store each time.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/store"
)

// Opener opens a fresh, empty store for one test, closed when the test
// ends. now, when not nil, is the clock the store stamps accounts with.
type Opener func(t *testing.T, now func() time.Time) store.Store

var ctx = context.Background()

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// Run runs the whole suite against the backend open makes.
func Run(t *testing.T, open Opener) {
	t.Run("AccountsAndNames", func(t *testing.T) { testAccountsAndNames(t, open) })
	t.Run("ConcurrentNameClaims", func(t *testing.T) { testConcurrentNameClaims(t, open) })
	t.Run("BadInput", func(t *testing.T) { testBadInput(t, open) })
	t.Run("SavesAndSettings", func(t *testing.T) { testSavesAndSettings(t, open) })
	t.Run("DailyChosenOnce", func(t *testing.T) { testDailyChosenOnce(t, open) })
	t.Run("CreateRefusesAnInvalidName", func(t *testing.T) { testCreateRefusesAnInvalidName(t, open) })
	t.Run("Closed", func(t *testing.T) { testClosed(t, open) })
	t.Run("Stats", func(t *testing.T) { testStats(t, open) })
	t.Run("Streak", func(t *testing.T) { testStreak(t, open) })
	t.Run("BoardOrder", func(t *testing.T) { testBoardOrder(t, open) })
	t.Run("BoardOnePerAccount", func(t *testing.T) { testBoardOnePerAccount(t, open) })
	t.Run("ConcurrentResults", func(t *testing.T) { testConcurrentResults(t, open) })
	t.Run("Following", func(t *testing.T) { testFollowing(t, open) })
	t.Run("FollowingCap", func(t *testing.T) { testFollowingCap(t, open) })
	t.Run("FollowingCapUnderConcurrency", func(t *testing.T) { testFollowingCapUnderConcurrency(t, open) })
	t.Run("AbandonedCountApart", func(t *testing.T) { testAbandonedCountApart(t, open) })
	t.Run("Races", func(t *testing.T) { testRaces(t, open) })
	t.Run("TimelineKept", func(t *testing.T) { testTimelineKept(t, open) })
	t.Run("TableGames", func(t *testing.T) { testTableGames(t, open) })
	t.Run("TableSnapshots", func(t *testing.T) { testTableSnapshots(t, open) })
	t.Run("TableRematchKept", func(t *testing.T) { testTableRematchKept(t, open) })
	t.Run("TableMatchesApart", func(t *testing.T) { testTableMatchesApart(t, open) })
	t.Run("LiveRaces", func(t *testing.T) { testLiveRaces(t, open) })
	t.Run("KeepLiveRaces", func(t *testing.T) { testKeepLiveRaces(t, open) })
	t.Run("EndCode", func(t *testing.T) { testEndCode(t, open) })
	t.Run("LostRaces", func(t *testing.T) { testLostRaces(t, open) })
	t.Run("Bots", func(t *testing.T) { testBots(t, open) })
	t.Run("Ratings", func(t *testing.T) { testRatings(t, open) })
	t.Run("RatedGameChecked", func(t *testing.T) { testRatedGameChecked(t, open) })
	t.Run("ConcurrentRatings", func(t *testing.T) { testConcurrentRatings(t, open) })
	t.Run("HistoryList", func(t *testing.T) { testHistoryList(t, open) })
	t.Run("HistoryGame", func(t *testing.T) { testHistoryGame(t, open) })
	t.Run("HistoryMovesBounded", func(t *testing.T) { testHistoryMovesBounded(t, open) })
	t.Run("HistoryPaging", func(t *testing.T) { testHistoryPaging(t, open) })
}

func day(n int) time.Time { return t0.AddDate(0, 0, n) }

func daily(acc, key string, d time.Time, won bool) store.Result {
	return store.Result{Account: acc, Spec: key + "/w/1", Key: key, Won: won, Finished: d, Daily: true, Day: store.Day(d), Elapsed: time.Minute}
}

func withDay(r store.Result, d time.Time) store.Result { r.Day = store.Day(d); return r }

func names(rs []store.Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Name
	}
	return out
}

func accounts(rs []store.Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Account
	}
	return out
}

func testAccountsAndNames(t *testing.T, open Opener) {
	s := open(t, func() time.Time { return t0 })

	_, err := s.Account(ctx, "SHA256:abc/def+1")
	require.ErrorIs(t, err, store.ErrNotFound)

	a, err := s.CreateAccount(ctx, "SHA256:abc/def+1", "Alice_1")
	require.NoError(t, err)
	assert.Equal(t, store.Account{ID: "SHA256:abc/def+1", Name: "alice_1", Created: t0, LastSeen: t0}, a)

	got, err := s.Account(ctx, "SHA256:abc/def+1")
	require.NoError(t, err)
	assert.Equal(t, a, got)

	again, err := s.CreateAccount(ctx, "SHA256:abc/def+1", "other")
	require.ErrorIs(t, err, store.ErrExists)
	assert.Equal(t, a, again)

	// the name is case-insensitively taken
	_, err = s.CreateAccount(ctx, "SHA256:bob", "ALICE_1")
	require.ErrorIs(t, err, store.ErrNameTaken)
	_, err = s.Account(ctx, "SHA256:bob")
	require.ErrorIs(t, err, store.ErrNotFound, "a failed create leaves nothing")

	b, err := s.CreateAccount(ctx, "SHA256:bob", "")
	require.NoError(t, err)
	assert.Empty(t, b.Name)
	_, err = s.ClaimName(ctx, "SHA256:bob", "alice_1")
	require.ErrorIs(t, err, store.ErrNameTaken)

	// rename releases the old name
	a, err = s.Rename(ctx, "SHA256:abc/def+1", "Alice-2")
	require.NoError(t, err)
	assert.Equal(t, "alice-2", a.Name)
	b, err = s.ClaimName(ctx, "SHA256:bob", "alice_1")
	require.NoError(t, err)
	assert.Equal(t, "alice_1", b.Name)
	byName, err := s.AccountByName(ctx, "ALICE_1")
	require.NoError(t, err)
	assert.Equal(t, "SHA256:bob", byName.ID)
	byName, err = s.AccountByName(ctx, "alice-2")
	require.NoError(t, err)
	assert.Equal(t, "SHA256:abc/def+1", byName.ID)
	// claiming one's own name is fine
	_, err = s.ClaimName(ctx, "SHA256:bob", "Alice_1")
	require.NoError(t, err)

	// A computer player's name is no person's, in any case: refused as
	// input, with nothing created or changed.
	for _, name := range []string{engine.ComputerName("hard", 0), "TURING", "pip"} {
		_, err = s.CreateAccount(ctx, "SHA256:carol", name)
		require.ErrorIs(t, err, store.ErrInvalid, name)
		_, err = s.Account(ctx, "SHA256:carol")
		require.ErrorIs(t, err, store.ErrNotFound, "a refused create leaves nothing")
		_, err = s.ClaimName(ctx, "SHA256:bob", name)
		require.ErrorIs(t, err, store.ErrInvalid, name)
		_, err = s.Rename(ctx, "SHA256:bob", name)
		require.ErrorIs(t, err, store.ErrInvalid, name)
		_, err = s.AccountByName(ctx, name)
		require.ErrorIs(t, err, store.ErrNotFound)
	}
	b, err = s.Account(ctx, "SHA256:bob")
	require.NoError(t, err)
	assert.Equal(t, "alice_1", b.Name)

	later := t0.Add(48 * time.Hour)
	require.NoError(t, s.Touch(ctx, "SHA256:bob", later))
	b, err = s.Account(ctx, "SHA256:bob")
	require.NoError(t, err)
	assert.Equal(t, later, b.LastSeen)
	assert.Equal(t, t0, b.Created)
	require.ErrorIs(t, s.Touch(ctx, "SHA256:nobody", later), store.ErrNotFound)
	_, err = s.ClaimName(ctx, "SHA256:nobody", "nobody")
	require.ErrorIs(t, err, store.ErrNotFound)
}

func testConcurrentNameClaims(t *testing.T, open Opener) {
	s := open(t, nil)
	const n = 16
	for i := range n {
		_, err := s.CreateAccount(ctx, fmt.Sprintf("id%d", i), "")
		require.NoError(t, err)
	}
	for round := range 5 {
		name := fmt.Sprintf("prize%d", round)
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() { _, errs[i] = s.ClaimName(ctx, fmt.Sprintf("id%d", i), name) })
		}
		wg.Wait()
		winners := 0
		for i, err := range errs {
			if err == nil {
				winners++
				a, err := s.AccountByName(ctx, name)
				require.NoError(t, err)
				assert.Equal(t, fmt.Sprintf("id%d", i), a.ID)
			} else {
				require.ErrorIs(t, err, store.ErrNameTaken)
			}
		}
		require.Equal(t, 1, winners, "round %d", round)
	}
	// Every name index entry points to an account that holds that name.
	holders := map[string]string{}
	for i := range n {
		a, err := s.Account(ctx, fmt.Sprintf("id%d", i))
		require.NoError(t, err)
		if a.Name != "" {
			require.NotContains(t, holders, a.Name)
			holders[a.Name] = a.ID
		}
	}
	// Every name of the rounds is either free or held by the account it
	// resolves to: none points at an account that gave it up.
	for round := range 5 {
		name := fmt.Sprintf("prize%d", round)
		a, err := s.AccountByName(ctx, name)
		if errors.Is(err, store.ErrNotFound) {
			assert.NotContains(t, holders, name)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, name, a.Name)
		assert.Equal(t, holders[name], a.ID)
	}
}

func testBadInput(t *testing.T, open Opener) {
	s := open(t, nil)
	huge := strings.Repeat("x", 1<<16)
	_, err := s.Account(ctx, "")
	assert.ErrorIs(t, err, store.ErrInvalid)
	_, err = s.Account(ctx, huge)
	assert.ErrorIs(t, err, store.ErrInvalid)
	_, err = s.CreateAccount(ctx, "a\x00b", "")
	assert.ErrorIs(t, err, store.ErrInvalid)
	_, err = s.ClaimName(ctx, "id", huge)
	assert.ErrorIs(t, err, store.ErrInvalid)
	assert.ErrorIs(t, s.Touch(ctx, "", t0), store.ErrInvalid)
	_, err = s.AccountByName(ctx, huge)
	assert.ErrorIs(t, err, store.ErrNotFound)

	good := store.Result{Account: "a", Spec: "freecell/1", Key: "freecell", Finished: t0}
	for name, mut := range map[string]func(*store.Result){
		"no account":  func(r *store.Result) { r.Account = "" },
		"no key":      func(r *store.Result) { r.Key = "" },
		"huge key":    func(r *store.Result) { r.Key = huge },
		"no spec":     func(r *store.Result) { r.Spec = "" },
		"huge name":   func(r *store.Result) { r.Name = huge },
		"no finished": func(r *store.Result) { r.Finished = time.Time{} },
		"neg elapsed": func(r *store.Result) { r.Elapsed = -time.Second },
		"neg moves":   func(r *store.Result) { r.Moves = -1 },
		"bad day":     func(r *store.Result) { r.Daily, r.Day = true, "30/11/2026" },
		"day not daily": func(r *store.Result) {
			r.Day = "2026-11-30"
		},
	} {
		r := good
		mut(&r)
		assert.ErrorIs(t, s.RecordResult(ctx, r), store.ErrInvalid, name)
	}
	_, err = s.Board(ctx, "", "", 10)
	assert.ErrorIs(t, err, store.ErrInvalid)
	_, err = s.Board(ctx, "freecell", "yesterday", 10)
	assert.ErrorIs(t, err, store.ErrInvalid)
	b, err := s.Board(ctx, "freecell", "", -5)
	assert.NoError(t, err)
	assert.Empty(t, b)
	_, err = s.Daily(ctx, "klondike/draw1", "2026-11-30", nil)
	assert.ErrorIs(t, err, store.ErrInvalid)
	_, err = s.Daily(ctx, "klondike/draw1", "2026-11-30", func() (string, error) { return huge, nil })
	assert.ErrorIs(t, err, store.ErrInvalid)
	assert.ErrorIs(t, s.PutSave(ctx, "a", "k", make([]byte, store.MaxSaveLen+1)), store.ErrInvalid)
	assert.ErrorIs(t, s.PutSave(ctx, "", "k", nil), store.ErrInvalid)
	assert.ErrorIs(t, s.PutSetting(ctx, "a", "", "v"), store.ErrInvalid)
	assert.ErrorIs(t, s.PutSetting(ctx, "a", "n", huge), store.ErrInvalid)
	_, err = s.StatsFor(ctx, "a", "")
	assert.ErrorIs(t, err, store.ErrInvalid)
	_, err = s.Streak(ctx, "", "k", t0)
	assert.ErrorIs(t, err, store.ErrInvalid)
}

func testSavesAndSettings(t *testing.T, open Opener) {
	s := open(t, nil)
	_, err := s.GetSave(ctx, "a", "freecell")
	require.ErrorIs(t, err, store.ErrNotFound)
	require.NoError(t, s.PutSave(ctx, "a", "freecell", []byte("v1")))
	require.NoError(t, s.PutSave(ctx, "a", "freecell", []byte("v2")))
	require.NoError(t, s.PutSave(ctx, "a", "klondike/draw3", []byte{0, 1, 2}))
	require.NoError(t, s.PutSave(ctx, "b", "freecell", []byte("bee")))
	data, err := s.GetSave(ctx, "a", "freecell")
	require.NoError(t, err)
	assert.Equal(t, []byte("v2"), data)
	keys, err := s.Saves(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, []string{"freecell", "klondike/draw3"}, keys)
	require.NoError(t, s.DeleteSave(ctx, "a", "freecell"))
	require.NoError(t, s.DeleteSave(ctx, "a", "freecell"))
	_, err = s.GetSave(ctx, "a", "freecell")
	require.ErrorIs(t, err, store.ErrNotFound)
	data, err = s.GetSave(ctx, "b", "freecell")
	require.NoError(t, err)
	assert.Equal(t, []byte("bee"), data)

	_, err = s.Setting(ctx, "a", "theme")
	require.ErrorIs(t, err, store.ErrNotFound)
	require.NoError(t, s.PutSetting(ctx, "a", "theme", "dark"))
	require.NoError(t, s.PutSetting(ctx, "a", "autofoundation", "off"))
	require.NoError(t, s.PutSetting(ctx, "a", "theme", ""))
	v, err := s.Setting(ctx, "a", "theme")
	require.NoError(t, err)
	assert.Equal(t, "", v)
	all, err := s.Settings(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"theme": "", "autofoundation": "off"}, all)
}

func testDailyChosenOnce(t *testing.T, open Opener) {
	s := open(t, nil)
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
		wg.Go(func() { got[i], errs[i] = s.Daily(ctx, "klondike/draw1", "2026-11-30", choose) })
	}
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i])
		assert.Equal(t, got[0], got[i])
	}
	assert.Equal(t, 1, calls)

	// another day or key chooses again; a failing chooser keeps nothing
	other, err := s.Daily(ctx, "klondike/draw1", "2026-12-01", choose)
	require.NoError(t, err)
	assert.NotEqual(t, got[0], other)
	_, err = s.Daily(ctx, "spider/1suit", "2026-11-30", func() (string, error) { return "", errors.New("no deal") })
	require.ErrorContains(t, err, "no deal")
	sp, err := s.Daily(ctx, "spider/1suit", "2026-11-30", func() (string, error) { return "spider/1suit/w/7", nil })
	require.NoError(t, err)
	assert.Equal(t, "spider/1suit/w/7", sp)
	again, err := s.Daily(ctx, "klondike/draw1", "2026-11-30", func() (string, error) { t.Fatal("chosen again"); return "", nil })
	require.NoError(t, err)
	assert.Equal(t, got[0], again)
}

func testCreateRefusesAnInvalidName(t *testing.T, open Opener) {
	s := open(t, nil)
	_, err := s.CreateAccount(ctx, "id", "no way")
	assert.ErrorIs(t, err, store.ErrInvalid)
}

func testClosed(t *testing.T, open Opener) {
	s := open(t, nil)
	require.NoError(t, s.Close())
	require.NoError(t, s.Close())
	_, err := s.Account(ctx, "a")
	assert.ErrorIs(t, err, store.ErrClosed)
	assert.ErrorIs(t, s.RecordResult(ctx, store.Result{Account: "a", Spec: "freecell/1", Key: "freecell", Finished: t0}), store.ErrClosed)
	_, err = s.Board(ctx, "freecell", "", 3)
	assert.ErrorIs(t, err, store.ErrClosed)
}

func testStats(t *testing.T, open Opener) {
	s := open(t, nil)
	st, err := s.StatsFor(ctx, "a", "tripeaks")
	require.NoError(t, err)
	assert.Equal(t, store.Stats{}, st)

	rs := []store.Result{
		{Score: -20, Won: false, Elapsed: 90 * time.Second},
		{Score: -35, Won: true, Elapsed: 120 * time.Second},
		{Score: 12, Won: true, Elapsed: 150 * time.Second},
		{Score: 3, Won: false, Elapsed: 10 * time.Second},
		{Score: 5, Won: true, Elapsed: 100 * time.Second},
	}
	for i, r := range rs {
		r.Account, r.Key, r.Spec, r.Finished = "a", "tripeaks", fmt.Sprintf("tripeaks/w/%d", i), t0.Add(time.Duration(i)*time.Hour)
		require.NoError(t, s.RecordResult(ctx, r))
		// Best score and best time come from won games only: a lost
		// game's score is no best, and a negative first won score is.
		if i == 0 {
			st, err := s.StatsFor(ctx, "a", "tripeaks")
			require.NoError(t, err)
			assert.Zero(t, st.BestScore, "a lost game is no best score")
			assert.Zero(t, st.BestTime, "no win yet")
		}
		if i == 1 {
			st, err := s.StatsFor(ctx, "a", "tripeaks")
			require.NoError(t, err)
			assert.Equal(t, -35, st.BestScore, "a negative first won score is the best so far")
		}
	}
	// recording the same result twice counts once
	dup := rs[4]
	dup.Account, dup.Key, dup.Spec, dup.Finished = "a", "tripeaks", "tripeaks/w/4", t0.Add(4*time.Hour)
	require.NoError(t, s.RecordResult(ctx, dup))
	require.NoError(t, s.RecordResult(ctx, store.Result{Account: "a", Key: "freecell", Spec: "freecell/617", Won: true, Moves: 80, Elapsed: time.Minute, Finished: t0}))

	st, err = s.StatsFor(ctx, "a", "tripeaks")
	require.NoError(t, err)
	assert.Equal(t, store.Stats{Played: 5, Won: 3, BestScore: 12, BestTime: 100 * time.Second,
		TotalTime: 470 * time.Second, Last: t0.Add(4 * time.Hour)}, st)
	all, err := s.Stats(ctx, "a")
	require.NoError(t, err)
	assert.Len(t, all, 2)
	assert.Equal(t, st, all["tripeaks"])
	assert.Equal(t, 1, all["freecell"].Won)
	none, err := s.Stats(ctx, "nobody")
	require.NoError(t, err)
	assert.Empty(t, none)

	got, err := s.Results(ctx, "a", 3)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, "tripeaks/w/4", got[0].Spec, "newest first")
	assert.Equal(t, "tripeaks/w/3", got[1].Spec)
	got, err = s.Results(ctx, "a", 100)
	require.NoError(t, err)
	assert.Len(t, got, 6)
}

func testStreak(t *testing.T, open Opener) {
	s := open(t, nil)
	const k = "klondike/draw1"
	check := func(today time.Time, cur, best int) {
		t.Helper()
		st, err := s.Streak(ctx, "a", k, today)
		require.NoError(t, err)
		assert.Equal(t, cur, st.Current, "current on %s", store.Day(today))
		assert.Equal(t, best, st.Best, "best on %s", store.Day(today))
	}
	check(day(0), 0, 0)
	require.NoError(t, s.RecordResult(ctx, daily("a", k, day(0), true)))
	check(day(0), 1, 1)
	check(day(1), 1, 1) // yesterday's win still counts until today ends
	check(day(2), 0, 1) // missed day 1

	// a second win the same day counts once (different finish time)
	r := daily("a", k, day(0).Add(time.Hour), true)
	r.Spec = k + "/w/2"
	require.NoError(t, s.RecordResult(ctx, r))
	check(day(0), 1, 1)

	// a lost daily, a won non-daily, and another key do not count
	require.NoError(t, s.RecordResult(ctx, daily("a", k, day(1), false)))
	require.NoError(t, s.RecordResult(ctx, store.Result{Account: "a", Key: k, Spec: k + "/9", Won: true, Finished: day(1).Add(time.Hour)}))
	require.NoError(t, s.RecordResult(ctx, daily("a", "klondike/draw3", day(1), true)))
	check(day(1), 1, 1)

	// day 1 won after all, then 2 and 3: streak 4
	for d := 1; d <= 3; d++ {
		r := daily("a", k, day(d).Add(2*time.Hour), true)
		require.NoError(t, s.RecordResult(ctx, r))
		check(day(d), d+1, d+1)
	}
	// day 4 missed; day 5 restarts at 1, best stays 4
	require.NoError(t, s.RecordResult(ctx, daily("a", k, day(5), true)))
	check(day(5), 1, 4)
	// a late win for an earlier day does not change anything
	require.NoError(t, s.RecordResult(ctx, withDay(daily("a", k, day(4).Add(30*time.Hour), true), day(4))))
	check(day(5), 1, 4)
	// across a month and a year boundary
	nye := time.Date(2026, 12, 31, 23, 59, 0, 0, time.UTC)
	require.NoError(t, s.RecordResult(ctx, daily("b", k, nye, true)))
	require.NoError(t, s.RecordResult(ctx, daily("b", k, nye.Add(2*time.Minute), true)))
	st, err := s.Streak(ctx, "b", k, nye.Add(2*time.Minute))
	require.NoError(t, err)
	assert.Equal(t, store.Streak{Current: 2, Best: 2, LastDay: "2027-01-01"}, st)
	// a daily result finished after midnight counts for the deal's Day
	late := daily("c", k, day(0), true)
	late.Finished = day(1).Add(-12*time.Hour + 10*time.Minute) // 00:10 on day 1
	require.NoError(t, s.RecordResult(ctx, late))
	st, err = s.Streak(ctx, "c", k, day(0))
	require.NoError(t, err)
	assert.Equal(t, store.Day(day(0)), st.LastDay)
	// today in another zone is converted to UTC
	st, err = s.Streak(ctx, "c", k, day(1).In(time.FixedZone("x", -11*3600)))
	require.NoError(t, err)
	assert.Equal(t, 1, st.Current)
}

func testBoardOrder(t *testing.T, open Opener) {
	s := open(t, nil)
	// Which games rank by points is the registry's to say; the record
	// carries it.
	byPoints := map[string]bool{"klondike/draw3": true, "tripeaks": true}
	rec := func(acc, key string, won bool, score, moves int, el time.Duration, fin time.Time) {
		t.Helper()
		require.NoError(t, s.RecordResult(ctx, store.Result{Account: acc, Name: acc, Key: key, Spec: key + "/1",
			Won: won, Score: score, Moves: moves, Elapsed: el, Finished: fin, ByPoints: byPoints[key]}))
	}
	// Klondike ranks by points after won/lost.
	k := "klondike/draw3"
	rec("lost-high", k, false, 900, 10, time.Second, t0)
	rec("won-low", k, true, 100, 200, time.Hour, t0)
	rec("won-high-slow", k, true, 700, 300, 2*time.Hour, t0)
	rec("won-high-fast", k, true, 700, 400, time.Hour, t0)
	rec("won-high-fast-few", k, true, 700, 100, time.Hour, t0)
	rec("tie-later", k, true, 700, 100, time.Hour, t0.Add(time.Second))
	board, err := s.Board(ctx, k, "", 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"won-high-fast-few", "tie-later", "won-high-fast", "won-high-slow", "won-low", "lost-high"}, names(board))

	// FreeCell has no points: time, then moves.
	f := "freecell"
	rec("slow-high", f, true, 1000, 50, 3*time.Minute, t0)
	rec("fast", f, true, 0, 90, time.Minute, t0)
	rec("fast-few", f, true, 0, 80, time.Minute, t0)
	rec("lost-fast", f, false, 0, 1, time.Second, t0)
	board, err = s.Board(ctx, f, "", 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"fast-few", "fast", "slow-high", "lost-fast"}, names(board))

	// TriPeaks: negative scores rank below positive ones.
	tp := "tripeaks"
	rec("neg", tp, true, -50, 10, time.Minute, t0)
	rec("zero", tp, true, 0, 10, time.Minute, t0)
	rec("pos", tp, true, 30, 10, time.Minute, t0)
	rec("most-neg", tp, true, -500, 10, time.Second, t0)
	board, err = s.Board(ctx, tp, "", 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"pos", "zero", "neg", "most-neg"}, names(board))

	// n limits
	board, err = s.Board(ctx, k, "", 2)
	require.NoError(t, err)
	assert.Len(t, board, 2)
	board, err = s.Board(ctx, "pyramid", "", 2)
	require.NoError(t, err)
	assert.Empty(t, board)

	place, r, err := s.Rank(ctx, "won-high-slow", k, "")
	require.NoError(t, err)
	assert.Equal(t, 4, place)
	assert.Equal(t, 300, r.Moves)
	_, _, err = s.Rank(ctx, "nobody", k, "")
	assert.ErrorIs(t, err, store.ErrNotFound)
}

func testBoardOnePerAccount(t *testing.T, open Opener) {
	s := open(t, nil)
	_, err := s.CreateAccount(ctx, "a", "anne")
	require.NoError(t, err)
	k := "spider/1suit"
	add := func(acc string, won bool, score int, fin time.Time, dailyDay string) {
		t.Helper()
		r := store.Result{Account: acc, Name: "old-" + acc, Key: k, Spec: fmt.Sprintf("%s/%d", k, fin.Unix()), Won: won, Score: score, Elapsed: time.Minute, Finished: fin, ByPoints: true}
		if dailyDay != "" {
			r.Daily, r.Day = true, dailyDay
		}
		require.NoError(t, s.RecordResult(ctx, r))
	}
	add("a", false, 100, t0, "")
	add("a", true, 50, t0.Add(time.Minute), "")
	add("a", true, 40, t0.Add(2*time.Minute), "")   // worse: ignored
	add("a", true, 600, t0.Add(3*time.Minute), "")  // better: replaces
	add("a", false, 900, t0.Add(4*time.Minute), "") // lost: worse than any win
	add("b", true, 500, t0, "")
	board, err := s.Board(ctx, k, "", 10)
	require.NoError(t, err)
	require.Len(t, board, 2)
	assert.Equal(t, "a", board[0].Account)
	assert.Equal(t, "anne", board[0].Name, "the current name")
	assert.Equal(t, 600, board[0].Score)
	assert.Equal(t, "old-b", board[1].Name, "no account: the name played under")

	// daily boards are per day and also feed the all-time board
	d1, d2 := store.Day(t0), store.Day(t0.AddDate(0, 0, 1))
	add("c", true, 550, t0.Add(time.Hour), d1)
	add("c", true, 560, t0.Add(2*time.Hour), d1)
	add("b", false, 10, t0.Add(time.Hour), d1)
	add("b", true, 700, t0.AddDate(0, 0, 1), d2)
	day1, err := s.Board(ctx, k, d1, 10)
	require.NoError(t, err)
	require.Len(t, day1, 2)
	assert.Equal(t, []int{560, 10}, []int{day1[0].Score, day1[1].Score})
	day2, err := s.Board(ctx, k, d2, 10)
	require.NoError(t, err)
	require.Len(t, day2, 1)
	allTime, err := s.Board(ctx, k, "", 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"b", "a", "c"}, accounts(allTime))
	assert.Equal(t, []int{700, 600, 560}, []int{allTime[0].Score, allTime[1].Score, allTime[2].Score})
	place, _, err := s.Rank(ctx, "b", k, d1)
	require.NoError(t, err)
	assert.Equal(t, 2, place)
}

func testConcurrentResults(t *testing.T, open Opener) {
	s := open(t, nil)
	const players, games = 4, 25
	var wg sync.WaitGroup
	for p := range players {
		for g := range games {
			wg.Go(func() {
				// two sessions of one player race on the same stats and board entries
				r := store.Result{Account: fmt.Sprintf("p%d", p), Key: "pyramid", Spec: fmt.Sprintf("pyramid/w/%d", g),
					Won: g%2 == 0, Moves: g, Elapsed: time.Duration(g+1) * time.Second, Finished: day(g),
					Daily: true, Day: store.Day(day(g))}
				assert.NoError(t, s.RecordResult(ctx, r))
			})
		}
	}
	wg.Wait()
	for p := range players {
		acc := fmt.Sprintf("p%d", p)
		st, err := s.StatsFor(ctx, acc, "pyramid")
		require.NoError(t, err)
		assert.Equal(t, games, st.Played)
		assert.Equal(t, (games+1)/2, st.Won)
		assert.Equal(t, time.Second, st.BestTime)
		streak, err := s.Streak(ctx, acc, "pyramid", day(games-1))
		require.NoError(t, err)
		assert.Equal(t, 1, streak.Best, "wins every other day")
		place, r, err := s.Rank(ctx, acc, "pyramid", "")
		require.NoError(t, err)
		assert.Equal(t, 0, r.Moves, "the fastest win is kept")
		assert.True(t, place >= 1 && place <= players)
	}
	board, err := s.Board(ctx, "pyramid", "", 100)
	require.NoError(t, err)
	assert.Len(t, board, players)
}

func testRaces(t *testing.T, open Opener) {
	s := open(t, nil)
	rs, err := s.Races(ctx, "a", 10)
	require.NoError(t, err)
	assert.Empty(t, rs)
	race := func(code string, at time.Time) store.RaceRecord {
		return store.RaceRecord{
			Code: code, Spec: "klondike/draw1/7", Key: "klondike/draw1", Started: at.Add(-time.Minute), Finished: at,
			Racers: []store.RaceRacer{
				{Account: "a", Name: "ann", Place: 1, Status: "won", Time: time.Minute, Moves: 120, Home: 52, Total: 52},
				{Name: "bob", Ghost: true, Place: 2, Status: "won", Time: 2 * time.Minute, Moves: 130, Home: 52, Total: 52},
				{Account: "c", Name: "cy", Status: "gave up", Time: 30 * time.Second, Moves: 40, Home: 9, Total: 52},
			},
		}
	}
	require.NoError(t, s.RecordRace(ctx, race("AAAAA", t0)))
	require.NoError(t, s.RecordRace(ctx, race("BBBBB", t0.Add(time.Hour))))
	require.NoError(t, s.RecordRace(ctx, race("BBBBB", t0.Add(time.Hour))), "again is a no-op")
	for _, acc := range []string{"a", "c"} {
		rs, err := s.Races(ctx, acc, 10)
		require.NoError(t, err)
		require.Len(t, rs, 2, acc)
		assert.Equal(t, "BBBBB", rs[0].Code, "newest first")
		assert.Equal(t, race("BBBBB", t0.Add(time.Hour)), rs[0])
	}
	rs, err = s.Races(ctx, "a", 1)
	require.NoError(t, err)
	assert.Len(t, rs, 1)
	rs, err = s.Races(ctx, "b", 10)
	require.NoError(t, err)
	assert.Empty(t, rs, "a ghost keeps no record")
	bad := race("", t0)
	require.ErrorIs(t, s.RecordRace(ctx, bad), store.ErrInvalid)
	bad = race("CCCCC", time.Time{})
	require.ErrorIs(t, s.RecordRace(ctx, bad), store.ErrInvalid)
}

func testTimelineKept(t *testing.T, open Opener) {
	s := open(t, nil)
	r := store.Result{Account: "a", Name: "ann", Key: "tripeaks", Spec: "tripeaks/w/1", Won: true, Moves: 3,
		Elapsed: 3 * time.Second, Finished: t0, Total: 28,
		Timeline: []store.Step{{At: 0}, {At: time.Second, Home: 1, Moves: 1}, {At: 3 * time.Second, Home: 28, Moves: 3}}}
	require.NoError(t, s.RecordResult(ctx, r))
	rs, err := s.Results(ctx, "a", 1)
	require.NoError(t, err)
	require.Len(t, rs, 1)
	assert.Equal(t, r.Timeline, rs[0].Timeline)
	assert.Equal(t, 28, rs[0].Total)
	r.Finished, r.Timeline = t0.Add(time.Hour), make([]store.Step, store.MaxTimeline+1)
	require.ErrorIs(t, s.RecordResult(ctx, r), store.ErrInvalid)
}

func testTableGames(t *testing.T, open Opener) {
	s := open(t, nil)
	gs, err := s.TableGames(ctx, "a", 10)
	require.NoError(t, err)
	assert.Empty(t, gs)
	st, err := s.TableStats(ctx, "a")
	require.NoError(t, err)
	assert.Empty(t, st)
	game := func(code string, no int, at time.Time, winner int, end bool) store.TableGame {
		return store.TableGame{
			Code: code, Game: "kings", Spec: "kings/match=25/7", GameNo: no, Record: []byte(`{"game":"kings"}`),
			Seats: []store.TableSeat{
				{Account: "a", Name: "ann", Strength: "person"},
				{Account: "b", Name: "bob", Strength: "person", StoodIn: true},
				{Strength: "hard"},
			},
			Winner: winner, Points: []int{0, 10, 4}, LowWins: true, Totals: []int{0, 10, 4},
			MatchEnd: end, MatchWinner: map[bool]int{true: winner, false: -1}[end],
			Started: at.Add(-time.Minute), Finished: at,
		}
	}
	require.NoError(t, s.RecordTableGame(ctx, game("AAAAA", 0, t0, 0, false)))
	require.NoError(t, s.RecordTableGame(ctx, game("AAAAA", 1, t0.Add(time.Hour), 1, true)))
	require.NoError(t, s.RecordTableGame(ctx, game("AAAAA", 1, t0.Add(time.Hour), 1, true)), "again is a no-op")
	require.NoError(t, s.RecordTableGame(ctx, game("BBBBB", 0, t0.Add(2*time.Hour), -1, false)))
	for _, acc := range []string{"a", "b"} {
		gs, err := s.TableGames(ctx, acc, 10)
		require.NoError(t, err)
		require.Len(t, gs, 3, acc)
		assert.Equal(t, "BBBBB", gs[0].Code, "newest first")
		assert.Equal(t, game("AAAAA", 1, t0.Add(time.Hour), 1, true), gs[1])
	}
	gs, err = s.TableGames(ctx, "a", 1)
	require.NoError(t, err)
	assert.Len(t, gs, 1)
	st, err = s.TableStats(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, []store.TableStats{{Game: "kings", Played: 3, Won: 1, Matches: 1, MatchesWon: 0, AgainstPeople: 3}}, st)
	st, err = s.TableStats(ctx, "b")
	require.NoError(t, err)
	assert.Equal(t, []store.TableStats{{Game: "kings", Played: 3, Won: 1, Matches: 1, MatchesWon: 1, AgainstPeople: 3}}, st)
	solo := game("CCCCC", 0, t0.Add(3*time.Hour), 0, true)
	solo.Game, solo.Spec = "spite", "spite/7"
	solo.Seats = []store.TableSeat{{Account: "a", Name: "ann", Strength: "person"}, {Strength: "easy"}}
	require.NoError(t, s.RecordTableGame(ctx, solo))
	st, err = s.TableStats(ctx, "a")
	require.NoError(t, err)
	require.Len(t, st, 2)
	assert.Equal(t, store.TableStats{Game: "spite", Played: 1, Won: 1, Matches: 1, MatchesWon: 1}, st[1], "by game name; a computer is no person")
	for _, bad := range []func(*store.TableGame){
		func(g *store.TableGame) { g.Code = "" },
		func(g *store.TableGame) { g.Finished = time.Time{} },
		func(g *store.TableGame) { g.Seats = nil },
		func(g *store.TableGame) { g.Record = []byte("{not json") },
		func(g *store.TableGame) { g.Seats[0].Account = "a\x00b" },
	} {
		g := game("DDDDD", 0, t0, 0, false)
		bad(&g)
		require.ErrorIs(t, s.RecordTableGame(ctx, g), store.ErrInvalid)
	}
}

func testTableSnapshots(t *testing.T, open Opener) {
	s := open(t, nil)
	m, err := s.SavedTables(ctx)
	require.NoError(t, err)
	assert.Empty(t, m)
	require.NoError(t, s.PutTable(ctx, "AAAAA", []byte(`{"v":1}`)))
	require.NoError(t, s.PutTable(ctx, "BBBBB", []byte(`{"v":2}`)))
	require.NoError(t, s.PutTable(ctx, "AAAAA", []byte(`{"v":3}`)), "a newer snapshot replaces the older")
	m, err = s.SavedTables(ctx)
	require.NoError(t, err)
	assert.Equal(t, map[string][]byte{"AAAAA": []byte(`{"v":3}`), "BBBBB": []byte(`{"v":2}`)}, m)
	require.NoError(t, s.DeleteTable(ctx, "AAAAA"))
	require.NoError(t, s.DeleteTable(ctx, "AAAAA"), "none is no error")
	m, err = s.SavedTables(ctx)
	require.NoError(t, err)
	assert.Equal(t, map[string][]byte{"BBBBB": []byte(`{"v":2}`)}, m)
	require.ErrorIs(t, s.PutTable(ctx, "", []byte("x")), store.ErrInvalid)
	require.ErrorIs(t, s.PutTable(ctx, "CCCCC", nil), store.ErrInvalid)
}
