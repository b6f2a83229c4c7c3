package spite

import (
	"testing"

	"sshuffle/engine"
)

// FuzzSpite plays a byte program on a deal: four bytes an action (seat and
// kind, source, card or side, centre slot), refused actions included. A
// refused action must leave the game exactly as it was with a sentence
// for the player; after every step two packs are on the table and no view
// holds a card its seat may not see; nothing panics.
func FuzzSpite(f *testing.F) {
	f.Add(uint64(1), uint8(0), []byte{0, 0, 0, 0, 1, 1, 2, 3})
	f.Add(uint64(7), uint8(5), []byte{2, 0, 1, 0, 2, 1, 0, 1, 3, 0, 0, 0, 6, 2, 4, 0})
	f.Add(uint64(42), uint8(9), []byte("\x02\x00\x00\x00\x00\x00\x01\x00\x02\x02\x03\x01"))
	f.Fuzz(func(t *testing.T, seed uint64, set uint8, prog []byte) {
		rng := engine.NewRNG(uint64(set))
		g, err := New(specOf(randomSettings(rng), seed), 2)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+3 < len(prog) && g.Turn() != engine.NoSeat; i += 4 {
			seat := int(prog[i]&1) ^ g.Turn()
			if prog[i]&0x80 != 0 {
				seat = -1 // a spectator or a stray seat number
			}
			var a Action
			switch prog[i] >> 1 & 7 {
			case 0, 1:
				a.Do = Play
			case 2:
				a.Do = Discard
			case 3:
				a.Do = Pass
			case 4:
				a.Do = Reshuffle
			case 5:
				// A legal action, so that programs get somewhere.
				if as := g.Legal(g.Turn()); len(as) > 0 {
					a, seat = as[int(prog[i+1])%len(as)], g.Turn()
				}
			default:
				a.Do = string(prog[i+1 : i+2])
			}
			if a.Do == Play || a.Do == Discard {
				a.From = []string{FromHand, FromPayoff, FromSide, "", "stock"}[int(prog[i+1])%5]
				hand := g.st.hand[max(seat, 0)][:g.st.nHand[max(seat, 0)]]
				if len(hand) > 0 && prog[i+2]&0x80 == 0 {
					a.Card = hand[int(prog[i+2])%len(hand)]
				} else {
					a.Card = engine.Card(prog[i+2])
				}
				a.Side = int(int8(prog[i+2])) % 6
				a.To = int(int8(prog[i+3])) % 6
			}
			before, hist := g.st, len(g.history)
			if err := g.Do(seat, a); err != nil {
				if g.st != before || len(g.history) != hist {
					t.Fatalf("refused %v changed the game", a)
				}
				if err.Error() == "" {
					t.Fatal("an error without a sentence")
				}
			}
			checkCards(t, g)
			checkViews(t, g)
		}
	})
}
