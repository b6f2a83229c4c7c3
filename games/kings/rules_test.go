package kings

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// setup is a position for a rule test: it need not hold all 52 cards,
// since no rule looks at the cards it leaves out.
type setup struct {
	settings string
	players  int
	hands    []string         // per seat, in order
	piles    map[Place]string // bottom first
	stock    string           // top first
	turn     int
}

func build(t *testing.T, s setup) *Game {
	t.Helper()
	canon, r, err := parseRules(s.settings)
	require.NoError(t, err)
	if s.players == 0 {
		s.players = 2
	}
	g := &Game{spec: engine.Spec{Game: Name, Settings: canon}, drawEnd: r.drawEnd, kingsAtOnce: r.kingsAtOnce}
	st := &g.st
	st.players, st.turn, st.out = uint8(s.players), int8(s.turn), engine.NoSeat
	for i, h := range s.hands {
		for _, c := range engine.MustCards(h) {
			st.hands[i].add(c)
		}
	}
	for p, cs := range s.piles {
		for _, c := range engine.MustCards(cs) {
			st.board[p].c[st.board[p].n] = c
			st.board[p].n++
		}
	}
	stock := engine.MustCards(s.stock)
	for i, c := range stock {
		st.stock[len(stock)-1-i] = c
	}
	st.nStock = uint8(len(stock))
	return g
}

func pileText(g *Game, p Place) string {
	var out []string
	for _, c := range g.st.board[p].cards() {
		out = append(out, c.ASCII())
	}
	return strings.Join(out, " ")
}

func handText(g *Game, seat int) string {
	var out []string
	for _, c := range g.st.hands[seat].cards() {
		out = append(out, c.ASCII())
	}
	return strings.Join(out, " ")
}

func card(s string) engine.Card { return engine.MustCards(s)[0] }

func play(c string, to Place) Action { return Action{Do: Play, Card: card(c), To: to} }
func move(from, to Place) Action     { return Action{Do: Move, From: from, To: to} }

