package replay

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/store"
)

// tableTape replays a table game from its record: the position after i
// actions is the record cut to its first i actions, resumed by the game's
// kit, seen from one seat. A seat's view holds only what that seat may
// see; while the match the game belongs to goes on, the replay shows the
// viewer's own seat and nothing else, and once it is over any seat's (tab
// goes round them), so every hand can be looked at.
type tableTape struct {
	e       *ui.Env
	g       store.TableGame
	kit     engine.TableKit
	rec     map[string]json.RawMessage
	actions []json.RawMessage
	seat    int   // the seat seen from
	seats   []int // the seats that may be chosen
	draw    TableDrawing
}

// TableDrawing draws a seat's view of a finished table game as the seat's
// screen draws it (the arcade hands in the table screen's): note is the
// line under the table, over says the view is the game's end.
type TableDrawing func(e *ui.Env, g store.TableGame, note string, over bool, view any) (string, error)

func newTableTape(e *ui.Env, g store.TableGame, draw TableDrawing) (*tableTape, error) {
	kit, ok := e.Games.TableKit(g.Game)
	if !ok || draw == nil {
		return nil, fmt.Errorf("This server has no table game %q to replay.", g.Game)
	}
	t := &tableTape{e: e, g: g, kit: kit, seat: engine.Spectator, draw: draw}
	if err := json.Unmarshal(g.Record, &t.rec); err != nil {
		return nil, errors.New("This game's record is damaged: it cannot be replayed.")
	}
	if raw, ok := t.rec["actions"]; ok {
		if err := json.Unmarshal(raw, &t.actions); err != nil {
			return nil, errors.New("This game's record is damaged: it cannot be replayed.")
		}
	}
	for i, s := range g.Seats {
		if s.Account == e.Player.ID {
			t.seat = i
			break
		}
	}
	t.seats = MaySee(g, e.Player.ID)
	if len(t.seats) == 0 {
		return nil, errors.New("You were not seated at this table.")
	}
	if !contains(t.seats, t.seat) {
		t.seat = t.seats[0]
	}
	return t, nil
}

// MaySee are the seats whose view the account may replay g from: its own
// seat while the match goes on (a later game of the match is still to be
// played, or is in play, and another seat's hand is nothing they saw),
// every seat once the match is over.
func MaySee(g store.TableGame, account string) []int {
	mine := -1
	for i, s := range g.Seats {
		if s.Account == account && account != "" {
			mine = i
			break
		}
	}
	if mine < 0 {
		return nil
	}
	if !g.MatchEnd {
		return []int{mine}
	}
	out := make([]int, len(g.Seats))
	for i := range out {
		out[i] = i
	}
	return out
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (t *tableTape) ownHeader() {}

func (t *tableTape) steps() int { return len(t.actions) }

// at: a table record keeps no times.
func (t *tableTape) at(int) (time.Duration, bool) { return 0, false }

// game is the game after the record's first i actions.
func (t *tableTape) game(i int) (engine.TableGame, error) {
	rec := make(map[string]json.RawMessage, len(t.rec))
	for k, v := range t.rec {
		rec[k] = v
	}
	delete(rec, "result")
	cut, err := json.Marshal(t.actions[:i])
	if err != nil {
		return nil, err
	}
	rec["actions"] = cut
	line, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	spec, err := engine.ParseSpec(t.g.Spec)
	if err != nil {
		return nil, err
	}
	m, err := t.kit.ResumeMatch(spec, t.g.GameNo, make([]int, len(t.g.Seats)), line)
	if err != nil {
		return nil, err
	}
	return m.Game(), nil
}

// view is the seat's view after the record's first i actions.
func (t *tableTape) view(i int) (any, error) {
	g, err := t.game(i)
	if err != nil {
		return nil, err
	}
	return t.kit.DecodeView(g.View(t.seat))
}

// note is the line under the table: which game, from whose seat.
func (t *tableTape) note() string {
	who := "your seat"
	if t.seat != engine.Spectator && t.g.Seats[t.seat].Account != t.e.Player.ID {
		who = t.g.Seats[t.seat].Name + "'s seat"
	}
	return fmt.Sprintf("Replay of game %d at %s, from %s.", t.g.GameNo+1, t.g.Code, who)
}

// hands are, once the match is over, the other seats' hands, one line
// each, each from that seat's own view, so every hand shows at once; none
// before (only the viewer's own seat may be seen then).
func (t *tableTape) hands(g engine.TableGame) []string {
	if len(t.seats) < 2 {
		return nil
	}
	var out []string
	for _, seat := range t.seats {
		if seat == t.seat {
			continue
		}
		cards, ok := handOf(g.View(seat))
		if !ok {
			return nil
		}
		words := []string{t.g.Seats[seat].Name + "'s hand:"}
		for _, c := range cards {
			words = append(words, c.Label(t.e.Unicode))
		}
		if len(cards) == 0 {
			words = append(words, "no cards")
		}
		out = append(out, strings.Join(words, " "))
	}
	return out
}

// handOf is the hand in an encoded view: each table game's codec writes
// the seat's own hand as "hand", a list of record cards.
func handOf(view []byte) (engine.RecordCards, bool) {
	var v struct {
		Hand *engine.RecordCards `json:"hand"`
	}
	if json.Unmarshal(view, &v) != nil || v.Hand == nil {
		return nil, false
	}
	return *v.Hand, true
}

func (t *tableTape) body(i int) []string {
	g, err := t.game(i)
	var v any
	if err == nil {
		v, err = t.kit.DecodeView(g.View(t.seat))
	}
	if err != nil {
		t.e.Log.Error("replaying a table game", "code", t.g.Code, "error", err.Error())
		return []string{"", ui.ErrStyle.Render(fitWidth("This game's record does not replay at action "+fmt.Sprint(i)+".", t.e.Width))}
	}
	frame, err := t.draw(t.e, t.g, t.note(), i == len(t.actions), v)
	if err != nil {
		return []string{"", ui.ErrStyle.Render(fitWidth(err.Error(), t.e.Width))}
	}
	lines := splitLines(frame)
	// The table's own key bars are for playing: the replay's take their
	// place.
	lines = lines[:max(len(lines)-2, 0)]
	// The other hands go in the empty lines over the note, as many as fit.
	hands := t.hands(g)
	free := 0
	for k := len(lines) - 2; k >= 0 && strings.TrimSpace(lines[k]) == ""; k-- {
		free++
	}
	if len(hands) > 0 && free > 1 {
		hands = hands[:min(len(hands), free-1)]
		at := len(lines) - 1 - len(hands)
		for n, h := range hands {
			lines[at+n] = ui.FaintStyle.Render(fitWidth("  "+h, t.e.Width))
		}
	}
	return lines
}

func (t *tableTape) keys() []string {
	if len(t.seats) > 1 {
		return []string{"tab", "another seat"}
	}
	return nil
}

func (t *tableTape) key(k string) bool {
	if k != "tab" || len(t.seats) < 2 {
		return false
	}
	for i, s := range t.seats {
		if s == t.seat {
			t.seat = t.seats[(i+1)%len(t.seats)]
			return true
		}
	}
	return false
}
