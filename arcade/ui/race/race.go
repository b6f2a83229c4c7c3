// Package race is the race screen: a solitaire played in a room, with its
// lobby, countdown, the panel of every racer and the results. The racer's
// own game and a followed racer's board come from the Boards the builder
// of screens hands in (the solitaire screen, embedded); the room's
// membership is held as every live screen holds one (ui.Live).
package race

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/deals"
	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/format"
	"sshuffle/store"
)

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
	// started is when the race started, by the session's clock, for
	// what Boards.Keep is handed.
	started time.Time
	have    bool

	boards Boards
	game   Board // the racer's own game, once the race runs
	view   Board // the followed racer's board, rebuilt from their save
	viewOf []byte

	msg     string
	kind    ui.Tone
	confirm string
	prompt  *string // typing a name to invite
	ghosts  int     // ghost runs offered so far

	phrases *ui.PhrasePicker
	sayErr  error // the room's refusal of the phrase just chosen

	// rating is the deal's difficulty for the lobby, once rated; rateDone
	// closes when the lobby is left, and a rating not yet begun then is
	// no longer wanted.
	rating   deals.Difficulty
	rated    bool
	rateDone chan struct{}

	frame raceParts // what a frame keeps for the next
}

// othersRacing says whether a racer other than this one still plays: a
// person (ghosts replay a finished run) who has not finished.
func (s *raceScreen) othersRacing() bool {
	for _, x := range s.st.Racers {
		if x.ID != s.st.You && !x.Ghost && x.Status == hub.Playing {
			return true
		}
	}
	return false
}

// Open builds the screen of a Race route: the room of r.Code, or a new
// race on r.Spec (today's deal of r.Game when r.Daily; a new deal when the
// spec has no seed).
func Open(e *ui.Env, r ui.Route, boards Boards) (ui.Screen, error) {
	p, ok := e.Person()
	if !ok && r.Code != "" && e.IsGuest() {
		// A guest may watch a race by its code, and do nothing else.
		p, ok = e.Watcher()
		r.Watch = true
	}
	if !ok {
		return nil, errors.New("Races need an account with a name: connect with an SSH key (ssh-keygen -t ed25519).")
	}
	if e.Hub == nil {
		return nil, errors.New("Races are not available on this server.")
	}
	var race *hub.Race
	var err error
	if r.Code != "" {
		race, err = e.Hub.FindRace(p, r.Code)
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
			race, err = e.Hub.NewRace(hub.RaceConfig{Spec: spec, Ranked: ranked, Host: p})
		}
	}
	if err != nil {
		return nil, err
	}
	info, _, err := e.Games.Lookup(race.Spec())
	if err != nil || !info.Playable() {
		return nil, fmt.Errorf("This race is of %s, which cannot be played here.", race.Spec())
	}
	s := &raceScreen{env: e, info: info, boards: boards}
	role := hub.Racer
	if r.Watch {
		role = hub.Watcher
	}
	live, err := ui.Join(e, func(sink func(hub.RaceState)) (*hub.RaceMember, error) {
		m, err := race.Join(p, role, sink)
		if errors.Is(err, hub.ErrStarted) || errors.Is(err, hub.ErrFull) {
			s.setMsg(ui.ToneInfo, err.Error()+" You are watching.")
			m, err = race.Join(p, hub.Watcher, sink)
		}
		return m, err
	})
	if err != nil {
		return nil, err
	}
	s.live, s.m = live, live.Member()
	m := s.m
	// Say waits for the room, as Start and Report do: a refusal (too
	// soon) is the message of the key that chose the phrase.
	s.phrases = ui.NewPhrasePicker(e, func(n int) { s.sayErr = m.Say(n) }, ui.MuteLatest(m.Mute))
	return s, nil
}

// message is the message line: the open phrases, the screen's own
// sentence, or a phrase someone said; tone is how it reads.
func (s *raceScreen) message() (text string, tone ui.Tone) {
	switch {
	case s.phrases.Open():
		return s.phrases.Line(), ui.ToneInfo
	case s.msg != "":
		return s.msg, s.kind
	}
	return s.phrases.Said(s.st.Said), ui.ToneOK
}

// ratedMsg is the rating of a race's deal, found aside; it may reach the
// screen of the player's next race, which has another deal.
type ratedMsg struct {
	spec engine.Spec
	d    deals.Difficulty
	ok   bool
}

