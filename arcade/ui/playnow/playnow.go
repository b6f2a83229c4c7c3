//lint:file-ignore ST1005 these errors are the sentences players read, capitalised and punctuated as the house rules ask

// Package playnow is the "play now" screen: the player waits in the hub's
// play-now pool for a table game, seeing the time waited and how many wait
// with them, is offered a computer player once the wait is long, and goes
// to the table the pool opens as soon as it is dealt. esc leaves the pool;
// b allows or refuses bots at the table, kept with the account.
package playnow

import (
	"errors"
	"fmt"
	"sshuffle/engine/rating"
	"strconv"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
)

// poolMsg is a pool state on its way to the page that joined.
type poolMsg struct {
	page *Page
	gen  int
	st   hub.PoolState
}

// joinedMsg answers a join made off the screen's goroutine.
type joinedMsg struct {
	page *Page
	gen  int
	m    *hub.PoolMember
	err  error
}

// refusedMsg is a refusal of an answer to the offer.
type refusedMsg struct {
	page *Page
	text string
}

// Page is the play-now screen, with the player's place in the pool.
type Page struct {
	env     *ui.Env
	game    string
	title   string
	min     int
	max     int
	players int
	noBots  bool // the player refuses bots (ui.PlayNowBotsSetting)

	m       *hub.PoolMember // nil until the join is answered, and once left
	seat    *ui.TableHold   // the seat the pool makes, held before it is made
	st      hub.PoolState   // the newest pool state
	table   *hub.TableState // the newest state of the table the pool seated the player at
	pending bool            // a join is on its way
	gen     int             // the join the page shows: one for each join
	handed  bool            // the seat went to the table page
	msg     string
	err     bool

	// mu guards gone and joined: the memberships this page's joins made,
	// so that a join answered after the page has gone is left at once.
	mu     sync.Mutex
	gone   bool
	joined []*hub.PoolMember
}

// Open builds the page of r (Game, Players) and joins the pool.
func Open(e *ui.Env, r ui.Route) (ui.Screen, error) {
	if e.IsGuest() {
		return nil, hub.ErrGuest
	}
	if _, ok := e.Person(); !ok {
		return nil, errors.New("Play now needs a player name: connect with a key and pick one.")
	}
	if r.Game.Game == nil || e.Games == nil {
		return nil, errors.New("Play now is for the table games: Spite and Malice, Kings in the Corner.")
	}
	kit, ok := e.Games.TableKit(r.Game.Game.Name)
	if !ok {
		return nil, errors.New("Play now is for the table games: Spite and Malice, Kings in the Corner.")
	}
	info := kit.Info()
	pg := &Page{env: e, game: info.Name, title: info.Title, min: info.MinPlayers, max: info.MaxPlayers, players: r.Players}
	if pg.players == 0 {
		pg.players = info.MinPlayers
	}
	pg.noBots = ui.PlayNowNoBots(e)
	if pg.players < pg.min || pg.players > pg.max {
		return nil, fmt.Errorf("%s is for %d to %d players.", info.Title, info.MinPlayers, info.MaxPlayers)
	}
	pg.join()
	return pg, nil
}

// join asks the pool for a table of the page's size, off the screen's
// goroutine (the pool reads the player's rating as they join).
func (pg *Page) join() {
	pg.pending = true
	pg.gen++
	pg.st, pg.table = hub.PoolState{Game: pg.game, Players: pg.players}, nil
	e, p, gen := pg.env, pg.person(), pg.gen
	want := hub.PoolWant{Game: pg.game, Players: pg.players, NoBots: pg.noBots}
	seat, sink := ui.Pending[hub.TableState, *hub.TableMember](e)
	pg.seat = seat // before the join answers: the table's first states may come first
	go func() {
		m, err := e.Hub.PlayNow(p, want, func(st hub.PoolState) { e.Send(poolMsg{page: pg, gen: gen, st: st}) }, sink)
		pg.mu.Lock()
		gone := pg.gone
		if !gone && m != nil {
			pg.joined = append(pg.joined, m)
		}
		pg.mu.Unlock()
		if gone {
			if m != nil {
				dropSeat(m.Leave())
			}
			return
		}
		e.Send(joinedMsg{page: pg, gen: gen, m: m, err: err})
	}()
}

func (pg *Page) person() hub.Person {
	p, _ := pg.env.Person()
	return p
}

// dropSeat gives up a seat nobody will look at: as a lost connection
// does, so a computer plays it while the table holds it.
func dropSeat(tm *hub.TableMember) {
	if tm != nil {
		_ = tm.Drop()
	}
}

