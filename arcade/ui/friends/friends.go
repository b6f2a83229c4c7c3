// Package friends is the screen of the players one follows: online or
// not, what they are doing, and a way into the race they are in.
package friends

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/throttle"
	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/store"
)

type refreshMsg struct{ s *screen }

// row is one followed player: a validated account name and their presence.
type row struct {
	id, name string
	p        hub.Presence
}

type screen struct {
	env    *ui.Env
	rows   []row
	cursor int
	msg    string
	bad    bool
	prompt *string // typing a name to follow
	// confirm is the name waiting for a second x to be unfollowed.
	confirm string
	invites bool
}

// New is the friends screen.
func New(e *ui.Env) ui.Screen {
	s := &screen{env: e, invites: true}
	if v, err := e.Store.Setting(e.Ctx(), e.Player.ID, ui.InvitationsSetting); err == nil && v == "off" {
		s.invites = false
	}
	s.load()
	return s
}

func (s *screen) MinSize() (int, int) { return 60, 14 }

func (s *screen) Init() tea.Cmd { return s.tick() }

func (s *screen) tick() tea.Cmd {
	return tea.Tick(2*time.Second, func(time.Time) tea.Msg { return refreshMsg{s: s} })
}

// load reads whom the player follows and asks the hub where they are.
func (s *screen) load() {
	if s.env.Player.Guest {
		return
	}
	ids, err := s.env.Store.Following(s.env.Ctx(), s.env.Player.ID)
	if err != nil {
		s.msg, s.bad = "Your friends list could not be read just now.", true
		return
	}
	var pres []hub.Presence
	if s.env.Hub != nil {
		pres = s.env.Hub.Presence(ids...)
	}
	rows := make([]row, 0, len(ids))
	for i, id := range ids {
		acc, err := s.env.Store.Account(s.env.Ctx(), id)
		if err != nil || acc.Name == "" {
			continue
		}
		r := row{id: id, name: acc.Name}
		if i < len(pres) {
			r.p = pres[i]
		}
		if bot, err := s.env.Store.IsBot(s.env.Ctx(), id); err == nil && bot {
			r.name = ui.BotName(acc.Name)
		}
		rows = append(rows, r)
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		if a.p.Online != b.p.Online {
			if a.p.Online {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	s.rows = rows
	s.cursor = min(s.cursor, max(len(rows)-1, 0))
}

func (s *screen) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case refreshMsg:
		if msg.s != s {
			return nil
		}
		s.load()
		return s.tick()
	case tea.KeyPressMsg:
		if s.prompt != nil {
			return s.promptKey(msg)
		}
		key := msg.String()
		if key != "x" {
			s.confirm = ""
		}
		s.msg, s.bad = "", false
		switch key {
		case "up", "k":
			s.cursor = max(s.cursor-1, 0)
		case "down", "j":
			s.cursor = min(s.cursor+1, max(len(s.rows)-1, 0))
		case "a", "+":
			if s.env.Player.Guest {
				s.msg, s.bad = "Guests cannot follow anyone: connect with an SSH key.", true
				return nil
			}
			empty := ""
			s.prompt = &empty
		case "x", "-":
			return s.remove()
		case "enter", "w":
			return s.watch()
		case "i":
			s.toggleInvites()
		case "esc", "q":
			return s.env.Go(ui.Route{Page: ui.Menu})
		}
	}
	return nil
}

func (s *screen) promptKey(k tea.KeyPressMsg) tea.Cmd {
	if name, done := ui.EditLine(&s.prompt, k, ui.NameKey); done {
		s.add(name)
	}
	return nil
}

func (s *screen) add(name string) {
	if err := store.ValidName(name); err != nil {
		s.msg, s.bad = err.Error(), true
		return
	}
	// Asked before the lookup, whatever its answer: held back only for
	// unknown names, the answer would still tell which names exist.
	if !s.env.Names.Allow(s.env.Player.ID, s.env.Player.Addr) {
		s.msg, s.bad = throttle.TooManyNames, true
		return
	}
	acc, err := s.env.Store.AccountByName(s.env.Ctx(), store.NormalName(name))
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.env.Names.Failed(s.env.Player.ID, s.env.Player.Addr)
		s.msg, s.bad = fmt.Sprintf("Nobody here is called %s.", store.NormalName(name)), true
		return
	case err != nil:
		s.msg, s.bad = "Players could not be looked up just now.", true
		return
	case acc.ID == s.env.Player.ID:
		s.msg, s.bad = "You cannot follow yourself.", true
		return
	}
	if err := s.env.Store.Follow(s.env.Ctx(), s.env.Player.ID, acc.ID); err != nil {
		s.msg, s.bad = "That could not be saved just now.", true
		if errors.Is(err, store.ErrInvalid) {
			s.msg = fmt.Sprintf("You follow %d players already, the most there can be.", store.MaxFollowing)
		}
		return
	}
	s.msg = fmt.Sprintf("You follow %s now.", acc.Name)
	s.load()
}

