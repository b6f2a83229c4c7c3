package natstest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Procs is three nats-server processes in one cluster, built from the
// nats-server module go.mod names: what a SIGKILL of a server is measured
// against, since a server inside the test process cannot be killed that
// way. Names are "nats1".."nats3", as each server calls itself (a stream's
// leader is named so).
type Procs struct {
	URLs  []string // each server's client address, in the order of Names
	Names []string
	Dir   string // their stores and logs
	cmds  map[string]*exec.Cmd
}

// URL is every server's client address, comma-separated.
func (p *Procs) URL() string { return strings.Join(p.URLs, ",") }

// Kill ends server name with SIGKILL, as a crash would.
func (p *Procs) Kill(name string) error {
	cmd, ok := p.cmds[name]
	if !ok {
		return fmt.Errorf("natstest: no server %q", name)
	}
	return cmd.Process.Signal(syscall.SIGKILL)
}

// Log is what server name printed.
func (p *Procs) Log(name string) string {
	b, _ := os.ReadFile(filepath.Join(p.Dir, name+".log"))
	return string(b)
}

// StartProcesses builds nats-server and starts three of them clustered on
// 127.0.0.1, each storing under a temporary folder; they are killed when
// the test ends.
func StartProcesses(t testing.TB, cluster string) *Procs {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "nats-server")
	build := exec.Command("go", "build", "-o", bin, "github.com/nats-io/nats-server/v2")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("natstest: building nats-server: %v", err)
	}
	ports := freePorts(t, 6)
	p := &Procs{Dir: dir, cmds: map[string]*exec.Cmd{}}
	var routes []string
	for i := range 3 {
		routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", ports[3+i]))
	}
	for i := range 3 {
		name := fmt.Sprintf("nats%d", i+1)
		conf := filepath.Join(dir, name+".conf")
		text := fmt.Sprintf(`server_name: %s
listen: 127.0.0.1:%d
max_payload: 8MB
jetstream {
  store_dir: %q
  max_memory_store: 64MB
}
cluster {
  name: %s
  listen: 127.0.0.1:%d
  routes: [ %s ]
}
`, name, ports[i], filepath.Join(dir, name), cluster, ports[3+i], strings.Join(routes, ", "))
		if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "-c", conf)
		logf, err := os.Create(filepath.Join(dir, name+".log"))
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = logf, logf
		if err := cmd.Start(); err != nil {
			t.Fatalf("natstest: %v", err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait(); _ = logf.Close() })
		p.cmds[name] = cmd
		p.Names = append(p.Names, name)
		p.URLs = append(p.URLs, fmt.Sprintf("nats://127.0.0.1:%d", ports[i]))
	}
	for _, u := range p.URLs {
		deadline := time.Now().Add(10 * time.Second)
		for {
			c, err := net.Dial("tcp", strings.TrimPrefix(u, "nats://"))
			if err == nil {
				_ = c.Close()
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("natstest: %s never took connections", u)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return p
}
