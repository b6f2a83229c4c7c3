package store

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func day(n int) time.Time { return t0.AddDate(0, 0, n) }

func daily(acc, key string, d time.Time, won bool) Result {
	return Result{Account: acc, Spec: key + "/w/1", Key: key, Won: won, Finished: d, Daily: true, Day: Day(d), Elapsed: time.Minute}
}

func TestStats(t *testing.T) {
	s, _ := openTemp(t)
	st, err := s.StatsFor("a", "tripeaks")
	require.NoError(t, err)
	assert.Equal(t, Stats{}, st)

	rs := []Result{
		{Score: -20, Won: false, Elapsed: 90 * time.Second},
		{Score: -35, Won: true, Elapsed: 120 * time.Second},
		{Score: 12, Won: true, Elapsed: 150 * time.Second},
		{Score: 3, Won: false, Elapsed: 10 * time.Second},
		{Score: 5, Won: true, Elapsed: 100 * time.Second},
	}
	for i, r := range rs {
		r.Account, r.Key, r.Spec, r.Finished = "a", "tripeaks", fmt.Sprintf("tripeaks/w/%d", i), t0.Add(time.Duration(i)*time.Hour)
		require.NoError(t, s.RecordResult(r))
		if i == 0 {
			st, err := s.StatsFor("a", "tripeaks")
			require.NoError(t, err)
			assert.Equal(t, -20, st.BestScore, "a negative first score is the best so far")
			assert.Zero(t, st.BestTime, "no win yet")
		}
	}
	// recording the same result twice counts once
	dup := rs[4]
	dup.Account, dup.Key, dup.Spec, dup.Finished = "a", "tripeaks", "tripeaks/w/4", t0.Add(4*time.Hour)
	require.NoError(t, s.RecordResult(dup))
	require.NoError(t, s.RecordResult(Result{Account: "a", Key: "freecell", Spec: "freecell/617", Won: true, Moves: 80, Elapsed: time.Minute, Finished: t0}))

	st, err = s.StatsFor("a", "tripeaks")
	require.NoError(t, err)
	assert.Equal(t, Stats{Played: 5, Won: 3, BestScore: 12, BestTime: 100 * time.Second,
		TotalTime: 470 * time.Second, Last: t0.Add(4 * time.Hour)}, st)
	all, err := s.Stats("a")
	require.NoError(t, err)
	assert.Len(t, all, 2)
	assert.Equal(t, st, all["tripeaks"])
	assert.Equal(t, 1, all["freecell"].Won)
	none, err := s.Stats("nobody")
	require.NoError(t, err)
	assert.Empty(t, none)

	got, err := s.Results("a", 3)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, "tripeaks/w/4", got[0].Spec, "newest first")
	assert.Equal(t, "tripeaks/w/3", got[1].Spec)
	got, err = s.Results("a", 100)
	require.NoError(t, err)
	assert.Len(t, got, 6)
}

func TestStreak(t *testing.T) {
	s, _ := openTemp(t)
	const k = "klondike/draw1"
	check := func(today time.Time, cur, best int) {
		t.Helper()
		st, err := s.Streak("a", k, today)
		require.NoError(t, err)
		assert.Equal(t, cur, st.Current, "current on %s", Day(today))
		assert.Equal(t, best, st.Best, "best on %s", Day(today))
	}
	check(day(0), 0, 0)
	require.NoError(t, s.RecordResult(daily("a", k, day(0), true)))
	check(day(0), 1, 1)
	check(day(1), 1, 1) // yesterday's win still counts until today ends
	check(day(2), 0, 1) // missed day 1

	// a second win the same day counts once (different finish time)
	r := daily("a", k, day(0).Add(time.Hour), true)
	r.Spec = k + "/w/2"
	require.NoError(t, s.RecordResult(r))
	check(day(0), 1, 1)

	// a lost daily, a won non-daily, and another key do not count
	require.NoError(t, s.RecordResult(daily("a", k, day(1), false)))
	require.NoError(t, s.RecordResult(Result{Account: "a", Key: k, Spec: k + "/9", Won: true, Finished: day(1).Add(time.Hour)}))
	require.NoError(t, s.RecordResult(daily("a", "klondike/draw3", day(1), true)))
	check(day(1), 1, 1)

	// day 1 won after all, then 2 and 3: streak 4
	for d := 1; d <= 3; d++ {
		r := daily("a", k, day(d).Add(2*time.Hour), true)
		require.NoError(t, s.RecordResult(r))
		check(day(d), d+1, d+1)
	}
	// day 4 missed; day 5 restarts at 1, best stays 4
	require.NoError(t, s.RecordResult(daily("a", k, day(5), true)))
	check(day(5), 1, 4)
	// a late win for an earlier day does not change anything
	require.NoError(t, s.RecordResult(daily("a", k, day(4).Add(30*time.Hour), true).withDay(day(4))))
	check(day(5), 1, 4)
	// across a month and a year boundary
	nye := time.Date(2026, 12, 31, 23, 59, 0, 0, time.UTC)
	require.NoError(t, s.RecordResult(daily("b", k, nye, true)))
	require.NoError(t, s.RecordResult(daily("b", k, nye.Add(2*time.Minute), true)))
	st, err := s.Streak("b", k, nye.Add(2*time.Minute))
	require.NoError(t, err)
	assert.Equal(t, Streak{Current: 2, Best: 2, LastDay: "2027-01-01"}, st)
	// a daily result finished after midnight counts for the deal's Day
	late := daily("c", k, day(0), true)
	late.Finished = day(1).Add(-12*time.Hour + 10*time.Minute) // 00:10 on day 1
	require.NoError(t, s.RecordResult(late))
	st, err = s.Streak("c", k, day(0))
	require.NoError(t, err)
	assert.Equal(t, Day(day(0)), st.LastDay)
	// today in another zone is converted to UTC
	st, err = s.Streak("c", k, day(1).In(time.FixedZone("x", -11*3600)))
	require.NoError(t, err)
	assert.Equal(t, 1, st.Current)
}

