package arcade

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"sshuffle/engine"
	"sshuffle/games"
)

// loadOptions reads the player's options for a game, kept in the store as
// "GAME.KEY" = "on" | "off", with defaults for any not set (and for guests,
// who keep nothing). A game in progress keeps the options it was dealt with
// (they travel in its save); a change applies from the next deal.
func loadOptions(e *env, info games.Entry) games.Options {
	o := info.Defaults()
	if e.player.Guest {
		return o
	}
	for _, d := range info.Options() {
		v, err := e.store.Setting(e.player.ID, info.Game.Name+"."+d.Key)
		if err == nil && (v == games.On || v == games.Off) {
			o[d.Key] = v == games.On
		}
	}
	return o
}

type optionsScreen struct {
	env    *env
	info   games.Entry
	back   screen
	opts   games.Options
	cursor int
	msg    string
}

func newOptions(e *env, info games.Entry, back screen) *optionsScreen {
	return &optionsScreen{env: e, info: info, back: back, opts: loadOptions(e, info)}
}

func (o *optionsScreen) minSize() (int, int) { return 60, 12 }

func (o *optionsScreen) update(msg tea.Msg) (screen, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || len(o.info.Options()) == 0 {
		if ok {
			return o.back, nil
		}
		return o, nil
	}
	switch k.String() {
	case "up", "k":
		o.cursor = (o.cursor + len(o.info.Options()) - 1) % len(o.info.Options())
	case "down", "j":
		o.cursor = (o.cursor + 1) % len(o.info.Options())
	case "space", "enter", "x":
		d := o.info.Options()[o.cursor]
		o.opts[d.Key] = !o.opts[d.Key]
		if o.env.player.Guest {
			o.msg = "Guests' options last until they leave."
			return o, nil
		}
		v := games.Off
		if o.opts[d.Key] {
			v = games.On
		}
		if err := o.env.store.PutSetting(o.env.player.ID, o.info.Game.Name+"."+d.Key, v); err != nil {
			o.msg = "Could not save that option right now."
		} else {
			o.msg = "Saved. It applies from your next deal."
		}
	case "esc", "q", "o":
		return o.back, nil
	}
	return o, nil
}

func (o *optionsScreen) view() string {
	var b strings.Builder
	b.WriteString(titleStyle.Render("Options: "+o.info.Title()) + "\n\n")
	if len(o.info.Options()) == 0 {
		b.WriteString("This game has no options.\n\n" + faintStyle.Render("Any key to go back."))
		return b.String()
	}
	for i, d := range o.info.Options() {
		mark := "[ ]"
		if o.opts[d.Key] {
			mark = "[x]"
		}
		line := fmt.Sprintf("%s %s", mark, d.Label)
		if i == o.cursor {
			b.WriteString(selStyle.Render("> "+line) + "\n")
		} else {
			b.WriteString("  " + line + "\n")
		}
	}
	b.WriteString("\n")
	if o.msg != "" {
		b.WriteString(okStyle.Render(o.msg))
	}
	b.WriteString("\n" + helpBar(o.env.width, "↑↓", "choose", "space", "toggle", "esc", "back"))
	return b.String()
}

// freshSpec picks the next deal of a game for a player: a solver-won one
// when the game offers that and the player has it on.
func freshSpec(e *env, info games.Entry, opts games.Options) engine.Spec {
	if info.Variant.Winnable && opts.On(games.Winnable.Key) {
		if spec, ok := e.pools.Take(info.Key()); ok {
			return spec
		}
	}
	return engine.Spec{Game: info.Game.Name, Variant: info.Variant.Name, Seed: newSeed(info)}
}
