package spite

import (
	"errors"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// table describes a position for a rule test. Piles are bottom first
// (a pay-off pile's last card is its top), except the stock: top first.
type table struct {
	settings string
	turn     int
	payoff   [2]string
	hand     [2]string
	sides    [2][SideStacks]string
	centres  []string
	stock    string
	recycle  string
	// drawable: the turn began with cards to draw (the default when the
	// stock or recycle pile holds any).
	barren int
}

// arrange builds the position directly; rule tests need exact piles, not
// a full two packs, so the 104-card count is checked by random play.
func arrange(t testing.TB, tb table) *Game {
	t.Helper()
	r, canon, err := parseRules(tb.settings)
	require.NoError(t, err)
	g := &Game{spec: engine.Spec{Game: Name, Settings: canon}, r: r}
	s := &g.st
	for p := range 2 {
		s.nPayoff[p] = copy(s.payoff[p][:], engine.MustCards(tb.payoff[p]))
		s.nHand[p] = copy(s.hand[p][:], engine.MustCards(tb.hand[p]))
		for i := range SideStacks {
			s.nSide[p][i] = copy(s.side[p][i][:], engine.MustCards(tb.sides[p][i]))
		}
	}
	for i, c := range tb.centres {
		s.nCentre[i] = copy(s.centre[i][:], engine.MustCards(c))
	}
	st := engine.MustCards(tb.stock)
	for i, c := range st {
		s.stock[len(st)-1-i] = c
	}
	s.nStock = len(st)
	s.nRecycle = copy(s.recycle[:], engine.MustCards(tb.recycle))
	s.turn, s.winner, s.barren = tb.turn, engine.NoSeat, tb.barren
	s.drawable = s.nStock+s.nRecycle > 0
	s.rng = *engine.NewRNG(7)
	return g
}

func cards(s string) []engine.Card { return engine.MustCards(s) }
func card(s string) engine.Card    { return engine.MustCards(s)[0] }

// refused checks that a is refused with exactly msg and changes nothing.
func refused(t *testing.T, g *Game, seat int, a Action, msg string) {
	t.Helper()
	before, hist := g.st, len(g.history)
	err := g.Do(seat, a)
	require.Error(t, err)
	if msg != "" {
		require.Equal(t, msg, err.Error())
	}
	require.Equal(t, before, g.st, "a refused action changes nothing")
	require.Len(t, g.history, hist)
}

func TestBuildingUp(t *testing.T) {
	// "A stack starts with an Ace and builds up by one rank, regardless of
	// suit."
	base := table{
		payoff:  [2]string{"2C 9D", "3C TD"},
		hand:    [2]string{"5H 8S AD 2D 3S", "4C 4D 4H 4S 5C"},
		centres: []string{"AC 2H 3H 4S 5S 6D 7C", ""},
		stock:   "6C 6D 6H",
	}
	cases := []struct {
		name string
		a    Action
		err  string
	}{
		{"one rank up", PlayHand(card("8S"), 0), ""},
		{"not the next rank", PlayHand(card("5H"), 0), "5♥ can't go on the 7 stack: it needs an 8."},
		{"an Ace starts a stack", PlayHand(card("AD"), 1), ""},
		{"only an Ace starts one", PlayHand(card("2D"), 1), "2♦ can't start a stack: a stack starts with an Ace."},
		{"a card not held", PlayHand(card("9C"), 0), "You don't hold 9♣."},
		{"no such centre stack", PlayHand(card("AD"), 4), "There is no such centre stack: this table has 4."},
		{"the pay-off top must fit", PlayPayoff(0), "9♦ can't go on the 7 stack: it needs an 8."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := arrange(t, base)
			if c.err != "" {
				refused(t, g, 0, c.a, c.err)
				return
			}
			require.NoError(t, g.Do(0, c.a))
		})
	}
	g := arrange(t, base)
	require.NoError(t, g.Do(0, PlayHand(card("8S"), 0)))
	require.Equal(t, cards("AC 2H 3H 4S 5S 6D 7C 8S"), g.View(0).Stacks[0])
	// The pay-off top 9♦ now fits and is played, turning up 2♣.
	require.NoError(t, g.Do(0, PlayPayoff(0)))
	require.Equal(t, card("2C"), g.View(1).Players[0].PayoffTop)
	require.Equal(t, 1, g.View(1).Players[0].PayoffLeft)
}

