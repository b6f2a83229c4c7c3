package hub

import "sync"

// Outbox hands values to one member without ever making the sender wait.
// It holds a single value: a Put while the previous value is still unread
// replaces it, because a member only ever needs the newest state of a
// room. One goroutine per outbox drains it into the member's sink, so a
// sink that blocks (a busy or stuck terminal program) holds up that
// goroutine alone, never the room and never the other members.
type Outbox[T any] struct {
	mu       sync.Mutex
	val      T
	has      bool
	closed   bool
	wake     chan struct{} // capacity 1: "there is something to read"
	done     chan struct{} // closed when the drain goroutine has returned
	puts     uint64
	replaced uint64
}

// NewOutbox starts the goroutine that calls sink with each value, in the
// order they were put, minus the ones a newer value replaced. The sink must
// return once its reader is gone (Bubble Tea's Program.Send does when the
// program has quit); a sink that never returns keeps its goroutine forever.
func NewOutbox[T any](sink func(T)) *Outbox[T] {
	o := &Outbox[T]{wake: make(chan struct{}, 1), done: make(chan struct{})}
	go o.drain(sink)
	return o
}

// Put never blocks. It does nothing once the outbox is closed.
func (o *Outbox[T]) Put(v T) {
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
	select {
	case o.wake <- struct{}{}:
	default: // a wake-up is already waiting; the drain will read the new value
	}
}

// Close lets the drain deliver what is unread and then return. A value put
// just before Close is the last one the sink sees.
func (o *Outbox[T]) Close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.closed {
		o.closed = true
		close(o.wake)
	}
}

// Done is closed once the drain goroutine has returned.
func (o *Outbox[T]) Done() <-chan struct{} { return o.done }

// Counts reports how many values were put and how many of those were
// replaced before the sink read them.
func (o *Outbox[T]) Counts() (puts, replaced uint64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.puts, o.replaced
}

func (o *Outbox[T]) drain(sink func(T)) {
	defer close(o.done)
	var zero T
	for range o.wake {
		o.mu.Lock()
		v, has := o.val, o.has
		o.val, o.has = zero, false // drop the reference so a big state can be collected
		o.mu.Unlock()
		if has {
			sink(v)
		}
	}
}
