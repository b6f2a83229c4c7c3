package hub

import "sync"

// outbox hands values to one member without ever making the sender wait.
// It holds a single value: a Put while the previous value is still unread
// replaces it, because a member only ever needs the newest state of a
// room. A goroutine of the outbox's own drains it into the member's sink,
// so a sink that blocks (a busy or stuck terminal program) holds up that
// goroutine alone, never the room and never the other members. The
// goroutine runs only while there is something to deliver: a member
// online but quiet (most of a server's players) costs no goroutine.
type outbox[T any] struct {
	mu       sync.Mutex
	sink     func(T)
	val      T
	has      bool
	running  bool // a drain goroutine is delivering
	closed   bool
	done     chan struct{} // closed once closed and no drain runs
	puts     uint64
	replaced uint64
}

// newOutbox is an outbox that calls sink with each value, in the order they
// were put, minus the ones a newer value replaced, one at a time. The sink
// must return once its reader is gone (Bubble Tea's Program.Send does when
// the program has quit); a sink that never returns keeps its goroutine
// forever.
func newOutbox[T any](sink func(T)) *outbox[T] {
	return &outbox[T]{sink: sink, done: make(chan struct{})}
}

// Put never blocks. It does nothing once the outbox is closed.
func (o *outbox[T]) Put(v T) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	o.puts++
	if o.has {
		o.replaced++
	}
	o.val, o.has = v, true
	if !o.running {
		o.running = true
		go o.drain()
	}
}

// Close lets the drain deliver what is unread and then return. A value put
// just before Close is the last one the sink sees.
func (o *outbox[T]) Close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.closed {
		o.closed = true
		if !o.running {
			close(o.done)
		}
	}
}

// Done is closed once the outbox is closed and its drain has returned.
func (o *outbox[T]) Done() <-chan struct{} { return o.done }

// Counts reports how many values were put and how many of those were
// replaced before the sink read them.
func (o *outbox[T]) Counts() (puts, replaced uint64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.puts, o.replaced
}

func (o *outbox[T]) drain() {
	var zero T
	for {
		o.mu.Lock()
		v, has := o.val, o.has
		o.val, o.has = zero, false // drop the reference so a big state can be collected
		if !has {
			o.running = false
			if o.closed {
				close(o.done)
			}
			o.mu.Unlock()
			return
		}
		o.mu.Unlock()
		o.sink(v)
	}
}
