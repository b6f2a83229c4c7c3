// Package account is the screen where a player picks their name.
package account

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/ui"
	"sshuffle/internal/format"
	"sshuffle/store"
)

type namePicker struct {
	env   *ui.Env
	then  *ui.Route
	input textinput.Model
	msg   string
}

// NewName is the name picker, for a first visit whose SSH user name could
// not be used (tried).
func NewName(e *ui.Env, tried string, then *ui.Route) ui.Screen {
	ti := textinput.New()
	ti.Placeholder = "3-20 letters, digits, _ or -"
	ti.CharLimit = 20
	ti.SetWidth(32)
	// The default paste binding reads the server's clipboard; a paste from
	// the player's terminal still arrives as a PasteMsg.
	ti.KeyMap.Paste.SetEnabled(false)
	ti.Focus()
	n := &namePicker{env: e, input: ti, then: then}
	if tried != "" {
		if err := store.ValidName(tried); err != nil {
			n.msg = fmt.Sprintf("Your SSH user name %q can't be a player name: %v", format.Clean(tried, 40), err)
		} else {
			n.msg = fmt.Sprintf("The name %q is taken.", format.Clean(tried, 40))
		}
	}
	return n
}

func (n *namePicker) MinSize() (int, int) { return 50, 10 }

func (n *namePicker) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "enter":
			name := strings.TrimSpace(n.input.Value())
			if err := store.ValidName(name); err != nil {
				n.msg = err.Error()
				return nil
			}
			acc, err := n.env.Store.ClaimName(n.env.Ctx(), n.env.Player.ID, name)
			switch {
			case errors.Is(err, store.ErrNameTaken):
				n.msg = fmt.Sprintf("The name %q is taken; try another.", name)
				return nil
			case err != nil:
				n.msg = "Could not save the name right now; try again."
				n.env.Log.Error("claim name", "error", err.Error())
				return nil
			}
			n.env.Player.Name = acc.Name
			if n.env.Hub != nil && n.env.Live == nil {
				// Named now: the player can be seen, invited and race.
				n.env.Connect()
			}
			if n.then != nil {
				return n.env.Go(*n.then)
			}
			return n.env.Go(ui.Route{Page: ui.Menu})
		case "esc":
			return n.env.Go(ui.Route{Page: ui.Menu})
		}
	}
	var cmd tea.Cmd
	n.input, cmd = n.input.Update(msg)
	return cmd
}

func (n *namePicker) View() string {
	var b strings.Builder
	b.WriteString(ui.TitleStyle.Render("Welcome to sshuffle") + "\n\n")
	b.WriteString("Your key is your account. Pick a player name:\n\n")
	b.WriteString(n.input.View() + "\n\n")
	if n.msg != "" {
		b.WriteString(ui.WarnStyle.Render(n.msg) + "\n")
	}
	b.WriteString(ui.HelpBar(n.env.Width, "enter", "save", "esc", "later"))
	return b.String()
}
