package solitaire

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"sshuffle/arcade/deals"
	"sshuffle/arcade/hub"
	"sshuffle/arcade/save"
	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/board"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/format"
	"sshuffle/store"
)

// A race is a solitaire played in a room: the race screen lives here, beside
// the game screen it plays on, because it is that screen with a room around
// it (lobby, countdown, the panel of every racer, results).

// panelWidth is the width of the panel beside the board; narrower windows
// fold it to one line under the board.
const panelWidth = 24

type raceScreen struct {
	env  *ui.Env
	info games.Entry
	live *ui.Live[hub.RaceState, *hub.RaceMember]
	m    *hub.RaceMember // live's member
	st   hub.RaceState
	got  time.Time // when st arrived, for the clock between states
	have bool

	game   *gameScreen // the racer's own game, once the race runs
	view   *gameScreen // the followed racer's board, rebuilt from their save
	viewOf []byte

	msg     string
	kind    msgKind
	confirm string
	prompt  *string // typing a name to invite
	ghosts  int     // ghost runs offered so far

	frame raceParts // what a frame keeps for the next
}

// OpenRace builds the screen of a Race route: the room of r.Code, or a new
// race on r.Spec (today's deal of r.Game when r.Daily; a new deal when the
// spec has no seed).
func OpenRace(e *ui.Env, r ui.Route) (ui.Screen, error) {
	p, ok := e.Person()
	if !ok {
		return nil, errors.New("Races need an account with a name: connect with an SSH key (ssh-keygen -t ed25519).")
	}
	if e.Hub == nil {
		return nil, errors.New("Races are not available on this server.")
	}
	var race *hub.Race
	var err error
	if r.Code != "" {
		race, err = e.Hub.Race(r.Code)
	} else {
		spec, ranked := r.Spec, false
		switch {
		case r.Daily:
			spec, _, err = deals.Today(e.Ctx(), e.Store, e.Pools, r.Game, e.Now())
			ranked = true
		case spec.Seed == 0:
			spec = deals.Fresh(e.Pools, r.Game, ui.LoadOptions(e, r.Game))
		}
		if err == nil {
			_, err = r.Game.Game.New(spec, ui.LoadOptions(e, r.Game)) // a deal number the game refuses says so here
		}
		if err == nil {
			race, err = e.Hub.NewRace(hub.RaceConfig{Spec: spec, Ranked: ranked})
		}
	}
	if err != nil {
		return nil, err
	}
	info, _, err := e.Games.Lookup(race.Spec())
	if err != nil || !info.Playable() {
		return nil, fmt.Errorf("This race is of %s, which cannot be played here.", race.Spec())
	}
	s := &raceScreen{env: e, info: info}
	role := hub.Racer
	if r.Watch {
		role = hub.Watcher
	}
	live, err := ui.Join(e, func(sink func(hub.RaceState)) (*hub.RaceMember, error) {
		m, err := race.Join(p, role, sink)
		if errors.Is(err, hub.ErrStarted) || errors.Is(err, hub.ErrFull) {
			s.setMsg(msgInfo, err.Error()+" You are watching.")
			m, err = race.Join(p, hub.Watcher, sink)
		}
		return m, err
	})
	if err != nil {
		return nil, err
	}
	s.live, s.m = live, live.Member()
	return s, nil
}

type ratedMsg struct{}

// Init rates the race's deal away from the screen, for the lobby.
func (s *raceScreen) Init() tea.Cmd {
	pools, info, spec := s.env.Pools, s.info, s.m.Race().Spec()
	if pools == nil || info.Game.Solve == nil {
		return nil
	}
	if _, ok := pools.Rated(spec); ok {
		return nil
	}
	return func() tea.Msg {
		pools.Difficulty(info, spec)
		return ratedMsg{}
	}
}

func (s *raceScreen) setMsg(k msgKind, text string) { s.kind, s.msg = k, text }

func (s *raceScreen) MinSize() (int, int) {
	if s.game != nil {
		return s.game.MinSize()
	}
	return 60, 16
}

