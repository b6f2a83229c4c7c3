// Package lobby is the screen that lists the open tables of the table
// games, live, and lets a player open one (the game, its settings, which
// seats are people and which computer players) or join or watch one.
// Screen is the screen alone, which takes values pushed in and hands
// requests out; Page (page.go) wires it to the hub: it holds the list's
// subscription and the membership of the table the player sits at until
// the table starts.
package lobby

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/format"
	"sshuffle/store"
)

// Game is a table game a player may open a table of.
type Game struct {
	Name, Title            string
	Settings               []engine.Setting // Values[0] the default
	MinPlayers, MaxPlayers int
	Strengths              []string // the computer players', weakest first
}

// GamesOf lists the catalogue's table games, each as its kit tells it.
func GamesOf(c *games.Catalogue) []Game {
	var out []Game
	for _, g := range c.TableGames() {
		in := g.Kit.Info()
		out = append(out, Game{Name: in.Name, Title: in.Title, Settings: in.Settings,
			MinPlayers: in.MinPlayers, MaxPlayers: in.MaxPlayers, Strengths: in.Strengths})
	}
	return out
}

// Seat is one seat of a listed table.
type Seat struct {
	Name     string // the person's validated name, or the computer player's; "" for a free seat
	Computer bool
	Strength string
	Reserved string // a free seat kept for this person (an invitation)
	Rating   string // the seat's rating as players read it ("1523", "1500?"); "" when unknown
}

// Table is one open table as the list shows it.
type Table struct {
	Code     string // what a player types to join (`join CODE`)
	Game     string // the game's Name
	Settings string // canonical settings text ("k=v,...", defaults left out)
	Host     string
	Seats    []Seat
	Watchers int
	// Playing: the game has started; it may be watched, not joined.
	Playing bool
	// Pace is the computer players' pace when it is not the default
	// ("quick", "instant"), else "".
	Pace string
	// Rated: the table's games move ratings; HostRating is the host's
	// rating at the game ("" when unknown).
	Rated      bool
	HostRating string
}

// free counts the seats waiting for a person.
func (t Table) free() int {
	n := 0
	for _, s := range t.Seats {
		if s.Name == "" && !s.Computer {
			n++
		}
	}
	return n
}

// Tables is pushed whenever the list changes: the whole list, which
// replaces the one shown.
type Tables struct{ List []Table }

// Refused is pushed when the hub refused the player's last request, with
// its sentence ("That table is full.").
type Refused struct{ Text string }

// Invited is pushed when the hub took the player's invitation (Invite):
// Name is the account's name as stored.
type Invited struct{ Name string }

// SeatChoice is who sits in a seat of a table being opened.
type SeatChoice struct {
	Computer bool
	Strength string // a computer player's, one of the game's Strengths
}

// Open asks for a new table: the player is its host and sits in seat 0
// (Seats[0] is always a person).
type Open struct {
	Game     string
	Settings string // canonical, checked with engine.NormalizeSettings
	Seats    []SeatChoice
	// Clock is the turn clock; zero: the table's default (60 s), below
	// zero: none.
	Clock time.Duration
	// Private: not listed; others join by code or invitation.
	Private bool
	// Pace is the computer players' pace ("quick", "instant"); "": the
	// table's default (steady).
	Pace string
	// Challenge is the bot the table is opened for: the first person's
	// seat after the host's is kept for it, and it is invited.
	Challenge *Bot
	// Rated: the table's games move its people's ratings.
	Rated bool
}

// Join asks to sit at a table (Watch false) or watch it.
type Join struct {
	Code  string
	Watch bool
}

// Seated is pushed while the player sits at a table that has not started
// (after Open, or Join of a seat): the lobby shows it above the list, and
// its host may start it. A Seated with an empty Table.Code: seated no more.
type Seated struct {
	Table Table
	Seat  int  // the player's seat
	Host  bool // the player is the host: s starts the table
}

// Requests is where the lobby's requests go. The calls must not block:
// the hub answers by pushing Tables, Seated, Refused, or by the wiring
// opening the table's screen once it starts.
type Requests interface {
	Open(Open)
	Join(Join)
	// Start: the host starts the table (the hub says no while a person's
	// seat is free).
	Start(code string)
	// Stand: the player leaves the seat of a table not yet started.
	Stand(code string)
	// Invite asks the player called name (as typed) to the table with
	// code; the answer is Invited or Refused (nobody by that name, not
	// followed, offline, invitations off).
	Invite(code, name string)
}

