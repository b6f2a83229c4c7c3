package nats

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/store"
)

var stall = flag.Bool("stall", false, "run TestLeaderKilledStall: three nats-server processes, the records leader killed with SIGKILL")

// TestLeaderKilledStall measures what a NATS server's death does to the
// players' writes: three nats-server processes (built from go.mod) hold
// the store; a writer records a result every 20 ms; the records stream's
// leader is killed with SIGKILL; every write's time is kept, and every
// write acknowledged is checked to be there afterwards. Not part of the
// normal run (-stall); reports/nats-store.md keeps a run:
//
//	go test ./store/nats -run TestLeaderKilledStall -stall -v
func TestLeaderKilledStall(t *testing.T) {
	if !*stall {
		t.Skip("-stall runs it")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "nats-server")
	build := exec.Command("go", "build", "-o", bin, "github.com/nats-io/nats-server/v2")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())
	ports := make([]int, 6)
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		ports[i] = l.Addr().(*net.TCPAddr).Port
		l.Close()
	}
	var routes, urls []string
	for i := range 3 {
		routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", ports[3+i]))
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", ports[i]))
	}
	procs := map[string]*exec.Cmd{}
	for i := range 3 {
		name := fmt.Sprintf("nats%d", i+1)
		conf := filepath.Join(dir, name+".conf")
		require.NoError(t, os.WriteFile(conf, []byte(fmt.Sprintf(`server_name: %s
listen: 127.0.0.1:%d
jetstream {
  store_dir: %q
}
cluster {
  name: stall
  listen: 127.0.0.1:%d
  routes: [ %s ]
}
`, name, ports[i], filepath.Join(dir, name), ports[3+i], strings.Join(routes, ", "))), 0o600))
		cmd := exec.Command(bin, "-c", conf)
		logf, err := os.Create(filepath.Join(dir, name+".log"))
		require.NoError(t, err)
		cmd.Stdout, cmd.Stderr = logf, logf
		require.NoError(t, cmd.Start())
		procs[name] = cmd
		t.Cleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
	}
	for _, u := range urls {
		require.Eventually(t, func() bool {
			c, err := net.Dial("tcp", strings.TrimPrefix(u, "nats://"))
			if err == nil {
				c.Close()
			}
			return err == nil
		}, 10*time.Second, 50*time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := Open(ctx, strings.Join(urls, ","), Options{Prefix: "stall", Logger: slog.New(slog.NewTextHandler(os.Stderr, nil))})
	if err != nil {
		out, _ := os.ReadFile(filepath.Join(dir, "nats1.log"))
		t.Fatalf("%v\nnats1's log:\n%s", err, out)
	}
	defer s.Close()

	type write struct {
		r        store.Result
		at, took time.Duration
		err      error
	}
	var (
		mu     sync.Mutex
		writes []write
		stop   = make(chan struct{})
		done   = make(chan struct{})
	)
	begin := time.Now()
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			r := store.Result{Account: fmt.Sprintf("p%d", i%8), Key: "freecell", Spec: fmt.Sprintf("freecell/%d", i),
				Won: true, Moves: i, Elapsed: time.Minute, Finished: time.Now()}
			start := time.Now()
			err := s.RecordResult(context.Background(), r)
			mu.Lock()
			writes = append(writes, write{r: r, at: start.Sub(begin), took: time.Since(start), err: err})
			mu.Unlock()
		}
	}()
	time.Sleep(3 * time.Second)
	info, err := s.records.st.Info(context.Background())
	require.NoError(t, err)
	leader := info.Cluster.Leader
	killedAt := time.Since(begin)
	require.NoError(t, procs[leader].Process.Signal(syscall.SIGKILL))
	t.Logf("killed %s, the records stream's leader, at %s", leader, killedAt.Round(time.Millisecond))
	time.Sleep(12 * time.Second)
	close(stop)
	<-done

	var before, during, after []time.Duration
	failed := 0
	for _, w := range writes {
		if w.err != nil {
			failed++
			t.Logf("write at %s failed after %s: %v", w.at.Round(time.Millisecond), w.took.Round(time.Millisecond), w.err)
			continue
		}
		switch {
		case w.at+w.took < killedAt:
			before = append(before, w.took)
		case w.at < killedAt:
			during = append(during, w.took)
		default:
			after = append(after, w.took)
		}
	}
	for _, d := range during {
		t.Logf("a write under way at the kill took %s", d.Round(time.Millisecond))
	}
	slices.Sort(before)
	slices.Sort(after)
	q := func(xs []time.Duration, f float64) time.Duration {
		if len(xs) == 0 {
			return 0
		}
		return xs[int(f*float64(len(xs)-1))].Round(time.Millisecond)
	}
	t.Logf("writes: %d, failed %d", len(writes), failed)
	t.Logf("before the kill: %d writes, p50 %s, p99 %s, max %s", len(before), q(before, 0.5), q(before, 0.99), q(before, 1))
	t.Logf("after the kill:  %d writes, p50 %s, p99 %s, max %s", len(after), q(after, 0.5), q(after, 0.99), q(after, 1))
	waited := 0
	for _, w := range writes {
		if w.took > time.Second {
			waited++
		}
	}
	t.Logf("writes that took over a second: %d", waited)

	// Every acknowledged result is there, on a store that survived.
	lost := 0
	for _, w := range writes {
		if w.err != nil {
			continue
		}
		rs, err := s.Results(context.Background(), w.r.Account, store.MaxBoard)
		require.NoError(t, err)
		if !slices.ContainsFunc(rs, func(r store.Result) bool { return r.Spec == w.r.Spec }) {
			lost++
		}
	}
	t.Logf("acknowledged results missing afterwards: %d", lost)
	require.Zero(t, lost)
	require.Zero(t, failed)
}