// TestRules plays one action on a position per rule of docs/tablegames.md and
// checks it is taken or refused with the sentence a player reads.
func TestRules(t *testing.T) {
	full := map[Place]string{N: "6S", E: "8C", S: "AH", W: "JD", NE: "KS QH", SE: "KH", SW: "KC", NW: "KD"}
	cases := []struct {
		rule, name string
		setup      setup
		seat       int
		a          Action
		err        string           // "" when the action is taken
		piles      map[Place]string // after, when taken
		hand       string           // seat's hand after, when taken
	}{
		{rule: "Play a hand card onto the top of any pile if it is one rank lower and the opposite colour.",
			name: "red on black", setup: setup{hands: []string{"5H 9C"}, piles: full}, a: play("5H", N),
			piles: map[Place]string{N: "6S 5H"}, hand: "9C"},
		{rule: "Play a hand card onto the top of any pile if it is one rank lower and the opposite colour.",
			name: "onto a corner's pile", setup: setup{hands: []string{"JS 9C"}, piles: full}, a: play("JS", NE),
			piles: map[Place]string{NE: "KS QH JS"}, hand: "9C"},
		{rule: "Play a hand card onto the top of any pile if it is one rank lower and the opposite colour.",
			name: "same colour", setup: setup{hands: []string{"5C 9C"}, piles: full}, a: play("5C", N),
			err: "5♣ can't go on the 6♠: it needs a red card one higher."},
		{rule: "Play a hand card onto the top of any pile if it is one rank lower and the opposite colour.",
			name: "wrong rank", setup: setup{hands: []string{"4H 9C"}, piles: full}, a: play("4H", N),
			err: "4♥ can't go on the 6♠: it needs a black 5."},
		{rule: "Play a hand card onto the top of any pile if it is one rank lower and the opposite colour.",
			name: "one higher is not one lower", setup: setup{hands: []string{"7H 9C"}, piles: full}, a: play("7H", N),
			err: "7♥ can't go on the 6♠: it needs a black 8."},
		{rule: "Nothing goes on an Ace.",
			name: "a card on an Ace", setup: setup{hands: []string{"2S 9C"}, piles: full}, a: play("2S", S),
			err: "Nothing goes on an Ace."},
		{rule: "Nothing goes on an Ace.",
			name: "a pile on an Ace", setup: setup{hands: []string{"9C"}, piles: map[Place]string{N: "AS", E: "2H", S: "9D", W: "4C"}}, a: move(E, N),
			err: "Nothing goes on an Ace."},
		{rule: "Put a King from the hand into an empty corner.",
			name: "King into a corner", setup: setup{hands: []string{"KS 9C"}, piles: map[Place]string{N: "6S"}}, a: play("KS", SW),
			piles: map[Place]string{SW: "KS"}, hand: "9C"},
		{rule: "Put a King from the hand into an empty corner.",
			name: "only a King", setup: setup{hands: []string{"QS 9C"}, piles: map[Place]string{N: "6S"}}, a: play("QS", SW),
			err: "Only a King goes into an empty corner, not Q♠."},
		{rule: "Put a King from the hand into an empty corner.",
			name: "a King goes on no pile", setup: setup{hands: []string{"KS 9C"}, piles: full}, a: play("KS", E),
			err: "K♠ can't go on the 8♣: nothing is higher than a King, so Kings go into empty corners."},
		{rule: "Put a King from the hand into an empty corner.",
			name: "a taken corner", setup: setup{hands: []string{"KC 9C"}, piles: full}, a: play("KC", SE),
			err: "K♣ can't go on the K♥: nothing is higher than a King, so Kings go into empty corners."},
		{rule: "Move a whole pile onto another pile if the moved pile's bottom card is one rank lower and the opposite colour to the other pile's top card.",
			name: "a whole pile moves", setup: setup{hands: []string{"9C"}, piles: map[Place]string{N: "7D 6S", E: "5H 4S", S: "9D", W: "4C"}}, a: move(E, N),
			piles: map[Place]string{N: "7D 6S 5H 4S", E: ""}, hand: "9C"},
		{rule: "Move a whole pile onto another pile if the moved pile's bottom card is one rank lower and the opposite colour to the other pile's top card.",
			name: "onto a corner's pile", setup: setup{hands: []string{"9C"}, piles: map[Place]string{N: "QD JS", E: "TD", SE: "KS", W: "4C"}}, a: move(N, SE),
			piles: map[Place]string{SE: "KS QD JS", N: ""}, hand: "9C"},
		{rule: "Move a whole pile onto another pile if the moved pile's bottom card is one rank lower and the opposite colour to the other pile's top card.",
			name: "only the whole pile: its top fitting is not enough", setup: setup{hands: []string{"9C"}, piles: map[Place]string{N: "8C", E: "9H 8S 7D", S: "QD", W: "4C"}}, a: move(E, N),
			err: "The E pile starts with 9♥, and 9♥ can't go on the 8♣: it needs a black 10."},
		{rule: "Move a whole pile onto another pile if the moved pile's bottom card is one rank lower and the opposite colour to the other pile's top card.",
			name: "same colour", setup: setup{hands: []string{"9C"}, piles: map[Place]string{N: "8C", E: "7S", S: "QD", W: "4C"}}, a: move(E, N),
			err: "The E pile starts with 7♠, and 7♠ can't go on the 8♣: it needs a red card one higher."},
		{rule: "Move a whole pile onto another pile …",
			name: "not onto itself", setup: setup{hands: []string{"9C"}, piles: full}, a: move(E, E),
			err: "A pile can't move onto itself."},
		{rule: "Move a whole pile onto another pile …",
			name: "not from a space", setup: setup{hands: []string{"9C"}, piles: map[Place]string{N: "8C"}}, a: move(E, N),
			err: "There is no pile at E to move."},
		{rule: "… a pile with a King at its bottom may move into an empty corner.",
			name: "a King's pile into a corner", setup: setup{hands: []string{"9C"}, piles: map[Place]string{N: "8C", E: "KD QS", S: "QD", W: "4C"}}, a: move(E, NW),
			piles: map[Place]string{NW: "KD QS", E: ""}, hand: "9C"},
		{rule: "… a pile with a King at its bottom may move into an empty corner.",
			name: "only with a King at its bottom", setup: setup{hands: []string{"9C"}, piles: map[Place]string{N: "8C", E: "QS JD", S: "QD", W: "4C"}}, a: move(E, NW),
			err: "Only a pile with a King at its bottom moves into an empty corner; the E pile starts with Q♠."},
		{rule: "… a pile with a King at its bottom may move into an empty corner.",
			name: "a corner's pile is in a corner already", setup: setup{hands: []string{"9C"}, piles: map[Place]string{N: "8C", NE: "KS", S: "QD", W: "4C"}}, a: move(NE, NW),
			err: "The NE pile is in a corner already."},
		{rule: "Put any hand card into an empty N/E/S/W space.",
			name: "a whole pile does not fill a space", setup: setup{hands: []string{"9C"}, piles: map[Place]string{N: "8C", S: "QD", W: "4C"}}, a: move(N, E),
			err: "A whole pile moves onto another pile, or into an empty corner with a King at its bottom; E takes a card from your hand."},
		{rule: "Put any hand card into an empty N/E/S/W space.",
			name: "any card", setup: setup{hands: []string{"9C 3D"}, piles: map[Place]string{N: "8C", S: "QD", W: "4C"}}, a: play("9C", E),
			piles: map[Place]string{E: "9C"}, hand: "3D"},
		{rule: "Put any hand card into an empty N/E/S/W space.",
			name: "a King too", setup: setup{hands: []string{"KC 3D"}, piles: map[Place]string{N: "8C", S: "QD", W: "4C"}}, a: play("KC", E),
			piles: map[Place]string{E: "KC"}, hand: "3D"},
		{rule: "Every table action is checked by the server; an illegal one gets a one-line reason.",
			name: "a card not held", setup: setup{hands: []string{"9C 3D"}, piles: full}, a: play("5H", N),
			err: "You don't hold 5♥."},
		{rule: "Every table action is checked by the server; an illegal one gets a one-line reason.",
			name: "no such place", setup: setup{hands: []string{"5H"}, piles: full}, a: Action{Do: Play, Card: card("5H"), To: 8},
			err: "There is no such place: the piles are N, E, S, W and the corners NE, SE, SW, NW."},
		{rule: "Every table action is checked by the server; an illegal one gets a one-line reason.",
			name: "no action", setup: setup{hands: []string{"5H"}, piles: full}, a: Action{},
			err: "That isn't a move in Kings in the Corner."},
		{rule: "Every table action is checked by the server; an illegal one gets a one-line reason.",
			name: "out of turn", setup: setup{hands: []string{"9C", "5H"}, piles: full}, seat: 1, a: play("5H", N),
			err: "it is not your turn: seat 0 is to play."},
		{rule: "Every table action is checked by the server; an illegal one gets a one-line reason.",
			name: "not a seat", setup: setup{hands: []string{"9C", "5H"}, piles: full}, seat: 2, a: play("5H", N),
			err: "Seat 2 isn't at this table."},
		{rule: "Kings must be played at once: yes.",
			name: "a King held with a corner free comes first", setup: setup{settings: "kingsAtOnce=true", hands: []string{"KH 5H"}, piles: map[Place]string{N: "6S"}}, a: play("5H", N),
			err: "K♥ must go into an empty corner first: at this table Kings are played at once."},
		{rule: "Kings must be played at once: yes.",
			name: "nor may the turn end", setup: setup{settings: "kingsAtOnce=true", hands: []string{"KH 5H"}, piles: map[Place]string{N: "6S"}}, a: Action{Do: End},
			err: "K♥ must go into an empty corner first: at this table Kings are played at once."},
		{rule: "Kings must be played at once: yes.",
			name: "nor a pile move", setup: setup{settings: "kingsAtOnce=true", hands: []string{"KH 5H"}, piles: map[Place]string{N: "6S", E: "5D"}}, a: move(E, N),
			err: "K♥ must go into an empty corner first: at this table Kings are played at once."},
		{rule: "Kings must be played at once: yes.",
			name: "a King into a space does not count", setup: setup{settings: "kingsAtOnce=true", hands: []string{"KH 5H"}, piles: map[Place]string{N: "6S"}}, a: play("KH", E),
			err: "K♥ must go into an empty corner first: at this table Kings are played at once."},
		{rule: "Kings must be played at once: yes.",
			name: "the King into a corner", setup: setup{settings: "kingsAtOnce=true", hands: []string{"KH 5H"}, piles: map[Place]string{N: "6S"}}, a: play("KH", NE),
			piles: map[Place]string{NE: "KH"}, hand: "5H"},
		{rule: "Kings must be played at once: yes.",
			name: "no corner free, no duty", setup: setup{settings: "kingsAtOnce=true", hands: []string{"KC 5H"}, piles: full}, a: play("5H", N),
			piles: map[Place]string{N: "6S 5H"}, hand: "KC"},
		{rule: "Kings must be played at once: no.",
			name: "a King may wait", setup: setup{hands: []string{"KH 5H"}, piles: map[Place]string{N: "6S"}}, a: play("5H", N),
			piles: map[Place]string{N: "6S 5H"}, hand: "KH"},
		{rule: "Then end the turn. Playing nothing is allowed.",
			name: "ending with nothing played", setup: setup{hands: []string{"KH 5H", "2C"}, piles: full, stock: "3C 4C"}, a: Action{Do: End},
			hand: "KH 5H"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := build(t, c.setup)
			before := g.st
			err := g.Do(c.seat, c.a)
			if c.err != "" {
				require.Error(t, err, c.rule)
				require.Equal(t, c.err, err.Error(), c.rule)
				require.Equal(t, before, g.st, "a refused action changes nothing")
				require.NotContains(t, g.Legal(c.seat), c.a, "Legal agrees with Do")
				return
			}
			require.NoError(t, err, c.rule)
			require.Contains(t, legal(&before.board, &before.hands[c.seat], g.kingsAtOnce, nil), c.a, "Legal agrees with Do")
			for p, want := range c.piles {
				require.Equal(t, want, pileText(g, p), "%s after: %s", p, c.rule)
			}
			require.Equal(t, c.hand, handText(g, c.seat), c.rule)
		})
	}
}

