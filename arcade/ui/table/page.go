//lint:file-ignore ST1005 these errors are the sentences players read, capitalised and punctuated as the house rules ask

package table

import (
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games"
)

// Page is a seat at a live table (or a watcher's place): it holds the
// table membership itself (ui.Live, as every live screen holds its room),
// takes the states the room pushes, decodes each
// view with the game's kit (found in the catalogue by the game's name) and
// hands it to the game's drawing (found in the registry by the same name),
// which it builds from the first state with a view. A seated player's
// gestures come back as the game's actions, which the page encodes with
// the kit and sends to the room off the screen's goroutine.
type Page struct {
	env     *ui.Env
	live    *ui.TableHold
	code    string
	kit     engine.TableKit
	drawing Drawing
	inner   ui.Screen // nil until the first state with a view
	handed  bool      // the membership went back to the lobby
	note    string    // before the first view: why there is none
}

// OpenPage builds the table page of a route: the membership the lobby
// handed over, or a join of r.Code (a person holding a seat gets it back;
// a table that started, or is full, is watched instead).
func OpenPage(e *ui.Env, r ui.Route) (ui.Screen, error) {
	live := r.Member
	if live == nil {
		p, ok := e.Watcher()
		if !ok {
			return nil, errors.New("Tables need a player name: connect with a key and pick one.")
		}
		t, err := e.Hub.FindTable(p, r.Code)
		if err != nil {
			return nil, err
		}
		seat := hub.AnySeat
		if r.Watch || p.Guest {
			seat = hub.Watch // a guest only ever watches
		}
		if live, err = ui.JoinTable(e, t, p, seat, true); err != nil {
			return nil, err
		}
	}
	pg := &Page{env: e, live: live, code: live.Member().Table().Code()}
	if r.State != nil {
		pg.take(*r.State)
	}
	return pg, nil
}

// seats names the seats for the game's screen.
func seats(st hub.TableState) []Seat {
	out := make([]Seat, len(st.Seats))
	for i, s := range st.Seats {
		name := s.Name // the table's name for the seat; "" for an open one: the screen says "seat N"
		if name == "" || s.Person.Bot {
			name = ui.ShownName(s.Person)
		}
		if name == "" {
			name = ui.ShownName(s.Reserved)
		}
		out[i] = Seat{Name: name, Away: s.StandIn, Rating: s.Rating}
		if s.Computer != "" || s.Gone {
			out[i].Computer, out[i].Strength = true, ui.SeatStrength(s)
		}
	}
	return out
}

func common(st hub.TableState) Common {
	c := Common{Table: st.Code, Seats: seats(st), Clock: st.TurnLeft, Log: st.Log, Totals: st.Totals,
		Watchers: len(st.Watchers), CanRematch: st.Phase == hub.TableFinished, Note: ui.TableNote(st),
		Offer: st.Rematch, MatchOver: st.Phase == hub.TableFinished, MatchWinner: st.MatchWinner,
		Closed: st.Phase == hub.TableClosed, Rated: st.Rated}
	c.Said = st.Said
	if st.Speed != hub.Steady {
		c.Pace = string(st.Speed)
	}
	return c
}

// errNoDrawing: a table of a game this server has no screen for, which
// only a catalogue and a registry that disagree can give.
var errNoDrawing = errors.New("This table's game cannot be shown here.")

// view is a state's view decoded by its game's kit, with the game's
// drawing; ok is false while the state has no view (seating).
func view(c *games.Catalogue, st hub.TableState) (v any, d Drawing, ok bool, err error) {
	if st.View == nil {
		return nil, Drawing{}, false, nil
	}
	kit, found := c.TableKit(st.Game)
	d, drawn := drawingOf(st.Game)
	if !found || !drawn {
		return nil, Drawing{}, true, errNoDrawing
	}
	v, err = kit.DecodeView(st.View)
	return v, d, true, err
}

