package render

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// Input reads a session's keys and mouse the way Bubble Tea's own reader
// does (Ultraviolet's decoder, its legacy key table, bracketed paste, a 50
// ms wait for the rest of an escape sequence), with two differences that
// matter at thousands of sessions: the key table (about 130 KB) is built
// once for the server instead of once per program, and one goroutine reads
// and decodes instead of three. Run the program with tea.WithInput(nil) and
// feed it with ReadInput; Bubble Tea turns the events into its messages.

// keyTable is Ultraviolet's table of legacy key sequences. It depends on
// nothing per session (no terminfo, no legacy flags: Bubble Tea's defaults),
// and Ultraviolet keeps it unexported, so it is read once out of a reader
// built for the purpose. If a later Ultraviolet moves it, sessions decode
// without it (the decoder knows every common sequence by itself).
var keyTable = func() map[string]uv.Key {
	tr := uv.NewTerminalReader(strings.NewReader(""), "xterm-256color")
	f := reflect.ValueOf(tr).Elem().FieldByName("table")
	if !f.IsValid() || f.Type() != reflect.TypeFor[map[string]uv.Key]() {
		return nil
	}
	return *(*map[string]uv.Key)(unsafe.Pointer(f.UnsafeAddr()))
}()

// escTimeout is how long an unfinished escape sequence waits for the rest.
const escTimeout = uv.DefaultEscTimeout

// A session's unread input is bounded, so that whatever a client sends the
// server holds a few kilobytes for it; past a bound input is dropped and
// counted (InputDrop), never queued.
const (
	// maxPending is how many bytes wait for the end of an unfinished
	// sequence. The longest a terminal sends unasked (SGR mouse reports,
	// Kitty keys, colour answers) are under 100 bytes; past this the
	// sequence is taken as it is, as when its wait times out.
	maxPending = 4096
	// maxPaste is how much of one bracketed paste is kept. What the
	// arcade reads from a paste is a name or a command line; the rest of
	// a longer one is dropped.
	maxPaste = 16 << 10
	// eventBurst and eventRate bound the events a session hands its
	// program: a token bucket of eventBurst events refilled at eventRate
	// a second. Key repeat is about 30 a second and a drag at most a few
	// dozen cells a second, so no person comes near; a client that sends
	// faster has the excess dropped instead of queued behind the program,
	// so its own next key is answered at once and its program takes no
	// more time than a fast player's.
	eventBurst = 512
	eventRate  = 200
	// dropReport is how often at most a session's drops are reported.
	dropReport = time.Second
)

// InputDrop is input ReadInput dropped: events past the rate, and bytes
// past the paste bound.
type InputDrop struct{ Events, Bytes int }

type scanner struct {
	mu    sync.Mutex
	dec   uv.EventDecoder
	buf   []byte
	paste []byte // non-nil inside a bracketed paste
	timer *time.Timer
	send  func(tea.Msg)
	done  bool

	now      func() time.Time
	tokens   float64   // events the session may send now
	filled   time.Time // when tokens was last refilled
	drop     InputDrop // dropped since the last report
	reported time.Time // the last report
	report   func(InputDrop)
}

// ReadInput reads r until it fails, sending each event. It returns nil at
// the end of the input. Input past the session's bounds is dropped and
// reported to dropped (when not nil) at most once a second and at the end.
func ReadInput(r io.Reader, send func(tea.Msg), dropped func(InputDrop)) error {
	return readInput(r, send, dropped, time.Now)
}

func readInput(r io.Reader, send func(tea.Msg), dropped func(InputDrop), now func() time.Time) error {
	return newScanner(send, dropped, now).run(r)
}

func newScanner(send func(tea.Msg), dropped func(InputDrop), now func() time.Time) *scanner {
	return &scanner{send: send, now: now, tokens: eventBurst, filled: now(), report: dropped}
}

func (sc *scanner) run(r io.Reader) error {
	defer func() {
		sc.mu.Lock()
		sc.done = true
		if sc.timer != nil {
			sc.timer.Stop()
		}
		sc.flushDrops(true)
		sc.mu.Unlock()
	}()
	var chunk [256]byte
	for {
		n, err := r.Read(chunk[:])
		if n > 0 {
			sc.mu.Lock()
			sc.buf = append(sc.buf, chunk[:n]...)
			sc.process(false)
			sc.mu.Unlock()
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				sc.mu.Lock()
				sc.process(true)
				sc.mu.Unlock()
				return nil
			}
			return err
		}
	}
}

// pending is how many bytes the scanner holds, for tests.
func (sc *scanner) pending() (buf, paste int) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return len(sc.buf), len(sc.paste)
}

