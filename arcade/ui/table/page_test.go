package table

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/kings"
	"sshuffle/internal/uitest"
)

func TestTableStateOnTheScreen(t *testing.T) {
	st := uitest.KingsTable()
	require.Equal(t, []Seat{
		{Name: "ann"}, {Name: "bob", Away: true}, {Name: "Hopper", Computer: true, Strength: "hard"},
		{Name: "cy", Computer: true, Strength: "normal"}, {Name: "dee"},
	}, seats(st))

	// No view while seating: the table screen is not built.
	st.Phase = hub.TableSeating
	_, _, ok, err := view(games.Default(), st)
	require.False(t, ok)
	require.NoError(t, err)
	g, err := kings.New(engine.Spec{Game: kings.Name, Seed: 3}, 3)
	require.NoError(t, err)
	st.View, err = kings.EncodeView(g.View(engine.Spectator))
	require.NoError(t, err)
	st.Phase, st.Totals = hub.TablePlaying, []int{1, 2, 3}
	v, d, ok, err := view(games.Default(), st)
	require.True(t, ok)
	require.NoError(t, err)
	msg, err := d.State(common(st), v)
	require.NoError(t, err)
	ks, ok := msg.(KingsState)
	require.True(t, ok)
	require.Equal(t, "ABCDE", ks.Table)
	require.Equal(t, []int{1, 2, 3}, ks.Totals)
	require.Equal(t, 1, ks.Watchers)
	require.Equal(t, engine.Spectator, ks.View.Seat)

	// A game the catalogue does not list, or bytes its kit refuses, are
	// said, not drawn.
	st.Game = "poker"
	_, _, ok, err = view(games.Default(), st)
	require.True(t, ok)
	require.Error(t, err)
	st.Game, st.View = "kings", []byte(`{"seat":9}`)
	_, _, _, err = view(games.Default(), st)
	require.Error(t, err)
}

// The page hands over its game's screen's view in pieces, one a line, as
// the router asks for it; before the first view, its note whole.
func TestPageDrawsInPieces(t *testing.T) {
	s := newSim(t, "spite", "", 3, []string{"ann", "bob"}, []bool{true, true}, []int{0})
	v := s.views[0]
	p := &Page{env: v.e, code: "TABLE", inner: v.s}
	pieces := p.ViewPieces(nil)
	require.Len(t, pieces, v.e.Height)
	require.Equal(t, p.View(), strings.Join(pieces, ""))
	waiting := &Page{env: v.e, code: "TABLE"}
	require.Equal(t, []string{waiting.View()}, waiting.ViewPieces(nil))
}