// Screen is the lobby.
type Screen struct {
	env     *ui.Env
	req     Requests
	games   []Game
	cameFor string // the game the player came for: the form opens on it
	tables  []Table
	cur     int    // the table under the cursor
	code    string // its code, so a new list keeps the cursor on it
	top     int    // first line of the list shown
	form    *form  // non-nil: opening a table
	msg     string
	err     bool
	rows    int // list lines on the last frame
	listY   int // their first line
	seated  *Seated
	prompt  *string          // non-nil: typing a table's code
	invite  *string          // non-nil: typing the name of a player to invite
	pick    *botPick         // non-nil: choosing a bot to challenge
	talk    *ui.PhrasePicker // quick phrases to the table seated at; nil: none
	said    string           // the phrase someone at that table said, shown a few seconds
	kept    listParts        // what the last frame drew, for the next (view.go)
}

// New is the lobby, offering games and showing tables until the first
// push replaces them.
func New(e *ui.Env, req Requests, gs []Game, tables []Table) *Screen {
	s := &Screen{env: e, req: req, games: gs}
	s.setTables(tables)
	return s
}

// ComeFor names the game the player chose on the menu: a new table's form
// opens on it.
func (s *Screen) ComeFor(game string) { s.cameFor = game }

// MinSize: the lobby's lines fit 60 columns; 16 lines leave some list.
func (s *Screen) MinSize() (int, int) { return 60, 16 }

func (s *Screen) setTables(ts []Table) {
	s.tables = ts
	s.cur = 0
	for i, t := range ts {
		if t.Code == s.code {
			s.cur = i
		}
	}
	if s.cur < len(ts) {
		s.code = ts[s.cur].Code
	}
}

func (s *Screen) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case Tables:
		s.setTables(msg.List)
	case Refused:
		s.msg, s.err = msg.Text, true
	case Invited:
		s.msg, s.err = "Invited "+clean(msg.Name, store.MaxNameLen)+".", false
	case Seated:
		// The host's part came to this player because its holder left.
		handed := s.seated != nil && !s.seated.Host && msg.Host && s.seated.Table.Code == msg.Table.Code
		s.seated = &msg
		if msg.Table.Code == "" {
			s.seated = nil
			s.invite = nil // nobody to invite to
		} else {
			s.form = nil // the table is open and the player sits at it: the list shows it
			if !s.err {
				s.msg = "" // "Opening the table…" is done
			}
			if handed {
				s.msg, s.err = "The host left: you host the table now.", false
			}
		}
	case tea.KeyPressMsg:
		if s.prompt != nil {
			s.promptKey(msg)
			return nil
		}
		if s.talk != nil && s.seated != nil && s.invite == nil && s.form == nil {
			if ok, note := s.talk.Key(msg.String()); ok {
				s.msg, s.err = note, false
				return nil
			}
		}
		if s.invite != nil {
			s.inviteKey(msg)
			return nil
		}
		if s.pick != nil {
			s.pickKey(msg)
			return nil
		}
		if s.form != nil {
			return s.formKey(msg.String())
		}
		return s.listKey(msg.String())
	case tea.MouseClickMsg:
		if msg.Button == tea.MouseLeft {
			return s.click(msg.X, msg.Y)
		}
	}
	return nil
}

func (s *Screen) move(d int) {
	if len(s.tables) == 0 {
		return
	}
	s.cur = (s.cur + d + len(s.tables)) % len(s.tables)
	s.code = s.tables[s.cur].Code
}

func (s *Screen) listKey(k string) tea.Cmd {
	s.msg, s.err = "", false
	switch k {
	case "up", "k":
		s.move(-1)
	case "down", "j":
		s.move(1)
	case "enter", "space":
		s.join(s.env.IsGuest()) // a guest only watches
	case "w":
		s.join(true)
	case "c", "#":
		empty := ""
		s.prompt = &empty
	case "b":
		s.pickBot()
	case "n", "o":
		if s.env.IsGuest() {
			s.msg, s.err = hub.ErrGuest.Error(), true
			return nil
		}
		if len(s.games) == 0 {
			s.msg, s.err = "No table game is open yet.", true
			return nil
		}
		s.form = newForm(s.games, s.cameFor)
	case "s":
		switch {
		case s.seated == nil:
			s.msg, s.err = "You sit at no table yet.", true
		case !s.seated.Host:
			s.msg, s.err = "Only the host starts the table.", true
		default:
			s.req.Start(s.seated.Table.Code)
			s.msg = "Starting…"
		}
	case "i":
		if s.seated == nil {
			s.msg, s.err = "Sit at a table first: then i invites a friend to it.", true
			return nil
		}
		empty := ""
		s.invite = &empty
	case "x":
		if s.seated != nil {
			s.req.Stand(s.seated.Table.Code)
		}
	case PlayNowKey:
		return s.playNow()
	case "q", "esc":
		if s.seated != nil {
			// Leaving the lobby while seated gives the seat up: a table
			// must not wait for someone who has gone.
			s.req.Stand(s.seated.Table.Code)
		}
		return s.env.Back()
	}
	return nil
}

