package spite

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// randomSettings picks one value of every setting.
func randomSettings(rng *engine.RNG) string {
	var parts []string
	for _, s := range Settings {
		parts = append(parts, s.Key+"="+s.Values[rng.Intn(len(s.Values))])
	}
	return strings.Join(parts, ",")
}

// randomPlayer picks any legal action: it reaches positions no sensible
// player would.
type randomPlayer struct{ rng *engine.RNG }

func (p randomPlayer) Choose(v View) Action {
	as := legalFromView(v)
	return as[p.rng.Intn(len(as))]
}

// places lists every pile of the true state, with whether seat may see it.
func (s *state) places(seat int) (seen, hidden [][]engine.Card) {
	for p := range 2 {
		if p == seat {
			seen = append(seen, s.hand[p][:s.nHand[p]])
		} else {
			hidden = append(hidden, s.hand[p][:s.nHand[p]])
		}
		if n := s.nPayoff[p]; n > 0 {
			seen = append(seen, s.payoff[p][n-1:n])
			hidden = append(hidden, s.payoff[p][:n-1])
		}
		for i := range SideStacks {
			seen = append(seen, s.side[p][i][:s.nSide[p][i]])
		}
	}
	for i := range 4 {
		seen = append(seen, s.centre[i][:s.nCentre[i]])
	}
	seen = append(seen, s.recycle[:s.nRecycle])
	hidden = append(hidden, s.stock[:s.nStock])
	return seen, hidden
}

// checkCards fails unless the state holds two full packs: each of the 52
// cards exactly twice, 104 in all, and no stray values in unused slots.
func checkCards(t testing.TB, g *Game) {
	seen, hidden := g.st.places(0)
	var n [256]int
	total := 0
	for _, cs := range append(seen, hidden...) {
		for _, c := range cs {
			if !c.Valid() {
				t.Fatalf("%v is not a card", c)
			}
			n[c]++
			total++
		}
	}
	if total != numCards {
		t.Fatalf("%d cards on the table, not 104", total)
	}
	for _, c := range engine.Deck() {
		if n[c] != 2 {
			t.Fatalf("%v is on the table %d times", c, n[c])
		}
	}
}

