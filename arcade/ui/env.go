// Package ui is what the screens of a session share: the router that holds
// the current screen and builds the next one from a route, the session's
// environment, styles, the help bar and text helpers. Screen packages
// (arcade/ui/menu, arcade/ui/solitaire, ...) import this one and never one
// another: a screen asks for another with a route message (Go, Push, Back).
package ui

import (
	"context"
	"log/slog"
	"time"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/deals"
	"sshuffle/games"
	"sshuffle/store"
)

// Player is who is on the other end of a session.
type Player struct {
	ID    string // key fingerprint; empty for a guest
	Name  string
	Guest bool
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
	Done    chan struct{}
	bgState *Background
	next    *Route // asked for by the screen being updated
}

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

// Initer is a screen with work to start once it is shown (a clock tick).
type Initer interface{ Init() tea.Cmd }

// Saver is a screen holding something that must be kept when the session
// ends (a game in progress). Save must be safe to call twice.
type Saver interface{ Save() }

// HintsPerGame is how many hints a player gets in one game; a hint that
// finds nothing is free.
const HintsPerGame = 6
