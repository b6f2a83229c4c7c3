package ui

import "sshuffle/games"

// OptionKey is where the store keeps a player's option: "GAME.KEY".
func OptionKey(e games.Entry, key string) string { return e.Game.Name + "." + key }

// LoadOptions reads the player's options for a game, kept in the store as
// "on" | "off", with defaults for any not set (and for guests, who keep
// nothing). A game in progress keeps the options it was dealt with (they
// travel in its save); a change applies from the next deal.
func LoadOptions(e *Env, g games.Entry) games.Options {
	o := g.Defaults()
	if e.Player.Guest {
		return o
	}
	for _, d := range g.Options() {
		v, err := e.Store.Setting(e.Ctx(), e.Player.ID, OptionKey(g, d.Key))
		if err == nil && (v == games.On || v == games.Off) {
			o[d.Key] = v == games.On
		}
	}
	return o
}
