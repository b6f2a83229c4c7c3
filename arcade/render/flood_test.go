package render

import (
	"io"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/stretchr/testify/require"
)

// randomInput is n random bytes, read 256 at a time; before each read it
// calls check. Ctrl+C is left out, as a session ends on it.
type randomInput struct {
	rng   *rand.Rand
	left  int
	check func()
}

func (r *randomInput) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, io.EOF
	}
	r.check()
	n := min(len(p), 256, r.left)
	for i := range n {
		b := byte(r.rng.Uint32())
		if b == 0x03 {
			b = 'x'
		}
		p[i] = b
	}
	r.left -= n
	return n, nil
}

// tail is a reader that gives its bytes, then the end.
type tail struct {
	first io.Reader
	then  []byte
	step  func()
}

func (t *tail) Read(p []byte) (int, error) {
	n, err := t.first.Read(p)
	if err == io.EOF {
		if len(t.then) == 0 {
			return 0, io.EOF
		}
		t.step()
		n = copy(p, t.then)
		t.then = t.then[n:]
		return n, nil
	}
	return n, err
}

// Tens of megabytes of random bytes at full speed leave a session's reader
// holding a few kilobytes (unfinished sequence, paste) and its program no
// more than the event rate; the rest is dropped and reported, and a key
// sent after the flood still arrives.
func TestInputFloodIsBounded(t *testing.T) {
	const size = 32 << 20
	// The clock is read by the escape timer's goroutine too.
	var clock atomic.Int64
	clock.Store(time.Unix(1_000_000, 0).UnixNano())
	advance := func(d time.Duration) { clock.Add(int64(d)) }
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	var sent, dropped int
	var last tea.Msg
	sc := newScanner(func(m tea.Msg) { sent++; last = m }, func(d InputDrop) { dropped += d.Events }, now)

	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapAlloc, ms.HeapAlloc
	reads, maxBuf, maxPasteSeen := 0, 0, 0
	flood := &randomInput{rng: rand.New(rand.NewPCG(23, 9)), left: size, check: func() {
		// A millisecond a read: 256 bytes a millisecond is a fast
		// link, and lets the token bucket refill as it would.
		advance(time.Millisecond)
		b, p := sc.pending()
		maxBuf, maxPasteSeen = max(maxBuf, b), max(maxPasteSeen, p)
		if reads++; reads%4096 == 0 {
			// Live memory: garbage depends on when the collector
			// runs, which other tests in the process sway.
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	}}
	in := &tail{first: flood, then: []byte("q"), step: func() {
		// The player's key comes after a pause: the escape wait is
		// over, and the bucket has refilled.
		advance(time.Second)
		sc.expire()
		advance(time.Second)
	}}
	require.NoError(t, sc.run(in))

	require.LessOrEqual(t, maxBuf, maxPending+256, "bytes held for an unfinished sequence")
	require.LessOrEqual(t, maxPasteSeen, maxPaste, "bytes held for a paste")
	require.Less(t, peak-min(peak, base), uint64(8<<20), "live heap growth while reading the flood")
	// The program got at most the bucket and its refill over the
	// simulated time (one millisecond a read, two seconds at the end).
	simulated := float64(size/256)/1000 + 2
	require.LessOrEqual(t, float64(sent), eventBurst+eventRate*simulated+1)
	require.Positive(t, dropped, "dropped events reported")
	k, ok := last.(uv.KeyPressEvent)
	require.True(t, ok, "last event %T", last)
	require.Equal(t, "q", k.String())
}

// A paste that never ends keeps its first maxPaste bytes and drops the
// rest, reporting them.
func TestEndlessPasteIsBounded(t *testing.T) {
	var dropped int
	maxSeen := 0
	sc := newScanner(func(tea.Msg) {}, func(d InputDrop) { dropped += d.Bytes }, time.Now)
	rest := 4 << 20
	r := readerFunc(func(p []byte) (int, error) {
		if rest <= 0 {
			return 0, io.EOF
		}
		_, ps := sc.pending()
		maxSeen = max(maxSeen, ps)
		n := min(len(p), rest)
		for i := range n {
			p[i] = 'a' + byte(i%26)
		}
		if rest == 4<<20 {
			n = copy(p, "\x1b[200~")
		}
		rest -= n
		return n, nil
	})
	require.NoError(t, sc.run(r))
	require.LessOrEqual(t, maxSeen, maxPaste)
	require.Greater(t, dropped, 4<<20-maxPaste-1024)
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }
