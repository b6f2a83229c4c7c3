package replay

import (
	"errors"
	"fmt"
	"time"

	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/board"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/store"
)

// solitaireTape replays a solitaire from its deal and kept moves.
type solitaireTape struct {
	e     *ui.Env
	info  games.Entry
	spec  engine.Spec
	opts  games.Options
	acts  []engine.Action
	times []time.Duration
	note  string // said under the board

	g   engine.Solitaire
	cur int // the moves g has made
	bad int // the first move that does not replay (1-based); 0: none
}

func newSolitaireTape(e *ui.Env, r store.Result) (*solitaireTape, error) {
	info, spec, err := e.Games.Lookup(mustSpec(r.Spec))
	if err != nil || info.AtTable() || !info.Playable() {
		return nil, fmt.Errorf("This server has no game %q to replay.", r.Spec)
	}
	t := &solitaireTape{e: e, info: info, spec: spec, acts: r.Actions, times: r.Times, opts: info.Defaults()}
	for k, v := range r.Options {
		t.opts[k] = v
	}
	if len(r.Actions) == 0 {
		t.note = "Only the deal: the moves of games played before history was kept were not stored."
		if r.Moves > store.MaxActions {
			t.note = fmt.Sprintf("Only the deal: a game of more than %d moves keeps none.", store.MaxActions)
		}
	}
	if err := t.reset(); err != nil {
		return nil, err
	}
	return t, nil
}

func mustSpec(s string) engine.Spec {
	spec, err := engine.ParseSpec(s)
	if err != nil {
		return engine.Spec{Game: "?"}
	}
	return spec
}

func (t *solitaireTape) reset() error {
	g, err := t.info.Game.New(t.spec, t.opts)
	if err != nil {
		return errors.New("The deal of this game cannot be dealt again.")
	}
	t.g, t.cur = g, 0
	return nil
}

func (t *solitaireTape) steps() int { return len(t.acts) }

func (t *solitaireTape) at(i int) (time.Duration, bool) {
	if i < 1 || i > len(t.times) {
		return 0, false
	}
	return t.times[i-1], true
}

// seek brings the game to position i: forward by its moves, back by undo.
func (t *solitaireTape) seek(i int) {
	for t.cur > i && t.g.Undo() {
		t.cur--
	}
	if t.cur > i {
		_ = t.reset()
	}
	for t.cur < i && (t.bad == 0 || t.cur+1 < t.bad) {
		if err := t.g.Do(t.acts[t.cur]); err != nil {
			t.bad = t.cur + 1
			return
		}
		t.cur++
	}
}

func (t *solitaireTape) body(i int) []string {
	t.seek(i)
	e := t.e
	piles := t.g.Piles()
	bw, _ := board.Size(piles)
	bv := board.View{Unicode: e.Unicode, Color: e.Color, OffsetX: max((e.Width-bw)/2, 0)}
	c := bv.Render(piles, min(e.Width, 200), max(e.Height-5, 1), nil)
	lines := splitLines(c.String(bv.Palette()))
	msg := fmt.Sprintf("Deal #%d  score %d  moves %d", t.spec.Seed, t.g.Score(), t.g.Moves())
	tone := ui.ToneInfo
	switch {
	case t.bad > 0 && i >= t.bad:
		msg, tone = fmt.Sprintf("Move %d does not replay on this deal: the replay stops before it.", t.bad), ui.ToneErr
	case t.note != "":
		msg = t.note
	case t.g.Won():
		msg, tone = "Won.", ui.ToneOK
	}
	return append(lines, tone.Style().Render(fitWidth(msg, e.Width)))
}

func (t *solitaireTape) keys() []string  { return nil }
func (t *solitaireTape) key(string) bool { return false }