// Activity: racing or watching this room, which friends may watch.
func (s *raceScreen) Activity() hub.Activity {
	a := hub.Activity{Doing: hub.Racing, Game: s.info.Key(), Room: s.m.Race().Code(), Watchable: true}
	if s.m.Role() == hub.Watcher {
		a.Doing = hub.Watching
	}
	return a
}

// Save is the session ending under the screen: a racer drops, and may come
// back while the race runs.
func (s *raceScreen) Save() { s.live.Drop() }

// leave is the player choosing to go.
func (s *raceScreen) leave() tea.Cmd {
	s.live.Leave()
	return s.env.Go(ui.Route{Page: ui.Menu})
}

// NextChange: the race clock turns by itself while the race runs; the
// session draws it then, with no message (arcade/render).
func (s *raceScreen) NextChange() time.Duration {
	if s.live.Done() || s.st.Phase != hub.Running {
		return 0
	}
	return format.UntilChange(s.clock())
}

// me is the player's own line of the standings, if they race.
func (s *raceScreen) me() (hub.Standing, bool) {
	for _, x := range s.st.Racers {
		if !x.Ghost && x.ID == s.st.You {
			return x, true
		}
	}
	return hub.Standing{}, false
}

// racing: the player's own game is live and takes the keys.
func (s *raceScreen) racing() bool {
	me, ok := s.me()
	return ok && s.game != nil && s.st.Phase == hub.Running && me.Status == hub.Playing
}

func (s *raceScreen) Update(msg tea.Msg) tea.Cmd {
	if st, ok := s.live.State(msg); ok {
		return s.take(st)
	}
	switch msg := msg.(type) {
	case ui.LiveMsg[hub.RaceState]:
		return nil // another screen's room
	case tea.KeyPressMsg:
		return s.key(msg)
	case tea.MouseClickMsg, tea.MouseReleaseMsg:
		if s.racing() {
			return s.game.Update(msg)
		}
	default:
		if s.game != nil {
			return s.game.Update(msg) // hints found aside, stuck checks
		}
	}
	return nil
}

// take is a new state of the room.
func (s *raceScreen) take(st hub.RaceState) tea.Cmd {
	if s.have && st.Version <= s.st.Version {
		return nil // an older state overtaken by a newer one
	}
	s.st, s.got, s.have = st, s.env.Now(), true
	switch st.Phase {
	case hub.Closed:
		s.live.Closed()
		reason := st.Reason
		if reason == "" {
			reason = "The race room has closed."
		}
		s.setMsg(msgWarn, reason+" Press any key for the menu.")
	case hub.Running:
		if s.m.Role() == hub.Racer && s.game == nil {
			s.startGame()
		}
	case hub.Finished:
		if s.game != nil {
			s.game.done = true
		}
	}
	if st.Board == nil {
		s.view, s.viewOf = nil, nil
	} else if !bytes.Equal(st.Board, s.viewOf) {
		if g, sv, err := save.Decode(st.Board, s.info.Game.New); err == nil {
			s.view = newGameScreen(s.env, s.info, g, sv.Options)
			s.view.cursor = board.Hit{} // watched, not played: no cursor
			s.viewOf = st.Board
		}
	}
	return nil
}

// startGame deals the race's deal, or continues the player's game from the
// save the room kept when they dropped.
func (s *raceScreen) startGame() {
	var gs *gameScreen
	if kept := s.m.Resume(); kept != nil {
		if g, sv, err := save.Decode(kept, s.info.Game.New); err == nil && g.Spec() == s.st.Spec {
			gs = newGameScreen(s.env, s.info, g, sv.Options)
			gs.prior, gs.hints = sv.Elapsed, sv.Hints
			s.setMsg(msgOK, "Back in the race: your game continues where it was.")
		}
	}
	if gs == nil {
		var err error
		gs, err = dealSpec(s.env, s.info, s.st.Spec)
		if err != nil {
			s.setMsg(msgErr, err.Error())
			return
		}
		s.setMsg(msgOK, "Go!")
	}
	gs.moved = func() { s.report(hub.Playing) }
	s.game = gs
	s.report(hub.Playing)
}

