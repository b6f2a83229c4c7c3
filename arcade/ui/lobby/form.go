package lobby

import (
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/ui"
	"sshuffle/engine"
)

// form opens a table: one line a choice, left and right change it.
type form struct {
	games []Game
	game  int
	vals  []int // per setting of the game: index into its Values
	seats int
	who   []int // per seat from the second: 0 person, i computer of Strengths[i-1]
	clock int   // index into clocks
	pace  int   // index into paces
	priv  bool
	bot   *Bot // the bot challenged: a table opened for it
	rated bool
	line  int
	top   int // the first choice's line on the last frame
}

// newForm opens on the named game (the one whose lobby the player came
// from), or the first if none is named.
func newForm(gs []Game, game string) *form {
	f := &form{games: gs}
	f.setGame(max(0, slices.IndexFunc(gs, func(g Game) bool { return g.Name == game })))
	return f
}

func (f *form) g() Game { return f.games[f.game] }

func (f *form) setGame(i int) {
	f.game = i
	g := f.g()
	f.vals = make([]int, len(g.Settings))
	f.seats = max(g.MinPlayers, 2)
	f.who = make([]int, g.MaxPlayers)
	// The second seat starts as a computer player of the middle strength:
	// a table that can start at once.
	if len(g.Strengths) > 0 && len(f.who) > 1 {
		f.who[1] = (len(g.Strengths) + 1) / 2
	}
	if f.bot != nil && len(f.who) > 1 {
		f.who[1] = 0 // the bot's seat
	}
}

// clocks are the turn clocks offered, the table's default first.
var clocks = []struct {
	d    time.Duration
	text string
}{{0, "60 s"}, {30 * time.Second, "30 s"}, {90 * time.Second, "90 s"}, {2 * time.Minute, "2 min"}, {-1, "none"}}

// paces are the computer players' paces offered, the table's default
// first: the word the hub takes, and what it means.
var paces = []struct{ word, text string }{
	{"", "steady: about a second a move"}, {"quick", "quick: about a third of a second"},
	{"instant", "instant: no pause"},
}

// The form's lines: the game, each setting, the turn clock, the
// computers' pace, listed or private, the seat count, the seats after the
// host's, the button, and rated or casual. Rated comes under the button,
// so that every line above keeps its place (the last seat is still the
// line before the button, where players' fingers and scripts find it).
func (f *form) lines() int { return 1 + len(f.g().Settings) + 4 + (f.seats - 1) + 1 + 1 }

// button is the line of the button.
func (f *form) button() int { return f.lines() - 2 }

func (f *form) kindOf(line int) (kind string, i int) {
	n := len(f.g().Settings)
	switch {
	case line == 0:
		return "game", 0
	case line <= n:
		return "setting", line - 1
	case line == n+1:
		return "clock", 0
	case line == n+2:
		return "pace", 0
	case line == n+3:
		return "private", 0
	case line == n+4:
		return "seats", 0
	case line < f.button():
		return "seat", line - n - 4 // seat number, from 1
	case line == f.button():
		return "open", 0
	}
	return "rated", 0
}

func (f *form) change(d int) {
	kind, i := f.kindOf(f.line)
	g := f.g()
	switch kind {
	case "game":
		f.setGame((f.game + d + len(f.games)) % len(f.games))
	case "setting":
		n := len(g.Settings[i].Values)
		f.vals[i] = (f.vals[i] + d + n) % n
	case "clock":
		f.clock = (f.clock + d + len(clocks)) % len(clocks)
	case "pace":
		f.pace = (f.pace + d + len(paces)) % len(paces)
	case "private":
		f.priv = !f.priv
	case "rated":
		f.rated = !f.rated
	case "seats":
		f.seats = min(max(f.seats+d, g.MinPlayers), g.MaxPlayers)
	case "seat":
		n := len(g.Strengths) + 1
		f.who[i] = (f.who[i] + d + n) % n
	}
}

// request is the Open the form says, its settings in canonical form.
func (f *form) request() (Open, error) {
	g := f.g()
	var kv []string
	for i, d := range g.Settings {
		kv = append(kv, d.Key+"="+d.Values[f.vals[i]])
	}
	settings, err := engine.NormalizeSettings(strings.Join(kv, ","), g.Settings)
	if err != nil {
		return Open{}, err
	}
	o := Open{Game: g.Name, Settings: settings, Seats: []SeatChoice{{}}, Clock: clocks[f.clock].d, Pace: paces[f.pace].word, Private: f.priv,
		Rated: f.rated, Challenge: f.bot}
	for i := 1; i < f.seats; i++ {
		c := SeatChoice{}
		if w := f.who[i]; w > 0 {
			c = SeatChoice{Computer: true, Strength: g.Strengths[w-1]}
		}
		o.Seats = append(o.Seats, c)
	}
	return o, nil
}

