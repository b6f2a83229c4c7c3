package arcade

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"sshuffle/store"
)

// --- the name picker: first visit, when the SSH user name can't be used ---

type namePicker struct {
	env   *env
	input textinput.Model
	msg   string
}

func newNamePicker(e *env, tried string) *namePicker {
	ti := textinput.New()
	ti.Placeholder = "3-20 letters, digits, _ or -"
	ti.CharLimit = 20
	ti.SetWidth(32)
	// The default paste binding reads the server's clipboard; a paste from
	// the player's terminal still arrives as a PasteMsg.
	ti.KeyMap.Paste.SetEnabled(false)
	ti.Focus()
	n := &namePicker{env: e, input: ti}
	if tried != "" {
		if err := store.ValidName(tried); err != nil {
			n.msg = fmt.Sprintf("Your SSH user name %q can't be a player name: %v", sanitize(tried, 40), err)
		} else {
			n.msg = fmt.Sprintf("The name %q is taken.", sanitize(tried, 40))
		}
	}
	return n
}

func (n *namePicker) minSize() (int, int) { return 50, 10 }

func (n *namePicker) update(msg tea.Msg) (screen, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "enter":
			name := strings.TrimSpace(n.input.Value())
			if err := store.ValidName(name); err != nil {
				n.msg = err.Error()
				return n, nil
			}
			acc, err := n.env.store.ClaimName(n.env.player.ID, name)
			switch {
			case errors.Is(err, store.ErrNameTaken):
				n.msg = fmt.Sprintf("The name %q is taken; try another.", name)
				return n, nil
			case err != nil:
				n.msg = "Could not save the name right now; try again."
				n.env.log.Error("claim name", "error", err.Error())
				return n, nil
			}
			n.env.player.Name = acc.Name
			return newMenu(n.env), nil
		case "esc":
			return newMenu(n.env), nil
		}
	}
	var cmd tea.Cmd
	n.input, cmd = n.input.Update(msg)
	return n, cmd
}

func (n *namePicker) view() string {
	var b strings.Builder
	b.WriteString(titleStyle.Render("Welcome to sshuffle") + "\n\n")
	b.WriteString("Your key is your account. Pick a player name:\n\n")
	b.WriteString(n.input.View() + "\n\n")
	if n.msg != "" {
		b.WriteString(warnStyle.Render(n.msg) + "\n")
	}
	b.WriteString(helpBar(n.env.width, "enter", "save", "esc", "later"))
	return b.String()
}

// sanitize strips control characters (and escape sequences with them) from
// text that came from a client, and bounds its length.
func sanitize(s string, max int) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			continue
		}
		if n >= max {
			break
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// --- help ---

type helpScreen struct {
	env  *env
	back screen
	game *gameInfo
}

// pressed: a key or a click, either of which leaves a screen that is only
// there to be read.
func pressed(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.MouseClickMsg:
		return true
	}
	return false
}

func newHelp(e *env, back screen, g *gameInfo) *helpScreen {
	return &helpScreen{env: e, back: back, game: g}
}

func (h *helpScreen) minSize() (int, int) { return 60, 20 }

func (h *helpScreen) update(msg tea.Msg) (screen, tea.Cmd) {
	if pressed(msg) {
		return h.back, nil
	}
	return h, nil
}

func (h *helpScreen) view() string {
	var b strings.Builder
	b.WriteString(titleStyle.Render("Help") + "\n\n")
	rows := [][2]string{
		{"← ↓ ↑ → or h j k l", "move the cursor (up/down also walks a column)"},
		{"space or enter", "pick up the card under the cursor, then drop it on a pile"},
		{"space twice", "on the same card: send it to its foundation or best place"},
		{"f or .", "send the card home at once (TriPeaks: to the waste; Pyramid: a King, or the card's only pair)"},
		{"d or s", "turn the stock (deal a row in Spider)"},
		{"1-9, 0", "jump to a column"},
		{"u, z or backspace", "undo (as often as you like)"},
		{"t", fmt.Sprintf("hint (%d per game; a hint that finds nothing is free)", hintsPerGame)},
		{"r / n", "restart this deal / new deal (press twice)"},
		{"#", "play a deal by number (FreeCell 1-1000000; any game: race a friend)"},
		{"o", "this game's options (winnable deals only, FreeCell auto-moves...)"},
		{"i", "rules, strategy, our solver's win rate and yours"},
		{"esc", "drop the held card; again: back to the menu"},
		{"q", "back to the menu (your game is saved)"},
		{"mouse", "click a card then its place, or drag it; double-click sends it home"},
	}
	for _, r := range rows {
		b.WriteString(fmt.Sprintf("  %-20s %s\n", keyStyle.Render(r[0]), r[1]))
	}
	if !h.env.color {
		b.WriteString("\n  Cards in (round brackets) are red, in [square brackets] black.\n")
	}
	if h.game != nil && h.game.Rules != "" {
		b.WriteString("\n" + titleStyle.Render(h.game.Title) + "\n")
		b.WriteString(wrap(h.game.Rules, min(h.env.width-2, 78)) + "\n")
	}
	b.WriteString("\n" + faintStyle.Render("Any key to go back."))
	return b.String()
}