func (r Result) withDay(d time.Time) Result { r.Day = Day(d); return r }

func TestBoardOrder(t *testing.T) {
	s, _ := openTemp(t)
	// Which games rank by points is the registry's to say; the record
	// carries it.
	byPoints := map[string]bool{"klondike/draw3": true, "tripeaks": true}
	rec := func(acc, key string, won bool, score, moves int, el time.Duration, fin time.Time) {
		t.Helper()
		require.NoError(t, s.RecordResult(Result{Account: acc, Name: acc, Key: key, Spec: key + "/1",
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
	board, err := s.Board(k, "", 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"won-high-fast-few", "tie-later", "won-high-fast", "won-high-slow", "won-low", "lost-high"}, names(board))

	// FreeCell has no points: time, then moves.
	f := "freecell"
	rec("slow-high", f, true, 1000, 50, 3*time.Minute, t0)
	rec("fast", f, true, 0, 90, time.Minute, t0)
	rec("fast-few", f, true, 0, 80, time.Minute, t0)
	rec("lost-fast", f, false, 0, 1, time.Second, t0)
	board, err = s.Board(f, "", 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"fast-few", "fast", "slow-high", "lost-fast"}, names(board))

	// TriPeaks: negative scores rank below positive ones.
	tp := "tripeaks"
	rec("neg", tp, true, -50, 10, time.Minute, t0)
	rec("zero", tp, true, 0, 10, time.Minute, t0)
	rec("pos", tp, true, 30, 10, time.Minute, t0)
	rec("most-neg", tp, true, -500, 10, time.Second, t0)
	board, err = s.Board(tp, "", 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"pos", "zero", "neg", "most-neg"}, names(board))

	// n limits
	board, err = s.Board(k, "", 2)
	require.NoError(t, err)
	assert.Len(t, board, 2)
	board, err = s.Board("pyramid", "", 2)
	require.NoError(t, err)
	assert.Empty(t, board)

	place, r, err := s.Rank("won-high-slow", k, "")
	require.NoError(t, err)
	assert.Equal(t, 4, place)
	assert.Equal(t, 300, r.Moves)
	_, _, err = s.Rank("nobody", k, "")
	assert.ErrorIs(t, err, ErrNotFound)
}

func names(rs []Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Name
	}
	return out
}

