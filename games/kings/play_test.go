package kings

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// "Deal: 7 cards to each player. Four cards face up as piles at N, E, S,
// W; the four corners start empty. The rest is the stock."
func TestDeal(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		g := mustNew(t, 99, players, "draw=end")
		v := g.View(engine.Spectator)
		require.Nil(t, v.Hand, "a spectator sees no hand")
		for s, n := range v.Hands {
			require.Equal(t, HandSize, n, "seat %d", s)
		}
		for p := range numPlaces {
			want := 1
			if p.Corner() {
				want = 0
			}
			require.Len(t, v.Piles[p], want, "%v", p)
		}
		require.Equal(t, 52-4-HandSize*players, v.Stock)
		checkCards(t, g)
	}
	_, err := New(spec(1, ""), 5)
	require.EqualError(t, err, "Kings in the Corner is for 2 to 4 players, not 5")
	_, err = New(spec(1, "draw=middle"), 2)
	require.Error(t, err)
	_, err = New(engine.Spec{Game: "spite", Seed: 1}, 2)
	require.Error(t, err)
}

// "The first player is chosen at random and moves round the table."
func TestFirstPlayer(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		counts := make([]int, players)
		for seed := uint64(1); seed <= 800; seed++ {
			g := mustNew(t, seed, players, "")
			again := mustNew(t, seed, players, "")
			require.Equal(t, g.Turn(), again.Turn(), "the seed decides")
			require.Equal(t, g.First(), g.Turn())
			counts[g.Turn()]++
		}
		for s, n := range counts {
			// Each seat's share is 800/players; a seat outside half to one
			// and a half times that is not a fair draw.
			fair := 800 / players
			require.True(t, n > fair/2 && n < fair*3/2, "seat %d first %d times of 800", s, n)
		}
	}
	// "moves round the table"
	g := mustNew(t, 3, 4, "")
	for range 6 {
		s := g.Turn()
		require.NoError(t, g.Do(s, Action{Do: End}))
		require.Equal(t, (s+1)%4, g.Turn())
	}
}

// "in a match the first seat rotates"; "A match ends when someone reaches
// 25 (setting: single hand); the lowest total wins."
func TestMatch(t *testing.T) {
	played := 0
	for seed := uint64(1); seed <= 20; seed++ {
		players := 2 + int(seed%3)
		m, err := NewMatch(spec(seed, "match=25"), players)
		require.NoError(t, err)
		_, more := m.Next()
		require.False(t, more, "no next hand before this one is over")
		first := m.Game().First()
		totals := make([]int, players)
		for hand := 0; ; hand++ {
			g := m.Game()
			require.Equal(t, (first+hand)%players, g.First(), "hand %d", hand)
			require.Equal(t, g.First(), g.Turn())
			require.Equal(t, engine.NoSeat, m.Winner(), "no winner while the match runs")
			playOut(t, g, newPlayers(t, []string{"easy", "easy", "easy", "easy"}[:players], seed), nil)
			played++
			res, _ := g.Over()
			for s, p := range res.Points {
				totals[s] += p
			}
			next, more := m.Next()
			require.Equal(t, totals, m.Totals())
			reached := false
			for _, tot := range totals {
				reached = reached || tot >= MatchTarget
			}
			require.Equal(t, !reached, more, "the match ends when a total reaches 25")
			if !more {
				low := totals[0]
				for _, tot := range totals {
					low = min(low, tot)
				}
				w := m.Winner()
				n := 0
				for _, tot := range totals {
					if tot == low {
						n++
					}
				}
				if n > 1 {
					require.Equal(t, engine.NoSeat, w, "a shared lowest total is no winner")
				} else {
					require.Equal(t, low, totals[w], "the lowest total wins")
				}
				break
			}
			require.NotEqual(t, g, next)
		}
	}
	require.Greater(t, played, 3*20, "matches to 25 run several hands")
	m, err := NewMatch(spec(5, ""), 3)
	require.NoError(t, err)
	g := m.Game()
	playOut(t, g, newPlayers(t, []string{"easy", "easy", "easy"}, 5), nil)
	_, more := m.Next()
	require.False(t, more, "match=hand is a single hand")
	res, _ := g.Over()
	require.Equal(t, res.Points, m.Totals())
}

