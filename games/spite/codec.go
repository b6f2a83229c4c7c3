//lint:file-ignore ST1005 these errors are the sentences players read, capitalised and punctuated as the house rules ask

package spite

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"sshuffle/engine"
	"sshuffle/internal/wirejson"
)

// The codec of a table's actions and views, for a room that holds them as
// bytes. An action is written as a record's action without its seat
// ({"do":"play","from":"hand","card":"7H","to":2}); a view as JSON with
// cards in the records' two-character form. A decoder takes bytes from
// anyone: it never panics, and it refuses whatever is not a well-formed
// value of this game. What the rules decide (whether the card is in the
// hand, whether the stack takes it) is left to Do, which says why.

// errNoMove is the sentence for bytes that are no move of this game.
var errNoMove = errors.New("That is not a move of Spite and Malice.")

// maxCentres is the most centre stacks any settings give.
const maxCentres = 4

// EncodeAction writes a as a record's action without its seat.
func EncodeAction(a Action) ([]byte, error) {
	return RecordAction{Seat: engine.NoSeat, Action: a}.MarshalJSON()
}

// DecodeAction reads an action a seat sends: a play, a discard or a pass,
// in its canonical form. A reshuffle is the table's own entry, never a
// seat's, so it is refused.
func DecodeAction(b []byte) (Action, error) {
	var j jsonAction
	if err := json.Unmarshal(b, &j); err != nil {
		return Action{}, errNoMove
	}
	if j.Seat != nil || len(j.Stock) > 0 {
		return Action{}, errNoMove
	}
	card := func() (engine.Card, error) {
		c, err := engine.ParseRecordCard(j.Card)
		if err != nil {
			return engine.NoCard, errors.New("That move names no card.")
		}
		return c, nil
	}
	side := func() (int, error) {
		if j.Side == nil || *j.Side < 0 || *j.Side >= SideStacks {
			return 0, fmt.Errorf("A side stack is numbered 1 to %d.", SideStacks)
		}
		return *j.Side, nil
	}
	to := func() (int, error) {
		if j.To == nil || *j.To < 0 || *j.To >= maxCentres {
			return 0, fmt.Errorf("A centre stack is numbered 1 to %d.", maxCentres)
		}
		return *j.To, nil
	}
	switch j.Do {
	case Play:
		t, err := to()
		if err != nil {
			return Action{}, err
		}
		switch j.From {
		case FromHand:
			if j.Side != nil {
				return Action{}, errNoMove
			}
			c, err := card()
			return PlayHand(c, t), err
		case FromPayoff:
			if j.Card != "" || j.Side != nil {
				return Action{}, errNoMove
			}
			return PlayPayoff(t), nil
		case FromSide:
			if j.Card != "" {
				return Action{}, errNoMove
			}
			s, err := side()
			return PlaySide(s, t), err
		}
	case Discard:
		if j.From != "" || j.To != nil {
			return Action{}, errNoMove
		}
		c, err := card()
		if err != nil {
			return Action{}, err
		}
		s, err := side()
		return DiscardTo(c, s), err
	case Pass:
		if j.From != "" || j.Card != "" || j.Side != nil || j.To != nil {
			return Action{}, errNoMove
		}
		return Action{Do: Pass}, nil
	}
	return Action{}, errNoMove
}

type wireSeat struct {
	HandCount  int                          `json:"handCount"`
	PayoffTop  string                       `json:"payoffTop,omitempty"` // "" once the pile is empty
	PayoffLeft int                          `json:"payoffLeft"`
	Sides      [SideStacks]engine.WireCards `json:"sides"`
}

type wireView struct {
	Seat    int                `json:"seat"`
	Turn    int                `json:"turn"`
	Payoff  int                `json:"payoff"`
	Centres int                `json:"centres"`
	KingAce bool               `json:"kingAce"`
	Hand    engine.WireCards   `json:"hand"` // null for a spectator
	Players [2]wireSeat        `json:"players"`
	Stacks  []engine.WireCards `json:"stacks"`
	Stock   int                `json:"stock"`
	Recycle engine.WireCards   `json:"recycle"`
	Barren  int                `json:"barren"`
	Played  bool               `json:"played"`
	Over    bool               `json:"over"`
	Winner  int                `json:"winner"`
	Score   [2]int             `json:"score"`
}

