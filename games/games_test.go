package games

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// A spec a game can't deal is neither won nor lost: the solver says
// undecided, and the game's Text says why.
func TestBadSpecIsNotADecision(t *testing.T) {
	for _, e := range Default().Games() {
		if e.Kind != Solitaire {
			continue
		}
		name := e.Name
		spec := engine.Spec{Game: name, Variant: "nosuch", Seed: 1}
		_, err := e.Text(spec)
		require.Error(t, err, name)
		r := e.Solve(spec, 1000)
		require.Equal(t, engine.Undecided, r.Outcome, name)
		require.Empty(t, r.Moves, name)
		// The same game dealt properly is decided or searched, not refused.
		ok := engine.Spec{Game: name, Seed: 1}
		switch name {
		case "klondike":
			ok.Variant = "draw1"
		case "spider":
			ok.Variant = "1suit"
		}
		_, err = e.Text(ok)
		require.NoError(t, err, name)
	}
}

// Every entry of the registry deals what its key names, with its default
// options, and Lookup finds the entry again from the deal.
func TestEveryEntryDealsItsKey(t *testing.T) {
	c := Default()
	seen := map[string]bool{}
	for _, e := range c.Entries() {
		require.False(t, seen[e.Key()], "two entries for %s", e.Key())
		seen[e.Key()] = true
		got, ok := c.Entry(e.Key())
		require.True(t, ok, e.Key())
		require.Equal(t, e.Title(), got.Title())
		if !e.Playable() {
			require.Equal(t, Table, e.Game.Kind, "only the table games have no solitaire deal: %s", e.Key())
			require.True(t, e.AtTable(), e.Key())
			require.Empty(t, e.Game.Soon, "%s is played at tables now", e.Key())
			continue
		}
		spec := e.Spec(e.Game.Deals.First)
		g, err := e.Game.New(spec, e.Defaults())
		require.NoError(t, err, e.Key())
		require.Equal(t, e.Key(), g.Spec().Key())
		back, norm, err := c.Lookup(g.Spec())
		require.NoError(t, err, e.Key())
		require.Equal(t, e.Key(), back.Key())
		require.Equal(t, g.Spec(), norm)
		for _, o := range e.Options() {
			require.ElementsMatch(t, []string{On, Off}, o.Values, "%s option %s", e.Key(), o.Key)
		}
	}
	require.True(t, seen["klondike/draw1"] && seen["freecell"] && seen["spite"] && seen["kings"])
}

func TestLookupRefusesWhatNoGameHas(t *testing.T) {
	c := Default()
	_, _, err := c.Lookup(engine.Spec{Game: "nosuch", Seed: 1})
	require.ErrorContains(t, err, `no game "nosuch"`)
	_, _, err = c.Lookup(engine.Spec{Game: "klondike", Variant: "draw2", Seed: 1})
	require.ErrorContains(t, err, `no variant "draw2"`)
	// A solitaire has no table settings, so a spec naming one is refused
	// rather than dealt as if it meant nothing.
	_, _, err = c.Lookup(engine.Spec{Game: "freecell", Settings: "payoff=13", Seed: 1})
	require.ErrorContains(t, err, `no setting "payoff"`)
	// Old specs (before the settings part) still name their entry.
	old, err := engine.ParseSpec("klondike/draw3/w/1234")
	require.NoError(t, err)
	e, _, err := c.Lookup(old)
	require.NoError(t, err)
	require.Equal(t, "Klondike · Draw 3", e.Title())
}

func TestRangeSkipsTheUnwinnableFreeCellDeal(t *testing.T) {
	g, ok := Default().Game("freecell")
	require.True(t, ok)
	require.True(t, g.Deals.Contains(617))
	require.False(t, g.Deals.Contains(11982))
	require.False(t, g.Deals.Contains(32001))
	require.False(t, g.Deals.Contains(0))
}
