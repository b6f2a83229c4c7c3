//lint:file-ignore ST1005 these errors are the sentences players read, capitalised and punctuated as the house rules ask

package lobby

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/store"
)

// The lobby page: the lobby screen wired to the hub. It holds its own
// subscription to the hub's list of tables and the membership of the table
// the player sits at before it starts; the screen's requests become hub
// calls made off the screen's goroutine (a call into a table waits for its
// room), and the hub's values become the screen's. When the table starts,
// the membership goes to the table page with its first state.

// lobbyMsg is the lobby list, pushed on every change.
type lobbyMsg struct{ list hub.TableList }

// joinedMsg answers a join or an open made off the screen's goroutine.
type joinedMsg struct {
	page *Page
	m    *ui.TableHold
	err  error
}

// refusedMsg is a table request's refusal, for the lobby.
type refusedMsg struct {
	page *Page
	text string
}

// invitedMsg: the hub took an invitation made from the lobby.
type invitedMsg struct {
	page *Page
	name string
}

// lobbySeat is one hub seat as the lobby lists it (names are validated
// account names).
func lobbySeat(s hub.SeatInfo) Seat {
	out := Seat{Name: ui.ShownName(s.Person), Reserved: ui.ShownName(s.Reserved), Rating: s.Rating}
	if s.Computer != "" || s.Gone {
		out.Computer, out.Strength = true, ui.SeatStrength(s)
		if s.Person.ID == "" {
			// A computer player's own seat, by its name; a seat lost to the
			// computer keeps its person's, as the table's log does.
			out.Name = s.Name
		}
	}
	return out
}

func lobbyTable(t hub.TableInfo) Table {
	out := Table{Code: t.Code, Game: t.Game, Settings: t.Settings, Host: ui.ShownName(t.Host),
		Watchers: t.Watchers, Playing: t.Phase != hub.TableSeating, Pace: paceWord(t.Speed), Rated: t.Rated}
	for _, s := range t.Seats {
		out.Seats = append(out.Seats, lobbySeat(s))
		if s.Person.ID != "" && s.Person.ID == t.Host.ID {
			out.HostRating = s.Rating
		}
	}
	return out
}

// listedTable is a table as the hub listed it and as the lobby shows it.
type listedTable struct {
	in hub.TableInfo
	t  Table
}

// converted is the hub's last list as the lobbies show it. The hub hands
// every lobby the same list at each relisting (its tables never written
// after): the first lobby to take a list converts it, and the others share
// that work and its memory, read only. On a busy server the people at the
// tables pass through the lobby at each game's end, and a conversion per
// lobby per relisting made the lobbies the server's largest allocator.
var converted struct {
	mu     sync.Mutex
	first  *hub.TableInfo // the list's identity: its first table
	n      int
	listed []*listedTable
	tables []Table
}

// tablesOf is the list l as the lobby shows it, each table converted
// (lobbyTable) again only when the hub lists it otherwise than in the
// list converted last: most tables of a relisting are as they were. The
// list keeps its order (oldest first), so a table is found where it was in
// the last list, or a little further on when tables before it closed; one
// not found so (a new one, or one after many that closed at once) is
// converted anew.
func tablesOf(l hub.TableList) Tables {
	if len(l.Tables) == 0 {
		return Tables{}
	}
	c := &converted
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.first == &l.Tables[0] && c.n == len(l.Tables) {
		return Tables{List: c.tables}
	}
	const ahead = 4
	prev := c.listed
	next := make([]*listedTable, 0, len(l.Tables))
	out := make([]Table, 0, len(l.Tables))
	j := 0
	for i := range l.Tables {
		in := &l.Tables[i]
		var x *listedTable
		for k := j; k < len(prev) && k < j+ahead; k++ {
			if prev[k].in.Code == in.Code {
				x, j = prev[k], k+1
				break
			}
		}
		if x == nil || !sameListing(&x.in, in) {
			x = &listedTable{in: *in, t: lobbyTable(*in)}
		}
		next = append(next, x)
		out = append(out, x.t)
	}
	c.first, c.n, c.listed, c.tables = &l.Tables[0], len(l.Tables), next, out
	return Tables{List: out}
}

