package hub

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

func TestOutboxNewestWins(t *testing.T) {
	entered := make(chan int)
	release := make(chan struct{})
	var got []int
	o := newOutbox(func(v int) {
		entered <- v
		<-release
		got = append(got, v)
	})
	o.Put(1)
	if v := <-entered; v != 1 {
		t.Fatalf("first value %d", v)
	}
	// The sink is busy with 1: these must not block, and only the last
	// one may survive.
	for v := 2; v <= 100; v++ {
		o.Put(v)
	}
	close(release)
	if v := <-entered; v != 100 {
		t.Fatalf("after a busy sink the next value is %d, want the newest, 100", v)
	}
	o.Close()
	<-o.Done()
	if len(got) != 2 || got[0] != 1 || got[1] != 100 {
		t.Fatalf("sink saw %v, want [1 100]", got)
	}
	puts, replaced := o.Counts()
	if puts != 100 || replaced != 98 {
		t.Fatalf("counts %d put, %d replaced; want 100, 98", puts, replaced)
	}
}

func TestOutboxCloseDeliversTheLastValue(t *testing.T) {
	var got []string
	o := newOutbox(func(v string) { got = append(got, v) })
	o.Put("closing")
	o.Close()
	o.Put("after close")
	<-o.Done()
	if len(got) != 1 || got[0] != "closing" {
		t.Fatalf("got %q, want only the value put before Close", got)
	}
}

// A quiet outbox holds no goroutine: a thousand members online and idle
// cost none, and each delivers in order when a value comes.
func TestQuietOutboxesHoldNoGoroutine(t *testing.T) {
	base := runtime.NumGoroutine()
	var wg sync.WaitGroup
	var boxes []*outbox[int]
	for range 1000 {
		wg.Add(1)
		boxes = append(boxes, newOutbox(func(int) { wg.Done() }))
	}
	if n := runtime.NumGoroutine() - base; n > 10 {
		t.Fatalf("%d goroutines for 1000 quiet outboxes", n)
	}
	for _, o := range boxes {
		o.Put(1)
	}
	wg.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine()-base > 10 {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines left once every value was delivered", runtime.NumGoroutine()-base)
		}
		time.Sleep(5 * time.Millisecond)
	}
	for _, o := range boxes {
		o.Close()
		<-o.Done()
	}
}
