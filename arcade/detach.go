package arcade

import (
	"fmt"
	"runtime/debug"
	"time"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/render"
)

// detached runs the app's commands so that one still waiting when the
// session ends cannot keep the ended program alive.
//
// Bubble Tea runs each command on a goroutine of its own that holds the
// program until the command returns and its message is sent (bubbletea
// tea.go:745-756, and execBatchMsg for batches). The app's idle check is a
// 30 s tea.Tick, so every ended program, screen buffers and all (18 MB at
// 400x200), stayed alive up to 30 s after its session: a client looping
// short sessions at the largest window took the server past 4 GB in a
// minute. Here each command runs on a goroutine of ours, and Bubble Tea's
// goroutine waits for it or for the end of the session, whichever comes
// first; a command that outlives the session keeps only itself.
type detached struct {
	app  tea.Model
	done <-chan struct{} // closed once the program has returned
}

func (d detached) Init() tea.Cmd { return detach(d.app.Init(), d.done) }

func (d detached) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := d.app.Update(msg)
	d.app = m
	return d, detach(cmd, d.done)
}

func (d detached) View() tea.View { return d.app.View() }

// ViewPieces passes the app's on to arcade/render.
func (d detached) ViewPieces(dst []string) (tea.View, []string) {
	if p, ok := d.app.(render.Pieced); ok {
		return p.ViewPieces(dst)
	}
	v := d.app.View()
	return v, append(dst, v.Content)
}

// NextChange passes the app's on to arcade/render.
func (d detached) NextChange() time.Duration {
	if t, ok := d.app.(render.Clocked); ok {
		return t.NextChange()
	}
	return 0
}

// detach wraps cmd as described on detached. The commands of a batch are
// wrapped too, since Bubble Tea runs them on goroutines of its own.
func detach(cmd tea.Cmd, done <-chan struct{}) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		type result struct {
			msg      tea.Msg
			panicked any
		}
		res := make(chan result, 1)
		go func() {
			defer func() {
				if r := recover(); r != nil {
					res <- result{panicked: fmt.Sprintf("%v\n\ncommand's goroutine:\n%s", r, debug.Stack())}
				}
			}()
			res <- result{msg: cmd()}
		}()
		select {
		case r := <-res:
			if r.panicked != nil {
				panic(r.panicked) // to Bubble Tea's recovery, as before
			}
			if b, ok := r.msg.(tea.BatchMsg); ok {
				out := make(tea.BatchMsg, len(b))
				for i, c := range b {
					out[i] = detach(c, done)
				}
				return out
			}
			return r.msg
		case <-done:
			return nil
		}
	}
}