// report tells the room where the player's game is; a won game reports
// itself as won.
func (s *raceScreen) report(status hub.Status) {
	g := s.game.g
	if g.Won() {
		status = hub.Won
	}
	data, err := save.Encode(g, s.game.opts, s.game.elapsed(), s.game.hints)
	if err != nil {
		s.env.Log.Error("race save", "error", err.Error())
		data = nil
	}
	err = s.m.Report(hub.Progress{Home: homeOf(s.game.piles()), Total: s.game.total, Moves: g.Moves(), Score: g.Score(), Status: status, Save: data, Board: data})
	switch {
	case err == nil:
	case errors.Is(err, hub.ErrDone), errors.Is(err, hub.ErrNotRunning):
	default:
		s.setMsg(msgErr, err.Error())
	}
}

func (s *raceScreen) key(k tea.KeyPressMsg) tea.Cmd {
	key := k.String()
	if s.live.Done() {
		return s.env.Go(ui.Route{Page: ui.Menu})
	}
	if s.prompt != nil {
		return s.promptKey(k)
	}
	if s.confirm != "" && key != s.confirm {
		s.confirm = ""
	}
	if s.racing() {
		switch key {
		case "q":
			if s.confirm != "q" {
				s.confirm = "q"
				s.setMsg(msgWarn, "Press q again to give up this race (you can watch the rest).")
				return nil
			}
			s.confirm = ""
			status := hub.GaveUp
			if !s.info.Game.StuckAside && s.game.g.Stuck() {
				status = hub.Over // ended without a win: placed by cards home
			}
			s.report(status)
			s.setMsg(msgInfo, "You are out of this race; the others race on. q leaves.")
			return nil
		case "n", "r", "#", "o":
			s.setMsg(msgWarn, "Not during a race: every racer plays this one deal. q gives up.")
			return nil
		case "t":
			s.setMsg(msgWarn, "No hints in a race.")
			return nil
		}
		s.msg = ""
		return s.game.Update(k)
	}
	s.msg = ""
	switch s.st.Phase {
	case hub.Lobby:
		switch key {
		case "s", "enter":
			if err := s.m.Start(); err != nil {
				s.setMsg(msgErr, err.Error())
			}
			return nil
		case "g":
			s.addGhost()
			return nil
		case "i":
			empty := ""
			s.prompt = &empty
			return nil
		}
	}
	switch key {
	case "q", "esc":
		return s.leave() // a racer still playing gave up first (racing, above)
	case "enter":
		if s.st.Phase == hub.Finished {
			return s.leave()
		}
	default:
		if t := k.Text; len(t) == 1 && t[0] >= '0' && t[0] <= '8' && s.st.Phase >= hub.Running {
			return s.follow(int(t[0] - '0'))
		}
	}
	return nil
}

// follow shows racer n's board (1 the first of the standings); 0 stops.
func (s *raceScreen) follow(n int) tea.Cmd {
	id := ""
	if n > 0 {
		if n > len(s.st.Racers) {
			return nil
		}
		x := s.st.Racers[n-1]
		if x.Ghost {
			s.setMsg(msgInfo, "A ghost has no board to follow, only its pace.")
			return nil
		}
		id = x.ID
	}
	if err := s.m.Follow(id); err != nil {
		s.setMsg(msgErr, err.Error())
	}
	return nil
}

// promptKey edits the name of a friend to invite.
func (s *raceScreen) promptKey(k tea.KeyPressMsg) tea.Cmd {
	if name, done := ui.EditLine(&s.prompt, k, ui.NameKey); done {
		s.invite(name)
	}
	return nil
}

