package spite

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// codecGame plays one whole game between computer players and returns
// every seat action made and every view shown on the way (both seats' and
// the spectator's, after each action), the last of them a finished game's.
func codecGame(t testing.TB, settings string, seed uint64) ([]Action, []View) {
	t.Helper()
	g, err := New(specOf(settings, seed), 2)
	require.NoError(t, err)
	p0, _ := NewPlayer("normal", seed)
	p1, _ := NewPlayer("hard", seed+1)
	players := []engine.Player[Action, View]{p0, p1}
	var acts []Action
	views := []View{g.View(0), g.View(1), g.View(engine.Spectator)}
	for n := 0; g.Turn() != engine.NoSeat; n++ {
		require.Less(t, n, 5000, "the game never ends")
		seat := g.Turn()
		a := players[seat].Choose(g.View(seat))
		require.NoError(t, g.Do(seat, a))
		acts = append(acts, a)
		views = append(views, g.View(0), g.View(1), g.View(engine.Spectator))
	}
	return acts, views
}

func roundTripAction(t testing.TB, a Action) {
	t.Helper()
	b, err := EncodeAction(a)
	require.NoError(t, err)
	back, err := DecodeAction(b)
	require.NoError(t, err, "%s", b)
	require.Equal(t, a, back, "%s", b)
}

func roundTripView(t testing.TB, v View) {
	t.Helper()
	b, err := EncodeView(v)
	require.NoError(t, err)
	want, err := marshalView(v)
	require.NoError(t, err)
	require.Equal(t, string(want), string(b), "the view as encoding/json writes it")
	back, err := DecodeView(b)
	require.NoError(t, err, "%s", b)
	require.Equal(t, v, back, "%s", b)
}

// TestActionCodecEveryKind: each kind of action a seat sends comes back
// from its bytes equal to itself; a reshuffle, the table's own entry, is
// no seat's to send.
func TestActionCodecEveryKind(t *testing.T) {
	seven := engine.MustCards("7H")[0]
	for _, a := range []Action{
		PlayHand(seven, 3), PlayPayoff(0), PlaySide(2, 1), DiscardTo(seven, 3), {Do: Pass},
	} {
		roundTripAction(t, a)
	}
	b, err := EncodeAction(PlayHand(seven, 2))
	require.NoError(t, err)
	require.JSONEq(t, `{"do":"play","from":"hand","card":"7H","to":2}`, string(b), "the record's form, without a seat")

	b, err = EncodeAction(Action{Do: Reshuffle, Stock: "7H 2C"})
	require.NoError(t, err)
	_, err = DecodeAction(b)
	require.Error(t, err)

	acts, _ := codecGame(t, "payoff=13,centres=3,kingAce=true", 4)
	kinds := map[string]bool{}
	for _, a := range acts {
		roundTripAction(t, a)
		kinds[a.Do+a.From] = true
	}
	require.True(t, kinds[Play+FromHand] && kinds[Play+FromPayoff] && kinds[Discard], "a real game has plays and discards: %v", kinds)
}

// TestViewCodecEveryKind: a seat's view, the spectator's (no hand at all,
// which stays apart from an empty hand), a finished game's, under every
// setting that shapes a view.
func TestViewCodecEveryKind(t *testing.T) {
	for _, settings := range []string{"", "payoff=13,centres=3,kingAce=true", "payoff=30,match=50"} {
		_, views := codecGame(t, settings, 11)
		var seat, spectator, over bool
		for _, v := range views {
			roundTripView(t, v)
			seat = seat || v.Seat >= 0
			spectator = spectator || v.Seat == engine.Spectator
			over = over || v.Over
		}
		require.True(t, seat && spectator && over, settings)
	}
	v := View{Seat: 0, Turn: 0, Payoff: 20, Centres: 4, Hand: []engine.Card{}, Stacks: make([][]engine.Card, 4),
		Players: [2]SeatView{{PayoffTop: engine.MustCards("3C")[0], PayoffLeft: 1}, {}}, Winner: engine.NoSeat}
	roundTripView(t, v)
	v.Seat, v.Hand = engine.Spectator, nil
	roundTripView(t, v)
}