func TestNotYourTurnIsTheSentinel(t *testing.T) {
	g := build(t, setup{hands: []string{"9C", "5H"}, piles: map[Place]string{N: "6S"}})
	require.True(t, errors.Is(g.Do(1, play("5H", N)), ErrNotYourTurn))
	require.Empty(t, g.Legal(1), "no legal action out of turn")
}

func TestKingsAtOnceLegal(t *testing.T) {
	// "Kings must be played at once": while the seat holds a King and a
	// corner is free, putting a King there is all it may do.
	g := build(t, setup{settings: "kingsAtOnce=true", hands: []string{"KH 5H KS"}, piles: map[Place]string{N: "6S", NE: "KC"}})
	for _, a := range g.Legal(0) {
		require.Equal(t, Play, a.Do)
		require.Equal(t, engine.King, a.Card.Rank())
		require.True(t, a.To.Corner())
	}
	require.Len(t, g.Legal(0), 6, "two Kings, three free corners")
}

// "draw one card from the stock, if any (setting: draw at start of turn)".
func TestDrawAtStart(t *testing.T) {
	g := mustNew(t, 7, 3, "")
	first := g.Turn()
	require.Equal(t, HandSize+1, g.View(first).Hands[first], "the first player has drawn before acting")
	stockTop := g.start.Stock[1]
	require.NoError(t, g.Do(first, Action{Do: End}))
	next := (first + 1) % 3
	require.Equal(t, next, g.Turn())
	require.Equal(t, HandSize+1, len(g.View(next).Hand))
	require.Equal(t, stockTop, g.View(next).Hand[HandSize], "the next seat drew the stock's top")
	require.Equal(t, 52-4-21-2, g.View(engine.Spectator).Stock)
	for _, e := range g.History() {
		require.NotEqual(t, engine.NoSeat, e.Seat, "draws are never in the history")
	}
}

