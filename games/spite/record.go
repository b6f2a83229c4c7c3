package spite

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"sshuffle/engine"
)

// Cards is a list of cards written as the record's two-character strings.
type Cards = engine.RecordCards

func parseCard(s string) (engine.Card, error) { return engine.ParseRecordCard(s) }

func asciiList(cs []engine.Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.ASCII()
	}
	return strings.Join(parts, " ")
}

func parseList(s string) (Cards, error) {
	var out Cards
	for _, f := range strings.Fields(s) {
		c, err := parseCard(f)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Start is a record's deal: the deal after any tie-break. Pay-off piles and
// hands are bottom first (a pile's last card is its top); the stock is top
// first.
type Start struct {
	Payoff []Cards `json:"payoff"`
	Hands  []Cards `json:"hands"`
	Stock  Cards   `json:"stock"`
	First  int     `json:"first"`
}

func (s Start) clone() Start {
	c := Start{Stock: slices.Clone(s.Stock), First: s.First}
	for _, p := range s.Payoff {
		c.Payoff = append(c.Payoff, slices.Clone(p))
	}
	for _, h := range s.Hands {
		c.Hands = append(c.Hands, slices.Clone(h))
	}
	return c
}

// RecordSettings are a record's settings, written with every key and
// typed as docs/tablegames.md shows them (numbers, a boolean, a string).
type RecordSettings struct {
	Payoff  int    `json:"payoff"`
	Centres int    `json:"centres"`
	KingAce bool   `json:"kingAce"`
	Match   string `json:"match"`
}

// UnmarshalJSON reads any program's settings: a missing key is its default,
// and a value may be given as a JSON string as well as typed.
func (rs *RecordSettings) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	text, err := settingsText(m)
	if err != nil {
		return err
	}
	r, _, err := parseRules(text)
	if err != nil {
		return err
	}
	*rs = recordSettings(r)
	return nil
}

func settingsText(m map[string]json.RawMessage) (string, error) {
	kv := map[string]string{}
	for k, raw := range m {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			s = strings.TrimSpace(string(raw))
		}
		kv[k] = s
	}
	return engine.CanonicalSettings(kv, nil), nil
}

func recordSettings(r rules) RecordSettings {
	rs := RecordSettings{Payoff: r.payoff, Centres: r.centres, KingAce: r.kingAce, Match: "single"}
	if r.target > 0 {
		rs.Match = strconv.Itoa(r.target)
	}
	return rs
}

func (rs RecordSettings) text() string {
	return fmt.Sprintf("centres=%d,kingAce=%t,match=%s,payoff=%d", rs.Centres, rs.KingAce, rs.Match, rs.Payoff)
}

// RecordAction is one entry of a record's "actions": a seat's action, or a
// reshuffle, which has no seat.
type RecordAction struct {
	Seat   int // engine.NoSeat for a reshuffle
	Action Action
}

type jsonAction struct {
	Seat  *int   `json:"seat,omitempty"`
	Do    string `json:"do"`
	From  string `json:"from,omitempty"`
	Card  string `json:"card,omitempty"`
	Side  *int   `json:"side,omitempty"`
	To    *int   `json:"to,omitempty"`
	Stock Cards  `json:"stock,omitempty"`
}

func (ra RecordAction) MarshalJSON() ([]byte, error) {
	a := ra.Action
	j := jsonAction{Do: a.Do}
	if ra.Seat != engine.NoSeat {
		j.Seat = &ra.Seat
	}
	switch a.Do {
	case Play:
		j.From, j.To = a.From, &a.To
		switch a.From {
		case FromHand:
			j.Card = a.Card.ASCII()
		case FromSide:
			j.Side = &a.Side
		}
	case Discard:
		j.Card, j.Side = a.Card.ASCII(), &a.Side
	case Reshuffle:
		cs, err := parseList(a.Stock)
		if err != nil {
			return nil, err
		}
		j.Stock = cs
	}
	return json.Marshal(j)
}

func (ra *RecordAction) UnmarshalJSON(b []byte) error {
	var j jsonAction
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	out := RecordAction{Seat: engine.NoSeat, Action: Action{Do: j.Do, From: j.From}}
	if j.Seat != nil {
		out.Seat = *j.Seat
	}
	if j.Card != "" {
		c, err := parseCard(j.Card)
		if err != nil {
			return err
		}
		out.Action.Card = c
	}
	if j.Side != nil {
		out.Action.Side = *j.Side
	}
	if j.To != nil {
		out.Action.To = *j.To
	}
	if j.Do == Reshuffle {
		out.Action.Stock = asciiList(j.Stock)
	}
	*ra = out
	return nil
}

// Result is a record's "result"; Winner is nil for a drawn stalemate.
type Result struct {
	Winner *int  `json:"winner"`
	Score  []int `json:"score"`
}

