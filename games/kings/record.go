package kings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"sshuffle/engine"
)

// Start is a record's "start": the deal as docs/tablegames.md writes it. Hands
// are in dealt order, the stock top first (its first card is drawn next).
type Start struct {
	Hands []Cards    `json:"hands"`
	Piles StartPiles `json:"piles"`
	Stock Cards      `json:"stock"`
	First int        `json:"first"`
}

func (s Start) clone() Start {
	c := s
	c.Hands = make([]Cards, len(s.Hands))
	for i, h := range s.Hands {
		c.Hands[i] = slices.Clone(h)
	}
	c.Stock = slices.Clone(s.Stock)
	return c
}

// StartPiles are the four face-up cards dealt to N, E, S, W.
type StartPiles struct {
	N, E, S, W engine.Card
}

func (p StartPiles) list() [4]engine.Card { return [4]engine.Card{p.N, p.E, p.S, p.W} }

func (p StartPiles) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, `{"N":%q,"E":%q,"S":%q,"W":%q}`, p.N.ASCII(), p.E.ASCII(), p.S.ASCII(), p.W.ASCII()), nil
}

func (p *StartPiles) UnmarshalJSON(data []byte) error {
	var m map[string]string
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	if len(m) != 4 {
		return fmt.Errorf("the start's piles must be N, E, S and W")
	}
	var out [4]engine.Card
	for i, k := range []string{"N", "E", "S", "W"} {
		s, ok := m[k]
		if !ok {
			return fmt.Errorf("the start's piles have no %s", k)
		}
		c, err := parseCard(s)
		if err != nil {
			return err
		}
		out[i] = c
	}
	*p = StartPiles{out[0], out[1], out[2], out[3]}
	return nil
}

// RecordSettings are the record's "settings". A record always writes all
// three keys; a reader takes a missing key as its default and accepts
// kingsAtOnce and match as JSON strings or as a bool and a number.
type RecordSettings struct {
	Draw        string `json:"draw"`
	KingsAtOnce bool   `json:"kingsAtOnce"`
	Match       string `json:"match"`
}

func (r RecordSettings) text() string {
	return fmt.Sprintf("draw=%s,kingsAtOnce=%t,match=%s", r.Draw, r.KingsAtOnce, r.Match)
}

func (r *RecordSettings) UnmarshalJSON(data []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	vals := map[string]string{}
	for k, raw := range m {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			s = string(bytes.TrimSpace(raw))
		}
		vals[k] = s
	}
	var parts []string
	for k, v := range vals {
		parts = append(parts, k+"="+v)
	}
	canon, err := engine.NormalizeSettings(strings.Join(parts, ","), Settings)
	if err != nil {
		return fmt.Errorf("settings: %v", err)
	}
	cm, _ := engine.ParseSettings(canon)
	get := func(k, def string) string {
		if v, ok := cm[k]; ok {
			return v
		}
		return def
	}
	*r = RecordSettings{Draw: get("draw", "start"), KingsAtOnce: get("kingsAtOnce", "false") == "true", Match: get("match", "hand")}
	return nil
}