func TestMatchWinner(t *testing.T) {
	m := &Match{done: true, totals: []int{30, 12, 12}}
	require.Equal(t, engine.NoSeat, m.Winner())
	m.totals = []int{30, 12, 14}
	require.Equal(t, 1, m.Winner())
	m.done = false
	require.Equal(t, engine.NoSeat, m.Winner())
}

// checkCards: every card of the pack exactly once, in a hand, a pile or
// the stock.
func checkCards(t testing.TB, g *Game) {
	var seen [52]int
	st := &g.st
	for s := range int(st.players) {
		for _, c := range st.hands[s].cards() {
			seen[c.Index()]++
		}
	}
	for p := range st.board {
		for i, c := range st.board[p].cards() {
			seen[c.Index()]++
			if i > 0 && !fits(c, st.board[p].c[i-1]) {
				t.Fatalf("%v: the %v pile breaks the run at %v", g.Spec(), Place(p), c)
			}
		}
		if Place(p).Corner() && st.board[p].n > 0 && st.board[p].bottom().Rank() != engine.King {
			t.Fatalf("%v: the %v corner starts with %v", g.Spec(), Place(p), st.board[p].bottom())
		}
	}
	for _, c := range st.stock[:st.nStock] {
		seen[c.Index()]++
	}
	for i, n := range seen {
		if n != 1 {
			t.Fatalf("%v: %v is there %d times", g.Spec(), engine.CardFromIndex(i), n)
		}
	}
}

// checkViews: a seat's view holds its own hand and the piles, and no card
// of another hand or of the stock; the spectator holds no hand.
func checkViews(t testing.TB, g *Game) {
	st := &g.st
	hidden := func(seat int) uint64 {
		m := maskOf(st.stock[:st.nStock])
		for s := range int(st.players) {
			if s != seat {
				m |= maskOf(st.hands[s].cards())
			}
		}
		return m
	}
	for seat := engine.Spectator; seat < int(st.players); seat++ {
		v := g.View(seat)
		var shown uint64
		for _, cs := range v.Piles {
			shown |= maskOf(cs)
		}
		if seat == engine.Spectator {
			if v.Hand != nil {
				t.Fatal("the spectator's view has a hand")
			}
		} else {
			if !reflect.DeepEqual([]engine.Card(v.Hand), st.hands[seat].cards()) {
				t.Fatalf("seat %d's view shows %v for its hand %v", seat, v.Hand, st.hands[seat].cards())
			}
			shown |= maskOf(v.Hand)
		}
		if shown&hidden(seat) != 0 {
			t.Fatalf("seat %d's view shows a card it may not see", seat)
		}
		if v.Stock != int(st.nStock) || len(v.Hands) != int(st.players) {
			t.Fatal("the view's counts are wrong")
		}
	}
}