// PlayNowKey opens "play now": the pool finds the player a table.
const PlayNowKey = "f"

// playNow opens "play now" for the game the player came for, else that
// of the table under the cursor, else the first; a seat taken here is
// given up for it.
func (s *Screen) playNow() tea.Cmd {
	if s.env.IsGuest() {
		s.msg, s.err = hub.ErrGuest.Error(), true
		return nil
	}
	game := s.cameFor
	if game == "" && s.cur < len(s.tables) {
		game = s.tables[s.cur].Game
	}
	if game == "" && len(s.games) > 0 {
		game = s.games[0].Name
	}
	var entry games.Entry
	if s.env.Games != nil {
		entry, _ = s.env.Games.Entry(game)
	}
	if entry.Game == nil {
		s.msg, s.err = "No table game is open yet.", true
		return nil
	}
	if s.seated != nil {
		s.req.Stand(s.seated.Table.Code)
	}
	return s.env.Go(ui.Route{Page: ui.PlayNow, Game: entry})
}

// promptKey edits the code being typed: letters, backspace, enter, esc.
func (s *Screen) promptKey(k tea.KeyPressMsg) {
	// Codes are letters; they are read in capitals whatever is typed.
	code, done := ui.EditLine(&s.prompt, k, func(text, key string) (string, bool) {
		c := key[0]
		return strings.ToUpper(key), len(text) < 8 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
	})
	if !done || code == "" {
		return
	}
	s.req.Join(Join{Code: code})
	s.msg, s.err = "Joining table "+code+"…", false
}

// inviteKey edits the name of a player to invite to the table the player
// sits at: a name's characters, backspace, enter, esc.
func (s *Screen) inviteKey(k tea.KeyPressMsg) {
	name, done := ui.EditLine(&s.invite, k, ui.NameKey)
	if !done || name == "" || s.seated == nil {
		return
	}
	if err := store.ValidName(name); err != nil {
		s.msg, s.err = err.Error(), true
		return
	}
	s.req.Invite(s.seated.Table.Code, name)
	s.msg, s.err = "Inviting "+name+"…", false
}

// join asks for the table under the cursor; one already playing, or with
// no seat free, is watched.
func (s *Screen) join(watch bool) {
	if s.cur >= len(s.tables) {
		s.msg, s.err = "There is no open table yet: press n to open one.", true
		return
	}
	t := s.tables[s.cur]
	if !watch && (t.Playing || t.free() == 0) {
		watch = true
	}
	s.req.Join(Join{Code: t.Code, Watch: watch})
	if watch {
		s.msg = "Joining table " + clean(t.Code, 8) + " to watch…"
	} else {
		s.msg = "Taking a seat at table " + clean(t.Code, 8) + "…"
	}
}

func (s *Screen) click(x, y int) tea.Cmd {
	if s.form != nil {
		return s.form.click(s, x, y)
	}
	i := s.top + y - s.listY
	if y < s.listY || y >= s.listY+s.rows || i < 0 || i >= len(s.tables) {
		return nil
	}
	if i == s.cur {
		s.join(false) // a second click on the chosen table sits at it
		return nil
	}
	s.cur, s.code = i, s.tables[i].Code
	return nil
}

func (s *Screen) game(name string) (Game, bool) {
	for _, g := range s.games {
		if g.Name == name {
			return g, true
		}
	}
	return Game{}, false
}

func (s *Screen) title(game string) string {
	if g, ok := s.game(game); ok {
		return g.Title
	}
	return clean(game, 20)
}

// clean keeps a value from outside (a code, a name) to printable text.
func clean(t string, n int) string { return format.Clean(t, n) }