// sameListing reports whether a and b are the same as far as lobbyTable
// reads them.
func sameListing(a, b *hub.TableInfo) bool {
	if a.Code != b.Code || a.Game != b.Game || a.Settings != b.Settings || a.Host != b.Host || a.Watchers != b.Watchers ||
		a.Phase != b.Phase || a.Speed != b.Speed || a.Rated != b.Rated || len(a.Seats) != len(b.Seats) {
		return false
	}
	if len(a.Seats) > 0 && &a.Seats[0] == &b.Seats[0] {
		return true // the same listing's seats: the hub never writes a list's tables
	}
	for i := range a.Seats {
		if a.Seats[i] != b.Seats[i] {
			return false
		}
	}
	return true
}

// paceWord is a table's pace as the list shows it: nothing for the
// default, which most tables keep.
func paceWord(s hub.Speed) string {
	if s == hub.Steady {
		return ""
	}
	return string(s)
}

// hostName is the host's validated name, found among the seats.
func hostName(st hub.TableState) string {
	for _, s := range st.Seats {
		if s.Person.ID == st.Host {
			return ui.ShownName(s.Person)
		}
	}
	return ""
}

// stateTable is the table of a state, as the lobby shows it.
func stateTable(st hub.TableState) Table {
	out := Table{Code: st.Code, Game: st.Game, Settings: st.Settings, Host: hostName(st),
		Watchers: len(st.Watchers), Playing: st.Phase != hub.TableSeating, Pace: paceWord(st.Speed), Rated: st.Rated}
	for _, s := range st.Seats {
		out.Seats = append(out.Seats, lobbySeat(s))
		if s.Person.ID != "" && s.Person.ID == st.Host {
			out.HostRating = s.Rating
		}
	}
	return out
}

// Page is the lobby screen with its subscription to the hub's list,
// and the membership of the table the player sits at before it starts.
type Page struct {
	*Screen
	env      *ui.Env
	hub      *hub.Hub
	defaults hub.TableConfig // the server's table times, for tables opened here
	watch    *hub.LobbyWatch
	m        *ui.TableHold               // seated (or watching) at a table not started
	pending  bool                        // a join or an open is on its way
	last     *ui.LiveMsg[hub.TableState] // the newest table state while a join is on its way
	handed   bool                        // m went to the table page
	// challenge is the bot the table being opened is for, invited once
	// the host sits at it.
	challenge *Bot
	// mu guards gone and joined: every membership this page's joins made,
	// so that when the page leaves the screen (or the session ends) a
	// seat nobody looks at is dropped, even one whose answer is still on
	// its way; a join answered after that is dropped at once.
	mu     sync.Mutex
	gone   bool
	joined []*ui.TableHold

	// The invite line as last drawn, and what for.
	inviteOK    bool
	inviteCode  string
	inviteWidth int
	inviteText  string
}

// answer hands a join's outcome to the page, or drops the seat when the
// page is gone.
func (pg *Page) answer(m *ui.TableHold, err error) {
	pg.mu.Lock()
	gone := pg.gone
	if !gone && m != nil {
		pg.joined = append(pg.joined, m)
	}
	pg.mu.Unlock()
	if gone {
		if m != nil {
			m.Drop() // no screen has it: this goroutine is its only holder
		}
		return
	}
	pg.env.Send(joinedMsg{page: pg, m: m, err: err})
}

