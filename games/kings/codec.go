//lint:file-ignore ST1005 these errors are the sentences players read, capitalised and punctuated as the house rules ask

package kings

import (
	"encoding/json"
	"errors"
	"strconv"

	"sshuffle/engine"
	"sshuffle/internal/wirejson"
)

// The codec of a table's actions and views, for a room that holds them as
// bytes. An action is written as a record's action without its seat
// ({"do":"play","card":"4H","to":"N"}); a view as JSON with cards in the
// records' two-character form. A decoder takes bytes from anyone: it never
// panics, and it refuses whatever is not a well-formed value of this game.
// What the rules decide (whether the card is in the hand, whether the pile
// takes it) is left to Do, which says why.

var (
	errNoMove  = errors.New("That is not a move of Kings in the Corner.")
	errBadView = errors.New("That is not a view of a Kings in the Corner table.")
)

type wireAction struct {
	Do   string `json:"do"`
	Card string `json:"card,omitempty"`
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// EncodeAction writes a as a record's action without its seat.
func EncodeAction(a Action) ([]byte, error) {
	ra := recordAction(engine.Acted[Action]{Action: a})
	if ra.Do == "" {
		return nil, errNoMove
	}
	return json.Marshal(wireAction{Do: ra.Do, Card: ra.Card, From: ra.From, To: ra.To})
}

// DecodeAction reads an action a seat sends, in its canonical form.
func DecodeAction(b []byte) (Action, error) {
	var w wireAction
	if err := json.Unmarshal(b, &w); err != nil {
		return Action{}, errNoMove
	}
	switch {
	case w.Do == "play" && w.From != "",
		w.Do == "move" && w.Card != "",
		w.Do == "end" && (w.Card != "" || w.From != "" || w.To != ""):
		return Action{}, errNoMove
	}
	a, err := RecordAction{Do: w.Do, Card: w.Card, From: w.From, To: w.To}.action()
	if err != nil {
		return Action{}, errNoMove
	}
	return a, nil
}

type wireView struct {
	Seat        int                         `json:"seat"`
	Turn        int                         `json:"turn"`
	Hand        engine.WireCards            `json:"hand"` // null for a spectator
	Piles       [numPlaces]engine.WireCards `json:"piles"`
	Stock       int                         `json:"stock"`
	Hands       []int                       `json:"hands"`
	First       int                         `json:"first"`
	TurnNo      int                         `json:"turnNo"`
	Step        int                         `json:"step"`
	Played      bool                        `json:"played"`
	Idle        int                         `json:"idle"`
	DrawEnd     bool                        `json:"drawEnd"`
	KingsAtOnce bool                        `json:"kingsAtOnce"`
	Over        bool                        `json:"over"`
	Out         int                         `json:"out"`
	Penalty     []int                       `json:"penalty"`
}

// EncodeView writes a view: json.Marshal's bytes for its wireView,
// written by hand (a table encodes a view for every seat looked at, at
// every change, and encoding/json makes a value of each card list).
func EncodeView(v View) ([]byte, error) {
	n := 240 + 5*len(v.Hand)
	for _, p := range v.Piles {
		n += 5 * len(p)
	}
	b := make([]byte, 0, n)
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(v.Seat), 10)
	b = append(b, `,"turn":`...)
	b = strconv.AppendInt(b, int64(v.Turn), 10)
	b = append(b, `,"hand":`...)
	b, err := wirejson.AppendCards(b, v.Hand)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"piles":[`...)
	for i, p := range v.Piles {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = wirejson.AppendCards(b, p); err != nil {
			return nil, err
		}
	}
	b = append(b, `],"stock":`...)
	b = strconv.AppendInt(b, int64(v.Stock), 10)
	b = append(b, `,"hands":`...)
	b = wirejson.AppendInts(b, v.Hands)
	b = append(b, `,"first":`...)
	b = strconv.AppendInt(b, int64(v.First), 10)
	b = append(b, `,"turnNo":`...)
	b = strconv.AppendInt(b, int64(v.TurnNo), 10)
	b = append(b, `,"step":`...)
	b = strconv.AppendInt(b, int64(v.Step), 10)
	b = append(b, `,"played":`...)
	b = strconv.AppendBool(b, v.Played)
	b = append(b, `,"idle":`...)
	b = strconv.AppendInt(b, int64(v.Idle), 10)
	b = append(b, `,"drawEnd":`...)
	b = strconv.AppendBool(b, v.DrawEnd)
	b = append(b, `,"kingsAtOnce":`...)
	b = strconv.AppendBool(b, v.KingsAtOnce)
	b = append(b, `,"over":`...)
	b = strconv.AppendBool(b, v.Over)
	b = append(b, `,"out":`...)
	b = strconv.AppendInt(b, int64(v.Out), 10)
	b = append(b, `,"penalty":`...)
	b = wirejson.AppendInts(b, v.Penalty)
	return append(b, '}'), nil
}

// DecodeView reads a view, refusing one that no table of this game could
// show: a seat count the game does not have, a seat or a turn past the
// table, more cards than the pack holds.
func DecodeView(b []byte) (View, error) {
	w, ok := readWireView(b)
	if !ok {
		if err := json.Unmarshal(b, &w); err != nil {
			return View{}, errBadView
		}
	}
	n := len(w.Hands)
	seat := func(s, none int) bool { return s == none || (s >= 0 && s < n) }
	switch {
	case n < MinPlayers || n > MaxPlayers,
		!seat(w.Seat, engine.Spectator), !seat(w.Turn, engine.NoSeat), !seat(w.Out, engine.NoSeat),
		w.First < 0 || w.First >= n, (w.Hand == nil) != (w.Seat == engine.Spectator),
		w.Penalty != nil && len(w.Penalty) != n,
		w.Stock < 0, w.TurnNo < 0, w.Step < 0, w.Idle < 0:
		return View{}, errBadView
	}
	cards := w.Stock
	for _, h := range w.Hands {
		if h < 0 {
			return View{}, errBadView
		}
		cards += h
	}
	if w.Seat >= 0 && len(w.Hand) != w.Hands[w.Seat] {
		return View{}, errBadView
	}
	for _, p := range w.Penalty {
		if p < 0 {
			return View{}, errBadView
		}
	}
	v := View{Seat: w.Seat, Turn: w.Turn, Hand: Cards(w.Hand), Stock: w.Stock, Hands: w.Hands, First: w.First,
		TurnNo: w.TurnNo, Step: w.Step, Played: w.Played, Idle: w.Idle, DrawEnd: w.DrawEnd,
		KingsAtOnce: w.KingsAtOnce, Over: w.Over, Out: w.Out, Penalty: w.Penalty}
	for i, p := range w.Piles {
		if len(p) > int(engine.King) {
			return View{}, errBadView
		}
		v.Piles[i] = Cards(p)
		cards += len(p)
	}
	if cards > 52 {
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
	r.Lit(`,"hand":`)
	w.Hand = r.Cards()
	r.Lit(`,"piles":[`)
	for i := range w.Piles {
		if i > 0 {
			r.Lit(",")
		}
		w.Piles[i] = r.Cards()
	}
	r.Lit(`],"stock":`)
	w.Stock = r.Int()
	r.Lit(`,"hands":`)
	w.Hands = r.Ints()
	r.Lit(`,"first":`)
	w.First = r.Int()
	r.Lit(`,"turnNo":`)
	w.TurnNo = r.Int()
	r.Lit(`,"step":`)
	w.Step = r.Int()
	r.Lit(`,"played":`)
	w.Played = r.Bool()
	r.Lit(`,"idle":`)
	w.Idle = r.Int()
	r.Lit(`,"drawEnd":`)
	w.DrawEnd = r.Bool()
	r.Lit(`,"kingsAtOnce":`)
	w.KingsAtOnce = r.Bool()
	r.Lit(`,"over":`)
	w.Over = r.Bool()
	r.Lit(`,"out":`)
	w.Out = r.Int()
	r.Lit(`,"penalty":`)
	w.Penalty = r.Ints()
	r.Lit("}")
	if !r.Done() {
		return wireView{}, false
	}
	return w, true
}