// EncodeView writes a view: json.Marshal's bytes for its wireView,
// written by hand (a table encodes a view for every seat looked at, at
// every change, and encoding/json makes a value of each card list).
func EncodeView(v View) ([]byte, error) {
	b := make([]byte, 0, 384+5*(len(v.Hand)+len(v.Recycle)))
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(v.Seat), 10)
	b = append(b, `,"turn":`...)
	b = strconv.AppendInt(b, int64(v.Turn), 10)
	b = append(b, `,"payoff":`...)
	b = strconv.AppendInt(b, int64(v.Payoff), 10)
	b = append(b, `,"centres":`...)
	b = strconv.AppendInt(b, int64(v.Centres), 10)
	b = append(b, `,"kingAce":`...)
	b = strconv.AppendBool(b, v.KingAce)
	b = append(b, `,"hand":`...)
	b, err := wirejson.AppendCards(b, v.Hand)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"players":[`...)
	for p, sv := range v.Players {
		if p > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"handCount":`...)
		b = strconv.AppendInt(b, int64(sv.HandCount), 10)
		if sv.PayoffTop != engine.NoCard {
			top := sv.PayoffTop.ASCII()
			if !plainASCII(top) {
				return marshalView(v) // not reached: a card's form is letters and digits
			}
			b = append(b, `,"payoffTop":"`...)
			b = append(b, top...)
			b = append(b, '"')
		}
		b = append(b, `,"payoffLeft":`...)
		b = strconv.AppendInt(b, int64(sv.PayoffLeft), 10)
		b = append(b, `,"sides":[`...)
		for i, st := range sv.Sides {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = wirejson.AppendCards(b, st); err != nil {
				return nil, err
			}
		}
		b = append(b, "]}"...)
	}
	b = append(b, `],"stacks":`...)
	if v.Stacks == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, st := range v.Stacks {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = wirejson.AppendCards(b, st); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	b = append(b, `,"stock":`...)
	b = strconv.AppendInt(b, int64(v.Stock), 10)
	b = append(b, `,"recycle":`...)
	if b, err = wirejson.AppendCards(b, v.Recycle); err != nil {
		return nil, err
	}
	b = append(b, `,"barren":`...)
	b = strconv.AppendInt(b, int64(v.Barren), 10)
	b = append(b, `,"played":`...)
	b = strconv.AppendBool(b, v.Played)
	b = append(b, `,"over":`...)
	b = strconv.AppendBool(b, v.Over)
	b = append(b, `,"winner":`...)
	b = strconv.AppendInt(b, int64(v.Winner), 10)
	b = append(b, `,"score":[`...)
	b = strconv.AppendInt(b, int64(v.Score[0]), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(v.Score[1]), 10)
	return append(b, "]}"...), nil
}

// plainASCII: s is letters, digits and '-', which JSON writes as they are.
func plainASCII(s string) bool {
	for i := range len(s) {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '-') {
			return false
		}
	}
	return true
}

// marshalView is EncodeView through encoding/json, which the hand-written
// one matches byte for byte.
func marshalView(v View) ([]byte, error) {
	w := wireView{Seat: v.Seat, Turn: v.Turn, Payoff: v.Payoff, Centres: v.Centres, KingAce: v.KingAce,
		Hand: engine.WireCards(v.Hand), Stock: v.Stock, Recycle: engine.WireCards(v.Recycle), Barren: v.Barren,
		Played: v.Played, Over: v.Over, Winner: v.Winner, Score: v.Score}
	for p, sv := range v.Players {
		ws := wireSeat{HandCount: sv.HandCount, PayoffLeft: sv.PayoffLeft}
		if sv.PayoffTop != engine.NoCard {
			ws.PayoffTop = sv.PayoffTop.ASCII()
		}
		for i, st := range sv.Sides {
			ws.Sides[i] = engine.WireCards(st)
		}
		w.Players[p] = ws
	}
	if v.Stacks != nil {
		w.Stacks = make([]engine.WireCards, len(v.Stacks))
		for i, st := range v.Stacks {
			w.Stacks[i] = engine.WireCards(st)
		}
	}
	return json.Marshal(w)
}

// errBadView is the sentence for bytes that are no view of this game.
var errBadView = errors.New("That is not a view of a Spite and Malice table.")

