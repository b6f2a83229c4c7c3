package kings

import (
	"sshuffle/engine"
)

// Cards is a list of cards written as the record's two-character strings.
type Cards = engine.RecordCards

func parseCard(s string) (engine.Card, error) { return engine.ParseRecordCard(s) }

// View is what one seat may see: its own hand, every pile (all face up),
// how many cards the stock and each hand hold, and the public state of the
// turn. The spectator's view has no hand. Nothing else is in it, so a
// screen or a computer player built on it cannot show or use a hidden card.
type View struct {
	Seat  int              `json:"seat"`
	Turn  int              `json:"turn"` // engine.NoSeat once the hand is over
	Hand  Cards            `json:"hand,omitempty"`
	Piles [numPlaces]Cards `json:"piles"` // N E S W NE SE SW NW, bottom first
	Stock int              `json:"stock"`
	Hands []int            `json:"hands"` // cards held, per seat
	First int              `json:"first"`
	// TurnNo counts the turns of the hand, Step the actions of this turn:
	// together they say where in the hand the view is.
	TurnNo int `json:"turnNo"`
	Step   int `json:"step"`
	// Played says the seat to play has moved a card or pile this turn;
	// Idle counts the turns in a row that drew and played nothing (the
	// hand ends when it reaches the number of seats).
	Played      bool  `json:"played"`
	Idle        int   `json:"idle"`
	DrawEnd     bool  `json:"drawEnd"`
	KingsAtOnce bool  `json:"kingsAtOnce"`
	Over        bool  `json:"over"`
	Out         int   `json:"out"`               // the seat that went out, or engine.NoSeat
	Penalty     []int `json:"penalty,omitempty"` // once the hand is over
}

// View builds seat's view (engine.Spectator for the public one) from the
// state, copying only what that seat may see.
func (g *Game) View(seat int) View {
	st := &g.st
	v := View{
		Seat:        seat,
		Turn:        g.Turn(),
		Stock:       int(st.nStock),
		Hands:       make([]int, st.players),
		First:       int(st.first),
		TurnNo:      int(st.turnNo),
		Step:        int(st.step),
		Played:      st.played,
		Idle:        int(st.idle),
		DrawEnd:     g.drawEnd,
		KingsAtOnce: g.kingsAtOnce,
		Over:        st.over,
		Out:         int(st.out),
	}
	// One array holds every card of the view, each list a part of it
	// with no room past its end: a view is built for each seat looked at
	// with every state a table sends.
	n := 0
	for p := range v.Piles {
		n += int(st.board[p].n)
	}
	own := seat >= 0 && seat < int(st.players)
	if own {
		n += int(st.hands[seat].n)
	}
	buf := make(Cards, 0, n)
	if own {
		v.Hand, buf = carve(buf, st.hands[seat].cards())
	} else {
		v.Seat = engine.Spectator
	}
	for p := range v.Piles {
		v.Piles[p], buf = carve(buf, st.board[p].cards())
	}
	for s := range v.Hands {
		v.Hands[s] = int(st.hands[s].n)
	}
	if st.over {
		v.Penalty = g.penalties()
	}
	return v
}

// carve copies cs onto the end of buf, and returns the copy, full to its
// capacity so that an append to it never writes into buf, and buf.
func carve(buf Cards, cs []engine.Card) (Cards, Cards) {
	start := len(buf)
	buf = append(buf, cs...)
	return buf[start:len(buf):len(buf)], buf
}

// boardOf rebuilds the piles from a view, for the computer players.
func (v *View) boardOf() board {
	var b board
	for p, cs := range v.Piles {
		b[p].n = uint8(copy(b[p].c[:], cs))
	}
	return b
}

// Legal is what the seat of the view may do now, worked out from the view
// alone: Game.Legal for that seat, for a screen that offers a card's
// places without the game.
func (v View) Legal() []Action {
	if v.Over || v.Seat < 0 || v.Seat != v.Turn {
		return nil
	}
	b := v.boardOf()
	var h hand
	h.n = uint8(copy(h.c[:], v.Hand))
	return legal(&b, &h, v.KingsAtOnce, nil)
}