func (s *Screen) formKey(k string) tea.Cmd {
	f := s.form
	s.msg, s.err = "", false
	switch k {
	case "up", "k":
		f.line = (f.line - 1 + f.lines()) % f.lines()
	case "down", "j", "tab":
		f.line = (f.line + 1) % f.lines()
	case "left", "h":
		f.change(-1)
	case "right", "l", "space":
		f.change(1)
	case "enter":
		if kind, _ := f.kindOf(f.line); kind != "open" {
			f.line = f.button()
			return nil
		}
		s.open()
	case "esc", "q":
		s.form = nil
	}
	f.line = min(f.line, f.lines()-1)
	return nil
}

func (s *Screen) open() {
	o, err := s.form.request()
	if err != nil {
		s.msg, s.err = err.Error(), true
		return
	}
	s.req.Open(o)
	s.msg = "Opening the table…"
}

func (f *form) click(s *Screen, x, y int) tea.Cmd {
	line := y - f.top
	if line < 0 || line >= f.lines() {
		return nil
	}
	s.msg, s.err = "", false
	if line != f.line {
		f.line = line
		return nil
	}
	if kind, _ := f.kindOf(line); kind == "open" {
		s.open()
		return nil
	}
	// A click on the chosen line's left half steps back, on the right
	// half forward, like the arrows drawn there.
	if x < 40 {
		f.change(-1)
	} else {
		f.change(1)
	}
	return nil
}

func (f *form) view(s *Screen) string {
	w, h := max(s.env.Width, 1), max(s.env.Height, 1)
	g := f.g()
	lines := []string{ui.TitleStyle.Render("Open a table") + "  " + ui.FaintStyle.Render("you sit in seat 1 and start the game when everyone is seated"), ""}
	if f.bot != nil {
		lines[0] = ui.TitleStyle.Render("Challenge "+ui.BotName(clean(f.bot.Name, 20))) + "  " + ui.FaintStyle.Render("seat 2 is kept for it; you start the game")
	}
	f.top = len(lines)
	for line := range f.lines() {
		kind, i := f.kindOf(line)
		var label, value string
		switch kind {
		case "game":
			label, value = "Game", g.Title
		case "setting":
			label, value = g.Settings[i].Label, valueWord(g.Settings[i].Values[f.vals[i]])
		case "clock":
			label, value = "Turn clock", clocks[f.clock].text
		case "pace":
			label, value = "Computer players' pace", paces[f.pace].text
		case "private":
			label, value = "Table", "listed in the lobby"
			if f.priv {
				label, value = "Table", "private: by code or invitation"
			}
		case "seats":
			label, value = "Seats", fmt.Sprint(f.seats)
		case "rated":
			label, value = "Ratings", "casual: the games change no rating"
			if f.rated {
				value = "rated: every game moves ratings"
			}
		case "seat":
			label, value = fmt.Sprintf("Seat %d", i+1), "a person"
			if wi := f.who[i]; wi > 0 {
				value = "computer, " + g.Strengths[wi-1]
			}
		case "open":
			label = ""
		}
		l, r := "‹", "›"
		if !s.env.Unicode {
			l, r = "<", ">"
		}
		text := fmt.Sprintf("%-36s %s %s %s", fitWidth(label, 36), l, value, r)
		if kind == "open" {
			text = "[ Open the table ]"
		}
		mark := "  "
		if line == f.line {
			mark = "> "
			text = selStyle.Render(text)
		}
		lines = append(lines, mark+text)
	}
	lines = append(lines, "")
	msg, st := s.msg, ui.FaintStyle
	if s.err {
		st = ui.ErrStyle
		if !s.env.Color {
			msg = "! " + msg
		}
	}
	for _, l := range pad(ui.FitLines(clean(msg, 400), w, 2), 2) {
		lines = append(lines, st.Render(l))
	}
	for len(lines) < h-1 {
		lines = append(lines, "")
	}
	lines = append(lines, ui.HelpBar(w, "↑↓", "choose", "←→", "change", "enter", "open", "esc", "back to the list"))
	if len(lines) > h {
		lines = lines[len(lines)-h:]
	}
	return strings.Join(lines, "\n")
}

// valueWord is a setting's value as the form shows it: the record's
// "true" and "false" read as yes and no.
func valueWord(v string) string {
	switch v {
	case "true":
		return "yes"
	case "false":
		return "no"
	}
	return v
}