func (s *raceScreen) invite(name string) {
	if s.env.Live == nil {
		return
	}
	if err := store.ValidName(name); err != nil {
		s.setMsg(msgErr, err.Error())
		return
	}
	acc, err := s.env.Store.AccountByName(s.env.Ctx(), store.NormalName(name))
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.setMsg(msgErr, fmt.Sprintf("Nobody here is called %s.", name))
		return
	case err != nil:
		s.setMsg(msgErr, "The players could not be looked up just now; try again.")
		return
	}
	if err := s.env.Live.Invite(hub.Person{ID: acc.ID, Name: acc.Name}, s.m.Race().Code()); err != nil {
		s.setMsg(msgErr, err.Error())
		return
	}
	s.setMsg(msgOK, fmt.Sprintf("Invited %s.", acc.Name))
}

// addGhost puts the next stored run of this deal in the race: the best
// of the players the host follows, then the day's best.
func (s *raceScreen) addGhost() {
	runs, err := GhostRuns(s.env, s.st.Spec)
	if err != nil {
		s.setMsg(msgErr, "Stored runs could not be read just now.")
		return
	}
	if s.ghosts >= len(runs) {
		s.setMsg(msgInfo, "No stored run of this deal to race: ghosts come from your friends' games and the day's best.")
		return
	}
	run := runs[s.ghosts]
	if err := s.m.AddGhost(run); err != nil {
		s.setMsg(msgErr, err.Error())
		return
	}
	s.ghosts++
	s.setMsg(msgOK, fmt.Sprintf("Added the ghost of %s's run.", run.Name))
}

// GhostRuns are the stored runs of spec a race can replay, best first: the
// runs of the players e's player follows, then the day's board. Only
// results that kept their timeline qualify.
func GhostRuns(e *ui.Env, spec engine.Spec) ([]hub.Run, error) {
	var found []store.Result
	seen := map[string]bool{}
	add := func(r store.Result) {
		if r.Spec != spec.String() || len(r.Timeline) == 0 || r.Total <= 0 || seen[r.Account] || r.Account == e.Player.ID {
			return
		}
		seen[r.Account] = true
		found = append(found, r)
	}
	ids, err := e.Store.Following(e.Ctx(), e.Player.ID)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		rs, err := e.Store.Results(e.Ctx(), id, 200)
		if err != nil {
			return nil, err
		}
		var best *store.Result
		for i, r := range rs {
			if r.Spec == spec.String() && len(r.Timeline) > 0 && (best == nil || better(r, *best)) {
				best = &rs[i]
			}
		}
		if best != nil {
			add(*best)
		}
	}
	friends := len(found)
	if day := store.Day(e.Now()); true {
		rows, err := e.Store.Board(e.Ctx(), spec.Key(), day, 20)
		if err == nil {
			for _, r := range rows {
				add(r)
			}
		}
	}
	slices.SortStableFunc(found[:friends], func(a, b store.Result) int {
		if better(a, b) {
			return -1
		}
		if better(b, a) {
			return 1
		}
		return 0
	})
	var runs []hub.Run
	for _, r := range found {
		if run, ok := runOf(r, spec); ok {
			runs = append(runs, run)
		}
	}
	return runs, nil
}

func better(a, b store.Result) bool {
	if a.Won != b.Won {
		return a.Won
	}
	return a.Elapsed < b.Elapsed
}

// runOf turns a stored result into a run the hub can replay. The name is
// the one the store recorded for the account: a validated name.
func runOf(r store.Result, spec engine.Spec) (hub.Run, bool) {
	run := hub.Run{Person: hub.Person{ID: r.Account, Name: r.Name}, Spec: spec, Total: r.Total}
	for _, st := range r.Timeline {
		run.Steps = append(run.Steps, hub.Step{At: st.At, Home: min(st.Home, r.Total), Moves: st.Moves, Status: hub.Playing})
	}
	if len(run.Steps) == 0 || len(run.Steps) > 4096 {
		return run, false
	}
	last := &run.Steps[len(run.Steps)-1]
	switch {
	case r.Won && last.Home == r.Total:
		last.Status = hub.Won
	default:
		last.Status = hub.Over
	}
	for i := 1; i < len(run.Steps); i++ {
		if run.Steps[i].At < run.Steps[i-1].At {
			return run, false
		}
	}
	return run, true
}

