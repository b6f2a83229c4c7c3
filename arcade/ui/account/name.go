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
	env    *ui.Env
	input  textinput.Model
	msg    string
	rename bool // opened from the profile: done or esc go back to it
	// then is where to go once the name is picked (the room of a pasted
	// invite line); nil: the menu.
	then *ui.Route
}

// NewName is the name picker: for a visit of a player with no name yet
// (r.Tried: the SSH user name a first visit could not use), or to change
// the name (r.Rename, pushed over the profile).
func NewName(e *ui.Env, r ui.Route) ui.Screen {
	tried := r.Tried
	ti := textinput.New()
	ti.Placeholder = "3-20 letters, digits, _ or -"
	ti.CharLimit = 20
	ti.SetWidth(32)
	// The default paste binding reads the server's clipboard; a paste from
	// the player's terminal still arrives as a PasteMsg.
	ti.KeyMap.Paste.SetEnabled(false)
	ti.Focus()
	n := &namePicker{env: e, input: ti, rename: r.Rename, then: r.Then}
	switch {
	case r.Rename:
		if e.Player.Name != "" {
			ti.SetValue(e.Player.Name)
			n.input = ti
		}
	case tried == "" && e.Player.Name == "":
		n.msg = "You have no player name yet: boards show you as \"(no name)\" until you pick one."
	case tried != "":
		if err := store.ClaimableName(tried); err != nil {
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
			if err := store.ClaimableName(name); err != nil {
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
			n.env.Reconnect() // seen, invited and raced under the new name
			if n.then != nil {
				return n.env.Go(*n.then)
			}
			return n.leave()
		case "esc":
			return n.leave()
		}
	}
	var cmd tea.Cmd
	n.input, cmd = n.input.Update(msg)
	return cmd
}

func (n *namePicker) leave() tea.Cmd {
	if n.rename {
		return n.env.Back()
	}
	return n.env.Go(ui.Route{Page: ui.Menu})
}

func (n *namePicker) View() string {
	var b strings.Builder
	if n.rename {
		b.WriteString(ui.TitleStyle.Render("Change your player name") + "\n\n")
		b.WriteString("Your results keep their place on the boards under the new name:\n\n")
	} else {
		b.WriteString(ui.TitleStyle.Render("Welcome to sshuffle") + "\n\n")
		b.WriteString("Your key is your account. Pick a player name:\n\n")
	}
	b.WriteString(n.input.View() + "\n\n")
	// Wrapped, not cut: the sentence saying why a name is refused can run
	// past a line (the SSH user name, then the rule it broke).
	for _, line := range ui.FitLines(n.msg, max(n.env.Width, 50), 3) {
		b.WriteString(ui.WarnStyle.Render(line) + "\n")
	}
	if n.rename {
		b.WriteString(ui.HelpBar(n.env.Width, "enter", "save", "esc", "keep the old one"))
	} else {
		b.WriteString(ui.HelpBar(n.env.Width, "enter", "save", "esc", "later (you are asked again next time)"))
	}
	return b.String()
}