func TestBoardOnePerAccount(t *testing.T) {
	s, _ := openTemp(t)
	_, err := s.CreateAccount("a", "anne")
	require.NoError(t, err)
	k := "spider/1suit"
	add := func(acc string, won bool, score int, fin time.Time, dailyDay string) {
		t.Helper()
		r := Result{Account: acc, Name: "old-" + acc, Key: k, Spec: fmt.Sprintf("%s/%d", k, fin.Unix()), Won: won, Score: score, Elapsed: time.Minute, Finished: fin, ByPoints: true}
		if dailyDay != "" {
			r.Daily, r.Day = true, dailyDay
		}
		require.NoError(t, s.RecordResult(r))
	}
	add("a", false, 100, t0, "")
	add("a", true, 50, t0.Add(time.Minute), "")
	add("a", true, 40, t0.Add(2*time.Minute), "")   // worse: ignored
	add("a", true, 600, t0.Add(3*time.Minute), "")  // better: replaces
	add("a", false, 900, t0.Add(4*time.Minute), "") // lost: worse than any win
	add("b", true, 500, t0, "")
	board, err := s.Board(k, "", 10)
	require.NoError(t, err)
	require.Len(t, board, 2)
	assert.Equal(t, "a", board[0].Account)
	assert.Equal(t, "anne", board[0].Name, "the current name")
	assert.Equal(t, 600, board[0].Score)
	assert.Equal(t, "old-b", board[1].Name, "no account: the name played under")

	// daily boards are per day and also feed the all-time board
	d1, d2 := Day(t0), Day(t0.AddDate(0, 0, 1))
	add("c", true, 550, t0.Add(time.Hour), d1)
	add("c", true, 560, t0.Add(2*time.Hour), d1)
	add("b", false, 10, t0.Add(time.Hour), d1)
	add("b", true, 700, t0.AddDate(0, 0, 1), d2)
	day1, err := s.Board(k, d1, 10)
	require.NoError(t, err)
	require.Len(t, day1, 2)
	assert.Equal(t, []int{560, 10}, []int{day1[0].Score, day1[1].Score})
	day2, err := s.Board(k, d2, 10)
	require.NoError(t, err)
	require.Len(t, day2, 1)
	allTime, err := s.Board(k, "", 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"b", "a", "c"}, accounts(allTime))
	assert.Equal(t, []int{700, 600, 560}, []int{allTime[0].Score, allTime[1].Score, allTime[2].Score})
	place, _, err := s.Rank("b", k, d1)
	require.NoError(t, err)
	assert.Equal(t, 2, place)
}

func accounts(rs []Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Account
	}
	return out
}

func TestConcurrentResults(t *testing.T) {
	s, _ := openTemp(t)
	const players, games = 4, 25
	var wg sync.WaitGroup
	for p := range players {
		for g := range games {
			wg.Go(func() {
				// two sessions of one player race on the same stats and board entries
				r := Result{Account: fmt.Sprintf("p%d", p), Key: "pyramid", Spec: fmt.Sprintf("pyramid/w/%d", g),
					Won: g%2 == 0, Moves: g, Elapsed: time.Duration(g+1) * time.Second, Finished: day(g),
					Daily: true, Day: Day(day(g))}
				assert.NoError(t, s.RecordResult(r))
			})
		}
	}
	wg.Wait()
	for p := range players {
		acc := fmt.Sprintf("p%d", p)
		st, err := s.StatsFor(acc, "pyramid")
		require.NoError(t, err)
		assert.Equal(t, games, st.Played)
		assert.Equal(t, (games+1)/2, st.Won)
		assert.Equal(t, time.Second, st.BestTime)
		streak, err := s.Streak(acc, "pyramid", day(games-1))
		require.NoError(t, err)
		assert.Equal(t, 1, streak.Best, "wins every other day")
		place, r, err := s.Rank(acc, "pyramid", "")
		require.NoError(t, err)
		assert.Equal(t, 0, r.Moves, "the fastest win is kept")
		assert.True(t, place >= 1 && place <= players)
	}
	board, err := s.Board("pyramid", "", 100)
	require.NoError(t, err)
	assert.Len(t, board, players)
}

func TestReopenKeepsEverything(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, nil)
	require.NoError(t, err)
	_, err = s.CreateAccount("a", "anne")
	require.NoError(t, err)
	require.NoError(t, s.RecordResult(daily("a", "klondike/draw1", t0, true)))
	require.NoError(t, s.PutSave("a", "freecell", []byte("moves")))
	require.NoError(t, s.PutSetting("a", "theme", "dark"))
	spec, err := s.Daily("klondike/draw1", Day(t0), func() (string, error) { return "klondike/draw1/w/5", nil })
	require.NoError(t, err)
	require.NoError(t, s.Close())

	s, err = Open(dir, nil)
	require.NoError(t, err)
	defer s.Close()
	a, err := s.AccountByName("anne")
	require.NoError(t, err)
	assert.Equal(t, "a", a.ID)
	st, err := s.StatsFor("a", "klondike/draw1")
	require.NoError(t, err)
	assert.Equal(t, 1, st.Won)
	streak, err := s.Streak("a", "klondike/draw1", t0)
	require.NoError(t, err)
	assert.Equal(t, 1, streak.Current)
	b, err := s.Board("klondike/draw1", Day(t0), 5)
	require.NoError(t, err)
	assert.Len(t, b, 1)
	data, err := s.GetSave("a", "freecell")
	require.NoError(t, err)
	assert.Equal(t, "moves", string(data))
	v, err := s.Setting("a", "theme")
	require.NoError(t, err)
	assert.Equal(t, "dark", v)
	again, err := s.Daily("klondike/draw1", Day(t0), func() (string, error) { return "other/1", nil })
	require.NoError(t, err)
	assert.Equal(t, spec, again)
}