// TestDecodeRefuses: bytes that are no value of the game are refused with
// a sentence, never read as something.
func TestDecodeRefuses(t *testing.T) {
	for _, b := range []string{
		``, `null`, `[]`, `{"do":"fly"}`, `{"do":"play","from":"hand","card":"ZZ","to":0}`,
		`{"do":"play","from":"hand","card":"7H","to":4}`, `{"do":"play","from":"hand","card":"7H","to":-1}`,
		`{"do":"play","from":"side","side":4,"to":0}`, `{"do":"play","from":"pocket","to":0}`,
		`{"do":"discard","card":"7H"}`, `{"do":"discard","card":"7H","side":9}`, `{"do":"pass","card":"7H"}`,
		`{"do":"play","from":"hand","to":1}`, `{"do":"reshuffle","stock":["7H"]}`, `{"seat":1,"do":"pass"}`,
		`{"do":"play","from":"payoff","to":1,"card":"7H"}`,
	} {
		_, err := DecodeAction([]byte(b))
		require.Error(t, err, b)
		require.NotEmpty(t, err.Error())
	}
	_, views := codecGame(t, "", 5)
	good, err := EncodeView(views[len(views)/2])
	require.NoError(t, err)
	_, err = DecodeView(good)
	require.NoError(t, err)
	for _, b := range []string{
		``, `null`, `{}`,
		`{"seat":2,"turn":0,"payoff":20,"centres":4,"hand":[],"stacks":[[],[],[],[]],"winner":-1}`,
		`{"seat":-1,"turn":5,"payoff":20,"centres":4,"hand":null,"stacks":[[],[],[],[]],"winner":-1}`,
		`{"seat":-1,"turn":0,"payoff":21,"centres":4,"hand":null,"stacks":[[],[],[],[]],"winner":-1}`,
		`{"seat":-1,"turn":0,"payoff":20,"centres":4,"hand":null,"stacks":[[],[]],"winner":-1}`,
		`{"seat":-1,"turn":0,"payoff":20,"centres":4,"hand":["7H"],"stacks":[[],[],[],[]],"winner":-1}`,
		`{"seat":0,"turn":0,"payoff":20,"centres":4,"hand":null,"stacks":[[],[],[],[]],"winner":-1}`,
		`{"seat":-1,"turn":0,"payoff":20,"centres":4,"hand":null,"stacks":[["XX"],[],[],[]],"winner":-1}`,
		`{"seat":-1,"turn":0,"payoff":20,"centres":4,"hand":null,"stacks":[[],[],[],[]],"winner":-1,"stock":-3}`,
		`{"seat":-1,"turn":0,"payoff":20,"centres":4,"hand":null,"stacks":[[],[],[],[]],"winner":-1,"stock":500}`,
		`{"seat":-1,"turn":0,"payoff":20,"centres":4,"hand":null,"stacks":[[],[],[],[]],"winner":-1,"players":[{"payoffTop":"7H","payoffLeft":0},{}]}`,
	} {
		_, err := DecodeView([]byte(b))
		require.Error(t, err, b)
	}
}

// seedActions adds a real game's actions to a fuzz target's corpus.
func seedActions(f *testing.F) {
	acts, _ := codecGame(f, "payoff=13", 2)
	for _, a := range acts[:min(len(acts), 40)] {
		b, err := EncodeAction(a)
		require.NoError(f, err)
		f.Add(b)
	}
	f.Add([]byte(`{"do":"play","from":"side","side":3,"to":1}`))
	f.Add([]byte(`{"do":"pass"}`))
}

// FuzzDecodeAction: no bytes make the decoder panic, and whatever it
// accepts is a canonical action that encodes back to the same action.
func FuzzDecodeAction(f *testing.F) {
	seedActions(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := DecodeAction(b)
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		require.Equal(t, a.canonical(), a)
		require.True(t, a.Card == engine.NoCard || a.Card.Valid())
		roundTripAction(t, a)
	})
}

// FuzzDecodeView: no bytes make the decoder panic, and whatever it
// accepts holds only cards and seats a table could show, and encodes back
// to the same view.
func FuzzDecodeView(f *testing.F) {
	_, views := codecGame(f, "centres=3", 3)
	for i := 0; i < len(views); i += max(1, len(views)/30) {
		b, err := EncodeView(views[i])
		require.NoError(f, err)
		f.Add(b)
	}
	b, err := EncodeView(views[len(views)-1])
	require.NoError(f, err)
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := DecodeView(b)
		if err != nil {
			return
		}
		require.LessOrEqual(t, v.Seat, 1)
		require.GreaterOrEqual(t, v.Seat, engine.Spectator)
		for _, c := range viewCards(v) {
			require.True(t, c.Valid(), "%v", c)
		}
		roundTripView(t, v)
	})
}

// The fast reader of views reads what EncodeView writes as json.Unmarshal
// reads it, and gives up (to json.Unmarshal) on anything else: every view
// of whole games, and each of one view's bytes taken out or changed.
func TestReadWireViewIsUnmarshal(t *testing.T) {
	same := func(b []byte) bool {
		w, ok := readWireView(b)
		if !ok {
			return false
		}
		var want wireView
		require.NoError(t, json.Unmarshal(b, &want), "%s", b)
		require.Equal(t, want, w, "%s", b)
		return true
	}
	var views []View
	for _, settings := range []string{"", "payoff=13,centres=3,kingAce=true"} {
		_, vs := codecGame(t, settings, 5)
		views = append(views, vs...)
	}
	views = append(views, View{Seat: engine.Spectator, Turn: 0, Payoff: 20, Centres: 4, Stacks: make([][]engine.Card, 4),
		Players: [2]SeatView{{PayoffTop: engine.MustCards("3C")[0], PayoffLeft: 1}, {}}, Winner: engine.NoSeat})
	for _, v := range views {
		b, err := EncodeView(v)
		require.NoError(t, err)
		require.True(t, same(b), "%s", b)
	}
	b, err := EncodeView(views[len(views)/2])
	require.NoError(t, err)
	read := 0
	for i := range b {
		cut := append(append([]byte(nil), b[:i]...), b[i+1:]...)
		if same(cut) {
			read++
		}
		for _, c := range []byte{' ', '0', '9', '-', '"', ']', 'x', ','} {
			changed := append([]byte(nil), b...)
			changed[i] = c
			if same(changed) {
				read++
			}
		}
	}
	require.Positive(t, read, "some changes are views still (another number)")
}