// Record is one game as a docs/tablegames.md record line.
type Record struct {
	Game     string         `json:"game"`
	Settings RecordSettings `json:"settings"`
	Seats    []string       `json:"seats"`
	Start    Start          `json:"start"`
	Actions  []RecordAction `json:"actions"`
	Result   Result         `json:"result"`
}

// Record writes the game with the given seat names ("easy", "normal",
// "hard" or "person"). A game not yet over gets a result with no winner
// and no points, which Replay refuses: a record is of a finished game.
func (g *Game) Record(seats []string) Record {
	rec := g.RecordHead(seats)
	rec.Actions = make([]RecordAction, len(g.history))
	for i := range g.history {
		rec.Actions[i] = g.RecordAction(i)
	}
	return rec
}

// RecordAction is history entry i as a record writes it.
func (g *Game) RecordAction(i int) RecordAction {
	h := g.history[i]
	return RecordAction{Seat: h.Seat, Action: h.Action}
}

// RecordHead is Record without the actions (nil, marshalled as null): a
// caller that keeps the actions' JSON as the game goes writes only the
// rest again.
func (g *Game) RecordHead(seats []string) Record {
	rec := Record{Game: Name, Settings: recordSettings(g.r), Seats: slices.Clone(seats), Start: g.start.clone()}
	res, _ := g.Over()
	rec.Result = resultOf(res)
	return rec
}

func resultOf(res engine.TableResult) Result {
	r := Result{Score: res.Points}
	if res.Winner != engine.NoSeat {
		w := res.Winner
		r.Winner = &w
	}
	return r
}

// Replay replays one record line with these rules from its start, taking
// each reshuffle's order from the record.
func Replay(line []byte) error {
	g, rec, err := replayRecord(line)
	if err != nil {
		return err
	}
	res, over := g.Over()
	if !over {
		return errors.New("the record ends before the game does")
	}
	got := resultOf(res)
	if !sameResult(got, rec.Result) {
		gj, _ := json.Marshal(got)
		rj, _ := json.Marshal(rec.Result)
		return fmt.Errorf("the game ends with result %s, the record says %s", gj, rj)
	}
	return nil
}

// Resume rebuilds a game in progress from its record so far (what Record
// writes before the end): from the start, every reshuffle taken from the
// record as Replay does. This is how a table survives a restart without
// depending on the deal code staying the same. Reshuffles after the
// record's last action come from the generator FromStart seeds.
func Resume(line []byte) (*Game, error) {
	g, _, err := replayRecord(line)
	if err != nil {
		return nil, err
	}
	g.replaying, g.queue = false, nil
	return g, nil
}

func replayRecord(line []byte) (*Game, Record, error) {
	// Settings left out of a record are all defaults.
	rec := Record{Settings: recordSettings(rules{payoff: 20, centres: 4})}
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&rec); err != nil {
		return nil, rec, fmt.Errorf("the record does not read: %v", err)
	}
	if rec.Game != Name {
		return nil, rec, fmt.Errorf("the record is of %q, not %q", rec.Game, Name)
	}
	if len(rec.Seats) != 2 {
		return nil, rec, fmt.Errorf("the record has %d seats; Spite and Malice has two", len(rec.Seats))
	}
	g, err := FromStart(rec.Settings.text(), 2, rec.Start)
	if err != nil {
		return nil, rec, fmt.Errorf("the start: %v", err)
	}
	g.replaying = true
	for _, ra := range rec.Actions {
		if ra.Seat == engine.NoSeat && ra.Action.Do == Reshuffle {
			cs, err := parseList(ra.Action.Stock)
			if err != nil {
				return nil, rec, err
			}
			g.queue = append(g.queue, cs)
		}
	}
	for i, ra := range rec.Actions {
		js, _ := json.Marshal(ra)
		if ra.Seat == engine.NoSeat && ra.Action.Do == Reshuffle {
			// The reshuffle was made by the draw of an earlier action; it
			// must sit in the record right where that draw needed it.
			if i >= len(g.history) || g.history[i].Action.Do != Reshuffle || g.history[i].Action.Stock != ra.Action.Stock {
				return nil, rec, fmt.Errorf("action %d %s: no draw needs the recycle pile shuffled here", i, js)
			}
			continue
		}
		if len(g.history) != i {
			return nil, rec, fmt.Errorf("action %d %s: the draw before it shuffled the recycle pile, and the record has no reshuffle there", i, js)
		}
		if err := g.Do(ra.Seat, ra.Action); err != nil {
			return nil, rec, fmt.Errorf("action %d %s: %v", i, js, err)
		}
	}
	if len(g.history) != len(rec.Actions) {
		return nil, rec, fmt.Errorf("the last action's draw shuffled the recycle pile, and the record has no reshuffle there")
	}
	return g, rec, nil
}

func sameResult(a, b Result) bool {
	if (a.Winner == nil) != (b.Winner == nil) || (a.Winner != nil && *a.Winner != *b.Winner) {
		return false
	}
	return slices.Equal(a.Score, b.Score)
}