// OpenPage builds the lobby page of a route: the list of tables, a table
// to open at once (r.OpenTable), or the membership of a table still
// seating that the table page handed back (r.Member). defaults holds the
// server's table times (TurnClock, Pace, Hold, Break) for tables opened
// here.
func OpenPage(e *ui.Env, r ui.Route, defaults hub.TableConfig) (ui.Screen, error) {
	if _, ok := e.Watcher(); !ok {
		return nil, errors.New("Tables need a player name: connect with a key and pick one.")
	}
	pg := &Page{env: e, hub: e.Hub, defaults: defaults}
	pg.Screen = New(e, pg, GamesOf(e.Games), tablesOf(pg.hub.TableList()).List)
	if r.Game.Game != nil {
		pg.ComeFor(r.Game.Game.Name)
	}
	pg.watch = pg.hub.WatchLobby(func(l hub.TableList) { e.Send(lobbyMsg{list: l}) })
	if r.OpenTable != nil {
		pg.openWith(*r.OpenTable)
	}
	if r.Member != nil {
		pg.m = r.Member
		pg.talkAt(r.Member)
		if r.State != nil {
			pg.take(*r.State)
		}
	}
	return pg, nil
}

func (pg *Page) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case lobbyMsg:
		return pg.Screen.Update(tablesOf(msg.list))
	case joinedMsg:
		if msg.page != pg {
			return nil
		}
		pg.pending = false
		if msg.err != nil {
			return pg.Screen.Update(Refused{Text: msg.err.Error()})
		}
		if old := pg.m; old != nil && old != msg.m && !pg.handed {
			old.Leave() // a later join: stand from the earlier table
		}
		pg.m, pg.handed = msg.m, false
		pg.talkAt(msg.m)
		if last := pg.last; last != nil {
			pg.last = nil
			if st, ok := msg.m.State(*last); ok {
				return pg.take(st)
			}
		}
		return nil
	case refusedMsg:
		if msg.page != pg {
			return nil
		}
		return pg.Screen.Update(Refused{Text: msg.text})
	case invitedMsg:
		if msg.page != pg {
			return nil
		}
		return pg.Screen.Update(Invited{Name: msg.name})
	case ui.LiveMsg[hub.TableState]:
		if pg.handed {
			return nil
		}
		if pg.m != nil {
			if st, ok := pg.m.State(msg); ok {
				return pg.take(st)
			}
		}
		if pg.pending {
			pg.last = &msg // perhaps a state of the table being joined, before the join's answer
		}
		return nil
	}
	return pg.Screen.Update(msg)
}

// take shows a state of the table the player sits at: seated while it
// seats, the table page once it has started.
func (pg *Page) take(st hub.TableState) tea.Cmd {
	pg.Screen.said = pg.Screen.talk.Said(st.Said)
	switch {
	case st.Phase == hub.TableClosed:
		pg.m.Closed()
		pg.m = nil
		pg.Screen.Update(Seated{})
		return pg.Screen.Update(Refused{Text: ui.TableNote(st)})
	case st.View != nil:
		pg.handed = true
		m := pg.m
		return pg.env.Go(ui.Route{Page: ui.Table, Member: m, State: &st})
	case st.Seat == engine.Spectator:
		// Watching a table still seating: the table page opens at its start.
		return nil
	}
	return pg.Screen.Update(Seated{Table: stateTable(st), Seat: st.Seat, Host: st.Host == st.You})
}

func (pg *Page) View() string { return strings.Join(pg.ViewPieces(nil), "") }

// ViewPieces adds the invite line of the table the player sits at under
// the screen's pieces.
func (pg *Page) ViewPieces(dst []string) []string {
	if pg.m == nil || pg.handed || pg.env.Height < 17 {
		return pg.Screen.ViewPieces(dst)
	}
	e := pg.env
	full := e.Height
	e.Height = full - 1
	start := len(dst)
	dst = pg.Screen.ViewPieces(dst)
	e.Height = full
	for len(dst)-start < full-1 {
		dst = append(dst, "\n")
	}
	dst = dst[:start+full-1]
	if code := pg.code(); !pg.inviteOK || pg.inviteCode != code || pg.inviteWidth != e.Width {
		pg.inviteText = "\n" + ui.FaintStyle.Render(inviteLine(e, code))
		pg.inviteOK, pg.inviteCode, pg.inviteWidth = true, code, e.Width
	}
	return append(dst, pg.inviteText)
}

