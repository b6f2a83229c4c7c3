package badger

import (
	"bufio"
	"context"
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

	"sshuffle/store"
)

func TestReopenKeepsEverything(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, nil)
	require.NoError(t, err)
	_, err = s.CreateAccount(context.Background(), "a", "anne")
	require.NoError(t, err)
	require.NoError(t, s.RecordResult(context.Background(), daily("a", "klondike/draw1", t0, true)))
	require.NoError(t, s.PutSave(context.Background(), "a", "freecell", []byte("moves")))
	require.NoError(t, s.PutSetting(context.Background(), "a", "theme", "dark"))
	spec, err := s.Daily(context.Background(), "klondike/draw1", store.Day(t0), func() (string, error) { return "klondike/draw1/w/5", nil })
	require.NoError(t, err)
	require.NoError(t, s.Close())

	s, err = Open(dir, nil)
	require.NoError(t, err)
	defer s.Close()
	a, err := s.AccountByName(context.Background(), "anne")
	require.NoError(t, err)
	assert.Equal(t, "a", a.ID)
	st, err := s.StatsFor(context.Background(), "a", "klondike/draw1")
	require.NoError(t, err)
	assert.Equal(t, 1, st.Won)
	streak, err := s.Streak(context.Background(), "a", "klondike/draw1", t0)
	require.NoError(t, err)
	assert.Equal(t, 1, streak.Current)
	b, err := s.Board(context.Background(), "klondike/draw1", store.Day(t0), 5)
	require.NoError(t, err)
	assert.Len(t, b, 1)
	data, err := s.GetSave(context.Background(), "a", "freecell")
	require.NoError(t, err)
	assert.Equal(t, "moves", string(data))
	v, err := s.Setting(context.Background(), "a", "theme")
	require.NoError(t, err)
	assert.Equal(t, "dark", v)
	again, err := s.Daily(context.Background(), "klondike/draw1", store.Day(t0), func() (string, error) { return "other/1", nil })
	require.NoError(t, err)
	assert.Equal(t, spec, again)
}

// crashEnv names the store directory of TestCrash's child process: the
// test binary run again, which TestMain turns into crashChild rather than
// the tests.
const crashEnv = "SSHUFFLE_STORE_CRASH_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(crashEnv); dir != "" {
		crashChild(dir)
	}
	os.Exit(m.Run())
}

// crashChild is the child half of TestCrash: it records results until
// killed, printing the id of each one RecordResult acknowledged.
func crashChild(dir string) {
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
				r := store.Result{Account: fmt.Sprintf("p%d", i%3), Key: "freecell", Spec: fmt.Sprintf("freecell/%d", i),
					Won: i%2 == 0, Moves: i, Elapsed: time.Duration(i) * time.Millisecond, Finished: t0.Add(time.Duration(i) * time.Second)}
				if err := s.RecordResult(context.Background(), r); err != nil {
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
	cmd := exec.Command(os.Args[0], "-test.run=^$")
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
		rs, err := s.Results(context.Background(), fmt.Sprintf("p%d", p), 1000)
		require.NoError(t, err)
		for _, r := range rs {
			i, err := strconv.Atoi(strings.TrimPrefix(r.Spec, "freecell/"))
			require.NoError(t, err)
			found[i] = true
		}
		st, err := s.StatsFor(context.Background(), fmt.Sprintf("p%d", p), "freecell")
		require.NoError(t, err)
		assert.Equal(t, len(rs), st.Played, "stats and results committed together")
		played += st.Played
	}
	for i := range acked {
		assert.True(t, found[i], "acknowledged result %d lost", i)
	}
	assert.GreaterOrEqual(t, len(found), len(acked))
	board, err := s.Board(context.Background(), "freecell", "", 10)
	require.NoError(t, err)
	assert.Len(t, board, 3)
	t.Logf("acknowledged %d, found %d after SIGKILL", len(acked), len(found))
}

func BenchmarkRecordResult(b *testing.B) {
	s, _ := openTemp(b)
	b.ResetTimer()
	i := 0
	for b.Loop() {
		r := store.Result{Account: fmt.Sprintf("p%d", i%100), Key: "klondike/draw1", Spec: fmt.Sprintf("klondike/draw1/w/%d", i),
			Won: i%3 != 0, Score: i % 700, Moves: i % 200, Elapsed: time.Duration(i%600) * time.Second,
			Finished: t0.Add(time.Duration(i) * time.Second), Daily: i%5 == 0, Day: ""}
		if r.Daily {
			r.Day = store.Day(r.Finished)
		}
		if err := s.RecordResult(context.Background(), r); err != nil {
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
			r := store.Result{Account: fmt.Sprintf("p%d", i%100), Key: "klondike/draw1", Spec: fmt.Sprintf("klondike/draw1/w/%d", i),
				Won: i%3 != 0, Score: i % 700, Moves: i % 200, Elapsed: time.Duration(i%600) * time.Second,
				Finished: t0.Add(time.Duration(i) * time.Second)}
			if err := s.RecordResult(context.Background(), r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.ReportMetric(float64(s.retries.Load())/float64(b.N), "retries/op")
}

func BenchmarkBoard(b *testing.B) {
	s, _ := openTemp(b)
	for i := range 2000 {
		require.NoError(b, s.RecordResult(context.Background(), store.Result{Account: fmt.Sprintf("p%d", i), Key: "freecell", Spec: fmt.Sprintf("freecell/%d", i),
			Won: true, Moves: i % 200, Elapsed: time.Duration(i) * time.Second, Finished: t0}))
	}
	for b.Loop() {
		if _, err := s.Board(context.Background(), "freecell", "", 20); err != nil {
			b.Fatal(err)
		}
	}
}
