package arcade

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/lobby"
	"sshuffle/arcade/ui/table"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
	"sshuffle/store"
)

// The glue between the hub's tables and the two table screens (the lobby
// and the seat). The screens take values pushed in and hand requests out;
// here the requests become hub calls, made off the screen's goroutine (a
// call into a table waits for its room), and the hub's states become the
// screens' values. A member's states reach the program as tableMsg, which
// the router hands to every screen of the stack: the page holding that
// member's table takes it, the others drop it.

// tableMsg is one state of a table the session is a member of.
type tableMsg struct{ st hub.TableState }

// lobbyMsg is the lobby list, pushed on every change.
type lobbyMsg struct{ list hub.TableList }

// joinedMsg answers a join or an open made off the screen's goroutine.
type joinedMsg struct {
	page *lobbyPage
	m    *hub.TableMember
	err  error
}

// refusedMsg is a table request's refusal, for the lobby.
type refusedMsg struct {
	page *lobbyPage
	text string
}

// invitedMsg: the hub took an invitation made from the lobby.
type invitedMsg struct {
	page *lobbyPage
	name string
}

// tableSink is a member's sink: its states go into the session's program.
func tableSink(e *ui.Env) func(hub.TableState) {
	return func(st hub.TableState) { e.Send(tableMsg{st: st}) }
}

// tableDefaults is the server's table times, for tables opened here.
func (s *Server) tableDefaults() hub.TableConfig {
	return hub.TableConfig{TurnClock: s.cfg.TableClock, Pace: s.cfg.TablePace, Hold: s.cfg.TableHold, Break: s.cfg.TableBreak}
}

// lobbyGames is the open-table form's list, from the hub's table games.
func lobbyGames(c *games.Catalogue) []lobby.Game {
	var out []lobby.Game
	for _, g := range c.TableGames() {
		in := g.Kit.Info()
		out = append(out, lobby.Game{Name: in.Name, Title: in.Title, Settings: in.Settings,
			MinPlayers: in.MinPlayers, MaxPlayers: in.MaxPlayers, Strengths: in.Strengths})
	}
	return out
}

// lobbySeat is one hub seat as the lobby lists it (names are validated
// account names).
func lobbySeat(s hub.SeatInfo) lobby.Seat {
	out := lobby.Seat{Name: s.Person.Name, Reserved: s.Reserved.Name}
	if s.Computer != "" || s.Gone {
		out.Computer, out.Strength = true, computerStrength(s)
	}
	return out
}

func computerStrength(s hub.SeatInfo) string {
	if s.Computer != "" {
		return s.Computer
	}
	return "normal" // a lost seat's stand-in
}

func lobbyTable(t hub.TableInfo) lobby.Table {
	out := lobby.Table{Code: t.Code, Game: t.Game, Settings: t.Settings, Host: t.Host.Name,
		Watchers: t.Watchers, Playing: t.Phase != hub.TableSeating}
	for _, s := range t.Seats {
		out.Seats = append(out.Seats, lobbySeat(s))
	}
	return out
}

func lobbyTables(l hub.TableList) lobby.Tables {
	out := lobby.Tables{List: make([]lobby.Table, 0, len(l.Tables))}
	for _, t := range l.Tables {
		out.List = append(out.List, lobbyTable(t))
	}
	return out
}

// hostName is the host's validated name, found among the seats.
func hostName(st hub.TableState) string {
	for _, s := range st.Seats {
		if s.Person.ID == st.Host {
			return s.Person.Name
		}
	}
	return ""
}

// stateTable is the table of a state, as the lobby shows it.
func stateTable(st hub.TableState) lobby.Table {
	out := lobby.Table{Code: st.Code, Game: st.Game, Settings: st.Settings, Host: hostName(st),
		Watchers: len(st.Watchers), Playing: st.Phase != hub.TableSeating}
	for _, s := range st.Seats {
		out.Seats = append(out.Seats, lobbySeat(s))
	}
	return out
}

// tableSeats names the seats for the table screen.
func tableSeats(st hub.TableState) []table.Seat {
	out := make([]table.Seat, len(st.Seats))
	for i, s := range st.Seats {
		name := s.Person.Name // "" for a computer's or an open seat: the screen says "seat N"
		if name == "" {
			name = s.Reserved.Name
		}
		out[i] = table.Seat{Name: name, Away: s.StandIn}
		if s.Computer != "" || s.Gone {
			out[i].Computer, out[i].Strength = true, computerStrength(s)
		}
	}
	return out
}

