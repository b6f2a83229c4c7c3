package kings

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// codecGame plays one whole hand between computer players and returns
// every action made and every view shown on the way (each seat's and the
// spectator's, after each action), the last of them a finished hand's.
func codecGame(t testing.TB, seats int, settings string, seed uint64) ([]Action, []View) {
	t.Helper()
	g := mustNew(t, seed, seats, settings)
	strengths := []string{"easy", "normal", "hard", "normal"}[:seats]
	ps := newPlayers(t, strengths, seed)
	var acts []Action
	var views []View
	look := func() {
		for s := range seats {
			views = append(views, g.View(s))
		}
		views = append(views, g.View(engine.Spectator))
	}
	look()
	playOut(t, g, ps, func() {
		h := g.History()
		acts = append(acts, h[len(h)-1].Action)
		look()
	})
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

// TestActionCodecEveryKind: each kind of action comes back from its bytes
// equal to itself.
func TestActionCodecEveryKind(t *testing.T) {
	four := engine.MustCards("4H")[0]
	for _, a := range []Action{
		{Do: Play, Card: four, To: N}, {Do: Play, Card: engine.MustCards("KS")[0], To: NW},
		{Do: Move, From: E, To: S}, {Do: Move, From: W, To: SE}, {Do: End},
	} {
		roundTripAction(t, a)
	}
	b, err := EncodeAction(Action{Do: Play, Card: four, To: N})
	require.NoError(t, err)
	require.JSONEq(t, `{"do":"play","card":"4H","to":"N"}`, string(b), "the record's form, without a seat")
	_, err = EncodeAction(Action{})
	require.Error(t, err, "the zero action is no action")

	kinds := map[Kind]bool{}
	for seed := uint64(1); seed < 6; seed++ {
		acts, _ := codecGame(t, 3, "", seed)
		for _, a := range acts {
			roundTripAction(t, a)
			kinds[a.Do] = true
		}
	}
	require.True(t, kinds[Play] && kinds[End], "real hands play and end turns: %v", kinds)
}

// TestViewCodecEveryKind: a seat's view, the spectator's (no hand at all,
// which stays apart from an empty hand), a finished hand's with its
// penalties, at every table size and setting that shapes a view.
func TestViewCodecEveryKind(t *testing.T) {
	for _, c := range []struct {
		seats    int
		settings string
	}{{2, ""}, {3, "draw=end"}, {4, "kingsAtOnce=true,match=25"}} {
		_, views := codecGame(t, c.seats, c.settings, 7)
		var seat, spectator, over bool
		for _, v := range views {
			roundTripView(t, v)
			seat = seat || v.Seat >= 0
			spectator = spectator || v.Seat == engine.Spectator
			over = over || (v.Over && v.Penalty != nil)
		}
		require.True(t, seat && spectator && over, c.settings)
	}
	// The seat that went out holds an empty hand, not none.
	found := false
	for seed := uint64(1); seed < 30 && !found; seed++ {
		_, views := codecGame(t, 2, "", seed)
		last := views[len(views)-3:]
		if out := last[0].Out; out == 0 || out == 1 {
			v := last[out]
			require.NotNil(t, v.Hand)
			require.Empty(t, v.Hand)
			roundTripView(t, v)
			found = true
		}
	}
	require.True(t, found, "someone goes out in one of the hands")
}

// TestDecodeRefuses: bytes that are no value of the game are refused with
// a sentence, never read as something.
func TestDecodeRefuses(t *testing.T) {
	for _, b := range []string{
		``, `null`, `[]`, `{"do":"pass"}`, `{"do":"play","card":"ZZ","to":"N"}`, `{"do":"play","card":"4H","to":"X"}`,
		`{"do":"play","card":"4H"}`, `{"do":"move","from":"N"}`, `{"do":"move","from":"N","to":"E","card":"4H"}`,
		`{"do":"end","to":"N"}`, `{"do":"play","card":"4H","to":"N","from":"E"}`, `{"do":""}`,
	} {
		_, err := DecodeAction([]byte(b))
		require.Error(t, err, b)
		require.NotEmpty(t, err.Error())
	}
	piles := `"piles":[[],[],[],[],[],[],[],[]]`
	for _, b := range []string{
		``, `null`, `{}`,
		`{"seat":-1,"turn":0,"hands":[7],"first":0,` + piles + `}`,
		`{"seat":-1,"turn":0,"hands":[7,7,7,7,7],"first":0,` + piles + `}`,
		`{"seat":2,"turn":0,"hands":[0,0],"hand":[],"first":0,` + piles + `}`,
		`{"seat":-1,"turn":3,"hands":[7,7],"first":0,` + piles + `}`,
		`{"seat":-1,"turn":0,"hands":[7,7],"first":2,` + piles + `}`,
		`{"seat":0,"turn":0,"hands":[1,7],"first":0,` + piles + `}`,
		`{"seat":-1,"turn":0,"hands":[7,7],"hand":["4H"],"first":0,` + piles + `}`,
		`{"seat":0,"turn":0,"hands":[1,7],"hand":["4X"],"first":0,` + piles + `}`,
		`{"seat":-1,"turn":0,"hands":[7,-7],"first":0,` + piles + `}`,
		`{"seat":-1,"turn":0,"hands":[7,7],"first":0,"stock":60,` + piles + `}`,
		`{"seat":-1,"turn":0,"hands":[7,7],"first":0,"penalty":[1],` + piles + `}`,
		`{"seat":-1,"turn":0,"hands":[7,7],"first":0,"out":4,` + piles + `}`,
	} {
		_, err := DecodeView([]byte(b))
		require.Error(t, err, b)
	}
}

// FuzzDecodeAction: no bytes make the decoder panic, and whatever it
// accepts is a canonical action that encodes back to the same action.
func FuzzDecodeAction(f *testing.F) {
	acts, _ := codecGame(f, 4, "", 2)
	for _, a := range acts[:min(len(acts), 40)] {
		b, err := EncodeAction(a)
		require.NoError(f, err)
		f.Add(b)
	}
	f.Add([]byte(`{"do":"move","from":"E","to":"SW"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := DecodeAction(b)
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		require.Equal(t, a.canonical(), a)
		require.True(t, a.From < numPlaces && a.To < numPlaces)
		require.True(t, a.Card == engine.NoCard || a.Card.Valid())
		roundTripAction(t, a)
	})
}

// FuzzDecodeView: no bytes make the decoder panic, and whatever it
// accepts holds only cards and seats a table could show, and encodes back
// to the same view.
func FuzzDecodeView(f *testing.F) {
	_, views := codecGame(f, 3, "draw=end", 3)
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
		require.Less(t, v.Seat, len(v.Hands))
		require.GreaterOrEqual(t, v.Seat, engine.Spectator)
		for _, c := range v.Hand {
			require.True(t, c.Valid(), "%v", c)
		}
		for _, p := range v.Piles {
			for _, c := range p {
				require.True(t, c.Valid(), "%v", c)
			}
		}
		roundTripView(t, v)
	})
}

// marshalView is EncodeView through encoding/json, which the hand-written
// one must match byte for byte.
func marshalView(v View) ([]byte, error) {
	w := wireView{Seat: v.Seat, Turn: v.Turn, Hand: engine.WireCards(v.Hand), Stock: v.Stock, Hands: v.Hands,
		First: v.First, TurnNo: v.TurnNo, Step: v.Step, Played: v.Played, Idle: v.Idle, DrawEnd: v.DrawEnd,
		KingsAtOnce: v.KingsAtOnce, Over: v.Over, Out: v.Out, Penalty: v.Penalty}
	for i, p := range v.Piles {
		w.Piles[i] = engine.WireCards(p)
	}
	return json.Marshal(w)
}

// The fast reader of views reads what EncodeView writes as json.Unmarshal
// reads it, and gives up (to json.Unmarshal) on anything else: every view
// of whole hands, and each of one view's bytes taken out or changed.
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
	for _, seats := range []int{2, 4} {
		_, vs := codecGame(t, seats, "kingsAtOnce=true", 5)
		views = append(views, vs...)
	}
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