// "draw at end, which ends the turn (pagat)".
func TestDrawAtEnd(t *testing.T) {
	g := mustNew(t, 7, 3, "draw=end")
	first := g.Turn()
	require.Equal(t, HandSize, g.View(first).Hands[first], "no draw before the first play")
	top := g.start.Stock[0]
	require.NoError(t, g.Do(first, Action{Do: End}))
	v := g.View(first)
	require.Equal(t, HandSize+1, len(v.Hand))
	require.Equal(t, top, v.Hand[HandSize], "ending the turn drew the stock's top")
	next := (first + 1) % 3
	require.Equal(t, next, g.Turn())
	require.Equal(t, HandSize, v.Hands[next], "the next seat has not drawn yet")
}

// "draw one card from the stock, if any": an empty stock is no draw and no
// end of the hand by itself.
func TestEmptyStock(t *testing.T) {
	for _, settings := range []string{"", "draw=end"} {
		g := build(t, setup{settings: settings, players: 2, hands: []string{"9C 5H", "2C"}, piles: map[Place]string{N: "6S"}})
		require.NoError(t, g.Do(0, play("5H", N)))
		require.NoError(t, g.Do(0, Action{Do: End}))
		require.Equal(t, "9C", handText(g, 0))
		require.Equal(t, 1, g.Turn())
		require.Equal(t, "2C", handText(g, 1))
		_, over := g.Over()
		require.False(t, over)
	}
}