// process sends what the buffer holds; with expired, an unfinished
// sequence is taken as it is. Called with mu held.
func (sc *scanner) process(expired bool) {
	// An unfinished sequence that keeps growing is not waited for:
	// more bytes arriving would otherwise put its timeout off for ever.
	expired = expired || len(sc.buf) > maxPending
	n, events := sc.scan(sc.buf, expired)
	if n > 0 {
		sc.buf = append(sc.buf[:0], sc.buf[n:]...)
	}
	if cap(sc.buf) > 4096 && len(sc.buf) < 256 {
		sc.buf = append([]byte(nil), sc.buf...) // a paste is over: drop its buffer
	}
	sc.refill()
	for _, ev := range events {
		if sc.tokens < 1 {
			sc.drop.Events++
			continue
		}
		sc.tokens--
		sc.send(ev)
	}
	sc.flushDrops(false)
	if len(sc.buf) > 0 && !expired {
		if sc.timer == nil {
			sc.timer = time.AfterFunc(escTimeout, sc.expire)
		} else {
			sc.timer.Reset(escTimeout)
		}
	}
}

// refill adds the tokens earned since the last refill.
func (sc *scanner) refill() {
	now := sc.now()
	if d := now.Sub(sc.filled); d > 0 {
		sc.tokens = min(eventBurst, sc.tokens+d.Seconds()*eventRate)
	}
	sc.filled = now
}

// flushDrops reports what was dropped, if a report is due (or final).
func (sc *scanner) flushDrops(final bool) {
	if sc.drop == (InputDrop{}) || sc.report == nil {
		return
	}
	now := sc.now()
	if !final && !sc.reported.IsZero() && now.Sub(sc.reported) < dropReport {
		return
	}
	d := sc.drop
	sc.drop, sc.reported = InputDrop{}, now
	sc.report(d)
}

// keepPaste adds b to the paste, up to maxPaste.
func (sc *scanner) keepPaste(b []byte) {
	if room := maxPaste - len(sc.paste); len(b) > room {
		sc.drop.Bytes += len(b) - max(room, 0)
		b = b[:max(room, 0)]
	}
	sc.paste = append(sc.paste, b...)
}

func (sc *scanner) expire() {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if !sc.done && len(sc.buf) > 0 {
		sc.process(true)
	}
}

// ignored says whether ev is the decoder's unexported "ignored" event (a
// string type), which Ultraviolet's reader drops.
func ignored(ev uv.Event) bool {
	t := reflect.TypeOf(ev)
	return t != nil && t.Kind() == reflect.String && t.Name() == "ignoredEvent" && t.PkgPath() == reflect.TypeFor[uv.Key]().PkgPath()
}

// scan is Ultraviolet's eventScanner.scanEvents (terminal_reader.go) for a
// byte stream (no Windows console records).
func (sc *scanner) scan(buf []byte, expired bool) (total int, events []uv.Event) {
	if len(buf) == 0 {
		return 0, nil
	}
	if len(buf) > 2 && buf[0] == ansi.ESC {
		if k, ok := keyTable[string(buf)]; ok {
			return len(buf), []uv.Event{uv.KeyPressEvent(k)}
		}
	}
	for len(buf) > 0 {
		esc := buf[0] == ansi.ESC
		n, event := sc.dec.Decode(buf)
		if n <= 0 {
			break
		}
		if sc.paste != nil {
			if _, ok := event.(uv.PasteEndEvent); !ok {
				switch event := event.(type) {
				case uv.KeyPressEvent:
					if len(event.Text) > 0 {
						sc.keepPaste([]byte(event.Text))
					} else {
						if esc && n <= 2 && !expired {
							return total, events
						}
						sc.keepPaste(buf[:n])
					}
				case uv.UnknownEvent:
					if !expired {
						return total, events
					}
				}
				buf = buf[n:]
				total += n
				continue
			}
		}
		unknown := false
		switch event.(type) {
		case uv.UnknownEvent:
			unknown = true
			if !expired {
				return total, events
			}
			if k, ok := keyTable[string(buf[:n])]; ok {
				events = append(events, uv.KeyPressEvent(k))
				return total + n, events
			}
			events = append(events, event)
		case uv.PasteStartEvent:
			sc.paste = []byte{}
		case uv.PasteEndEvent:
			var paste []rune
			for p := sc.paste; len(p) > 0; {
				r, w := utf8.DecodeRune(p)
				if r != utf8.RuneError {
					paste = append(paste, r)
				}
				p = p[w:]
			}
			sc.paste = nil
			events = append(events, uv.PasteEvent{Content: string(paste)})
		}
		if event != nil && ignored(event) {
			event = nil
		}
		if !unknown && event != nil {
			if esc && n <= 2 && !expired {
				return total, events
			}
			if m, ok := event.(uv.MultiEvent); ok {
				events = append(events, m...)
			} else {
				events = append(events, event)
			}
		}
		buf = buf[n:]
		total += n
	}
	return total, events
}