// take builds the screen from the first state with a view, or (while the
// table is seating) hands the membership to the lobby.
func (p *Page) take(st hub.TableState) tea.Cmd {
	if st.Phase == hub.TableClosed {
		p.live.Closed() // the room ended the membership itself
	}
	v, d, ok, err := view(p.env.Games, st)
	if p.inner != nil {
		var msg tea.Msg
		if ok && err == nil {
			msg, err = p.drawing.State(common(st), v)
		}
		switch {
		case !ok && st.Phase == hub.TableSeating && st.Seat != engine.Spectator:
			// A rematch waits for someone: the lobby seats again.
			p.handed = true
			return p.env.Go(ui.Route{Page: ui.Lobby, Member: p.live, State: &st})
		case !ok && st.Phase == hub.TableClosed:
			return p.inner.Update(Refused{Table: p.code, Text: ui.TableNote(st)})
		case !ok:
			return nil
		case err != nil:
			return p.inner.Update(Refused{Table: p.code, Text: err.Error()})
		}
		return p.inner.Update(msg)
	}
	switch {
	case st.Phase == hub.TableClosed:
		p.note = ui.TableNote(st)
		return nil
	case !ok:
		// Seating (a join by code before the start): the lobby seats.
		p.handed = true
		return p.env.Go(ui.Route{Page: ui.Lobby, Member: p.live, State: &st})
	case err != nil:
		p.note = err.Error()
		return nil
	}
	kit, _ := p.env.Games.TableKit(st.Game)
	m := p.live.Member()
	entry, _ := p.env.Games.Entry(st.Game)
	// Leave waits for the room (a moment): the menu built next must not
	// still find the seat.
	cfg := Config[any]{Table: p.code, Game: entry, Leave: p.live.Leave}
	cfg.Phrases = ui.NewPhrasePicker(p.env, func(n int) {
		go func() {
			if err := m.Say(n); err != nil {
				p.env.Send(Refused{Table: p.code, Text: err.Error()})
			}
		}()
	}, ui.MuteLatest(m.Mute))
	answer := func(f func() error) func() {
		return func() {
			go func() {
				if err := f(); err != nil {
					p.env.Send(Refused{Table: p.code, Text: err.Error()})
				}
			}()
		}
	}
	if st.Seat != engine.Spectator {
		cfg.Act = p.act
	}
	if st.Seat != engine.Spectator || st.Host == st.You {
		// A watcher answers the rematch only as the host of a table of
		// computers (the room refuses any other watcher).
		cfg.Rematch, cfg.Decline = answer(m.Rematch), answer(m.Decline)
	}
	inner, err := d.New(p.env, cfg, common(st), v)
	if err != nil {
		p.note = err.Error()
		return nil
	}
	p.kit, p.drawing, p.inner = kit, d, inner
	if i, ok := p.inner.(ui.Initer); ok {
		return i.Init()
	}
	return nil
}

// act encodes the seat's action with the game's kit and hands it to the
// table off the screen's goroutine (Do waits for the room); a refusal
// comes back as the game's sentence.
func (p *Page) act(a any) {
	m, e, code := p.live.Member(), p.env, p.code
	b, err := p.kit.EncodeAction(a)
	if err != nil {
		e.Send(Refused{Table: code, Text: err.Error()})
		return
	}
	go func() {
		if err := m.Do(b); err != nil {
			e.Send(Refused{Table: code, Text: err.Error()})
		}
	}()
}

func (p *Page) Update(msg tea.Msg) tea.Cmd {
	if st, ok := p.live.State(msg); ok {
		if p.handed {
			return nil
		}
		return p.take(st)
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

func (p *Page) View() string {
	if p.inner == nil {
		if p.note != "" {
			return p.note + "\n\nq: the menu"
		}
		return "Joining table " + p.code + "…\n\nq: the menu"
	}
	return p.inner.View()
}

// ViewPieces is the game's screen's view in pieces, when it has them
// (ui.PiecedScreen).
func (p *Page) ViewPieces(dst []string) []string {
	if ps, ok := p.inner.(ui.PiecedScreen); ok {
		return ps.ViewPieces(dst)
	}
	return append(dst, p.View())
}

// NextChange is the table screen's: the router asks the page, and the
// turn clock turns only when someone asks.
func (p *Page) NextChange() time.Duration {
	if t, ok := p.inner.(ui.Ticking); ok {
		return t.NextChange()
	}
	return 0
}

func (p *Page) MinSize() (int, int) {
	if p.inner == nil {
		return 40, 4
	}
	return p.inner.MinSize()
}

func (p *Page) Init() tea.Cmd {
	if i, ok := p.inner.(ui.Initer); ok {
		return i.Init()
	}
	return nil
}

// Save is the session ending: the seat is held for the table's hold
// time, a computer standing in.
func (p *Page) Save() {
	if !p.handed {
		p.live.Drop()
	}
}

// Left: the page was replaced without leaving the table (an invitation
// taken): the seat is held as on a lost connection.
func (p *Page) Left() { p.Save() }

func (p *Page) Activity() hub.Activity {
	m := p.live.Member()
	a := hub.Activity{Doing: hub.AtTable, Game: m.Table().Game(), Room: p.code, Watchable: true}
	if m.Seat() == engine.Spectator {
		a.Doing = hub.Watching
	}
	return a
}

// The table screens draw in pieces kept between frames.
var (
	_ ui.PiecedScreen = (*Page)(nil)
	_ ui.PiecedScreen = (*KingsScreen)(nil)
	_ ui.PiecedScreen = (*SpiteScreen)(nil)
)