// RecordAction is one action as a record writes it, with its seat.
type RecordAction struct {
	Seat int    `json:"seat"`
	Do   string `json:"do"`
	Card string `json:"card,omitempty"`
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// RecordResult is how the hand ended: Out is null when nobody went out.
type RecordResult struct {
	Out     *int  `json:"out"`
	Penalty []int `json:"penalty"`
}

// Record is one finished hand as a docs/tablegames.md record line.
type Record struct {
	Game     string         `json:"game"`
	Settings RecordSettings `json:"settings"`
	Seats    []string       `json:"seats"`
	Start    Start          `json:"start"`
	Actions  []RecordAction `json:"actions"`
	Result   RecordResult   `json:"result"`
}

func recordAction(e engine.Acted[Action]) RecordAction {
	ra := RecordAction{Seat: e.Seat}
	switch e.Action.Do {
	case Play:
		ra.Do, ra.Card, ra.To = "play", e.Action.Card.ASCII(), e.Action.To.String()
	case Move:
		ra.Do, ra.From, ra.To = "move", e.Action.From.String(), e.Action.To.String()
	case End:
		ra.Do = "end"
	}
	return ra
}

func (ra RecordAction) action() (Action, error) {
	place := func(s string) (Place, error) {
		p, ok := ParsePlace(s)
		if !ok {
			return 0, fmt.Errorf("%q is not a place (N, E, S, W, NE, SE, SW, NW)", s)
		}
		return p, nil
	}
	switch ra.Do {
	case "play":
		c, err := parseCard(ra.Card)
		if err != nil {
			return Action{}, err
		}
		to, err := place(ra.To)
		return Action{Do: Play, Card: c, To: to}, err
	case "move":
		from, err := place(ra.From)
		if err != nil {
			return Action{}, err
		}
		to, err := place(ra.To)
		return Action{Do: Move, From: from, To: to}, err
	case "end":
		return Action{Do: End}, nil
	}
	return Action{}, fmt.Errorf("%q is not a Kings in the Corner action", ra.Do)
}

// Record writes the hand as a record line's value; seats names each seat's
// player ("easy", "normal", "hard" or "person").
func (g *Game) Record(seats []string) Record {
	rec := g.RecordHead(seats)
	rec.Actions = make([]RecordAction, 0, len(g.hist))
	for i := range g.hist {
		rec.Actions = append(rec.Actions, g.RecordAction(i))
	}
	return rec
}

// RecordAction is history entry i as a record writes it.
func (g *Game) RecordAction(i int) RecordAction { return recordAction(g.hist[i]) }

// RecordHead is Record without the actions (nil, marshalled as null): a
// caller that keeps the actions' JSON as the hand goes writes only the
// rest again.
func (g *Game) RecordHead(seats []string) Record {
	m, _ := engine.ParseSettings(g.spec.Settings)
	get := func(k, def string) string {
		if v, ok := m[k]; ok {
			return v
		}
		return def
	}
	rec := Record{
		Game:     Name,
		Settings: RecordSettings{Draw: get("draw", "start"), KingsAtOnce: get("kingsAtOnce", "false") == "true", Match: get("match", "hand")},
		Seats:    slices.Clone(seats),
		Start:    g.start.clone(),
	}
	if res, over := g.Over(); over {
		rec.Result.Penalty = res.Points
		if res.Winner != engine.NoSeat {
			out := res.Winner
			rec.Result.Out = &out
		}
	}
	return rec
}

// Replay checks one record line against these rules, starting from its
// deal: nil when every action is legal and the hand ends as the record
// says.
func Replay(line []byte) error {
	var rec Record
	if err := json.Unmarshal(line, &rec); err != nil {
		return fmt.Errorf("not a record: %v", err)
	}
	if rec.Game != Name {
		return fmt.Errorf("the record is of %q, not %q", rec.Game, Name)
	}
	if len(rec.Seats) != len(rec.Start.Hands) {
		return fmt.Errorf("the record names %d seats and deals %d hands", len(rec.Seats), len(rec.Start.Hands))
	}
	g, err := replayActions(rec)
	if err != nil {
		return err
	}
	res, over := g.Over()
	if !over {
		return fmt.Errorf("after %d actions the hand is not over", len(rec.Actions))
	}
	outText := func(o *int) string {
		if o == nil {
			return "nobody"
		}
		return "seat " + strconv.Itoa(*o)
	}
	var out *int
	if res.Winner != engine.NoSeat {
		out = &res.Winner
	}
	if outText(out) != outText(rec.Result.Out) {
		return fmt.Errorf("the record says %s went out; replayed, %s did", outText(rec.Result.Out), outText(out))
	}
	if !slices.Equal(res.Points, rec.Result.Penalty) {
		return fmt.Errorf("the record's penalties are %v; replayed, they are %v", rec.Result.Penalty, res.Points)
	}
	return nil
}

func replayActions(rec Record) (*Game, error) {
	g, err := FromStart(rec.Settings.text(), len(rec.Start.Hands), rec.Start)
	if err != nil {
		return nil, fmt.Errorf("start: %v", err)
	}
	for i, ra := range rec.Actions {
		js, _ := json.Marshal(ra)
		a, err := ra.action()
		if err != nil {
			return nil, fmt.Errorf("action %d %s: %v", i, js, err)
		}
		if err := g.Do(ra.Seat, a); err != nil {
			return nil, fmt.Errorf("action %d %s: %v", i, js, err)
		}
	}
	return g, nil
}

// Resume rebuilds a hand in progress from its record so far (what Record
// writes before the end), replaying it from its start: this is how a
// table survives a restart without depending on the deal code staying the
// same.
func Resume(line []byte) (*Game, error) {
	var rec Record
	if err := json.Unmarshal(line, &rec); err != nil {
		return nil, fmt.Errorf("not a record: %v", err)
	}
	if rec.Game != Name {
		return nil, fmt.Errorf("the record is of %q, not %q", rec.Game, Name)
	}
	if len(rec.Seats) != len(rec.Start.Hands) {
		return nil, fmt.Errorf("the record names %d seats and deals %d hands", len(rec.Seats), len(rec.Start.Hands))
	}
	return replayActions(rec)
}