// tableNote is the one line about the table's state, in our own words
// around validated names.
func tableNote(st hub.TableState) string {
	switch {
	case st.Phase == hub.TableClosed:
		if st.Reason != "" {
			return st.Reason
		}
		return "The table has closed."
	case st.Paused:
		var away []string
		for _, s := range st.Seats {
			if s.Person.ID != "" && !s.Here && !s.Gone {
				away = append(away, s.Person.Name)
			}
		}
		if len(away) == 0 {
			return "Paused until everyone is back."
		}
		return "Paused until " + strings.Join(away, " and ") + " " + map[bool]string{true: "is", false: "are"}[len(away) == 1] + " back."
	case st.Auto && st.Turn == st.Seat:
		return "Your time ran out: the computer plays this turn."
	case st.Auto && st.Turn >= 0 && st.Turn < len(st.Seats) && st.Seats[st.Turn].Person.Name != "":
		return st.Seats[st.Turn].Person.Name + "'s time ran out: the computer plays this turn."
	case st.Phase == hub.TableBetween:
		return "Next game in a moment."
	case st.Phase == hub.TableFinished && st.Seat != engine.Spectator:
		return "The match is over: r asks for a rematch (the host's), q leaves."
	}
	return ""
}

func tableCommon(st hub.TableState) table.Common {
	return table.Common{Table: st.Code, Seats: tableSeats(st), Clock: st.TurnLeft, Log: st.Log, Totals: st.Totals,
		Watchers: len(st.Watchers), CanRematch: st.Phase == hub.TableFinished, Note: tableNote(st)}
}

// screenState is a state as the table screen takes it; ok is false while
// the state has no view (seating).
func screenState(c *games.Catalogue, st hub.TableState) (tea.Msg, bool) {
	if st.View == nil {
		return nil, false
	}
	kit, ok := c.TableKit(st.Game)
	if !ok {
		return nil, false
	}
	view, err := kit.DecodeView(st.View)
	if err != nil {
		return nil, false
	}
	switch v := view.(type) {
	case spite.View:
		return table.SpiteState{Common: tableCommon(st), View: v}, true
	case kings.View:
		return table.KingsState{Common: tableCommon(st), View: v}, true
	}
	return nil, false
}

// entryOf is the registry's entry of a table game, for the rules page.
func entryOf(c *games.Catalogue, game string) games.Entry {
	e, _ := c.Entry(game)
	return e
}

// tablePage is a seat at a table (or a watcher's place): the table screen
// of the game, built from the first state with a view, and the membership
// it acts through.
type tablePage struct {
	env   *ui.Env
	m     *hub.TableMember
	code  string
	inner ui.Screen // nil until the first state with a view
	done  bool      // left or dropped: the membership is over
	note  string    // before the first view: why there is none
}

// openTable builds the table page of a route: the membership the lobby
// handed over, or a join of Code (a person holding a seat gets it back;
// a table that started, or is full, is watched instead).
func (s *Server) openTable(e *ui.Env, r ui.Route) (ui.Screen, error) {
	m := r.Member
	if m == nil {
		p, ok := e.Person()
		if !ok {
			return nil, errors.New("Tables need a player name: connect with a key and pick one.")
		}
		t, err := s.hub.Table(r.Code)
		if err != nil {
			return nil, err
		}
		seat := hub.AnySeat
		if r.Watch {
			seat = hub.Watch
		}
		m, err = t.Join(p, seat, tableSink(e))
		if errors.Is(err, hub.ErrTableStarted) || errors.Is(err, hub.ErrTableFull) {
			m, err = t.Join(p, hub.Watch, tableSink(e))
		}
		if err != nil {
			return nil, err
		}
	}
	pg := &tablePage{env: e, m: m, code: m.Table().Code()}
	if r.State != nil {
		pg.take(*r.State)
	}
	return pg, nil
}

