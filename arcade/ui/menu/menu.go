// Package menu is the arcade's first screen: the list of games.
package menu

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/deals"
	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games"
)

// menuItem is a line of the menu: a game, or a table game still to come.
type menuItem struct {
	title string
	info  games.Entry
	soon  string // non-empty: listed, not playable yet
	table bool   // a table game: enter opens its lobby
}

func menuItems(c *games.Catalogue) []menuItem {
	var items []menuItem
	for _, g := range c.Entries() {
		it := menuItem{title: g.Title(), info: g, table: g.AtTable()}
		if !g.Playable() && !it.table {
			it.soon = g.Game.Soon
			if it.soon == "" {
				it.soon = "coming soon"
			}
		}
		items = append(items, it)
	}
	return items
}

type menu struct {
	env    *ui.Env
	items  []menuItem
	cursor int
	msg    string
	top    int  // first line of the list on screen, for mouse hits
	quit   bool // q was pressed once: the next q quits
	// race: r was pressed, and the next key says which deal to race;
	// number: typing a deal number to race.
	race   bool
	number *string
	today  map[string]engine.Spec // today's deal of each game, by key
	// seat: the code of a table where the player holds a seat (s
	// rejoins it), and the line saying so.
	seat, seatLine string
}

// New is the menu, showing note (a sentence about what just happened, or
// nothing) until the next key.
func New(e *ui.Env, note string) ui.Screen {
	return &menu{env: e, items: menuItems(e.Games), msg: note}
}

func (m *menu) MinSize() (int, int) { return 44, 17 }

// Init finds today's deal of every game, to show its rating (the server
// rates them in the background; a deal not rated yet shows none).
func (m *menu) Init() tea.Cmd {
	e := m.env
	if p, ok := e.Person(); ok && e.Hub != nil {
		for _, t := range e.Hub.SeatedAt(p.ID) {
			if t.Phase == hub.TableFinished || t.Phase == hub.TableClosed {
				continue // nothing to come back to
			}
			title := t.Game
			if en, ok := e.Games.Entry(t.Game); ok {
				title = en.Title()
			}
			m.seat = t.Code
			m.seatLine = "You have a seat at a table of " + title + " (" + t.Code + "): s rejoins it."
			break
		}
	}
	if e.Store == nil || e.Pools == nil {
		return nil
	}
	m.today = map[string]engine.Spec{}
	for _, it := range m.items {
		if it.soon != "" || it.info.Game.Solve == nil {
			continue
		}
		if spec, _, err := deals.Today(e.Ctx(), e.Store, e.Pools, it.info, e.Now()); err == nil {
			m.today[it.info.Key()] = spec
		}
	}
	return nil
}

func (m *menu) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		m.msg = ""
		if m.race || m.number != nil {
			return m.raceKey(msg)
		}
		asked := m.quit
		m.quit = false
		switch msg.String() {
		case "r":
			if it := m.items[m.cursor]; it.table {
				m.msg = it.title + " is played at a table: enter opens its lobby."
			} else if it.soon == "" {
				m.race = true
			}
		case "s":
			if m.seat != "" {
				return m.env.Go(ui.Route{Page: ui.Table, Code: m.seat})
			}
		case "f":
			return m.env.Go(ui.Route{Page: ui.Friends})
		case "up", "k", "shift+tab":
			m.cursor = (m.cursor + len(m.items) - 1) % len(m.items)
		case "down", "j", "tab":
			m.cursor = (m.cursor + 1) % len(m.items)
		case "home", "g":
			m.cursor = 0
		case "end", "G":
			m.cursor = len(m.items) - 1
		case "enter", "space", "l", "right":
			return m.open()
		case "p":
			return m.env.Push(ui.Route{Page: ui.Profile})
		case "t":
			if it := m.items[m.cursor]; it.table {
				m.msg = it.title + " has no deal of the day: enter opens its lobby."
			} else if it.soon == "" {
				return m.env.Go(ui.Route{Page: ui.Daily, Game: it.info})
			}
		case "b":
			if it := m.items[m.cursor]; it.table {
				// Table games rank nobody; a player's own figures are on
				// the profile.
				m.msg = it.title + " has no boards: p shows your games and matches."
			} else if it.soon == "" {
				return m.env.Push(ui.Route{Page: ui.Boards, Game: it.info})
			}
		case "i":
			if it := m.items[m.cursor]; it.soon == "" {
				return m.env.Push(ui.Route{Page: ui.Rules, Game: it.info})
			}
		case "?":
			return m.env.Push(ui.Route{Page: ui.Help})
		case "q":
			// Asked once: a q meant for a game that had just ended
			// must not close the session.
			if asked {
				return m.env.Quit()
			}
			m.quit = true
			m.msg = "Press q again to quit sshuffle."
		case "esc":
			// Esc backs out of everything else, so here it stays: it
			// never closes the session.
			m.msg = "This is the menu: q twice quits sshuffle."

		default:
			if t := msg.Text; len(t) == 1 && t[0] >= '1' && t[0] <= '9' {
				if i := int(t[0] - '1'); i < len(m.items) {
					m.cursor = i
					return m.open()
				}
			}
		}
	case tea.MouseClickMsg:
		i := msg.Y - m.top
		if msg.Button == tea.MouseLeft && i >= 0 && i < len(m.items) {
			if m.cursor == i {
				return m.open()
			}
			m.cursor = i
		}
	case tea.MouseWheelMsg:
		if msg.Button == tea.MouseWheelUp {
			m.cursor = max(m.cursor-1, 0)
		} else if msg.Button == tea.MouseWheelDown {
			m.cursor = min(m.cursor+1, len(m.items)-1)
		}
	}
	return nil
}