func TestKingsAreWild(t *testing.T) {
	// "Kings are wild: a King stands for the rank that the stack needs
	// next. Setting: a King may start a stack as an Ace: no / yes."
	base := table{
		payoff:  [2]string{"2C 9D", "3C TD"},
		hand:    [2]string{"KH 8S KS 9H 3S", "4C 4D 4H 4S 5C"},
		centres: []string{"AC 2H 3H 4S 5S 6D 7C", ""},
		stock:   "6C 6D 6H",
	}
	g := arrange(t, base)
	require.NoError(t, g.Do(0, PlayHand(card("KH"), 0)))
	// The King stood for the 8, so the stack needs a 9 now.
	refused(t, g, 0, PlayHand(card("8S"), 0), "8♠ can't go on the 8 stack: it needs a 9.")
	require.NoError(t, g.Do(0, PlayHand(card("9H"), 0)))
	require.Equal(t, engine.Rank(10), g.View(0).Need(0))

	g = arrange(t, base)
	refused(t, g, 0, PlayHand(card("KH"), 1), "A King can't start a stack at this table: a stack starts with an Ace.")
	base.settings = "kingAce=true"
	g = arrange(t, base)
	require.NoError(t, g.Do(0, PlayHand(card("KH"), 1)))
	require.Equal(t, engine.Rank(2), g.View(0).Need(1), "the King stood for the Ace")
	require.NoError(t, g.Do(0, PlayHand(card("KS"), 1)), "a King on a King stands for the 2")
	require.Equal(t, engine.Rank(3), g.View(0).Need(1))
	require.NoError(t, g.Do(0, PlayHand(card("3S"), 1)))
}

func TestCompletedStackLeaves(t *testing.T) {
	// "When a stack reaches Q (a King standing for Q counts), it is removed
	// to a recycle pile."
	for _, q := range []string{"QD", "KD"} {
		t.Run(q, func(t *testing.T) {
			g := arrange(t, table{
				payoff:  [2]string{"2C 9D", "3C TD"},
				hand:    [2]string{q + " 8S 9H 3S 4S", "4C 4D 4H 5S 5C"},
				centres: []string{"AC 2H 3H 4S 5S 6D 7C 8C 9C TC JC", ""},
				recycle: "",
				stock:   "6C",
			})
			require.NoError(t, g.Do(0, PlayHand(card(q), 0)))
			v := g.View(0)
			require.Empty(t, v.Stacks[0], "the stack left the centre")
			require.Equal(t, cards("AC 2H 3H 4S 5S 6D 7C 8C 9C TC JC "+q), v.Recycle)
			require.Equal(t, engine.Ace, v.Need(0), "the slot starts again from an Ace")
		})
	}
}

func TestSideStacks(t *testing.T) {
	// "Only the top card of a side stack can be played, and only onto a
	// centre stack. A side stack is fed only from the hand; cards never move
	// between side stacks."
	g := arrange(t, table{
		payoff:  [2]string{"2C 9D", "3C TD"},
		hand:    [2]string{"QS 8S 9H 3S 4S", "4C 4D 4H 5S 5C"},
		sides:   [2][SideStacks]string{{"2H AH", "", "", ""}},
		centres: []string{"", ""},
		stock:   "6C",
	})
	refused(t, g, 0, PlaySide(1, 0), "That side stack is empty.")
	refused(t, g, 0, PlaySide(4, 0), "There is no such side stack: you have four.")
	require.NoError(t, g.Do(0, PlaySide(0, 0)))
	require.NoError(t, g.Do(0, PlaySide(0, 0)), "the 2♥ under it is the top now")
	refused(t, g, 0, PlaySide(0, 1), "That side stack is empty.")
	for _, a := range g.Legal(0) {
		if a.Do == Play {
			require.Contains(t, []string{FromHand, FromPayoff, FromSide}, a.From)
		}
		if a.Do == Discard {
			require.Contains(t, g.View(0).Hand, a.Card, "a side stack is fed only from the hand")
		}
	}
	refused(t, g, 0, Action{Do: Play, From: "stock", To: 0}, "Cards are played from your hand, your pay-off pile or the top of a side stack.")
	refused(t, g, 0, Action{Do: "move", From: FromSide, Side: 0, To: 1}, "That isn't a move in Spite and Malice.")
}