// take builds the screen from the first state with a view, or (while the
// table is seating) hands the membership to the lobby.
func (p *tablePage) take(st hub.TableState) tea.Cmd {
	if p.inner != nil {
		msg, ok := screenState(p.env.Games, st)
		if !ok {
			if st.Phase == hub.TableSeating && st.Seat != engine.Spectator {
				// A rematch waits for someone: the lobby seats again.
				p.done = true
				return p.env.Go(ui.Route{Page: ui.Lobby, Member: p.m, State: &st})
			}
			if st.Phase == hub.TableClosed {
				return p.inner.Update(table.Refused{Table: p.code, Text: tableNote(st)})
			}
			return nil
		}
		return p.inner.Update(msg)
	}
	if st.Phase == hub.TableClosed {
		p.note = tableNote(st)
		return nil
	}
	msg, ok := screenState(p.env.Games, st)
	if !ok {
		// Seating (a join by code before the start): the lobby seats.
		p.done = true
		return p.env.Go(ui.Route{Page: ui.Lobby, Member: p.m, State: &st})
	}
	m := p.m
	entry := entryOf(p.env.Games, st.Game)
	// Leave waits for the room (a moment): the menu built next must not
	// still find the seat.
	leave := func() { p.done = true; _ = m.Leave() }
	var rematch func()
	if st.Seat != engine.Spectator {
		rematch = func() {
			go func() {
				if err := m.Rematch(); err != nil {
					p.env.Send(table.Refused{Table: p.code, Text: err.Error()})
				}
			}()
		}
	}
	switch v := msg.(type) {
	case table.SpiteState:
		cfg := table.Config[spite.Action]{Table: p.code, Game: entry, Leave: leave, Rematch: rematch}
		if st.Seat != engine.Spectator {
			cfg.Act = func(a spite.Action) { p.act(a) }
		}
		p.inner = table.NewSpite(p.env, cfg, v)
	case table.KingsState:
		cfg := table.Config[kings.Action]{Table: p.code, Game: entry, Leave: leave, Rematch: rematch}
		if st.Seat != engine.Spectator {
			cfg.Act = func(a kings.Action) { p.act(a) }
		}
		p.inner = table.NewKings(p.env, cfg, v)
	}
	if i, ok := p.inner.(ui.Initer); ok {
		return i.Init()
	}
	return nil
}

// act hands an action to the table off the screen's goroutine (Do waits
// for the room); a refusal comes back as the game's sentence.
func (p *tablePage) act(a any) {
	m, e, code := p.m, p.env, p.code
	kit, _ := e.Games.TableKit(m.Table().Game())
	b, err := kit.EncodeAction(a)
	if err != nil {
		e.Send(table.Refused{Table: code, Text: err.Error()})
		return
	}
	go func() {
		if err := m.Do(b); err != nil {
			e.Send(table.Refused{Table: code, Text: err.Error()})
		}
	}()
}

func (p *tablePage) Update(msg tea.Msg) tea.Cmd {
	if tm, ok := msg.(tableMsg); ok {
		if tm.st.Code != p.code {
			return nil
		}
		return p.take(tm.st)
	}
	if p.inner == nil {
		if k, ok := msg.(tea.KeyPressMsg); ok && (k.String() == "q" || k.String() == "esc") {
			p.Save()
			return p.env.Go(ui.Route{Page: ui.Menu})
		}
		return nil
	}
	return p.inner.Update(msg)
}

func (p *tablePage) View() string {
	if p.inner == nil {
		if p.note != "" {
			return p.note + "\n\nq: the menu"
		}
		return "Joining table " + p.code + "…\n\nq: the menu"
	}
	return p.inner.View()
}

func (p *tablePage) MinSize() (int, int) {
	if p.inner == nil {
		return 40, 4
	}
	return p.inner.MinSize()
}

func (p *tablePage) Init() tea.Cmd {
	if i, ok := p.inner.(ui.Initer); ok {
		return i.Init()
	}
	return nil
}

// Save is the session ending: the seat is held for the table's hold
// time, a computer standing in.
func (p *tablePage) Save() {
	if !p.done {
		p.done = true
		_ = p.m.Drop()
	}
}

// Left: the page was replaced without leaving the table (an invitation
// taken): the seat is held as on a lost connection.
func (p *tablePage) Left() { p.Save() }

func (p *tablePage) Activity() hub.Activity {
	a := hub.Activity{Doing: hub.AtTable, Game: p.m.Table().Game(), Room: p.code, Watchable: true}
	if p.m.Seat() == engine.Spectator {
		a.Doing = hub.Watching
	}
	return a
}