const crashEnv = "SSHUFFLE_STORE_CRASH_DIR"

// TestCrashChild is the child half of TestCrash: it records results until
// killed, printing the id of each one RecordResult acknowledged.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv(crashEnv)
	if dir == "" {
		t.Skip("run by TestCrash")
	}
	s, err := Open(dir, nil)
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(2)
	}
	// Four writers, so several commits are in flight when the kill comes.
	const writers = 4
	for w := range writers {
		go func() {
			for i := w; ; i += writers {
				r := Result{Account: fmt.Sprintf("p%d", i%3), Key: "freecell", Spec: fmt.Sprintf("freecell/%d", i),
					Won: i%2 == 0, Moves: i, Elapsed: time.Duration(i) * time.Millisecond, Finished: t0.Add(time.Duration(i) * time.Second)}
				if err := s.RecordResult(r); err != nil {
					fmt.Println("error:", err)
					os.Exit(2)
				}
				fmt.Printf("ok %d\n", i) // one write(2) per line: os.Stdout is unbuffered
			}
		}()
	}
	select {}
}

func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())

	acked := map[int]bool{}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		n, ok := strings.CutPrefix(line, "ok ")
		require.True(t, ok, "child said %q", line)
		i, err := strconv.Atoi(n)
		require.NoError(t, err)
		acked[i] = true
		if len(acked) == 150 {
			require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
			break
		}
	}
	for sc.Scan() { // drain what was already written
		if n, ok := strings.CutPrefix(sc.Text(), "ok "); ok {
			i, _ := strconv.Atoi(n)
			acked[i] = true
		}
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, syscall.SIGKILL, ee.Sys().(syscall.WaitStatus).Signal(), "killed, not exited")

	s, err := Open(dir, nil)
	require.NoError(t, err)
	defer s.Close()
	found := map[int]bool{}
	played := 0
	for p := range 3 {
		rs, err := s.Results(fmt.Sprintf("p%d", p), 1000)
		require.NoError(t, err)
		for _, r := range rs {
			i, err := strconv.Atoi(strings.TrimPrefix(r.Spec, "freecell/"))
			require.NoError(t, err)
			found[i] = true
		}
		st, err := s.StatsFor(fmt.Sprintf("p%d", p), "freecell")
		require.NoError(t, err)
		assert.Equal(t, len(rs), st.Played, "stats and results committed together")
		played += st.Played
	}
	for i := range acked {
		assert.True(t, found[i], "acknowledged result %d lost", i)
	}
	assert.GreaterOrEqual(t, len(found), len(acked))
	board, err := s.Board("freecell", "", 10)
	require.NoError(t, err)
	assert.Len(t, board, 3)
	t.Logf("acknowledged %d, found %d after SIGKILL", len(acked), len(found))
}

func BenchmarkRecordResult(b *testing.B) {
	s, _ := openTemp(b)
	b.ResetTimer()
	i := 0
	for b.Loop() {
		r := Result{Account: fmt.Sprintf("p%d", i%100), Key: "klondike/draw1", Spec: fmt.Sprintf("klondike/draw1/w/%d", i),
			Won: i%3 != 0, Score: i % 700, Moves: i % 200, Elapsed: time.Duration(i%600) * time.Second,
			Finished: t0.Add(time.Duration(i) * time.Second), Daily: i%5 == 0, Day: ""}
		if r.Daily {
			r.Day = Day(r.Finished)
		}
		if err := s.RecordResult(r); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkRecordResultParallel(b *testing.B) {
	s, _ := openTemp(b)
	var mu sync.Mutex
	n := 0
	b.SetParallelism(8) // 8 goroutines per CPU: many sessions finishing at once
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			i := n
			n++
			mu.Unlock()
			r := Result{Account: fmt.Sprintf("p%d", i%100), Key: "klondike/draw1", Spec: fmt.Sprintf("klondike/draw1/w/%d", i),
				Won: i%3 != 0, Score: i % 700, Moves: i % 200, Elapsed: time.Duration(i%600) * time.Second,
				Finished: t0.Add(time.Duration(i) * time.Second)}
			if err := s.RecordResult(r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.ReportMetric(float64(s.retries.Load())/float64(b.N), "retries/op")
}

func BenchmarkBoard(b *testing.B) {
	s, _ := openTemp(b)
	for i := range 2000 {
		require.NoError(b, s.RecordResult(Result{Account: fmt.Sprintf("p%d", i), Key: "freecell", Spec: fmt.Sprintf("freecell/%d", i),
			Won: true, Moves: i % 200, Elapsed: time.Duration(i) * time.Second, Finished: t0}))
	}
	for b.Loop() {
		if _, err := s.Board("freecell", "", 20); err != nil {
			b.Fatal(err)
		}
	}
}