// clock is the race time now, between the room's states.
func (s *raceScreen) clock() time.Duration {
	if s.st.Phase == hub.Running {
		return s.st.Elapsed + s.env.Now().Sub(s.got)
	}
	return s.st.Elapsed
}

// standing is one racer's progress in a few words.
func standing(x hub.Standing) string {
	switch {
	case x.Status == hub.Won:
		return fmt.Sprintf("won %s %s", ordinal(x.Place), format.Duration(x.Time))
	case x.Place > 0:
		return fmt.Sprintf("%d/%d %s", x.Home, x.Total, ordinal(x.Place))
	case x.Status == hub.GaveUp:
		return "out (gave up)"
	case x.Status == hub.Dropped:
		return "out (dropped)"
	case x.Status == hub.Over:
		return fmt.Sprintf("%d/%d ended", x.Home, x.Total)
	case x.Status == hub.Ready:
		return "ready"
	}
	if x.Total == 0 {
		return "starting"
	}
	return fmt.Sprintf("%d/%d %dm", x.Home, x.Total, x.Moves)
}

func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}

// who is a racer's name with what marks them.
func (s *raceScreen) who(x hub.Standing) string {
	n := x.Name
	switch {
	case x.Ghost:
		n += " (ghost)"
	case x.ID == s.st.You:
		n += " (you)"
	}
	return n
}

// panel is the racers beside the board: two lines each.
func (s *raceScreen) panel() []string {
	lines := []string{ui.TitleStyle.Render("Race "+s.st.Code) + " " + format.Duration(s.clock())}
	for i, x := range s.st.Racers {
		name := fmt.Sprintf("%d %s", i+1, s.who(x))
		lines = append(lines, cut(name, panelWidth-1), "  "+cut(standing(x), panelWidth-3))
	}
	if n := len(s.st.Watchers); n > 0 {
		lines = append(lines, ui.FaintStyle.Render(fmt.Sprintf("%d watching", n)))
	}
	return lines
}

// folded is the panel in one line, for a window too narrow for it.
func (s *raceScreen) folded(width int) string {
	line := "Race " + format.Duration(s.clock()) + s.foldedTail()
	if lipgloss.Width(line) > width {
		r := []rune(line)
		for len(r) > 0 && lipgloss.Width(string(r))+1 > width {
			r = r[:len(r)-1]
		}
		line = string(r) + "…"
	}
	return line
}

// foldedTail is the folded panel after its clock: " · " and each racer.
func (s *raceScreen) foldedTail() string {
	var b strings.Builder
	for _, x := range s.st.Racers {
		name := x.Name
		if x.ID == s.st.You && !x.Ghost {
			name = "you"
		}
		b.WriteString(" · ")
		b.WriteString(name)
		b.WriteByte(' ')
		b.WriteString(standing(x))
	}
	return b.String()
}

func cut(s string, w int) string {
	r := []rune(s)
	if len(r) <= w {
		return s
	}
	return string(r[:w-1]) + "…"
}

func (s *raceScreen) View() string { return strings.Join(s.ViewPieces(nil), "") }

// ViewPieces is the view in pieces, one a line (ui.PiecedScreen): while
// racing, a clock turn makes the lines that show the clock, and the others
// are the strings of the frame before.
func (s *raceScreen) ViewPieces(dst []string) []string {
	e := s.env
	if !s.have {
		return append(dst, ui.TitleStyle.Render("Race")+"\n\nJoining the race…")
	}
	switch {
	case s.st.Phase == hub.Lobby, s.st.Phase == hub.Countdown:
		return append(dst, s.lobbyView())
	case s.st.Phase == hub.Closed && s.game == nil:
		return append(dst, s.resultsView())
	case s.st.Phase == hub.Finished:
		return append(dst, s.resultsView())
	}
	g := s.game
	if s.view != nil && (g == nil || !s.racing()) {
		g = s.view // a watcher, or a racer who is out, following someone
	}
	if g == nil {
		return append(dst, s.resultsView())
	}
	g.piles()
	bw := g.size[0]
	side := e.Width-bw >= panelWidth+2
	g.reserve = 0
	if side {
		g.reserve = panelWidth + 1
	}
	return s.frame.draw(dst, s, g, g.restLines(), side)
}