// lobbyPage is the lobby screen with its subscription to the hub's list,
// and the membership of the table the player sits at before it starts.
type lobbyPage struct {
	*lobby.Screen
	s       *Server
	env     *ui.Env
	watch   *hub.LobbyWatch
	m       *hub.TableMember // seated (or watching) at a table not started
	pending bool             // a join or an open is on its way
	last    *hub.TableState  // the newest state of m's table, if it came first
	handed  bool             // m went to the table page
	// mu guards gone and joined: every membership this page's joins made,
	// so that when the page leaves the screen (or the session ends) a
	// seat nobody looks at is dropped, even one whose answer is still on
	// its way; a join answered after that is dropped at once.
	mu     sync.Mutex
	gone   bool
	joined []*hub.TableMember
}

// answer hands a join's outcome to the page, or drops the seat when the
// page is gone.
func (pg *lobbyPage) answer(m *hub.TableMember, err error) {
	pg.mu.Lock()
	gone := pg.gone
	if !gone && m != nil {
		pg.joined = append(pg.joined, m)
	}
	pg.mu.Unlock()
	if gone {
		if m != nil {
			_ = m.Drop()
		}
		return
	}
	pg.env.Send(joinedMsg{page: pg, m: m, err: err})
}

func (s *Server) openLobby(e *ui.Env, r ui.Route) (ui.Screen, error) {
	if _, ok := e.Person(); !ok {
		return nil, errors.New("Tables need a player name: connect with a key and pick one.")
	}
	pg := &lobbyPage{s: s, env: e}
	var first []lobby.Table
	for _, t := range s.hub.Tables() {
		first = append(first, lobbyTable(t))
	}
	pg.Screen = lobby.New(e, pg, lobbyGames(e.Games), first)
	pg.watch = s.hub.WatchLobby(func(l hub.TableList) { e.Send(lobbyMsg{list: l}) })
	if r.OpenTable != nil {
		pg.openWith(*r.OpenTable)
	}
	if r.Member != nil {
		pg.m = r.Member
		if r.State != nil {
			pg.take(*r.State)
		}
	}
	return pg, nil
}

func (pg *lobbyPage) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case lobbyMsg:
		return pg.Screen.Update(lobbyTables(msg.list))
	case joinedMsg:
		if msg.page != pg {
			return nil
		}
		pg.pending = false
		if msg.err != nil {
			return pg.Screen.Update(lobby.Refused{Text: msg.err.Error()})
		}
		if old := pg.m; old != nil && old != msg.m && !pg.handed {
			go func() { _ = old.Leave() }() // a later join: stand from the earlier table
		}
		pg.m, pg.handed = msg.m, false
		if st := pg.last; st != nil && st.Code == msg.m.Table().Code() {
			pg.last = nil
			return pg.take(*st)
		}
		return nil
	case refusedMsg:
		if msg.page != pg {
			return nil
		}
		return pg.Screen.Update(lobby.Refused{Text: msg.text})
	case invitedMsg:
		if msg.page != pg {
			return nil
		}
		return pg.Screen.Update(lobby.Invited{Name: msg.name})
	case tableMsg:
		if pg.handed {
			return nil
		}
		if pg.m != nil && msg.st.Code == pg.m.Table().Code() {
			return pg.take(msg.st)
		}
		if pg.pending {
			st := msg.st // a state of the table being joined, before the join's answer
			pg.last = &st
		}
		return nil
	}
	return pg.Screen.Update(msg)
}

// take shows a state of the table the player sits at: seated while it
// seats, the table page once it has started.
func (pg *lobbyPage) take(st hub.TableState) tea.Cmd {
	switch {
	case st.Phase == hub.TableClosed:
		pg.m = nil
		pg.Screen.Update(lobby.Seated{})
		return pg.Screen.Update(lobby.Refused{Text: tableNote(st)})
	case st.View != nil:
		pg.handed = true
		m := pg.m
		return pg.env.Go(ui.Route{Page: ui.Table, Member: m, State: &st})
	case st.Seat == engine.Spectator:
		// Watching a table still seating: the table page opens at its start.
		return nil
	}
	return pg.Screen.Update(lobby.Seated{Table: stateTable(st), Seat: st.Seat, Host: st.Host == st.You})
}