// DecodeView reads a view, refusing one that no table of this game could
// show: a seat or a turn past the two, settings the game does not have,
// more cards than two packs hold.
func DecodeView(b []byte) (View, error) {
	w, ok := readWireView(b)
	if !ok {
		if err := json.Unmarshal(b, &w); err != nil {
			return View{}, errBadView
		}
	}
	seat := func(s int, none int) bool { return s == none || s == 0 || s == 1 }
	payoffs := []int{13, 20, 26, 30}
	switch {
	case !seat(w.Seat, engine.Spectator), !seat(w.Turn, engine.NoSeat), !seat(w.Winner, engine.NoSeat),
		!slices.Contains(payoffs, w.Payoff), w.Centres != 3 && w.Centres != maxCentres,
		len(w.Stacks) != w.Centres, (w.Hand == nil) != (w.Seat == engine.Spectator), len(w.Hand) > HandSize,
		w.Stock < 0, w.Barren < 0, w.Score[0] < 0, w.Score[1] < 0:
		return View{}, errBadView
	}
	v := View{Seat: w.Seat, Turn: w.Turn, Payoff: w.Payoff, Centres: w.Centres, KingAce: w.KingAce,
		Hand: []engine.Card(w.Hand), Stock: w.Stock, Recycle: []engine.Card(w.Recycle), Barren: w.Barren,
		Played: w.Played, Over: w.Over, Winner: w.Winner, Score: w.Score}
	cards := len(w.Hand) + len(w.Recycle) + w.Stock
	for p, ws := range w.Players {
		if ws.HandCount < 0 || ws.HandCount > HandSize || ws.PayoffLeft < 0 || ws.PayoffLeft > w.Payoff ||
			(ws.PayoffTop == "") != (ws.PayoffLeft == 0) {
			return View{}, errBadView
		}
		sv := SeatView{HandCount: ws.HandCount, PayoffLeft: ws.PayoffLeft}
		if ws.PayoffTop != "" {
			c, err := engine.ParseRecordCard(ws.PayoffTop)
			if err != nil {
				return View{}, errBadView
			}
			sv.PayoffTop = c
		}
		for i, st := range ws.Sides {
			sv.Sides[i] = []engine.Card(st)
			cards += len(st)
		}
		cards += ws.HandCount + ws.PayoffLeft
		v.Players[p] = sv
	}
	if w.Stacks != nil {
		v.Stacks = make([][]engine.Card, len(w.Stacks))
		for i, st := range w.Stacks {
			if len(st) > int(engine.Queen) {
				return View{}, errBadView
			}
			v.Stacks[i] = []engine.Card(st)
			cards += len(st)
		}
	}
	if w.Seat >= 0 && len(w.Hand) != w.Players[w.Seat].HandCount {
		return View{}, errBadView
	}
	// A seat's own hand is counted in its HandCount as well.
	if cards-len(w.Hand) > 104 {
		return View{}, errBadView
	}
	return v, nil
}

// readWireView reads a view in the very form EncodeView writes (every
// state a table pushes is), without encoding/json's reflection; ok is
// false for anything else, which json.Unmarshal then reads as it always
// has: what this reads, it reads as json.Unmarshal would.
func readWireView(b []byte) (w wireView, ok bool) {
	r := wirejson.NewReader(b)
	r.Lit(`{"seat":`)
	w.Seat = r.Int()
	r.Lit(`,"turn":`)
	w.Turn = r.Int()
	r.Lit(`,"payoff":`)
	w.Payoff = r.Int()
	r.Lit(`,"centres":`)
	w.Centres = r.Int()
	r.Lit(`,"kingAce":`)
	w.KingAce = r.Bool()
	r.Lit(`,"hand":`)
	w.Hand = r.Cards()
	r.Lit(`,"players":[`)
	for p := range w.Players {
		if p > 0 {
			r.Lit(",")
		}
		ws := &w.Players[p]
		r.Lit(`{"handCount":`)
		ws.HandCount = r.Int()
		if r.At(`,"payoffTop":`) {
			r.Lit(`,"payoffTop":`)
			ws.PayoffTop = r.Plain()
			if ws.PayoffTop == "" {
				return wireView{}, false // "" is written as no key at all
			}
		}
		r.Lit(`,"payoffLeft":`)
		ws.PayoffLeft = r.Int()
		r.Lit(`,"sides":[`)
		for i := range ws.Sides {
			if i > 0 {
				r.Lit(",")
			}
			ws.Sides[i] = r.Cards()
		}
		r.Lit("]}")
	}
	r.Lit(`],"stacks":`)
	if r.Next() == 'n' {
		r.Lit("null")
	} else {
		r.Lit("[")
		w.Stacks = []engine.WireCards{}
		for r.OK() && r.Next() != ']' {
			if len(w.Stacks) > 0 {
				r.Lit(",")
			}
			w.Stacks = append(w.Stacks, r.Cards())
		}
		r.Lit("]")
	}
	r.Lit(`,"stock":`)
	w.Stock = r.Int()
	r.Lit(`,"recycle":`)
	w.Recycle = r.Cards()
	r.Lit(`,"barren":`)
	w.Barren = r.Int()
	r.Lit(`,"played":`)
	w.Played = r.Bool()
	r.Lit(`,"over":`)
	w.Over = r.Bool()
	r.Lit(`,"winner":`)
	w.Winner = r.Int()
	r.Lit(`,"score":[`)
	w.Score[0] = r.Int()
	r.Lit(",")
	w.Score[1] = r.Int()
	r.Lit("]}")
	if !r.Done() {
		return wireView{}, false
	}
	return w, true
}