// raceParts is what a race frame keeps for the next: the lines of the
// board's screen as last split, and the parts of the frame that change
// with the room's state, a message or the width, not with the clock. A
// clock tick writes the clock into the kept parts, in one string.
type raceParts struct {
	rest   []string // the board screen's lines under its header (gameScreen.restLines)
	lines  []string // the same without their "\n"
	widths []int    // their widths, -1 until asked for

	title string // the game's title, styled

	stateOK   bool
	version   uint64   // the room's state the panel and fold were made for
	panelHead string   // "Race CODE", styled
	panel     []string // the panel's lines under its head
	foldTail  string   // the folded panel after "Race 0:00"
	foldTailW int

	watching, watchHead string // the header when following someone

	msgOK    bool
	msgText  string
	msgKind  msgKind
	msgWidth int
	msgLine  string

	barsOK      bool
	barsOf      *gameScreen
	barsVersion uint64
	barsWidth   int
	raceBar     string // the race's keys (the board's second bar)
	raceBottom  string // the bottom bar while racing
	followBar   string // the bottom bar while not

	clock []byte       // scratch
	buf   bytes.Buffer // the frame, as drawn
	out   []string     // the frame in lines, each kept while it is the same
}

// draw is View's frame for a running race, drawn as the lines of g's own
// frame with the race's header, panel, message and bars over them, and
// appended to dst in pieces.
func (f *raceParts) draw(dst []string, s *raceScreen, g *gameScreen, rest []string, side bool) []string {
	e := s.env
	if len(f.rest) != len(rest) {
		f.rest, f.lines, f.widths = f.rest[:0], f.lines[:0], f.widths[:0]
		for range rest {
			f.rest, f.lines, f.widths = append(f.rest, ""), append(f.lines, ""), append(f.widths, -1)
		}
	}
	for i, l := range rest {
		// The board keeps a line's string while it is the same: its
		// width is kept with it.
		if unsafe.StringData(l) != unsafe.StringData(f.rest[i]) || len(l) != len(f.rest[i]) {
			f.rest[i], f.lines[i], f.widths[i] = l, strings.TrimPrefix(l, "\n"), -1
		}
	}
	if f.title == "" {
		f.title = ui.TitleStyle.Render(s.info.Title())
	}
	if !f.stateOK || f.version != s.st.Version {
		p := s.panel()
		f.panelHead = ui.TitleStyle.Render("Race " + s.st.Code)
		f.panel = p[1:]
		f.foldTail = s.foldedTail()
		f.foldTailW = lipgloss.Width(f.foldTail)
		f.stateOK, f.version = true, s.st.Version
	}
	racing := s.racing()
	if !f.barsOK || f.barsOf != g || f.barsVersion != g.version || f.barsWidth != e.Width {
		bar, more := g.keyBars(false)
		f.raceBar = ui.HelpBar(e.Width, raceKeys(more)...)
		f.raceBottom = ui.HelpBar(e.Width, append(raceKeys(bar), "q", "give up")...)
		f.followBar = ui.HelpBar(e.Width, "1-8", "follow a racer", "0", "stop following", "q", "leave")
		f.barsOK, f.barsOf, f.barsVersion, f.barsWidth = true, g, g.version, e.Width
	}
	if s.msg != "" && (!f.msgOK || f.msgText != s.msg || f.msgKind != s.kind || f.msgWidth != e.Width) {
		f.msgLine = s.styled(ui.FitLines(s.msg, e.Width, 1)[0])
		f.msgOK, f.msgText, f.msgKind, f.msgWidth = true, s.msg, s.kind, e.Width
	}
	f.clock = format.AppendDuration(f.clock[:0], s.clock())
	n := 1 + len(f.lines)
	b := &f.buf
	b.Reset()
	left := e.Width - panelWidth
	for j := range n {
		if j > 0 {
			b.WriteByte('\n')
		}
		switch {
		case j == n-1:
			if !racing {
				b.WriteString(f.followBar)
			} else {
				b.WriteString(f.raceBottom)
			}
		case j == n-2:
			switch {
			case !side:
				f.writeFolded(b, s, e.Width)
			case racing:
				b.WriteString(f.raceBar)
			}
		case j == n-3 && s.msg != "":
			b.WriteString(f.msgLine)
		case j == 0:
			f.writeHead(b, s, g)
		case side && j-1 < 1+len(f.panel) && j < n-3:
			l := f.lines[j-1]
			if f.widths[j-1] < 0 {
				f.widths[j-1] = lipgloss.Width(l)
			}
			b.WriteString(l)
			pad := left - f.widths[j-1]
			if pad < 0 {
				continue
			}
			writeSpaces(b, pad)
			if j == 1 {
				b.WriteString(f.panelHead)
				b.WriteByte(' ')
				b.Write(f.clock)
			} else {
				b.WriteString(f.panel[j-2])
			}
		default:
			b.WriteString(f.lines[j-1])
		}
	}
	f.out = keepLines(f.out, b.Bytes())
	return append(dst, f.out...)
}