// View adds the invite line of the table the player sits at.
func (pg *lobbyPage) View() string {
	if pg.m == nil || pg.handed || pg.env.Height < 17 {
		return pg.Screen.View()
	}
	e := pg.env
	full := e.Height
	e.Height = full - 1
	body := pg.Screen.View()
	e.Height = full
	lines := strings.Split(body, "\n")
	for len(lines) < full-1 {
		lines = append(lines, "")
	}
	line := "Invite: " + e.InviteLine(pg.m.Table().Code())
	if r := []rune(line); len(r) > e.Width {
		line = string(r[:max(e.Width, 0)])
	}
	return strings.Join(append(lines[:full-1], ui.FaintStyle.Render(line)), "\n")
}

func (pg *lobbyPage) person() hub.Person {
	p, _ := pg.env.Person()
	return p
}

// Open opens a table with the player as its host in seat 0.
func (pg *lobbyPage) Open(o lobby.Open) {
	cfg := hub.TableConfig{Game: o.Game, Settings: o.Settings, Private: o.Private, TurnClock: o.Clock}
	for _, c := range o.Seats {
		if c.Computer {
			cfg.Seats = append(cfg.Seats, hub.SeatPlan{Computer: c.Strength})
		} else {
			cfg.Seats = append(cfg.Seats, hub.SeatPlan{})
		}
	}
	pg.openWith(cfg)
}

// openWith opens cfg (Host set) and seats the host.
func (pg *lobbyPage) openWith(cfg hub.TableConfig) {
	pg.standFrom()
	pg.pending = true
	e, h := pg.env, pg.s.hub
	cfg.Host = pg.person()
	d := pg.s.tableDefaults()
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
	go func() {
		t, err := h.OpenTable(cfg)
		var m *hub.TableMember
		if err == nil {
			m, err = t.Join(cfg.Host, 0, tableSink(e))
		}
		pg.answer(m, err)
	}()
}

// standFrom leaves the seat of a table not started, before another.
func (pg *lobbyPage) standFrom() {
	if m := pg.m; m != nil && !pg.handed {
		pg.m = nil
		go func() { _ = m.Leave() }()
	}
}

func (pg *lobbyPage) Join(j lobby.Join) {
	if pg.m != nil && !pg.handed && pg.m.Table().Code() == j.Code && !j.Watch {
		return // already there
	}
	pg.standFrom()
	pg.pending = true
	e, h, p := pg.env, pg.s.hub, pg.person()
	go func() {
		t, err := h.Table(j.Code)
		var m *hub.TableMember
		if err == nil {
			seat := hub.AnySeat
			if j.Watch {
				seat = hub.Watch
			}
			m, err = t.Join(p, seat, tableSink(e))
		}
		pg.answer(m, err)
	}()
}

func (pg *lobbyPage) Start(code string) {
	m := pg.m
	if m == nil || m.Table().Code() != code {
		pg.Screen.Update(lobby.Refused{Text: "You sit at no table yet."})
		return
	}
	e := pg.env
	go func() {
		if err := m.Start(); err != nil {
			e.Send(refusedMsg{page: pg, text: err.Error()})
		}
	}()
}

func (pg *lobbyPage) Stand(code string) {
	if pg.m != nil && pg.m.Table().Code() == code {
		pg.standFrom()
		pg.Screen.Update(lobby.Seated{})
	}
}

// Invite looks the name up and asks the hub to invite that account to
// the table the player sits at (as a race's i does); the answer comes
// back as Invited or the hub's refusal.
func (pg *lobbyPage) Invite(code, name string) {
	e, live := pg.env, pg.env.Live
	if pg.m == nil || pg.handed || pg.m.Table().Code() != code {
		pg.Screen.Update(lobby.Refused{Text: "You sit at no table yet."})
		return
	}
	if live == nil {
		pg.Screen.Update(lobby.Refused{Text: "Invitations are not available just now."})
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
func (pg *lobbyPage) Save() {
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
		_ = m.Drop() // a seat stood from already answers with an error: nothing to do
	}
	pg.m = nil
}

// Left: the lobby was replaced (the table page, the menu); the list
// subscription ends. A seat the player still holds (they left the lobby
// by some other way than q) is held as on a lost connection.
func (pg *lobbyPage) Left() { pg.Save() }

func (pg *lobbyPage) Activity() hub.Activity {
	a := hub.Activity{Doing: hub.AtMenu}
	if pg.m != nil && !pg.handed {
		a = hub.Activity{Doing: hub.AtTable, Game: pg.m.Table().Game(), Room: pg.m.Table().Code(), Watchable: true}
	}
	return a
}
