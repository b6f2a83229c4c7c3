// Package options is the screen where a player sets a game's options.
package options

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/ui"
	"sshuffle/games"
)

type optionsScreen struct {
	env    *ui.Env
	info   games.Entry
	opts   games.Options
	cursor int
	msg    string
}

// New is the options screen of a game.
func New(e *ui.Env, info games.Entry) ui.Screen {
	return &optionsScreen{env: e, info: info, opts: ui.LoadOptions(e, info)}
}

func (o *optionsScreen) MinSize() (int, int) { return 60, 12 }

func (o *optionsScreen) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || len(o.info.Options()) == 0 {
		if ok {
			return o.env.Back()
		}
		return nil
	}
	switch k.String() {
	case "up", "k":
		o.cursor = (o.cursor + len(o.info.Options()) - 1) % len(o.info.Options())
	case "down", "j":
		o.cursor = (o.cursor + 1) % len(o.info.Options())
	case "space", "enter", "x":
		d := o.info.Options()[o.cursor]
		o.opts[d.Key] = !o.opts[d.Key]
		if o.env.Player.Guest {
			o.msg = "Guests' options last until they leave."
			return nil
		}
		v := games.Off
		if o.opts[d.Key] {
			v = games.On
		}
		if err := o.env.Store.PutSetting(o.env.Ctx(), o.env.Player.ID, ui.OptionKey(o.info, d.Key), v); err != nil {
			o.msg = "Could not save that option right now."
		} else {
			o.msg = "Saved. It applies from your next deal."
		}
	case "esc", "q", "o":
		return o.env.Back()
	}
	return nil
}

func (o *optionsScreen) View() string {
	var b strings.Builder
	b.WriteString(ui.TitleStyle.Render("Options: "+o.info.Title()) + "\n\n")
	if len(o.info.Options()) == 0 {
		b.WriteString("This game has no options.\n\n" + ui.FaintStyle.Render("Any key to go back."))
		return b.String()
	}
	for i, d := range o.info.Options() {
		mark := "[ ]"
		if o.opts[d.Key] {
			mark = "[x]"
		}
		line := fmt.Sprintf("%s %s", mark, d.Label)
		if i == o.cursor {
			b.WriteString(ui.SelStyle.Render("> "+line) + "\n")
		} else {
			b.WriteString("  " + line + "\n")
		}
	}
	b.WriteString("\n")
	if o.msg != "" {
		b.WriteString(ui.OkStyle.Render(o.msg))
	}
	b.WriteString("\n" + ui.HelpBar(o.env.Width, "↑↓", "choose", "space", "toggle", "esc", "back"))
	return b.String()
}