// raceKey takes the key after r: which deal of the highlighted game to race.
func (m *menu) raceKey(k tea.KeyPressMsg) tea.Cmd {
	it := m.items[m.cursor]
	if m.number != nil {
		switch k.String() {
		case "esc":
			m.number = nil
		case "backspace":
			if p := *m.number; p != "" {
				*m.number = p[:len(p)-1]
			}
		case "enter":
			n, err := strconv.ParseUint(*m.number, 10, 64)
			m.number = nil
			if err != nil || n == 0 {
				m.msg = "A deal number is a whole number from 1 up."
				return nil
			}
			return m.env.Go(ui.Route{Page: ui.Race, Game: it.info, Spec: it.info.Spec(n)})
		default:
			if t := k.Text; len(t) == 1 && t[0] >= '0' && t[0] <= '9' && len(*m.number) < 12 {
				*m.number += t
			}
		}
		return nil
	}
	m.race = false
	switch k.String() {
	case "t":
		return m.env.Go(ui.Route{Page: ui.Race, Game: it.info, Daily: true})
	case "n", "r", "enter":
		return m.env.Go(ui.Route{Page: ui.Race, Game: it.info})
	case "#":
		empty := ""
		m.number = &empty
	}
	return nil
}

func (m *menu) open() tea.Cmd {
	it := m.items[m.cursor]
	if it.soon != "" {
		m.msg = it.title + " is " + it.soon + "."
		return nil
	}
	if it.table {
		return m.env.Go(ui.Route{Page: ui.Lobby, Game: it.info})
	}
	return m.env.Go(ui.Route{Page: ui.Play, Game: it.info})
}

func (m *menu) View() string {
	var b strings.Builder
	b.WriteString(ui.TitleStyle.Render("♠ sshuffle ♥") + ui.FaintStyle.Render("  card games over SSH") + "\n")
	who := m.env.Player.Name
	if who == "" {
		who = "(no name yet)"
	}
	b.WriteString(ui.FaintStyle.Render("Playing as "+who) + "\n\n")
	m.top = 3
	for i, it := range m.items {
		line := fmt.Sprintf("%d  %s", i+1, it.title)
		if i >= 9 {
			line = "   " + it.title
		}
		if it.soon != "" {
			line += ui.FaintStyle.Render("  (coming soon)")
		}
		if i == m.cursor {
			b.WriteString(ui.SelStyle.Render("> "+fmt.Sprintf("%-28s", stripStyle(line))) + "\n")
		} else {
			b.WriteString("  " + line + "\n")
		}
	}
	b.WriteString("\n")
	if it := m.items[m.cursor]; it.soon == "" && it.info.Variant.Blurb != "" {
		b.WriteString(ui.FaintStyle.Render(it.info.Variant.Blurb) + "\n")
	} else {
		b.WriteString("\n")
	}
	if d, ok := m.env.Pools.Rated(m.today[m.items[m.cursor].info.Key()]); ok && m.items[m.cursor].soon == "" {
		b.WriteString(ui.FaintStyle.Render("Today's deal: "+d.Text()) + "\n")
	} else {
		b.WriteString("\n")
	}
	switch {
	case m.number != nil:
		b.WriteString("Race deal number (enter to open the room, esc to cancel): " + *m.number + "_\n")
	case m.race:
		b.WriteString(ui.HelpBar(m.env.Width, "Race", m.items[m.cursor].title+":", "t", "today's deal (ranked)", "n", "a new deal", "#", "a deal number", "esc", "cancel") + "\n")
	case m.msg != "":
		b.WriteString(ui.WarnStyle.Render(m.msg) + "\n")
	case m.seatLine != "":
		b.WriteString(ui.OkStyle.Render(ui.FitLines(m.seatLine, m.env.Width, 1)[0]) + "\n")
	default:
		b.WriteString("\n")
	}
	if it := m.items[m.cursor]; it.table {
		// Table games have no deal of the day, races or boards: only what
		// works is offered.
		b.WriteString(ui.HelpBar(m.env.Width, "↑↓/jk", "choose", "enter", "the tables") + "\n")
	} else {
		b.WriteString(ui.HelpBar(m.env.Width, "↑↓/jk", "choose", "enter", "play", "t", "today's deal", "r", "race", "b", "boards") + "\n")
	}
	b.WriteString(ui.HelpBar(m.env.Width, "f", "friends", "i", "rules", "p", "profile", "?", "help", "q", "quit"))
	return b.String()
}

// stripStyle drops the faint "(coming soon)" styling so the highlighted
// line is one even bar.
func stripStyle(s string) string {
	var out strings.Builder
	inEsc := false
	for _, r := range s {
		switch {
		case r == '\x1b':
			inEsc = true
		case inEsc:
			if (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') {
				inEsc = false
			}
		default:
			out.WriteRune(r)
		}
	}
	return out.String()
}