// TestRecordForm checks the record line field by field against
// docs/tablegames.md's example form.
func TestRecordForm(t *testing.T) {
	g := mustNew(t, 11, 2, "kingsAtOnce=true")
	playOut(t, g, newPlayers(t, []string{"normal", "easy"}, 11), nil)
	js, err := json.Marshal(g.Record([]string{"normal", "easy"}))
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(js, &m))
	require.Equal(t, "kings", m["game"])
	require.Equal(t, map[string]any{"draw": "start", "kingsAtOnce": true, "match": "hand"}, m["settings"])
	require.Equal(t, []any{"normal", "easy"}, m["seats"])
	start := m["start"].(map[string]any)
	hands := start["hands"].([]any)
	require.Len(t, hands, 2)
	require.Len(t, hands[0], 7)
	piles := start["piles"].(map[string]any)
	require.Len(t, piles, 4)
	for k, c := range piles {
		require.Contains(t, []string{"N", "E", "S", "W"}, k)
		require.Len(t, c, 2)
	}
	stock := start["stock"].([]any)
	require.Len(t, stock, 52-4-14)
	require.Equal(t, g.start.Stock[0].ASCII(), stock[0], "the stock is top first")
	require.Equal(t, float64(g.start.First), start["first"])
	require.Contains(t, string(js), fmt.Sprintf(`"start":{"hands":[[%q,`, g.start.Hands[0][0].ASCII()))
	res := m["result"].(map[string]any)
	require.Contains(t, res, "out")
	require.Len(t, res["penalty"], 2)
	for _, a := range m["actions"].([]any) {
		am := a.(map[string]any)
		require.Contains(t, am, "seat")
		switch am["do"] {
		case "play":
			require.Len(t, am, 4)
			require.Contains(t, am, "card")
			require.Contains(t, am, "to")
		case "move":
			require.Len(t, am, 4)
			require.Contains(t, am, "from")
			require.Contains(t, am, "to")
		case "end":
			require.Len(t, am, 2)
		default:
			t.Fatalf("action %v", am)
		}
	}
	// The example start of docs/tablegames.md reads back.
	var st Start
	require.NoError(t, json.Unmarshal([]byte(`{"hands": [["AS","2S","3S","4S","5S","6S","7S"]], "piles": {"N":"5C","E":"KD","S":"2H","W":"TS"}, "stock": ["8S"], "first": 1}`), &st))
	require.Equal(t, StartPiles{card("5C"), card("KD"), card("2H"), card("TS")}, st.Piles)
	require.Equal(t, Cards{card("8S")}, st.Stock)
}

// TestReplayRefuses: Replay says which action fails and why, and when the
// result differs.
func TestReplayRefuses(t *testing.T) {
	g := mustNew(t, 12, 3, "")
	playOut(t, g, newPlayers(t, []string{"easy", "easy", "easy"}, 12), nil)
	rec := g.Record([]string{"easy", "easy", "easy"})
	js, _ := json.Marshal(rec)
	require.NoError(t, Replay(js))

	bad := rec
	bad.Actions = append([]RecordAction(nil), rec.Actions...)
	bad.Actions[0].Seat = (bad.Actions[0].Seat + 1) % 3
	js, _ = json.Marshal(bad)
	require.ErrorContains(t, Replay(js), "action 0 {")
	require.ErrorContains(t, Replay(js), "it is not your turn")

	bad = rec
	bad.Result.Penalty = append([]int{99}, rec.Result.Penalty[1:]...)
	js, _ = json.Marshal(bad)
	require.ErrorContains(t, Replay(js), "penalties")

	bad = rec
	bad.Actions = rec.Actions[:len(rec.Actions)-1]
	js, _ = json.Marshal(bad)
	require.ErrorContains(t, Replay(js), "not over")

	// Settings written as a bool and a number, or left out, read the same.
	for _, s := range []string{`{"draw":"start","kingsAtOnce":false,"match":"hand"}`, `{}`, `{"kingsAtOnce":"false","match":"hand"}`} {
		r := rec
		raw, _ := json.Marshal(r)
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(raw, &m))
		m["settings"] = json.RawMessage(s)
		raw, _ = json.Marshal(m)
		require.NoError(t, Replay(raw), s)
	}
	var m map[string]json.RawMessage
	raw, _ := json.Marshal(rec)
	require.NoError(t, json.Unmarshal(raw, &m))
	m["settings"] = json.RawMessage(`{"draw":"sometimes"}`)
	raw, _ = json.Marshal(m)
	require.ErrorContains(t, Replay(raw), "draw can be start, end")
	require.Error(t, Replay([]byte(`{"game":"spite"}`)))
	require.Error(t, Replay([]byte(`not json`)))
}