func TestTurn(t *testing.T) {
	// "A turn: draw up to 5 cards. ... End the turn by discarding exactly
	// one hand card onto one of your side stacks (any card on any side
	// stack). A player may make no plays and just discard."
	g := arrange(t, table{
		payoff:  [2]string{"2C 9D", "3C TD"},
		hand:    [2]string{"QS 8S 9H 3S 4S", "4C 4D 5S"},
		sides:   [2][SideStacks]string{{"", "", "2H", ""}},
		centres: []string{"", ""},
		stock:   "6C 7C 8C",
	})
	refused(t, g, 1, DiscardTo(card("4C"), 0), ErrNotYourTurn.Error())
	require.True(t, errors.Is(g.Do(1, DiscardTo(card("4C"), 0)), ErrNotYourTurn))
	refused(t, g, 0, Action{Do: Pass}, "You still hold cards: end your turn by discarding one onto a side stack.")
	refused(t, g, 0, DiscardTo(card("QS"), 4), "There is no such side stack: you have four.")
	refused(t, g, 0, DiscardTo(card("KS"), 0), "You don't hold K♠.")
	// No play at all, and a Queen on a 2: any card on any side stack.
	require.NoError(t, g.Do(0, DiscardTo(card("QS"), 2)))
	require.Equal(t, 1, g.Turn())
	require.Equal(t, cards("2H QS"), g.View(0).Players[0].Sides[2])
	require.Equal(t, cards("8S 9H 3S 4S"), g.View(0).Hand, "no draw until the next turn")
	// Seat 1 held 3 and drew up to 5 from the top of the stock.
	require.Equal(t, cards("4C 4D 5S 6C 7C"), g.View(1).Hand)
	require.Equal(t, 1, g.View(1).Stock)
	require.NoError(t, g.Do(1, DiscardTo(card("4C"), 0)))
	require.Equal(t, cards("8S 9H 3S 4S 8C"), g.View(0).Hand)
	require.Equal(t, []engine.Acted[Action]{
		{Seat: 0, Action: DiscardTo(card("QS"), 2)},
		{Seat: 1, Action: DiscardTo(card("4C"), 0)},
	}, g.History(), "draws are never written")
}

func TestHandEmptiedMidTurn(t *testing.T) {
	// "If the hand empties during the turn, draw 5 more and go on."
	g := arrange(t, table{
		payoff:  [2]string{"2C 9D", "3C TD"},
		hand:    [2]string{"AS 2S", "4C 4D 5S"},
		centres: []string{"", ""},
		stock:   "3H 4H 5H 6H 7H 8H",
	})
	require.NoError(t, g.Do(0, PlayHand(card("AS"), 0)))
	require.Len(t, g.View(0).Hand, 1)
	require.NoError(t, g.Do(0, PlayHand(card("2S"), 0)))
	require.Equal(t, cards("3H 4H 5H 6H 7H"), g.View(0).Hand)
	require.Equal(t, 0, g.Turn(), "and go on")
	require.NoError(t, g.Do(0, PlayHand(card("3H"), 0)))
}