// settingsText words a table's settings with the game's labels.
func settingsText(g Game, canon string) string {
	m, err := engine.ParseSettings(canon)
	if err != nil || len(m) == 0 {
		return "standard"
	}
	var parts []string
	for _, d := range g.Settings {
		if v, ok := m[d.Key]; ok {
			parts = append(parts, d.Label+": "+valueWord(v))
		}
	}
	if len(parts) == 0 {
		return "standard"
	}
	return clean(strings.Join(parts, ", "), 120)
}

func (t Table) seatsText() string {
	return fmt.Sprintf("seated %d/%d", len(t.Seats)-t.free(), len(t.Seats))
}

var (
	selStyle   = lipgloss.NewStyle().Reverse(true)
	plainStyle = lipgloss.NewStyle()
)

func pad(ls []string, n int) []string {
	for len(ls) < n {
		ls = append(ls, "")
	}
	return ls
}

// row is one table's line: code, game, seats, host, watchers.
func (s *Screen) row(i, w int) string {
	t := s.tables[i]
	title := s.title(t.Game)
	state := fmt.Sprintf("%d free", t.free())
	if t.Playing {
		state = "playing"
	}
	text := fmt.Sprintf("%-6s %-19s  %-11s %-8s host %s", clean(t.Code, 6), title, t.seatsText(), state, clean(t.Host, store.MaxNameLen))
	// The host's rating, rated, the pace and the watchers where they fit;
	// else the chosen table's detail says them.
	if r := " " + clean(t.HostRating, 6); t.HostRating != "" && lipgloss.Width(text+r) <= w-2 {
		text += r
	}
	if t.Rated && lipgloss.Width(text+", rated") <= w-2 {
		text += ", rated"
	}
	if pace := ", " + clean(t.Pace, 8); t.Pace != "" && lipgloss.Width(text+pace) <= w-2 {
		text += pace
	}
	if watching := fmt.Sprintf(", %d watching", t.Watchers); t.Watchers > 0 && lipgloss.Width(text+watching) <= w-2 {
		text += watching
	}
	text = fitWidth(text, w-2)
	mark := "  "
	if i == s.cur {
		mark = "> "
		if s.env.Color {
			return mark + selStyle.Render(text)
		}
	}
	return mark + text
}

// detail is the chosen table's settings and seats, on the message lines.
func (s *Screen) detail(t Table) string {
	g, _ := s.game(t.Game)
	var seats []string
	var ratings []string
	for i, st := range t.Seats {
		switch {
		case st.Computer && st.Name != "":
			seats = append(seats, fmt.Sprintf("%d %s (%s)", i+1, clean(st.Name, 16), clean(st.Strength, 8)))
		case st.Computer:
			seats = append(seats, fmt.Sprintf("%d computer (%s)", i+1, clean(st.Strength, 8)))
		case st.Name != "":
			seats = append(seats, fmt.Sprintf("%d %s", i+1, clean(st.Name, store.MaxNameLen)))
		case st.Reserved != "":
			seats = append(seats, fmt.Sprintf("%d kept for %s", i+1, clean(st.Reserved, store.MaxNameLen)))
		default:
			seats = append(seats, fmt.Sprintf("%d free", i+1))
		}
		if st.Rating != "" && st.Name != "" {
			ratings = append(ratings, clean(st.Name, store.MaxNameLen)+" "+clean(st.Rating, 6))
		}
	}
	text := "Settings: " + settingsText(g, t.Settings) + ". Seats: " + strings.Join(seats, ", ") + "."
	if t.Rated {
		text += " Rated."
	}
	if t.Pace != "" {
		text += " Pace: " + clean(t.Pace, 8) + "."
	}
	if t.Watchers > 0 {
		text += fmt.Sprintf(" %d watching.", t.Watchers)
	}
	// The seats' ratings where the message lines have room for them; the
	// list's line gives the host's in any case.
	if len(ratings) > 0 {
		more := text + " Ratings: " + strings.Join(ratings, ", ") + "."
		if len(ui.FitLines(more, max(s.env.Width, 1), 4)) <= 3 {
			text = more
		}
	}
	return text
}

func fitWidth(t string, w int) string {
	r := []rune(t)
	for len(r) > 0 && lipgloss.Width(string(r)) > w {
		r = r[:len(r)-1]
	}
	return strings.TrimRight(string(r), " ")
}