// writeHead writes the header: the race, not the solo game's line.
func (f *raceParts) writeHead(b *bytes.Buffer, s *raceScreen, g *gameScreen) {
	b.WriteString(f.title)
	b.WriteString("  ")
	if g == s.view {
		if name := s.followedName(); f.watchHead == "" || f.watching != name {
			f.watching, f.watchHead = name, ui.WarnStyle.Render("watching "+name)
		}
		b.WriteString(f.watchHead)
		return
	}
	b.WriteString("Race ")
	b.WriteString(s.st.Code)
	b.WriteString("  Moves ")
	var num [20]byte
	b.Write(strconv.AppendInt(num[:0], int64(g.g.Moves()), 10))
	b.WriteString("  Time ")
	b.Write(f.clock)
}

// writeFolded writes folded(width) from the kept parts, when it fits.
func (f *raceParts) writeFolded(b *bytes.Buffer, s *raceScreen, width int) {
	if len("Race ")+len(f.clock)+f.foldTailW > width {
		b.WriteString(s.folded(width)) // cut to the width: rare, made afresh
		return
	}
	b.WriteString("Race ")
	b.Write(f.clock)
	b.WriteString(f.foldTail)
}

// raceKeys drops from a game's key pairs those a race does not take: a
// new deal, a restart, a deal number, hints, options, rules, help, menu.
func raceKeys(pairs []string) []string {
	var out []string
	for i := 0; i+1 < len(pairs); i += 2 {
		switch pairs[i] {
		case "n", "r", "#", "t", "o", "i", "?", "q":
			continue
		}
		out = append(out, pairs[i], pairs[i+1])
	}
	return out
}

func (s *raceScreen) followedName() string {
	for _, x := range s.st.Racers {
		if x.ID == s.st.Following && !x.Ghost {
			return x.Name
		}
	}
	return "a racer"
}

func (s *raceScreen) styled(text string) string {
	switch s.kind {
	case msgErr:
		return ui.ErrStyle.Render(text)
	case msgWarn:
		return ui.WarnStyle.Render(text)
	case msgOK:
		return ui.OkStyle.Render(text)
	}
	return ui.FaintStyle.Render(text)
}

