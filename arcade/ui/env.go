// Package ui is what the screens of a session share: the router that holds
// the current screen and builds the next one from a route, the session's
// environment, styles, the help bar and text helpers. Screen packages
// (arcade/ui/menu, arcade/ui/solitaire, ...) import this one and never one
// another: a screen asks for another with a route message (Go, Push, Back).
package ui

import (
	"context"
	"log/slog"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/deals"
	"sshuffle/arcade/hub"
	"sshuffle/arcade/throttle"
	"sshuffle/games"
	"sshuffle/store"
)

// Player is who is on the other end of a session.
type Player struct {
	ID    string // key fingerprint; empty for a guest
	Name  string
	Guest bool
	Bot   bool   // the account is a bot's (it may still open a screen)
	Addr  string // where the session connects from, for the hub's limits per address
}

// Env is what every screen of one session shares.
type Env struct {
	// Context is the session's: store calls made for the session end
	// with it. Nil (model tests) means context.Background().
	Context context.Context
	Games   *games.Catalogue
	Store   store.Store
	Pools   *deals.Pools
	Log     *slog.Logger
	Now     func() time.Time
	Player  *Player
	Unicode bool
	Color   bool // false: the client has no colour, so shapes must carry meaning
	Width   int
	Height  int
	Idle    time.Duration
	// Searches is the server's cap on background searches; nil: none.
	Searches Searcher
	// Holds is the server's record of which session holds each game in
	// progress; nil: none (each session on its own).
	Holds *Holds
	// GameFinished counts a finished game for the server's metrics; nil
	// in model tests.
	GameFinished func(key string, won bool)
	// Done is closed when the session ends; nil: never.
	Done chan struct{}
	// Hub is the server's live core; Live is this session's presence in
	// it (nil for a guest, who has no account to be seen by).
	Hub  *hub.Hub
	Live *hub.Session
	link *sendLink // the way into the session's program
	// InviteHost and InvitePort are where players reach this server, for
	// invite lines ("ssh -t -p PORT HOST join CODE").
	InviteHost string
	InvitePort int
	// Names throttles the session's lookups of names that find nobody,
	// with every other session's; nil: none.
	Names   *throttle.Names
	bgState *Background
	next    *Route // asked for by the screen being updated
	// phrasesOff: quick phrases muted, for a guest who keeps no settings
	// (and as the session's copy for everyone).
	phrasesOff bool
	// guest is the hub's guest for a guest's session, once made (guest.go).
	guest hub.Person
}

// InvitationsSetting is the stored setting that turns invitations off
// ("off"); anything else, or none, is on.
const InvitationsSetting = "invitations"

// sendLink is the session's way into its program, set once.
type sendLink struct {
	once  sync.Once
	ready chan struct{}
	f     func(tea.Msg)
}

// Prepare readies the env for Send from other goroutines before the
// program exists; the server calls it when it builds the env, and SetSend
// once the program is built.
func (e *Env) Prepare() { e.link = &sendLink{ready: make(chan struct{})} }

// SetSend gives the session's way into its program (Program.Send), once,
// before the program runs. Sends made before it wait for it.
func (e *Env) SetSend(f func(tea.Msg)) {
	l := e.link
	l.once.Do(func() {
		l.f = f
		close(l.ready)
	})
}

// Send delivers msg into the session's program. It blocks while the
// program is busy, so only a member's own drain goroutine calls it, never
// a room's goroutine (DESIGN: the owner never calls Program.Send). It
// returns at once once the session has ended; without Prepare (model tests)
// it drops msg.
func (e *Env) Send(msg tea.Msg) {
	l := e.link
	if l == nil {
		return
	}
	select {
	case <-l.ready:
	case <-e.Done:
		return
	}
	l.f(msg)
}

// NoticeMsg is a hub notice (an invitation, or an answer to one) for the
// router to show on whatever screen is up.
type NoticeMsg struct{ Notice hub.Notice }

// Connect puts the session online in the hub, if it has an account with a
// name; the invitations setting comes from the store.
func (e *Env) Connect() {
	p, ok := e.Person()
	if !ok || e.Hub == nil || e.Live != nil {
		return
	}
	on := true
	if v, err := e.Store.Setting(e.Ctx(), p.ID, InvitationsSetting); err == nil && v == "off" {
		on = false
	}
	e.Live = e.Hub.Connect(p, on, func(n hub.Notice) { e.Send(NoticeMsg{Notice: n}) })
}

// Reconnect puts the session online again under the player's name now
// (after they picked or changed it).
func (e *Env) Reconnect() {
	if e.Live != nil {
		e.Live.Close()
		e.Live = nil
	}
	e.Connect()
}

// Disconnect takes the session offline; safe to call twice.
func (e *Env) Disconnect() {
	if e.Live != nil {
		e.Live.Close()
	}
}

// SetActivity tells the hub what the session is doing, for its friends.
func (e *Env) SetActivity(a hub.Activity) {
	if e.Live != nil {
		e.Live.SetActivity(a)
	}
}

// Person is the session's player as the hub knows them: a validated
// account name, never client text. ok is false for a guest or an
// account without a name yet.
func (e *Env) Person() (hub.Person, bool) {
	if e.Player == nil || e.Player.Guest || e.Player.ID == "" || e.Player.Name == "" {
		return hub.Person{}, false
	}
	return hub.Person{ID: e.Player.ID, Name: e.Player.Name, Addr: e.Player.Addr, Bot: e.Player.Bot}, true
}

// InviteLine is the command a friend pastes to join the room with code.
func (e *Env) InviteLine(code string) string {
	host := e.InviteHost
	if host == "" {
		host = "localhost"
	}
	return hub.InviteLine(host, e.InvitePort, code)
}

// Activitied is a screen that says what its player is doing; the router
// tells the hub whenever the screen on top changes.
type Activitied interface{ Activity() hub.Activity }

// Ctx is the session's context, for store calls.
func (e *Env) Ctx() context.Context {
	if e.Context == nil {
		return context.Background()
	}
	return e.Context
}

// Screen is one page of the UI, its own small model. It changes the page
// only by returning a route message (Go, Push, Back, Quit), so that no
// screen builds another and screen packages never import each other.
type Screen interface {
	Update(msg tea.Msg) tea.Cmd
	View() string
	// MinSize is the smallest window the screen can be drawn in.
	MinSize() (w, h int)
}

// PiecedScreen is a screen whose view can come in pieces, put end to end
// (appended to dst): one that keeps most of its view from frame to frame
// hands it over as it is, and no string of the whole screen is made for a
// change in one line (arcade/render's Pieced).
type PiecedScreen interface {
	ViewPieces(dst []string) []string
}

// Initer is a screen with work to start once it is shown (a clock tick).
type Initer interface{ Init() tea.Cmd }

// Saver is a screen holding something that must be kept when the session
// ends (a game in progress). Save must be safe to call twice.
type Saver interface{ Save() }

// Leaver is a screen holding something for as long as it is shown (a
// subscription, a seat): Left is called once it leaves the router's stack
// (replaced, or gone Back from). It must be safe to call after Save.
type Leaver interface{ Left() }

// HintsPerGame is how many hints a player gets in one game; a hint that
// finds nothing is free.
const HintsPerGame = 6

// Ticking is a screen whose view changes with time alone (a clock):
// NextChange is how long until it next does, zero or less when it does
// not. The session draws it then, with no message (arcade/render).
type Ticking interface{ NextChange() time.Duration }