func TestStockRunsOut(t *testing.T) {
	// "Stock runs out: the recycle pile is shuffled to become the stock."
	recycle := "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"
	g := arrange(t, table{
		payoff:  [2]string{"2C 9D", "3C TD"},
		hand:    [2]string{"KS 8S 9H 3S 4S", "4C 4D 5S"},
		centres: []string{"", ""},
		stock:   "6D",
		recycle: recycle,
	})
	require.NoError(t, g.Do(0, DiscardTo(card("KS"), 0)))
	v := g.View(1)
	require.Len(t, v.Hand, 5, "the last stock card, then the reshuffled recycle pile")
	require.Equal(t, card("6D"), v.Hand[3])
	require.Empty(t, v.Recycle)
	require.Equal(t, 11, v.Stock)
	h := g.History()
	require.Len(t, h, 2)
	require.Equal(t, engine.NoSeat, h[1].Seat, "the reshuffle is the table's, no seat's")
	require.Equal(t, Reshuffle, h[1].Action.Do)
	// The entry carries the new stock top first: its first card is the one
	// seat 1 drew, the rest is the stock as it now stands.
	top := cards(h[1].Action.Stock)
	require.True(t, sameCards(top, cards(recycle)))
	require.Equal(t, top[0], v.Hand[4])
	for i := range 11 {
		require.Equal(t, top[1+i], g.st.stock[10-i])
	}
}

func TestNothingToDraw(t *testing.T) {
	// "If a player must draw and both the stock and the recycle pile are
	// empty, play goes on without drawing." The record's pass "ends a turn
	// when the hand is empty and nothing can be drawn".
	g := arrange(t, table{
		payoff:  [2]string{"2C 9D", "3C TD"},
		hand:    [2]string{"AS 8S", "AC 4C"},
		sides:   [2][SideStacks]string{{"2H"}},
		centres: []string{"", "", ""},
	})
	require.NoError(t, g.Do(0, DiscardTo(card("8S"), 1)))
	require.Equal(t, cards("AC 4C"), g.View(1).Hand, "no draw")
	require.NoError(t, g.Do(1, PlayHand(card("AC"), 2)))
	require.NoError(t, g.Do(1, DiscardTo(card("4C"), 1)))
	require.Equal(t, 0, g.Turn())
	require.Equal(t, cards("AS"), g.View(0).Hand)
	require.NoError(t, g.Do(0, PlayHand(card("AS"), 0)))
	require.Empty(t, g.View(0).Hand, "the hand emptied and nothing could be drawn")
	refused(t, g, 0, DiscardTo(card("AS"), 0), "Your hand is empty: pass to end your turn.")
	require.Contains(t, g.Legal(0), Action{Do: Pass})
	require.NoError(t, g.Do(0, PlaySide(0, 0)), "play goes on")
	require.NoError(t, g.Do(0, Action{Do: Pass}))
	require.Equal(t, 1, g.Turn())
	require.Equal(t, []Action{{Do: Pass}}, g.Legal(1), "an empty hand and nothing that fits")
}

func TestWinAtOnce(t *testing.T) {
	// "The first player to empty the pay-off pile wins at once, even
	// mid-turn. Score: 5 + 1 for each card left in the loser's pay-off
	// pile."
	g := arrange(t, table{
		payoff:  [2]string{"3D", "3C TD 4H 5H 6H 7H"},
		hand:    [2]string{"AS 2S 7S", "4C"},
		centres: []string{"", ""},
		stock:   "8C",
	})
	require.NoError(t, g.Do(0, PlayHand(card("AS"), 0)))
	require.NoError(t, g.Do(0, PlayHand(card("2S"), 0)))
	require.NoError(t, g.Do(0, PlayPayoff(0)))
	res, over := g.Over()
	require.True(t, over, "mid-turn, no discard needed")
	require.Equal(t, engine.TableResult{Winner: 0, Points: []int{11, 0}}, res)
	require.Equal(t, engine.NoSeat, g.Turn())
	require.Nil(t, g.Legal(0))
	refused(t, g, 0, DiscardTo(card("7S"), 0), "The game is over.")
}

