package bot

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/engine"
	"sshuffle/games"
)

// guard bounds a wait for something that must happen; it never asserts a
// speed.
const guard = 20 * time.Second

// harness is one bot session over pipes, against a hub of its own.
type harness struct {
	t       *testing.T
	h       *hub.Hub
	in      *io.PipeWriter
	msgs    chan map[string]any
	done    chan error
	mu      sync.Mutex
	stream  bytes.Buffer // every byte the bot was sent
	results chan hub.TableResult
}

var bot1 = hub.Person{ID: "SHA256:bot1", Name: "robot1", Bot: true}

func newHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	x := &harness{t: t, msgs: make(chan map[string]any, 1024), done: make(chan error, 1),
		results: make(chan hub.TableResult, 16)}
	cat := games.Default()
	x.h = cfg.Hub
	if x.h == nil {
		x.h = hub.New(hub.Config{Rand: engine.NewRNG(3), Grace: time.Minute, TableKit: cat.TableKit,
			OnTableResult: func(r hub.TableResult) { x.results <- r }})
		t.Cleanup(x.h.Close)
	}
	cfg.Hub, cfg.Kit = x.h, cat.TableKit
	if cfg.Person.ID == "" {
		cfg.Person = bot1
	}
	if cfg.Pace == 0 {
		cfg.Pace = time.Millisecond
	}
	if cfg.Break == 0 {
		cfg.Break = 10 * time.Millisecond
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	x.in = inW
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		err := Serve(ctx, cfg, inR, outW)
		_ = outW.Close()
		x.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			x.mu.Lock()
			x.stream.Write(sc.Bytes())
			x.stream.WriteByte('\n')
			x.mu.Unlock()
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("a line that is not JSON: %q", sc.Text())
				continue
			}
			x.msgs <- m
		}
		close(x.msgs)
	}()
	t.Cleanup(func() {
		_ = inW.Close()
		cancel()
		select {
		case <-x.done:
		case <-time.After(guard):
			t.Error("the session did not end")
		}
	})
	x.expect(THello)
	return x
}

// send writes one line to the session.
func (x *harness) send(line string) {
	x.t.Helper()
	_, err := x.in.Write([]byte(line + "\n"))
	require.NoError(x.t, err)
}

func (x *harness) sendJSON(v any) {
	x.t.Helper()
	b, err := json.Marshal(v)
	require.NoError(x.t, err)
	x.send(string(b))
}

// next is the next message, whatever it is.
func (x *harness) next() map[string]any {
	x.t.Helper()
	select {
	case m, ok := <-x.msgs:
		require.True(x.t, ok, "the session ended")
		return m
	case <-time.After(guard):
		x.t.Fatal("no message came")
	}
	return nil
}

// expect is the next message, which must be of type typ.
func (x *harness) expect(typ string) map[string]any {
	x.t.Helper()
	m := x.next()
	require.Equal(x.t, typ, m["type"], "message %v", m)
	return m
}

// until skips messages up to the first of type typ (others of skip only).
func (x *harness) until(typ string, skip ...string) map[string]any {
	x.t.Helper()
	for {
		m := x.next()
		if m["type"] == typ {
			return m
		}
		require.Contains(x.t, skip, m["type"], "message %v while waiting for %s", m, typ)
	}
}

// quiet: nothing is sent to the bot for a moment (a pong round trip).
func (x *harness) quiet() {
	x.t.Helper()
	x.sendJSON(map[string]any{"type": "seek", "game": "no-such-game"})
	m := x.expect(TError)
	require.Contains(x.t, m["error"], "no-such-game", "the next line answered is the probe's")
}

func (x *harness) bytes() []byte {
	x.mu.Lock()
	defer x.mu.Unlock()
	return bytes.Clone(x.stream.Bytes())
}

// playOut acts on every state of table that is the bot's turn with the
// first legal action, until the match is over.
func (x *harness) playOut(table string) []map[string]any {
	x.t.Helper()
	var overs []map[string]any
	for {
		m := x.next()
		switch m["type"] {
		case TState:
			if m["yourTurn"] == true {
				legal := m["legal"].([]any)
				require.NotEmpty(x.t, legal)
				x.sendJSON(map[string]any{"type": TAct, "table": table, "action": legal[0]})
			}
		case TGameOver:
			overs = append(overs, m)
		case TTableEnd:
			require.Equal(x.t, "The match is over.", m["reason"])
			return overs
		case TTableStart, TPing:
		default:
			x.t.Fatalf("unexpected message %v", m)
		}
	}
}