// MinSize: the page's lines fit 60 columns.
func (pg *Page) MinSize() (int, int) { return 60, 12 }

func (pg *Page) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case joinedMsg:
		if msg.page != pg || msg.gen != pg.gen {
			return nil
		}
		pg.pending = false
		if msg.err != nil {
			pg.msg, pg.err = msg.err.Error(), true
			return nil
		}
		pg.m = msg.m
		return pg.ready()
	case poolMsg:
		if msg.page != pg || msg.gen != pg.gen {
			return nil
		}
		pg.st = msg.st
		if pg.st.Phase == hub.PoolClosed {
			pg.msg, pg.err = pg.st.Reason, true
		}
		return pg.ready()
	case refusedMsg:
		if msg.page == pg {
			pg.msg, pg.err = msg.text, true
		}
		return nil
	case ui.LiveMsg[hub.TableState]:
		if pg.seat == nil || pg.handed {
			return nil
		}
		if st, ok := pg.seat.State(msg); ok {
			pg.table = &st
			return pg.ready()
		}
		return nil
	case tea.KeyPressMsg:
		return pg.key(msg.String())
	}
	return nil
}

// ready goes to the table once the pool has said where, and its game is
// dealt.
func (pg *Page) ready() tea.Cmd {
	if pg.handed || pg.m == nil || pg.st.Phase != hub.PoolSeated || pg.table == nil || pg.table.View == nil {
		return nil
	}
	pg.handed = true
	pg.seat.Take(pg.st.Table)
	return pg.env.Go(ui.Route{Page: ui.Table, Member: pg.seat, State: pg.table})
}

func (pg *Page) key(k string) tea.Cmd {
	switch k {
	case "esc", "q":
		pg.leave()
		return pg.env.Back()
	case "y":
		if pg.m == nil || pg.st.Phase != hub.PoolWaiting {
			return nil
		}
		// Asked even with no offer shown: the pool's refusal says when
		// one comes.
		pg.msg, pg.err = "Opening the table…", false
		pg.answer(true)
	case "n":
		if pg.m != nil && pg.st.Phase == hub.PoolWaiting && pg.st.Offer != nil {
			pg.msg, pg.err = "Waiting on for a person.", false
			pg.answer(false)
		}
	case "enter", "space":
		if pg.st.Phase == hub.PoolClosed || (pg.m == nil && !pg.pending) {
			pg.again(pg.players)
		}
	case "b":
		if pg.pending || pg.st.Phase == hub.PoolSeated {
			return nil
		}
		pg.noBots = !pg.noBots
		kept := ui.SetPlayNowNoBots(pg.env, pg.noBots)
		waiting := pg.m != nil
		if waiting {
			pg.again(pg.players) // the pool pairs by what was asked at joining
		}
		pg.msg, pg.err = "Bots may be seated with you.", false
		if pg.noBots {
			pg.msg = "No bots: you are seated with people and computer players only."
		}
		if !kept {
			pg.msg += " The setting could not be saved; it holds until you leave."
		}
	default:
		n, err := strconv.Atoi(k)
		if err == nil && pg.min != pg.max && n >= pg.min && n <= pg.max && n != pg.players {
			pg.again(n)
		}
	}
	return nil
}

// answer says yes or no to the offer, off the screen's goroutine: a yes
// opens the table.
func (pg *Page) answer(yes bool) {
	m, e := pg.m, pg.env
	go func() {
		var err error
		if yes {
			err = m.Accept()
		} else {
			err = m.KeepWaiting()
		}
		if err != nil {
			e.Send(refusedMsg{page: pg, text: err.Error()})
		}
	}()
}

// again leaves the pool and joins it anew, for a table of n.
func (pg *Page) again(n int) {
	if pg.pending {
		return
	}
	pg.leave()
	pg.players = n
	pg.msg, pg.err = "", false
	pg.join()
}

// leave takes the player out of the pool; a seat it made meanwhile is left
// too, since the player chose to go.
func (pg *Page) leave() {
	if m := pg.m; m != nil && !pg.handed {
		pg.m = nil
		if tm := m.Leave(); tm != nil {
			_ = tm.Leave()
		}
	}
}

// Save is the session ending: out of the pool, and a seat made meanwhile
// is dropped (held a while, as on any lost connection).
func (pg *Page) Save() {
	pg.mu.Lock()
	pg.gone = true
	joined := pg.joined
	pg.joined = nil
	pg.mu.Unlock()
	for _, m := range joined {
		if pg.handed && m == pg.m {
			continue // the table page has its seat
		}
		dropSeat(m.Leave())
	}
	pg.m = nil
}