func wrap(text string, width int) string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			if len(line)+len(w)+1 > width && line != "" {
				out = append(out, "  "+line)
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		out = append(out, "  "+line)
	}
	return strings.Join(out, "\n")
}

// --- profile ---

type profileScreen struct {
	env   *env
	stats map[string]store.Stats
	err   string
}

func newProfile(e *env) *profileScreen {
	p := &profileScreen{env: e}
	if e.player.Guest {
		p.err = "Guests have no profile: connect with an SSH key to keep stats."
		return p
	}
	st, err := e.store.Stats(e.player.ID)
	if err != nil {
		p.err = "Your stats could not be read right now."
		e.log.Error("stats", "error", err.Error())
	}
	p.stats = st
	return p
}

func (p *profileScreen) minSize() (int, int) { return 76, 16 }

func (p *profileScreen) update(msg tea.Msg) (screen, tea.Cmd) {
	if pressed(msg) {
		return newMenu(p.env), nil
	}
	return p, nil
}

func (p *profileScreen) view() string {
	var b strings.Builder
	name := p.env.player.Name
	if name == "" {
		name = "(no name yet)"
	}
	b.WriteString(titleStyle.Render("Profile: "+name) + "\n\n")
	if p.err != "" {
		b.WriteString(warnStyle.Render(p.err) + "\n")
	} else {
		b.WriteString(fmt.Sprintf("  %-24s %6s %6s %6s %10s %10s %7s\n", "Game", "Played", "Won", "Win %", "Best score", "Best time", "Streak"))
		for _, g := range catalogue {
			st := p.stats[g.Key()]
			pct, best, bt := "-", "-", "-"
			if st.Played > 0 {
				pct = fmt.Sprintf("%d%%", st.Won*100/st.Played)
				if g.Points {
					best = fmt.Sprint(st.BestScore)
				}
			}
			if st.BestTime > 0 {
				bt = fmtDuration(st.BestTime)
			}
			streak := "-"
			if sk, err := p.env.store.Streak(p.env.player.ID, g.Key(), p.env.now()); err == nil && sk.Best > 0 {
				streak = fmt.Sprintf("%d/%d", sk.Current, sk.Best)
			}
			b.WriteString(fmt.Sprintf("  %-24s %6d %6d %6s %10s %10s %7s\n", g.Title, st.Played, st.Won, pct, best, bt, streak))
		}
	}
	b.WriteString("\n" + faintStyle.Render("Streak: days in a row you won today's deal, now/best. Any key to go back."))
	return b.String()
}

// --- result of a won game ---

type resultScreen struct {
	env  *env
	info gameInfo
	r    store.Result
	best store.Stats
	err  error
}

func newResult(e *env, info gameInfo, r store.Result, recErr error) *resultScreen {
	rs := &resultScreen{env: e, info: info, r: r, err: recErr}
	if !e.player.Guest && recErr == nil {
		rs.best, _ = e.store.StatsFor(e.player.ID, info.Key())
	}
	return rs
}

func (r *resultScreen) minSize() (int, int) { return 50, 14 }

func (r *resultScreen) update(msg tea.Msg) (screen, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "enter", "space", "n":
			s, err := dealNew(r.env, r.info)
			if err != nil {
				return newMenu(r.env), nil
			}
			return s, s.init()
		case "q", "esc", "m":
			return newMenu(r.env), nil
		}
	}
	return r, nil
}

func (r *resultScreen) view() string {
	var b strings.Builder
	b.WriteString(titleStyle.Render("You won "+r.info.Title+"!") + "\n\n")
	if r.info.Points {
		b.WriteString(fmt.Sprintf("  Score  %d\n", r.r.Score))
	}
	b.WriteString(fmt.Sprintf("  Moves  %d\n  Time   %s\n\n", r.r.Moves, fmtDuration(r.r.Elapsed)))
	switch {
	case r.env.player.Guest:
		b.WriteString(faintStyle.Render("  Guests' results are not kept.") + "\n")
	case r.err != nil:
		b.WriteString(errStyle.Render("  Not saved: the server could not store this result just now.") + "\n")
	default:
		b.WriteString(fmt.Sprintf("  Your best: time %s", fmtDuration(r.best.BestTime)))
		if r.info.Points {
			b.WriteString(fmt.Sprintf(", score %d", r.best.BestScore))
		}
		b.WriteString(fmt.Sprintf("   (won %d of %d)\n", r.best.Won, r.best.Played))
		if r.best.BestTime == r.r.Elapsed {
			b.WriteString(okStyle.Render("  A new personal best time!") + "\n")
		}
	}
	b.WriteString("\n" + helpBar(r.env.width, "enter", "another deal", "q", "menu"))
	return b.String()
}