// inviteLine is the line that fits e's width. A command cut short is
// worse than none: a long server name drops the label first, then leaves
// the code alone.
func inviteLine(e *ui.Env, code string) string {
	for _, l := range []string{"Invite: " + e.InviteLine(code), e.InviteLine(code), "Invite code: " + code, code} {
		if lipgloss.Width(l) <= e.Width {
			return l
		}
	}
	return ""
}

// code is the code of the table the player sits at, or "".
func (pg *Page) code() string {
	if pg.m == nil {
		return ""
	}
	return pg.m.Member().Table().Code()
}

// person is the player, or the session's guest, who may only watch.
func (pg *Page) person() hub.Person {
	p, _ := pg.env.Watcher()
	return p
}

// Open opens a table with the player as its host in seat 0.
func (pg *Page) Open(o Open) {
	if pg.env.IsGuest() {
		pg.Screen.Update(Refused{Text: hub.ErrGuest.Error()})
		return
	}
	cfg := hub.TableConfig{Game: o.Game, Settings: o.Settings, Private: o.Private, TurnClock: o.Clock, Speed: hub.Speed(o.Pace),
		Rated: o.Rated}
	for _, c := range o.Seats {
		if c.Computer {
			cfg.Seats = append(cfg.Seats, hub.SeatPlan{Computer: c.Strength})
		} else {
			cfg.Seats = append(cfg.Seats, hub.SeatPlan{})
		}
	}
	if o.Challenge != nil && !challengeSeat(&cfg, o.Challenge) {
		pg.Screen.Update(Refused{Text: "Leave a seat for a person: the bot you challenge sits there."})
		return
	}
	pg.challenge = o.Challenge
	pg.openWith(cfg)
}

// onItsWay refuses a second open or join while one is on its way: keys
// typed ahead (or a script's thousands) make one request at a time, not a
// goroutine and a room each.
func (pg *Page) onItsWay() bool {
	if pg.pending {
		pg.Screen.Update(Refused{Text: "A table is on its way; wait for it."})
	}
	return pg.pending
}

// openWith opens cfg (Host set) and seats the host.
func (pg *Page) openWith(cfg hub.TableConfig) {
	if pg.onItsWay() {
		return
	}
	pg.standFrom()
	pg.pending = true
	e, h := pg.env, pg.hub
	cfg.Host = pg.person()
	d := pg.defaults
	if cfg.TurnClock == 0 {
		cfg.TurnClock = d.TurnClock
	}
	if cfg.Pace == 0 {
		cfg.Pace = d.Pace
	}
	if cfg.Hold == 0 {
		cfg.Hold = d.Hold
	}
	if cfg.Break == 0 {
		cfg.Break = d.Break
	}
	bot, live := pg.challenge, e.Live
	pg.challenge = nil
	go func() {
		t, err := h.OpenTable(cfg)
		var m *ui.TableHold
		if err == nil {
			m, err = ui.JoinTable(e, t, cfg.Host, 0, false)
		}
		pg.answer(m, err)
		if err != nil || bot == nil || live == nil {
			return
		}
		if err := live.Invite(hub.Person{ID: bot.ID, Name: bot.Name, Bot: true}, t.Code()); err != nil {
			e.Send(refusedMsg{page: pg, text: err.Error()})
			return
		}
		e.Send(invitedMsg{page: pg, name: ui.BotName(bot.Name)})
	}()
}

// talkAt gives the screen quick phrases to the table of m: said by number
// to the room, as at the table itself.
func (pg *Page) talkAt(m *ui.TableHold) {
	mem := m.Member()
	pg.Screen.said = ""
	pg.Screen.talk = ui.NewPhrasePicker(pg.env, func(n int) {
		if err := mem.Say(n); err != nil {
			pg.Screen.msg, pg.Screen.err = err.Error(), true
		}
	}, ui.MuteLatest(mem.Mute))
}