// Left: the page was replaced (by the table, or the menu).
func (pg *Page) Left() { pg.Save() }

// Activity: friends see the player looking for a game while in the pool.
func (pg *Page) Activity() hub.Activity {
	return hub.Activity{Doing: hub.LookingForGame, Game: pg.game}
}

// RatingText is a rating as the screens show it: whole points, and a
// question mark while it is provisional.
func RatingText(r, deviation float64) string {
	return rating.Label(rating.Rating{Rating: r, Deviation: deviation})
}

// waited is a duration as a clock reads: 0:07, 1:23.
func waited(d time.Duration) string {
	s := int(d / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

func (pg *Page) View() string {
	w, h := max(pg.env.Width, 1), max(pg.env.Height, 1)
	st := pg.st
	size := ""
	if pg.min != pg.max {
		size = fmt.Sprintf(" for %d", pg.players)
	}
	lines := []string{ui.TitleStyle.Render("Play now") + "  " + ui.FaintStyle.Render(pg.title+size), ""}
	var body []string
	switch {
	case st.Phase == hub.PoolClosed:
		body = append(body, "You are out of the pool.")
	case pg.m == nil && pg.pending:
		body = append(body, "Joining the pool…")
	case pg.m == nil:
		body = append(body, "You are not in the pool.")
	case st.Phase == hub.PoolSeated:
		with := "a computer player"
		if len(st.With) > 0 {
			var names []string
			for _, p := range st.With {
				names = append(names, p.Name)
			}
			with = strings.Join(names, ", ")
		}
		body = append(body, "Found: table "+st.Code+" with "+with+". Dealing…")
	default:
		who := "a player"
		if pg.players > 2 {
			who = strconv.Itoa(pg.players-1) + " players"
		}
		body = append(body,
			fmt.Sprintf("Looking for %s rated near you: %s, within %d.", who, RatingText(st.Rating, st.Deviation), int(st.Window)),
			"",
			fmt.Sprintf("Waiting %s.", waited(st.Waited)),
			fmt.Sprintf("In the pool: %d for this table, %d in all.", st.Waiting, st.Pool))
		if pg.noBots {
			body = append(body, ui.FaintStyle.Render("No bots at your table (b allows them)."))
		} else {
			body = append(body, ui.FaintStyle.Render("Bots may sit at your table (b refuses them)."))
		}
		if o := st.Offer; o != nil {
			comp := "the computer player " + o.Strength
			if o.Rating > 0 {
				comp += fmt.Sprintf(" (rated %d)", int(o.Rating+0.5))
			}
			body = append(body, "")
			if o.Seats > 1 {
				body = append(body, ui.OkStyle.Render("Nobody near yet. Play now with "+comp+" in the empty seats?"))
				body = append(body, ui.FaintStyle.Render("Others waiting under an offer may take seats first."))
			} else {
				body = append(body, ui.OkStyle.Render("Nobody near yet. Play "+comp+" now?"))
			}
			body = append(body, "y plays it, n keeps waiting for a person.")
		}
	}
	for _, l := range body {
		if l == "" {
			lines = append(lines, "")
			continue
		}
		lines = append(lines, ui.FitLines(l, w, 2)...)
	}
	keys := []string{"esc", "leave"}
	switch {
	case st.Phase == hub.PoolWaiting && st.Offer != nil:
		keys = append([]string{"y", "play the computer", "n", "keep waiting"}, keys...)
	case st.Phase == hub.PoolClosed || (pg.m == nil && !pg.pending):
		keys = append([]string{"enter", "join again"}, keys...)
	}
	if pg.min != pg.max {
		var ns []string
		for n := pg.min; n <= pg.max; n++ {
			ns = append(ns, strconv.Itoa(n))
		}
		keys = append(keys, strings.Join(ns, " "), "players at the table")
	}
	var foot []string
	if pg.msg != "" {
		style := ui.FaintStyle
		if pg.err {
			style = ui.ErrStyle
		}
		msg := pg.msg
		if pg.err && !pg.env.Color {
			msg = "! " + msg
		}
		for _, l := range ui.FitLines(msg, w, 2) {
			foot = append(foot, style.Render(l))
		}
	}
	foot = append(foot, "")
	foot = append(foot, ui.HelpBars(w, keys...)...)
	for len(lines)+len(foot) < h {
		lines = append(lines, "")
	}
	lines = append(lines, foot...)
	if len(lines) > h {
		lines = lines[:h]
	}
	return strings.Join(lines, "\n")
}
