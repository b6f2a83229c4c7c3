// Command sshuffle-load drives many SSH sessions against a running sshuffle
// server on loopback and reports keystroke latency: the time from sending a
// key to the first screen bytes that come back. Its loops are bounded in
// count and time, and it only dials the address it is given.
package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:2222", "server address (loopback only)")
	sessions := flag.Int("sessions", 100, "sessions to open")
	ramp := flag.Duration("ramp", 10*time.Second, "time over which the sessions are opened")
	duration := flag.Duration("duration", 30*time.Second, "how long each session plays after the ramp")
	every := flag.Duration("every", 2*time.Second, "one key per session this often")
	hostileOn := flag.Bool("hostile", false, "also run one hostile client (issue 10's items 1-7 in a loop) from 127.0.0.254")
	spread := flag.Bool("spread", false, "dial each session from its own 127.x.y.z address, so per-address caps see players, not one host")
	races := flag.Int("races", 0, "put the sessions in this many races instead (each of --racers), and time a move's progress reaching every other racer's screen")
	racersPer := flag.Int("racers", 4, "racers in each race (with --races)")
	tablesN := flag.Int("tables", 0, "seat the sessions at this many Kings tables instead (two load people and two computers each), and time a move reaching the other person's screen")
	flag.Parse()
	host, _, err := net.SplitHostPort(*addr)
	if err != nil || !net.ParseIP(host).IsLoopback() {
		fmt.Fprintln(os.Stderr, "sshuffle-load: the address must be on loopback (127.0.0.0/8 or ::1)")
		os.Exit(2)
	}

	if *tablesN > 0 {
		os.Exit(tableMode(*addr, *tablesN, *ramp, *duration))
	}
	if *races > 0 {
		os.Exit(raceMode(*addr, *races, *racersPer, *ramp, *duration, *every))
	}
	var (
		mu        sync.Mutex
		latencies []time.Duration
		failed    atomic.Int64
		opened    atomic.Int64
		wg        sync.WaitGroup
	)
	stopAt := time.Now().Add(*ramp + *duration)
	gap := *ramp / time.Duration(max(*sessions, 1))
	var h *hostile
	hostileDone := make(chan struct{})
	if *hostileOn {
		h = newHostile(*addr, net.IPv4(127, 0, 0, 254))
		go func() { defer close(hostileDone); h.run(stopAt) }()
	} else {
		close(hostileDone)
	}
	for i := range *sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var local net.IP
			if *spread {
				local = net.IPv4(127, 1, byte(i/250), byte(i%250+1))
			}
			lat, err := playFrom(*addr, local, fmt.Sprintf("load%04d", i), stopAt, *every)
			if err != nil {
				failed.Add(1)
				fmt.Fprintln(os.Stderr, "session", i, err)
				return
			}
			opened.Add(1)
			mu.Lock()
			latencies = append(latencies, lat...)
			mu.Unlock()
		}()
		time.Sleep(gap)
	}
	wg.Wait()
	<-hostileDone
	slices.Sort(latencies)
	q := func(p float64) time.Duration {
		if len(latencies) == 0 {
			return 0
		}
		return latencies[min(int(p*float64(len(latencies))), len(latencies)-1)].Round(100 * time.Microsecond)
	}
	fmt.Printf("sessions %d ok, %d failed; keys %d sent, %d answered by a frame; latency p50 %v p90 %v p99 %v max %v\n",
		opened.Load(), failed.Load(), keysSent.Load(), len(latencies), q(0.5), q(0.9), q(0.99), q(1))
	if h != nil {
		fmt.Printf("hostile tries completed: %s\n", h.report())
	}
	if failed.Load() > 0 || keysSent.Load() != int64(len(latencies)) {
		os.Exit(1)
	}
}

// keysSent counts keys sent by honest sessions; each must get a frame.
var keysSent atomic.Int64

// play opens one session, enters Klondike and turns the stock or moves the
// cursor once every interval until stopAt, timing each key's echo.
func play(addr, user string, stopAt time.Time, every time.Duration) ([]time.Duration, error) {
	return playFrom(addr, nil, user, stopAt, every)
}

// playFrom is play dialing from a chosen loopback address (nil: any).
func playFrom(addr string, local net.IP, user string, stopAt time.Time, every time.Duration) ([]time.Duration, error) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return nil, err
	}
	c, err := dialFrom(addr, local, user, signer)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	if err := sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
		return nil, err
	}
	in, _ := sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	got := make(chan time.Time, 64)
	go func() {
		buf := make([]byte, 32<<10)
		for {
			if _, err := out.Read(buf); err != nil {
				close(got)
				return
			}
			select {
			case got <- time.Now():
			default:
			}
		}
	}()
	if err := sess.Shell(); err != nil {
		return nil, err
	}
	// drain empties what has arrived, waiting up to d for more.
	drain := func(d time.Duration) {
		t := time.After(d)
		for {
			select {
			case <-got:
				continue
			default:
			}
			if d == 0 {
				return
			}
			select {
			case <-got:
			case <-t:
				return
			}
		}
	}
	drain(500 * time.Millisecond)
	if _, err := io.WriteString(in, "1"); err != nil { // Klondike Draw 1
		return nil, err
	}
	drain(500 * time.Millisecond)
	keys := []string{"d", "l", "l", "h", "h", "d", "j", "k"}
	var lat []time.Duration
	for i := 0; time.Now().Before(stopAt); i++ {
		drain(0)
		sent := time.Now()
		if _, err := io.WriteString(in, keys[i%len(keys)]); err != nil {
			return lat, err
		}
		keysSent.Add(1)
		select {
		case t, ok := <-got:
			if !ok {
				return lat, fmt.Errorf("session closed")
			}
			lat = append(lat, t.Sub(sent))
		case <-time.After(10 * time.Second):
			return lat, fmt.Errorf("no screen update within 10 s")
		}
		time.Sleep(every)
	}
	_, _ = io.WriteString(in, "q")
	return lat, nil
}

// raceMode runs the races and prints what they measured; its exit status
// is 1 when a race failed or a move never reached a screen.
func raceMode(addr string, n, size int, ramp, duration, every time.Duration) int {
	if size < 2 || size > 8 {
		fmt.Fprintln(os.Stderr, "sshuffle-load: --racers is 2 to 8")
		return 2
	}
	stopAt := time.Now().Add(ramp + duration)
	gap := ramp / time.Duration(n)
	var (
		mu     sync.Mutex
		lat    []time.Duration
		missed int
		moves  int
		failed int
		wg     sync.WaitGroup
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := runRace(addr, i, size, stopAt, every)
			mu.Lock()
			defer mu.Unlock()
			if r.err != nil {
				failed++
				fmt.Fprintln(os.Stderr, "race", i, r.err)
			}
			lat = append(lat, r.lat...)
			missed += r.missed
			moves += r.moves
		}()
		time.Sleep(gap)
	}
	wg.Wait()
	slices.Sort(lat)
	q := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(int(p*float64(len(lat))), len(lat)-1)].Round(100 * time.Microsecond)
	}
	fmt.Printf("races %d of %d (%d failed); moves %d, reached other screens %d times, missed %d; move to other screens p50 %v p90 %v p99 %v max %v\n",
		n, size, failed, moves, len(lat), missed, q(0.5), q(0.9), q(0.99), q(1))
	if failed > 0 || missed > 0 {
		return 1
	}
	return 0
}