// standFrom leaves the seat of a table not started, before another.
func (pg *Page) standFrom() {
	if m := pg.m; m != nil && !pg.handed {
		pg.m = nil
		m.Leave()
	}
}

func (pg *Page) Join(j Join) {
	if pg.env.IsGuest() {
		j.Watch = true
	}
	if pg.m != nil && !pg.handed && pg.code() == j.Code && !j.Watch {
		return // already there
	}
	if pg.onItsWay() {
		return
	}
	pg.standFrom()
	pg.pending = true
	e, h, p := pg.env, pg.hub, pg.person()
	go func() {
		t, err := h.FindTable(p, j.Code)
		var m *ui.TableHold
		if err == nil {
			seat := hub.AnySeat
			if j.Watch {
				seat = hub.Watch
			}
			m, err = ui.JoinTable(e, t, p, seat, false)
		}
		pg.answer(m, err)
	}()
}

func (pg *Page) Start(code string) {
	if pg.m == nil || pg.code() != code {
		pg.Screen.Update(Refused{Text: "You sit at no table yet."})
		return
	}
	m, e := pg.m.Member(), pg.env
	go func() {
		if err := m.Start(); err != nil {
			e.Send(refusedMsg{page: pg, text: err.Error()})
		}
	}()
}

func (pg *Page) Stand(code string) {
	if pg.m != nil && pg.code() == code {
		pg.standFrom()
		pg.Screen.Update(Seated{})
	}
}

// Invite looks the name up and asks the hub to invite that account to
// the table the player sits at (as a race's i does); the answer comes
// back as Invited or the hub's refusal.
func (pg *Page) Invite(code, name string) {
	e, live := pg.env, pg.env.Live
	if pg.m == nil || pg.handed || pg.code() != code {
		pg.Screen.Update(Refused{Text: "You sit at no table yet."})
		return
	}
	if live == nil {
		pg.Screen.Update(Refused{Text: "Invitations are not available just now."})
		return
	}
	go func() {
		acc, err := e.Store.AccountByName(e.Ctx(), store.NormalName(name))
		switch {
		case errors.Is(err, store.ErrNotFound):
			e.Send(refusedMsg{page: pg, text: fmt.Sprintf("Nobody here is called %s.", name)})
			return
		case err != nil:
			e.Send(refusedMsg{page: pg, text: "The players could not be looked up just now; try again."})
			return
		}
		if err := live.Invite(hub.Person{ID: acc.ID, Name: acc.Name}, code); err != nil {
			e.Send(refusedMsg{page: pg, text: err.Error()})
			return
		}
		e.Send(invitedMsg{page: pg, name: acc.Name})
	}()
}

// Save is the session ending: a seat at a table not started is held as
// on any lost connection; the list subscription ends.
func (pg *Page) Save() {
	pg.mu.Lock()
	pg.gone = true
	joined := pg.joined
	pg.joined = nil
	pg.mu.Unlock()
	pg.watch.Close()
	if r := pg.m; r != nil && !pg.handed {
		joined = append(joined, r) // the membership the table page handed back
	}
	for _, m := range joined {
		if pg.handed && m == pg.m {
			continue // the table page has it
		}
		m.Drop() // a hold left or closed already does nothing
	}
	pg.m = nil
}

// Left: the lobby was replaced (the table page, the menu); the list
// subscription ends. A seat the player still holds (they left the lobby
// by some other way than q) is held as on a lost connection.
func (pg *Page) Left() { pg.Save() }

func (pg *Page) Activity() hub.Activity {
	a := hub.Activity{Doing: hub.AtMenu}
	if pg.m != nil && !pg.handed {
		a = hub.Activity{Doing: hub.AtTable, Game: pg.m.Member().Table().Game(), Room: pg.code(), Watchable: true}
	}
	return a
}