func TestStalemate(t *testing.T) {
	// "If a full round passes with no card played to a centre stack and no
	// card can be drawn, the game ends: fewer pay-off cards left wins, equal
	// is a draw."
	cases := []struct {
		name   string
		payoff [2]string
		winner int
		points []int
	}{
		{"fewer wins", [2]string{"QD QH", "QC QS JH"}, 0, []int{8, 0}},
		{"fewer wins, seat 1", [2]string{"QD QH JD", "QC QS"}, 1, []int{0, 8}},
		{"equal is a draw", [2]string{"QD QH", "QC QS"}, engine.NoSeat, []int{0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := arrange(t, table{
				payoff:  c.payoff,
				hand:    [2]string{"5S 6S", "5C 6C"},
				centres: []string{"", ""},
			})
			require.NoError(t, g.Do(0, DiscardTo(card("5S"), 0)))
			_, over := g.Over()
			require.False(t, over, "half a round")
			require.NoError(t, g.Do(1, DiscardTo(card("5C"), 0)))
			res, over := g.Over()
			require.True(t, over)
			require.Equal(t, engine.TableResult{Winner: c.winner, Points: c.points}, res)
		})
	}
	t.Run("a centre play breaks the round", func(t *testing.T) {
		g := arrange(t, table{
			payoff:  [2]string{"QD QH", "QC QS"},
			hand:    [2]string{"5S 6S", "AC 6C 7C"},
			centres: []string{"", ""},
		})
		require.NoError(t, g.Do(0, DiscardTo(card("5S"), 0)))
		require.NoError(t, g.Do(1, PlayHand(card("AC"), 0)))
		require.NoError(t, g.Do(1, DiscardTo(card("6C"), 0)))
		require.NoError(t, g.Do(0, DiscardTo(card("6S"), 0)))
		_, over := g.Over()
		require.False(t, over, "seat 1 played to the centre: no full round without a play yet")
		require.NoError(t, g.Do(1, DiscardTo(card("7C"), 0)))
		_, over = g.Over()
		require.True(t, over)
	})
	t.Run("a card to draw breaks the round", func(t *testing.T) {
		g := arrange(t, table{
			payoff:  [2]string{"QD QH", "QC QS"},
			hand:    [2]string{"5S 6S", "5C 6C"},
			centres: []string{"", ""},
			stock:   "9H",
		})
		require.NoError(t, g.Do(0, DiscardTo(card("5S"), 0)))
		require.NoError(t, g.Do(1, DiscardTo(card("5C"), 0)), "seat 1 drew the 9♥")
		_, over := g.Over()
		require.False(t, over)
		require.NoError(t, g.Do(0, DiscardTo(card("6S"), 0)))
		_, over = g.Over()
		require.False(t, over)
		require.NoError(t, g.Do(1, DiscardTo(card("6C"), 0)))
		_, over = g.Over()
		require.True(t, over)
	})
}

func TestFirstPlayer(t *testing.T) {
	// "The player whose pay-off top card is higher starts (a King counts 13
	// here); on a tie both pay-off piles are shuffled and new tops turned."
	// The record's start is "the deal after any tie-break redeal".
	ties, kings := 0, 0
	for seed := uint64(1); seed <= 2000; seed++ {
		g, err := New(specOf("payoff=13", seed), 2)
		require.NoError(t, err)
		st := g.Record([]string{"easy", "easy"}).Start
		t0, t1 := st.Payoff[0][12], st.Payoff[1][12]
		require.NotEqual(t, t0.Rank(), t1.Rank())
		want := 0
		if t1.Rank() > t0.Rank() {
			want = 1
		}
		require.Equal(t, want, st.First)
		require.Equal(t, want, g.Turn())
		if t0.Rank() == engine.King || t1.Rank() == engine.King {
			kings++
			require.Equal(t, engine.King, []engine.Card{t0, t1}[st.First].Rank(), "a King counts 13")
		}
		deck := append(engine.Deck(), engine.Deck()...)
		engine.NewRNG(seed).Shuffle(deck)
		if deck[12].Rank() == deck[25].Rank() {
			ties++
			// The redeal shuffles each pile within itself: same cards,
			// hands and stock untouched.
			require.True(t, sameCards(st.Payoff[0], deck[:13]))
			require.True(t, sameCards(st.Payoff[1], deck[13:26]))
			require.Equal(t, Cards(deck[26:31]), st.Hands[0])
			_, err := FromStart("payoff=13", 2, Start{Payoff: []Cards{deck[:13], deck[13:26]}, Hands: st.Hands, Stock: st.Stock})
			require.Error(t, err, "a start is after the tie-break")
		}
	}
	require.Positive(t, ties)
	require.Positive(t, kings)
}