// viewCards collects every card value anywhere in a view, by reflection,
// so that a field added later is checked too.
func viewCards(v View) []engine.Card {
	var out []engine.Card
	ct := reflect.TypeFor[engine.Card]()
	var walk func(reflect.Value)
	walk = func(x reflect.Value) {
		switch {
		case x.Type() == ct:
			if c := engine.Card(x.Uint()); c != engine.NoCard {
				out = append(out, c)
			}
		case x.Kind() == reflect.Struct:
			for i := range x.NumField() {
				walk(x.Field(i))
			}
		case x.Kind() == reflect.Slice || x.Kind() == reflect.Array:
			for i := range x.Len() {
				walk(x.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(v))
	return out
}

// checkViews fails if a view holds anything but the cards its seat may
// see: as a multiset (two packs repeat every card) the view's cards must be
// exactly those of the places open to it, so no hidden card is in it.
func checkViews(t testing.TB, g *Game) {
	for _, seat := range []int{0, 1, engine.Spectator} {
		v := g.View(seat)
		seen, _ := g.st.places(seat)
		var want []engine.Card
		for _, cs := range seen {
			want = append(want, cs...)
		}
		if !sameCards(viewCards(v), want) {
			t.Fatalf("the view of seat %d holds %v, but the seat may see %v", seat, viewCards(v), want)
		}
		if seat == engine.Spectator && v.Hand != nil {
			t.Fatal("a spectator's view has a hand")
		}
	}
}

var oddActions = []Action{
	{},
	{Do: Reshuffle, Stock: "AS"},
	{Do: Play, From: FromHand, Card: engine.NoCard, To: 0},
	{Do: Play, From: FromHand, Card: 0xff, To: 0},
	{Do: Play, From: FromPayoff, To: -1},
	{Do: Play, From: FromPayoff, To: 4},
	{Do: Play, From: FromSide, Side: -1, To: 0},
	{Do: Play, From: FromSide, Side: 9, To: 0},
	{Do: Discard, Card: engine.NoCard, Side: 0},
	{Do: Discard, Card: 0x3f, Side: 0},
	{Do: "undo"},
}

func TestRecordForm(t *testing.T) {
	g, _ := New(specOf("payoff=13,kingAce=true", 3), 2)
	require.True(t, playOut(t, g, newPlayers(t, "hard", "easy", 3)))
	rec := g.Record([]string{"hard", "easy"})
	line, err := json.Marshal(rec)
	require.NoError(t, err)
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(line, &m))
	keys := []string{}
	for k := range m {
		keys = append(keys, k)
	}
	require.ElementsMatch(t, []string{"game", "settings", "seats", "start", "actions", "result"}, keys)
	require.JSONEq(t, `{"payoff":13,"centres":4,"kingAce":true,"match":"single"}`, string(m["settings"]))
	require.JSONEq(t, `"spite"`, string(m["game"]))
	var start struct {
		Payoff [][]string `json:"payoff"`
		Hands  [][]string `json:"hands"`
		Stock  []string   `json:"stock"`
		First  *int       `json:"first"`
	}
	require.NoError(t, json.Unmarshal(m["start"], &start))
	require.Len(t, start.Payoff, 2)
	require.Len(t, start.Payoff[0], 13)
	require.Len(t, start.Hands[1], 5)
	require.Len(t, start.Stock, 104-26-10)
	require.NotNil(t, start.First)
	var acts []map[string]any
	require.NoError(t, json.Unmarshal(m["actions"], &acts))
	for _, a := range acts {
		switch a["do"] {
		case "play":
			require.Contains(t, []any{"hand", "payoff", "side"}, a["from"])
			require.Contains(t, a, "to")
			require.Contains(t, a, "seat")
			_, hasCard := a["card"]
			require.Equal(t, a["from"] == "hand", hasCard)
			_, hasSide := a["side"]
			require.Equal(t, a["from"] == "side", hasSide)
		case "discard":
			require.Contains(t, a, "card")
			require.Contains(t, a, "side")
			require.Contains(t, a, "seat")
		case "pass":
			require.Len(t, a, 2)
		case "reshuffle":
			require.NotContains(t, a, "seat")
			require.NotEmpty(t, a["stock"])
		default:
			t.Fatalf("action %v", a)
		}
		if c, ok := a["card"]; ok {
			require.Regexp(t, `^[A2-9TJQK][SHDC]$`, c)
		}
	}
	res := string(m["result"])
	require.Regexp(t, `^\{"winner":[01],"score":\[\d+,\d+\]\}$`, res)
	again, _ := New(specOf("payoff=13,kingAce=true", 3), 2)
	require.True(t, playOut(t, again, newPlayers(t, "hard", "easy", 3)))
	line2, _ := json.Marshal(again.Record([]string{"hard", "easy"}))
	require.Equal(t, line, line2, "the same seed gives the same record")
	require.NoError(t, Replay(line))
}

func TestRecordStockTopFirst(t *testing.T) {
	// "Lists of cards are given bottom first, except the stock, which is
	// top first (its first card is the next one drawn)."
	g, _ := New(specOf("", 11), 2)
	rec := g.Record(nil)
	seat := g.Turn()
	hand := g.View(seat).Hand
	require.NoError(t, g.Do(seat, DiscardTo(hand[0], 0)))
	require.NoError(t, g.Do(1-seat, DiscardTo(g.View(1 - seat).Hand[0], 0)))
	require.Equal(t, rec.Start.Stock[0], g.View(seat).Hand[4], "the first card drawn")
	require.Equal(t, []engine.Card(rec.Start.Payoff[seat][19:]), []engine.Card{g.View(seat).Players[seat].PayoffTop}, "a pile's last card is its top")
}

func TestReplayRefuses(t *testing.T) {
	var line []byte
	for seed := uint64(21); ; seed++ {
		g, _ := New(specOf("payoff=30", seed), 2)
		require.True(t, playOut(t, g, newPlayers(t, "normal", "normal", seed)))
		if strings.Contains(string(mustJSON(t, g.Record(nil))), "reshuffle") {
			line = mustJSON(t, g.Record([]string{"normal", "normal"}))
			break
		}
	}
	require.NoError(t, Replay(line))
	var rec map[string]any
	require.NoError(t, json.Unmarshal(line, &rec))
	acts := rec["actions"].([]any)
	edit := func(f func(map[string]any)) []byte {
		var r map[string]any
		require.NoError(t, json.Unmarshal(line, &r))
		f(r)
		return mustJSON(t, r)
	}
	// An illegal action: the first discard goes to side stack 7.
	bad := edit(func(r map[string]any) {
		for _, a := range r["actions"].([]any) {
			if a.(map[string]any)["do"] == "discard" {
				a.(map[string]any)["side"] = 7
				break
			}
		}
	})
	err := Replay(bad)
	require.ErrorContains(t, err, "There is no such side stack")
	require.Regexp(t, `^action \d+ \{"seat":[01],"do":"discard"`, err.Error())
	// A wrong result.
	bad = edit(func(r map[string]any) { r["result"].(map[string]any)["score"] = []int{1, 2} })
	require.ErrorContains(t, Replay(bad), "the record says")
	// A reshuffle that is not the recycle pile.
	ri := -1
	for i, a := range acts {
		if a.(map[string]any)["do"] == "reshuffle" {
			ri = i
			break
		}
	}
	bad = edit(func(r map[string]any) {
		st := r["actions"].([]any)[ri].(map[string]any)["stock"].([]any)
		st[0] = "XX"
	})
	require.Error(t, Replay(bad))
	bad = edit(func(r map[string]any) {
		st := r["actions"].([]any)[ri].(map[string]any)
		st["stock"] = st["stock"].([]any)[1:]
	})
	require.ErrorContains(t, Replay(bad), "not the cards of the recycle pile")
	// The last reshuffle taken out.
	last := -1
	for i, a := range acts {
		if a.(map[string]any)["do"] == "reshuffle" {
			last = i
		}
	}
	bad = edit(func(r map[string]any) {
		as := r["actions"].([]any)
		r["actions"] = append(as[:last:last], as[last+1:]...)
	})
	require.ErrorContains(t, Replay(bad), "no reshuffle")
	// A record cut short, a game of another name, a start that is not two packs.
	bad = edit(func(r map[string]any) { r["actions"] = r["actions"].([]any)[:10] })
	require.ErrorContains(t, Replay(bad), "ends before the game does")
	bad = edit(func(r map[string]any) { r["game"] = "kings" })
	require.Error(t, Replay(bad))
	bad = edit(func(r map[string]any) {
		r["start"].(map[string]any)["stock"] = r["start"].(map[string]any)["stock"].([]any)[1:]
	})
	require.ErrorContains(t, Replay(bad), "the start")
	// Settings given as strings, or left out, read as well.
	ok := edit(func(r map[string]any) {
		r["settings"] = map[string]any{"payoff": "30", "kingAce": "false"}
	})
	require.NoError(t, Replay(ok))
	require.Error(t, Replay(edit(func(r map[string]any) { delete(r, "settings") })), "payoff 30 is not the default")
	require.Error(t, Replay([]byte("{")))
	require.True(t, bytes.Contains(line, []byte(`"do":"reshuffle","stock":[`)))
}

func mustJSON(t testing.TB, x any) []byte {
	b, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