func (s *raceScreen) lobbyView() string {
	e := s.env
	var b strings.Builder
	what := "deal #" + fmt.Sprint(s.st.Spec.Seed)
	if s.st.Ranked {
		what = "today's deal, ranked"
	}
	b.WriteString(ui.TitleStyle.Render("Race "+s.st.Code) + "  " + s.info.Title() + " · " + what + "\n")
	if d, ok := e.Pools.Rated(s.st.Spec); ok {
		b.WriteString(ui.FaintStyle.Render("Difficulty: "+d.Text()) + "\n")
	} else {
		b.WriteString("\n")
	}
	b.WriteString("Invite: " + ui.KeyStyle.Render(e.InviteLine(s.st.Code)) + "\n\n")
	if s.st.Phase == hub.Countdown {
		b.WriteString(ui.WarnStyle.Render(fmt.Sprintf("Starting in %d…", s.st.Count)) + "\n\n")
	} else {
		b.WriteString(fmt.Sprintf("Racers (%d/%d):\n", len(s.st.Racers), hub.MaxRacers))
	}
	for _, x := range s.st.Racers {
		line := "  " + s.who(x)
		if x.Host {
			line += ui.FaintStyle.Render("  host")
		}
		if !x.Here {
			line += ui.FaintStyle.Render("  (away)")
		}
		b.WriteString(line + "\n")
	}
	if len(s.st.Watchers) > 0 {
		var names []string
		for _, w := range s.st.Watchers {
			names = append(names, w.Name)
		}
		b.WriteString(ui.FaintStyle.Render("Watching: "+strings.Join(names, ", ")) + "\n")
	}
	b.WriteString("\n")
	switch {
	case s.prompt != nil:
		b.WriteString("Invite whom (a name; enter sends, esc cancels): " + *s.prompt + "_\n")
	case s.msg != "":
		b.WriteString(s.styled(s.msg) + "\n")
	case s.st.Host == s.st.You && s.st.Phase == hub.Lobby && s.st.Ranked:
		b.WriteString(ui.FaintStyle.Render("You are the host: start when everyone is in. A first try at today's deal counts as the daily one.") + "\n")
	case s.st.Host == s.st.You && s.st.Phase == hub.Lobby:
		b.WriteString(ui.FaintStyle.Render("You are the host: start when everyone is in.") + "\n")
	case s.st.Phase == hub.Lobby:
		b.WriteString(ui.FaintStyle.Render("Waiting for the host to start.") + "\n")
	default:
		b.WriteString("\n")
	}
	if s.st.Host == s.st.You && s.st.Phase == hub.Lobby {
		b.WriteString(ui.HelpBar(e.Width, "s", "start", "g", "add a ghost", "i", "invite a friend", "q", "leave"))
	} else {
		b.WriteString(ui.HelpBar(e.Width, "i", "invite a friend", "q", "leave"))
	}
	return b.String()
}

func (s *raceScreen) resultsView() string {
	e := s.env
	var b strings.Builder
	title := "Race " + s.st.Code + " results"
	if s.st.Phase != hub.Finished {
		title = "Race " + s.st.Code
	}
	b.WriteString(ui.TitleStyle.Render(title) + "  " + s.info.Title() + " · deal #" + fmt.Sprint(s.st.Spec.Seed) + "\n\n")
	for i, x := range s.st.Racers {
		place := "  -  "
		if x.Place > 0 {
			place = fmt.Sprintf("%4s ", ordinal(x.Place))
		}
		status := x.Status.String()
		if x.Status.Out() {
			status = "out"
		}
		fmt.Fprintf(&b, "%d %s %-22s %-8s %6s %4d moves %3d/%d\n", i+1, place, cut(s.who(x), 22), status, format.Duration(x.Time), x.Moves, x.Home, x.Total)
	}
	b.WriteString("\n")
	if s.msg != "" {
		b.WriteString(s.styled(s.msg) + "\n")
	} else if s.st.Phase == hub.Finished {
		b.WriteString(ui.FaintStyle.Render("Kept on your profile.") + "\n")
	}
	b.WriteString(ui.HelpBar(e.Width, "1-8", "follow a racer", "q", "menu"))
	return b.String()
}