// Init rates the race's deal away from the screen, for the lobby: a deal
// from the pools was rated when the solver won it, and one rated already
// for another screen is kept; otherwise the search waits for a search
// slot, and is dropped if the race leaves its lobby first.
func (s *raceScreen) Init() tea.Cmd {
	pools, info, spec := s.env.Pools, s.info, s.m.Race().Spec()
	if pools == nil || info.Game.Solve == nil {
		return nil
	}
	if d, ok := pools.Rated(spec); ok {
		s.rating, s.rated = d, true
		return nil
	}
	s.rateDone = make(chan struct{})
	done := s.rateDone
	return func() tea.Msg {
		d, ok := pools.Difficulty(info, spec, done)
		return ratedMsg{spec: spec, d: d, ok: ok}
	}
}

// stopRating: the lobby is left, and its rating with it.
func (s *raceScreen) stopRating() {
	if s.rateDone != nil {
		close(s.rateDone)
		s.rateDone = nil
	}
}

func (s *raceScreen) setMsg(k ui.Tone, text string) { s.kind, s.msg = k, text }

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
func (s *raceScreen) Save() {
	s.stopRating()
	s.live.Drop()
}

// leave is the player choosing to go.
func (s *raceScreen) leave() tea.Cmd {
	s.stopRating()
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
	case ratedMsg:
		if msg.ok && msg.spec == s.m.Race().Spec() {
			s.rating, s.rated = msg.d, true
		}
		return nil
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
	was := s.st.Phase
	s.st, s.got, s.have = st, s.env.Now(), true
	if st.Phase != hub.Lobby && st.Phase != hub.Countdown {
		s.stopRating()
		s.frame.lobby = keptLines{} // never drawn again: a room does not go back
	}
	switch st.Phase {
	case hub.Closed:
		s.live.Closed()
		if st.Reason == hub.RaceGone {
			if cmd := s.goOnAlone(); cmd != nil {
				return cmd
			}
		}
		reason := st.Reason
		if reason == "" {
			reason = "The race room has closed."
		}
		s.setMsg(ui.ToneWarn, reason+" Press any key for the menu.")
	case hub.Running:
		if s.m.Role() == hub.Racer && s.game == nil {
			s.startGame()
		}
	case hub.Finished:
		if s.game != nil {
			s.game.Finish()
		}
		if was != hub.Finished && s.kind == ui.ToneInfo {
			s.msg = "" // "the others race on": they have finished too
		}
	}
	if st.Board == nil {
		s.view, s.viewOf = nil, nil
	} else if !bytes.Equal(st.Board, s.viewOf) {
		if v, err := s.boards.Watch(s.env, s.info, st.Board); err == nil {
			s.view, s.viewOf = v, st.Board
		}
	}
	return nil
}

// startGame deals the race's deal, or continues the player's game from the
// save the room kept when they dropped.
func (s *raceScreen) startGame() {
	var gs Board
	if kept := s.m.Resume(); kept != nil {
		if g, err := s.boards.Resume(s.env, s.info, kept); err == nil && g.Game().Spec() == s.st.Spec {
			gs = g
			s.setMsg(ui.ToneOK, "Back in the race: your game continues where it was.")
		}
	}
	if gs == nil {
		var err error
		gs, err = s.boards.Deal(s.env, s.info, s.st.Spec)
		if err != nil {
			s.setMsg(ui.ToneErr, err.Error())
			return
		}
		s.setMsg(ui.ToneOK, "Go!")
	}
	gs.OnMove(func() { s.report(hub.Playing) })
	s.game = gs
	s.started = s.got.Add(-s.st.Elapsed)
	s.report(hub.Playing)
}

