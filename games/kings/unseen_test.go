package kings

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// blind returns a copy of g in which the cards seat cannot see (the other
// hands and the stock) are shuffled among those places, each keeping its
// count; false when there are fewer than two such cards.
func blind(g *Game, seat int, rng *engine.RNG) (*Game, bool) {
	st := g.st
	var unseen []engine.Card
	for s := range int(st.players) {
		if s != seat {
			unseen = append(unseen, st.hands[s].cards()...)
		}
	}
	unseen = append(unseen, st.stock[:st.nStock]...)
	if len(unseen) < 2 {
		return nil, false
	}
	rng.Shuffle(unseen)
	for s := range int(st.players) {
		if s != seat {
			n := int(st.hands[s].n)
			st.hands[s] = hand{}
			for _, c := range unseen[:n] {
				st.hands[s].add(c)
			}
			unseen = unseen[n:]
		}
	}
	copy(st.stock[:], unseen)
	h := *g
	h.st = st
	return &h, true
}

// The same through FromStart: two deals that differ only in the cards the
// first seat cannot see (with the draw at the end, so it has drawn
// nothing) give it the same view and the same choices.
func TestChoiceIgnoresUnseenFromStart(t *testing.T) {
	for seed := uint64(1); seed <= 100; seed++ {
		g := mustNew(t, seed, 2+int(seed%3), "draw=end")
		s := g.First()
		start := g.start.clone()
		var unseen []engine.Card
		for o, h := range start.Hands {
			if o != s {
				unseen = append(unseen, h...)
			}
		}
		unseen = append(unseen, start.Stock...)
		engine.NewRNG(seed).Shuffle(unseen)
		for o := range start.Hands {
			if o != s {
				start.Hands[o] = append(Cards(nil), unseen[:HandSize]...)
				unseen = unseen[HandSize:]
			}
		}
		start.Stock = unseen
		h, err := FromStart(g.spec.Settings, g.Seats(), start)
		require.NoError(t, err)
		require.NotEqual(t, g.st, h.st)
		require.True(t, reflect.DeepEqual(g.View(s), h.View(s)))
		for _, strength := range Strengths {
			p1, _ := NewPlayer(strength, seed)
			p2, _ := NewPlayer(strength, seed)
			for range 20 {
				a := p1.Choose(g.View(s))
				require.Equal(t, a, p2.Choose(h.View(s)))
				if g.Turn() != s {
					break
				}
				require.NoError(t, g.Do(s, a))
				require.NoError(t, h.Do(s, a))
			}
			g, _ = FromStart(g.spec.Settings, g.Seats(), g.start)
			h, _ = FromStart(h.spec.Settings, h.Seats(), start)
		}
	}
}

// FuzzKings plays a program of bytes on a deal, three bytes an action
// (kind, card or from, to; a high bit in the first byte acts for the wrong
// seat), and checks that a refused action leaves the hand exactly as it
// was with a sentence, that every card stays once, and nothing panics.
func FuzzKings(f *testing.F) {
	f.Add(uint64(1), byte(4), byte(0), []byte{1, 5, 0, 2, 0, 1, 3, 0, 0})
	f.Add(uint64(7), byte(2), byte(3), []byte{3, 0, 0, 3, 0, 0, 1, 51, 4, 0x83, 0, 0})
	f.Fuzz(func(t *testing.T, seed uint64, players, settings byte, prog []byte) {
		n := MinPlayers + int(players)%(MaxPlayers-MinPlayers+1)
		s := []string{"", "draw=end", "kingsAtOnce=true", "draw=end,kingsAtOnce=true"}[settings%4]
		g := mustNew(t, seed, n, s)
		for i := 0; i+2 < len(prog); i += 3 {
			seat := g.Turn()
			if prog[i]&0x80 != 0 {
				seat = int(prog[i+1]%6) - 1
			}
			a := Action{Do: Kind(prog[i] & 3), Card: engine.CardFromIndex(int(prog[i+1]) % 52), From: Place(prog[i+1] % 9), To: Place(prog[i+2] % 9)}
			before, hist := g.st, len(g.hist)
			if err := g.Do(seat, a); err != nil {
				if g.st != before || len(g.hist) != hist {
					t.Fatalf("refused %v changed the hand", a)
				}
				if err.Error() == "" {
					t.Fatal("a refusal with no sentence")
				}
			}
			checkCards(t, g)
			for s := engine.Spectator; s < n; s++ {
				g.View(s)
				g.Legal(s)
			}
			g.Over()
		}
	})
}