func TestSettings(t *testing.T) {
	// "pay-off pile of 20 cards ... (setting: 20, 26, 30, or 13 for a short
	// game)"; "Centre stacks, shared: at most 4 (setting: 4 / 3)".
	for _, p := range []int{20, 26, 30, 13} {
		for _, c := range []int{4, 3} {
			for _, ka := range []string{"false", "true"} {
				for _, m := range []string{"single", "50"} {
					set := "payoff=" + strconv.Itoa(p) + ",centres=" + strconv.Itoa(c) + ",kingAce=" + ka + ",match=" + m
					g, err := New(specOf(set, 9), 2)
					require.NoError(t, err, set)
					v := g.View(engine.Spectator)
					require.Equal(t, p, v.Players[0].PayoffLeft)
					require.Equal(t, p, v.Players[1].PayoffLeft)
					require.Len(t, v.Stacks, c)
					require.Equal(t, 104-2*p-10, v.Stock)
					require.Equal(t, ka == "true", v.KingAce)
					rec := g.Record([]string{"easy", "hard"})
					require.Equal(t, RecordSettings{Payoff: p, Centres: c, KingAce: ka == "true", Match: m}, rec.Settings)
				}
			}
		}
	}
	g, _ := New(specOf("centres=3", 1), 2)
	require.Equal(t, "centres=3", g.Spec().Settings)
	seat := g.Turn()
	refused(t, g, seat, PlayHand(g.View(seat).Hand[0], 3), "There is no such centre stack: this table has 3.")
	for _, bad := range []string{"payoff=21", "centres=5", "kingAce=maybe", "match=100", "jokers=2"} {
		_, err := New(specOf(bad, 1), 2)
		require.Error(t, err, bad)
	}
	_, err := New(specOf("", 1), 3)
	require.Error(t, err)
	_, err = New(engine.Spec{Game: "kings"}, 2)
	require.Error(t, err)
}

func TestMatch(t *testing.T) {
	// "A match is played to 50 (setting: single game)."
	m, err := NewMatch(specOf("", 5), 2)
	require.NoError(t, err)
	g := m.Game()
	first, _ := New(specOf("", 5), 2)
	require.Equal(t, first.st, g.st, "a single game is the spec's own deal")
	ps := newPlayers(t, "normal", "normal", 5)
	require.True(t, playOut(t, g, ps))
	res, _ := g.Over()
	_, more := m.Next()
	require.False(t, more)
	require.Equal(t, res.Points, m.Totals())
	require.Equal(t, res.Winner, m.Winner())

	m, err = NewMatch(specOf("match=50", 5), 2)
	require.NoError(t, err)
	require.Equal(t, engine.NoSeat, m.Winner(), "running")
	g, more = m.Next()
	require.True(t, more, "the game is still in play")
	require.Same(t, m.Game(), g)
	games, want := 0, []int{0, 0}
	seeds := map[uint64]bool{}
	for {
		games++
		seeds[g.Spec().Seed] = true
		require.True(t, playOut(t, g, newPlayers(t, "normal", "easy", uint64(games))))
		res, _ := g.Over()
		want[0] += res.Points[0]
		want[1] += res.Points[1]
		if g, more = m.Next(); !more {
			break
		}
		require.Equal(t, want, m.Totals())
		require.Less(t, max(want[0], want[1]), 50)
	}
	require.Equal(t, want, m.Totals())
	require.GreaterOrEqual(t, max(want[0], want[1]), 50)
	require.Len(t, seeds, games, "each game its own deal")
	require.Greater(t, games, 1)
	w := 0
	if want[1] > want[0] {
		w = 1
	}
	require.Equal(t, w, m.Winner())
	_, more = m.Next()
	require.False(t, more)
	require.Equal(t, want, m.Totals(), "Next after the end adds nothing")
}