func (s *screen) remove() tea.Cmd {
	if len(s.rows) == 0 {
		return nil
	}
	r := s.rows[s.cursor]
	if s.confirm != r.name {
		s.confirm = r.name
		s.msg = fmt.Sprintf("Press x again to stop following %s.", r.name)
		return nil
	}
	s.confirm = ""
	if err := s.env.Store.Unfollow(s.env.Ctx(), s.env.Player.ID, r.id); err != nil {
		s.msg, s.bad = "That could not be saved just now.", true
		return nil
	}
	s.msg = fmt.Sprintf("You no longer follow %s.", r.name)
	s.load()
	return nil
}

// watch joins the race the highlighted friend is in: as a watcher, or
// as a racer while its lobby is open.
func (s *screen) watch() tea.Cmd {
	if len(s.rows) == 0 {
		return nil
	}
	r := s.rows[s.cursor]
	a := r.p.Activity
	if !r.p.Online || a.Room == "" || !a.Watchable {
		s.msg = fmt.Sprintf("%s is not in a race or at a table you can watch.", r.name)
		return nil
	}
	return s.env.Go(ui.Route{Page: ui.Race, Code: a.Room, Watch: true})
}

func (s *screen) toggleInvites() {
	if s.env.Player.Guest {
		return
	}
	on := !s.invites
	v := "on"
	if !on {
		v = "off"
	}
	if err := s.env.Store.PutSetting(s.env.Ctx(), s.env.Player.ID, ui.InvitationsSetting, v); err != nil {
		s.msg, s.bad = "That could not be saved just now.", true
		return
	}
	s.invites = on
	if s.env.Live != nil {
		s.env.Live.SetInvitations(on)
	}
	if on {
		s.msg = "Invitations are on: friends can invite you to races."
	} else {
		s.msg = "Invitations are off: nobody can invite you (invite lines still work)."
	}
}

// doing is what a friend is doing, in a few words.
func doing(c *games.Catalogue, p hub.Presence) string {
	if !p.Online {
		return "offline"
	}
	a := p.Activity
	text := ui.Doing(c, a)
	if a.Room != "" {
		text += " · " + a.Room
		if a.Watchable {
			text += " (enter to watch)"
		}
	}
	return "online, " + text
}

func (s *screen) View() string {
	e := s.env
	var b strings.Builder
	b.WriteString(ui.TitleStyle.Render("Friends") + ui.FaintStyle.Render("  players you follow") + "\n\n")
	if e.Player.Guest {
		b.WriteString("Guests have no friends list: connect with an SSH key (ssh-keygen -t ed25519).\n")
	} else if len(s.rows) == 0 {
		b.WriteString("You follow nobody yet: press a and type a name.\n")
	}
	limit := max(e.Height-8, 3)
	first := max(0, s.cursor-limit+1)
	for i := first; i < len(s.rows) && i < first+limit; i++ {
		r := s.rows[i]
		line := fmt.Sprintf("%-20s %s", r.name, doing(e.Games, r.p))
		line = ui.FitLines(line, e.Width-2, 1)[0]
		if i == s.cursor {
			b.WriteString(ui.SelStyle.Render("> "+line) + "\n")
		} else if r.p.Online {
			b.WriteString("  " + ui.OkStyle.Render(line) + "\n")
		} else {
			b.WriteString("  " + ui.FaintStyle.Render(line) + "\n")
		}
	}
	b.WriteString("\n")
	inv := "on"
	if !s.invites {
		inv = "off"
	}
	b.WriteString(ui.FaintStyle.Render("Invitations to you: "+inv) + "\n")
	switch {
	case s.prompt != nil:
		b.WriteString("Follow whom (a name; enter to follow, esc to cancel): " + *s.prompt + "_\n")
	case s.bad:
		b.WriteString(ui.ErrStyle.Render(s.msg) + "\n")
	case s.msg != "":
		b.WriteString(ui.OkStyle.Render(s.msg) + "\n")
	default:
		b.WriteString("\n")
	}
	b.WriteString(ui.HelpBar(e.Width, "↑↓", "choose", "enter", "watch", "a", "follow", "x", "unfollow", "i", "invitations on/off", "esc", "menu"))
	return b.String()
}
