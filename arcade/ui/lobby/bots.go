package lobby

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
)

// Bot is a bot online that accepts challenges.
type Bot struct{ ID, Name string }

// BotLister is a Requests that can list the bots online; without it the
// lobby offers none.
type BotLister interface{ Bots() []Bot }

// botPick is the choice of a bot to challenge, on the message line.
type botPick struct {
	bots []Bot
	i    int
}

// pickBot starts choosing a bot to challenge: the new-table form follows,
// with a seat kept for it.
func (s *Screen) pickBot() {
	if s.env.IsGuest() {
		s.msg, s.err = hub.ErrGuest.Error(), true
		return
	}
	var bots []Bot
	if l, ok := s.req.(BotLister); ok {
		bots = l.Bots()
	}
	if len(bots) == 0 {
		s.msg, s.err = "No bot is online just now.", true
		return
	}
	s.pick = &botPick{bots: bots}
}

func (s *Screen) pickKey(k tea.KeyPressMsg) {
	p := s.pick
	switch k.String() {
	case "left", "up", "h", "k":
		p.i = (p.i - 1 + len(p.bots)) % len(p.bots)
	case "right", "down", "l", "j", "tab", "space":
		p.i = (p.i + 1) % len(p.bots)
	case "enter":
		b := p.bots[p.i]
		s.pick = nil
		s.form = newForm(s.games, s.cameFor)
		s.form.challenge(&b)
	case "esc", "q":
		s.pick = nil
	}
}

// pickLine is the chooser as the message line shows it: one bot at a
// time, so that any number fit.
func (s *Screen) pickLine() string {
	p := s.pick
	return fmt.Sprintf("Challenge which bot? ←→ choose, enter picks, esc cancels: %s (%d of %d)",
		ui.BotName(clean(p.bots[p.i].Name, 20)), p.i+1, len(p.bots))
}

// challenge makes the form one that opens a table for the bot: the second
// seat is a person's, kept for it, whatever game is chosen.
func (f *form) challenge(b *Bot) {
	f.bot = b
	f.setGame(f.game)
}

// Bots lists the bots online that take challenges, by name.
func (pg *Page) Bots() []Bot {
	me := pg.person().ID
	var out []Bot
	for _, p := range pg.hub.Online() {
		if p.Bot && p.Invitations && p.ID != me && p.Name != "" {
			out = append(out, Bot{ID: p.ID, Name: p.Name})
		}
	}
	return out
}

// challengeSeat keeps the first person's seat after the host's for the
// bot challenged; false when every other seat is a computer's.
func challengeSeat(cfg *hub.TableConfig, b *Bot) bool {
	for i := 1; i < len(cfg.Seats); i++ {
		if cfg.Seats[i].Computer == "" {
			cfg.Seats[i].Reserved = hub.Person{ID: b.ID, Name: b.Name, Bot: true}
			return true
		}
	}
	return false
}
