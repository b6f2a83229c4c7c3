package arcade

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// sessionInput reads a session's keys for its program in place of Bubble
// Tea's own input reader, which can outlive the program.
//
// Bubble Tea v2.1.1 streams input through ultraviolet's TerminalReader
// straight into the program's unbuffered message channel (bubbletea
// tty.go:88, readLoop), and the reader sends each event with a bare
// channel send (ultraviolet terminal_reader.go:234, sendEvents), watching no
// context. Only the program's event loop receives on that channel, so when
// the program quits with events still to send (a client that types a burst
// and disconnects, or quits with keys behind the quit), that goroutine is
// blocked for good and keeps the whole program, screen buffers and all,
// alive: about 0.75 MB at 80x24, 18 MB at 400x200, for every such session.
//
// Here the same TerminalReader (same decoding, same escape timeout) sends
// to a channel of ours, and one goroutine hands each event on with
// Program.Send, which gives up once the program has ended. After the
// program ends the goroutine keeps draining, dropping what it reads, until
// the reader returns at the end of the session's input. Bubble Tea itself
// gets an input that never yields a byte and ends when the program does:
// it still believes it has an input, so it keeps sending the terminal
// queries whose replies come back through here.
type sessionInput struct {
	reader *uv.TerminalReader
	prog   atomic.Pointer[tea.Program] // nil once the program has ended
	events chan uv.Event
	cancel context.CancelFunc
	idle   *idleInput
	err    error // the reader's error other than EOF, once it has returned
}

// newSessionInput prepares to read r, the session; term is the client's
// TERM, which Bubble Tea would read from the program's environment.
func newSessionInput(r io.Reader, term string) *sessionInput {
	return &sessionInput{
		reader: uv.NewTerminalReader(r, term),
		events: make(chan uv.Event),
		idle:   newIdleInput(),
	}
}

// programInput is the input to give the program (tea.WithInput).
func (in *sessionInput) programInput() io.Reader { return in.idle }

// start feeds p until stop or the end of the session's input. onErr, if
// not nil, is called when the input fails with anything but EOF while the
// program runs (Bubble Tea would end the program then). Nothing started
// here holds p once stop has been called.
func (in *sessionInput) start(p *tea.Program, onErr func(*tea.Program, error)) {
	in.prog.Store(p)
	ctx, cancel := context.WithCancel(context.Background())
	in.cancel = cancel
	tr := in.reader
	read := make(chan struct{})
	go func() {
		defer close(read)
		if err := tr.StreamEvents(ctx, in.events); err != nil && !errors.Is(err, io.EOF) {
			in.err = err
		}
	}()
	go func() {
		for {
			select {
			case ev := <-in.events:
				if p := in.prog.Load(); p != nil {
					p.Send(ev) // returns at once after the program ended
				}
			case <-read:
				// StreamEvents sends synchronously: nothing is left.
				if p := in.prog.Load(); p != nil && in.err != nil && onErr != nil {
					onErr(p, in.err)
				}
				return
			}
		}
	}()
}

// stop is called once the program has returned: events still pending are
// dropped (nobody would read them), and Bubble Tea's reader ends.
func (in *sessionInput) stop() {
	in.prog.Store(nil)
	if in.cancel != nil {
		in.cancel()
	}
	in.idle.Close()
}

// idleInput is a reader with nothing to read until it is closed, when it
// reports EOF.
type idleInput struct {
	once   sync.Once
	closed chan struct{}
}

func newIdleInput() *idleInput { return &idleInput{closed: make(chan struct{})} }

func (r *idleInput) Read([]byte) (int, error) {
	<-r.closed
	return 0, io.EOF
}

func (r *idleInput) Close() error {
	r.once.Do(func() { close(r.closed) })
	return nil
}
