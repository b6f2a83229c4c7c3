package spite

import (
	"slices"

	"sshuffle/engine"
)

// View is what one seat may see. It is built field by field from the
// public places and the seat's own hand: the opponent's hand, the pay-off
// cards under the tops and the stock order are never copied into it.
type View struct {
	Seat    int // whose view: 0, 1, or engine.Spectator
	Turn    int // the seat to act, engine.NoSeat once over
	Payoff  int // the table's settings, so a player needs nothing else
	Centres int
	KingAce bool
	// Hand is the seat's own hand; nil for a spectator.
	Hand    []engine.Card
	Players [2]SeatView
	// Stacks are the centre stacks, bottom first; a King stands for the
	// rank of its place, so stack i needs len(Stacks[i])+1 next.
	Stacks [][]engine.Card
	Stock  int
	// Recycle is every completed stack waiting to become the stock: each
	// of its cards was played face up, so anyone at the table knows them.
	Recycle []engine.Card
	// Barren counts turns in a row that began with nothing to draw and put
	// nothing on a centre stack; the second ends the game.
	Barren int
	// Played: the seat to act has put a card on a centre stack this turn.
	Played bool
	Over   bool
	Winner int
	Score  [2]int
}

// SeatView is one player's public side of the table.
type SeatView struct {
	HandCount  int
	PayoffTop  engine.Card // NoCard once the pile is empty
	PayoffLeft int
	Sides      [SideStacks][]engine.Card // face up in full, bottom first
}

// Need is the rank centre stack i needs next.
func (v View) Need(i int) engine.Rank { return engine.Rank(len(v.Stacks[i]) + 1) }

// View is what seat sees; engine.Spectator (or any seat not at the table)
// gets the public view, with no hand at all.
func (g *Game) View(seat int) View {
	s := &g.st
	v := View{
		Seat: seat, Turn: g.Turn(),
		Payoff: g.r.payoff, Centres: g.r.centres, KingAce: g.r.kingAce,
		Stock: s.nStock, Barren: s.barren, Played: s.played,
		Over: s.over, Winner: s.winner, Score: s.score,
	}
	// One array holds every card of the view, each list a part of it
	// with no room past its end: a view is built for each seat looked at
	// with every state a table sends.
	own := seat == 0 || seat == 1
	n := s.nRecycle
	if own {
		n += s.nHand[seat]
	}
	for p := range 2 {
		for i := range SideStacks {
			n += s.nSide[p][i]
		}
	}
	for i := range g.r.centres {
		n += s.nCentre[i]
	}
	buf := make([]engine.Card, 0, n)
	v.Recycle, buf = carve(buf, s.recycle[:s.nRecycle])
	if own {
		v.Hand, buf = carve(buf, s.hand[seat][:s.nHand[seat]])
	} else {
		v.Seat = engine.Spectator
	}
	for p := range 2 {
		sv := SeatView{HandCount: s.nHand[p], PayoffLeft: s.nPayoff[p]}
		if n := s.nPayoff[p]; n > 0 {
			sv.PayoffTop = s.payoff[p][n-1]
		}
		for i := range SideStacks {
			sv.Sides[i], buf = carve(buf, s.side[p][i][:s.nSide[p][i]])
		}
		v.Players[p] = sv
	}
	v.Stacks = make([][]engine.Card, g.r.centres)
	for i := range g.r.centres {
		v.Stacks[i], buf = carve(buf, s.centre[i][:s.nCentre[i]])
	}
	return v
}

// carve copies cs onto the end of buf, and returns the copy, full to its
// capacity so that an append to it never writes into buf, and buf.
func carve(buf, cs []engine.Card) ([]engine.Card, []engine.Card) {
	start := len(buf)
	buf = append(buf, cs...)
	return buf[start:len(buf):len(buf)], buf
}

// Legal is what the seat of the view may do now, worked out from the view
// alone: Game.Legal for that seat, for a screen that offers a card's
// places without the game.
func (v View) Legal() []Action { return legalFromView(v) }

// legalFromView lists the actions the seat to act may take, from its view
// alone, so that the computer players and Legal agree by construction.
func legalFromView(v View) []Action {
	if v.Over || v.Seat != v.Turn || v.Seat < 0 {
		return nil
	}
	me := v.Players[v.Seat]
	var as []Action
	fitsAny := func(c engine.Card, add func(to int)) {
		for to := range v.Centres {
			if canGo(c, v.Need(to), v.KingAce) {
				add(to)
			}
		}
	}
	if me.PayoffTop != engine.NoCard {
		fitsAny(me.PayoffTop, func(to int) { as = append(as, PlayPayoff(to)) })
	}
	for i, c := range v.Hand {
		if slices.Contains(v.Hand[:i], c) {
			continue
		}
		fitsAny(c, func(to int) { as = append(as, PlayHand(c, to)) })
	}
	for sd, st := range me.Sides {
		if len(st) > 0 {
			fitsAny(st[len(st)-1], func(to int) { as = append(as, PlaySide(sd, to)) })
		}
	}
	for i, c := range v.Hand {
		if slices.Contains(v.Hand[:i], c) {
			continue
		}
		for sd := range SideStacks {
			as = append(as, DiscardTo(c, sd))
		}
	}
	if len(v.Hand) == 0 {
		as = append(as, Action{Do: Pass})
	}
	return as
}
