package games_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
)

// viewsShareNothing plays g out with players, and at every step checks
// that the views taken a few actions ago still read as they did (the
// game moving on wrote nothing into them), and that writing into every
// card of a view leaves the game as it was: what a computer player
// thinking on another goroutine relies on.
func viewsShareNothing[A any, V any](t *testing.T, g engine.Table[A, V], players []engine.Player[A, V]) {
	t.Helper()
	type taken struct {
		v    V
		seen []byte
	}
	var old []taken
	seats := append([]int{engine.Spectator}, make([]int, g.Seats())...)
	for i := range g.Seats() {
		seats[i+1] = i
	}
	for n := 0; g.Turn() != engine.NoSeat; n++ {
		require.Less(t, n, 20000)
		for _, tk := range old {
			now, err := json.Marshal(tk.v)
			require.NoError(t, err)
			require.Equal(t, string(tk.seen), string(now), "a view changed as the game moved on")
		}
		if n%7 == 0 {
			old = old[:0]
			for _, s := range seats {
				v := g.View(s)
				b, err := json.Marshal(v)
				require.NoError(t, err)
				old = append(old, taken{v, b})
			}
			// Scribbling over a copy of the view changes nothing in the game.
			before, _ := json.Marshal(g.View(g.Turn()))
			scribble(reflect.ValueOf(new(V)).Elem(), g.View(g.Turn()))
			after, _ := json.Marshal(g.View(g.Turn()))
			require.Equal(t, string(before), string(after), "writing into a view changed the game")
		}
		seat := g.Turn()
		require.NoError(t, g.Do(seat, players[seat].Choose(g.View(seat))))
	}
}

// scribble sets every card in v to the ace of spades.
func scribble[V any](dst reflect.Value, v V) {
	dst.Set(reflect.ValueOf(v))
	cardType := reflect.TypeOf(engine.Card(0))
	var walk func(reflect.Value)
	walk = func(x reflect.Value) {
		if x.Type() == cardType && x.CanSet() {
			x.SetUint(uint64(engine.NewCard(engine.Ace, engine.Spades)))
			return
		}
		switch x.Kind() {
		case reflect.Slice, reflect.Array:
			for i := range x.Len() {
				walk(x.Index(i))
			}
		case reflect.Struct:
			for i := range x.NumField() {
				walk(x.Field(i))
			}
		}
	}
	walk(dst)
}

func TestViewsShareNothingWithTheGame(t *testing.T) {
	for seed := range uint64(3) {
		kg, err := kings.New(engine.Spec{Game: kings.Name, Seed: seed + 1}, 4)
		require.NoError(t, err)
		var kp []engine.Player[kings.Action, kings.View]
		for i := range 4 {
			p, err := kings.NewPlayer("easy", uint64(i)+seed)
			require.NoError(t, err)
			kp = append(kp, p)
		}
		viewsShareNothing(t, kg, kp)

		sg, err := spite.New(engine.Spec{Game: spite.Name, Seed: seed + 1}, 2)
		require.NoError(t, err)
		var sp []engine.Player[spite.Action, spite.View]
		for i := range 2 {
			p, err := spite.NewPlayer("easy", uint64(i)+seed)
			require.NoError(t, err)
			sp = append(sp, p)
		}
		viewsShareNothing(t, sg, sp)
	}
}
