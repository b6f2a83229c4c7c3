package hub

import (
	"testing"
)

func TestOutboxNewestWins(t *testing.T) {
	entered := make(chan int)
	release := make(chan struct{})
	var got []int
	o := NewOutbox(func(v int) {
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
	o := NewOutbox(func(v string) { got = append(got, v) })
	o.Put("closing")
	o.Close()
	o.Put("after close")
	<-o.Done()
	if len(got) != 1 || got[0] != "closing" {
		t.Fatalf("got %q, want only the value put before Close", got)
	}
}