// "the first player to empty the hand goes out, and the hand ends at once."
func TestGoingOut(t *testing.T) {
	for _, settings := range []string{"", "draw=end"} {
		g := build(t, setup{settings: settings, players: 3, hands: []string{"4C 5H", "KC 2D 3D", "KH KS QD 9S"}, piles: map[Place]string{N: "6S"}, stock: "8H 8C"})
		require.NoError(t, g.Do(0, play("5H", N)))
		require.NoError(t, g.Do(0, play("4C", N)))
		res, over := g.Over()
		require.True(t, over, "out mid-turn: no end action, no draw")
		require.Equal(t, engine.NoSeat, g.Turn())
		// "10 for each King, 1 for any other card."
		require.Equal(t, engine.TableResult{Winner: 0, Points: []int{0, 12, 22}, LowWins: true}, res)
		require.Equal(t, 2, g.View(engine.Spectator).Stock, "nothing drawn on going out")
		require.Error(t, g.Do(0, Action{Do: End}))
		require.Equal(t, "The hand is over.", g.Do(1, Action{Do: End}).Error())
		require.Empty(t, g.Legal(1))
	}
}

// "If the stock is empty and every player in turn ends without a play,
// the hand ends with nobody out."
func TestNobodyOut(t *testing.T) {
	for _, settings := range []string{"", "draw=end"} {
		g := build(t, setup{settings: settings, players: 3, hands: []string{"4C 5H", "KC 2D", "9S"}, piles: map[Place]string{N: "6S", E: "AS", S: "AD", W: "AC", NE: "KS", SE: "KH", SW: "KD", NW: "AH"}})
		require.NoError(t, g.Do(0, Action{Do: End}))
		require.NoError(t, g.Do(1, Action{Do: End}))
		require.NoError(t, g.Do(2, Action{Do: End}))
		res, over := g.Over()
		require.True(t, over)
		require.Equal(t, engine.TableResult{Winner: engine.NoSeat, Points: []int{2, 11, 1}, LowWins: true}, res)
		require.Equal(t, engine.NoSeat, g.View(0).Out)
	}
	// A play in the round starts the count again.
	g := build(t, setup{players: 3, hands: []string{"4C 5H", "KC 2D", "5D 9S"}, piles: map[Place]string{N: "6S", E: "AS", S: "AD", W: "AC", NE: "KS", SE: "KH", SW: "KD", NW: "AH"}})
	require.NoError(t, g.Do(0, Action{Do: End}))
	require.NoError(t, g.Do(1, Action{Do: End}))
	require.NoError(t, g.Do(2, play("5D", N)))
	require.NoError(t, g.Do(2, Action{Do: End}))
	require.NoError(t, g.Do(0, Action{Do: End}))
	require.NoError(t, g.Do(1, Action{Do: End}))
	_, over := g.Over()
	require.False(t, over, "seat 2 played, so a round without a play has not come round")
	require.NoError(t, g.Do(2, Action{Do: End}))
	_, over = g.Over()
	require.True(t, over)
	// The stock is not empty while the last card is still to be drawn, so
	// the turn that draws it does not count towards the round.
	g = build(t, setup{players: 2, hands: []string{"4C", "9S"}, piles: map[Place]string{N: "9H", E: "AS", S: "AD", W: "AC", NE: "KS", SE: "KH", SW: "KD", NW: "AH"}, stock: "2H"})
	require.NoError(t, g.Do(0, Action{Do: End})) // seat 1 draws 2H at the start of its turn
	require.NoError(t, g.Do(1, Action{Do: End}))
	_, over = g.Over()
	require.False(t, over, "seat 1 drew the last card: not yet a full round with an empty stock")
	require.NoError(t, g.Do(0, Action{Do: End}))
	_, over = g.Over()
	require.False(t, over)
	require.NoError(t, g.Do(1, Action{Do: End}))
	_, over = g.Over()
	require.True(t, over)
}