// report tells the room where the player's game is; a won game reports
// itself as won.
func (s *raceScreen) report(status hub.Status) {
	g := s.game.Game()
	if g.Won() {
		status = hub.Won
	}
	data, err := s.game.Encode()
	if err != nil {
		s.env.Log.Error("race save", "error", err.Error())
		data = nil
	}
	err = s.m.Report(hub.Progress{Home: s.game.Home(), Total: s.game.Total(), Moves: g.Moves(), Score: g.Score(), Status: status, Save: data, Board: data})
	switch {
	case err == nil:
		if s.boards.Keep != nil && data != nil {
			s.boards.Keep(Kept{Code: s.st.Code, Spec: s.st.Spec, Key: s.info.Key(), Started: s.started,
				Account: s.st.You, Save: data, Moves: g.Moves(), Done: status != hub.Playing})
		}
	case errors.Is(err, hub.ErrDone), errors.Is(err, hub.ErrNotRunning):
	default:
		s.setMsg(ui.ToneErr, err.Error())
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
	if ok, note := s.phrases.Key(key); ok {
		s.confirm, s.msg = "", ""
		if note != "" {
			s.setMsg(ui.ToneInfo, note)
		}
		if s.sayErr != nil {
			s.setMsg(ui.ToneErr, s.sayErr.Error())
			s.sayErr = nil
		}
		return nil
	}
	if s.confirm != "" && key != s.confirm {
		s.confirm = ""
	}
	if s.racing() {
		switch key {
		case "q":
			if s.confirm != "q" {
				s.confirm = "q"
				s.setMsg(ui.ToneWarn, "Press q again to give up this race (you can watch the rest).")
				return nil
			}
			s.confirm = ""
			status := hub.GaveUp
			if !s.info.Game.StuckAside && s.game.Game().Stuck() {
				status = hub.Over // ended without a win: placed by cards home
			}
			s.report(status)
			if s.othersRacing() {
				s.setMsg(ui.ToneInfo, "You are out of this race; the others race on. q leaves.")
			} else {
				s.setMsg(ui.ToneInfo, "You are out of this race, and so it ends. q leaves.")
			}
			return nil
		case "n", "r", "#", "o":
			s.setMsg(ui.ToneWarn, "Not during a race: every racer plays this one deal. q gives up.")
			return nil
		case "t":
			s.setMsg(ui.ToneWarn, "No hints in a race.")
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
				s.setMsg(ui.ToneErr, err.Error())
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
			s.setMsg(ui.ToneInfo, "A ghost has no board to follow, only its pace.")
			return nil
		}
		id = x.ID
	}
	if err := s.m.Follow(id); err != nil {
		s.setMsg(ui.ToneErr, err.Error())
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
		if s.env.IsGuest() {
			s.setMsg(ui.ToneErr, hub.ErrGuest.Error())
		}
		return
	}
	if err := store.ValidName(name); err != nil {
		s.setMsg(ui.ToneErr, err.Error())
		return
	}
	acc, err := s.env.Store.AccountByName(s.env.Ctx(), store.NormalName(name))
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.setMsg(ui.ToneErr, fmt.Sprintf("Nobody here is called %s.", name))
		return
	case err != nil:
		s.setMsg(ui.ToneErr, "The players could not be looked up just now; try again.")
		return
	}
	if err := s.env.Live.Invite(hub.Person{ID: acc.ID, Name: acc.Name}, s.m.Race().Code()); err != nil {
		s.setMsg(ui.ToneErr, err.Error())
		return
	}
	s.setMsg(ui.ToneOK, fmt.Sprintf("Invited %s.", acc.Name))
}

// The race screen draws its clock through ui.Ticking.
var _ ui.Ticking = (*raceScreen)(nil)

// goOnAlone is the racer's game going on after the race's server stopped
// (a node of a cluster died): the race is over for everyone, but the game
// is the player's own, so it continues as an ordinary game of theirs,
// recorded as one when it ends. It is handed over as the player's saved
// game of that game, which the game screen continues from; a saved game
// already there is never overwritten, and the race screen then just says
// the race is over. nil: nothing to go on with.
func (s *raceScreen) goOnAlone() tea.Cmd {
	me, ok := s.me()
	if !ok || s.game == nil || me.Status != hub.Playing || s.game.Game().Moves() == 0 || s.env.IsGuest() {
		return nil
	}
	data, err := s.game.Encode()
	if err != nil {
		return nil
	}
	ctx, id, key := s.env.Ctx(), s.env.Player.ID, s.info.Key()
	if _, err := s.env.Store.GetSave(ctx, id, key); !errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err := s.env.Store.PutSave(ctx, id, key, data); err != nil {
		s.env.Log.Warn("keeping a race's game after its server stopped", "error", err.Error())
		return nil
	}
	s.game.Finish()
	return s.env.Go(ui.Route{Page: ui.Play, Game: s.info})
}
