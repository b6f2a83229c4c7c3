package ui

import (
	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/hub"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/store"
)

// Page names a screen the router can build.
type Page uint8

const (
	Menu    Page = iota
	Name         // pick a player name
	Play         // a solitaire: resume the save, or deal
	Daily        // today's deal of a game
	Won          // the result of a won game
	Options      // a game's options
	Rules        // a game's rules, strategy and win rates
	Help         // keys (and a game's rules when Game is set)
	Profile      // the player's stats
	Boards       // a game's leaderboards
	Race         // a race room: join Code, or open a race on Spec (today's deal when Daily)
	Friends      // whom the player follows, online or not, and what they do
	Lobby        // the open tables of the table games (Game: open the form on it)
	Table        // a seat or a watcher's place at a table: Member, or join Code
	PlayNow      // wait in the play-now pool for a table of Game with Players
	History      // the player's finished games, newest first
	Replay       // a finished game of the player's history, by ID
)

// Route is a request for a screen: plain values, so screens can ask for
// one another without knowing how the other is built.
type Route struct {
	Page Page
	Game games.Entry // the game the page is about, if any
	// Play: deal exactly Spec when its Seed is set; else a new deal when
	// Fresh, else the saved game (or a new deal when there is none).
	Spec  engine.Spec
	Fresh bool
	// Play: deal Spec as today's deal of Day (a restart keeps it so).
	Daily bool
	Day   string
	// Won: the result as recorded, and the error if it could not be.
	Result store.Result
	Err    error
	// Name: the SSH user name that could not be used as a player name.
	Tried string
	// Name: where to go once the name is picked (the room of a pasted
	// invite line); nil: the menu.
	Then *Route
	// Race: the room's invite code to join; empty opens a new race on
	// Spec (Daily: today's deal of Game, the ranked daily attempt).
	Code string
	// Race, Table: join Code as a watcher (a racer coming back races
	// anyway, a person holding a seat gets it back).
	Watch bool
	// Table: the membership the lobby already holds (the table started
	// while the player sat at it), and the state that started it; nil:
	// join Code.
	Member *TableHold
	State  *hub.TableState
	// Lobby: open this table at once, the player its host in seat 0
	// (ssh -t HOST table GAME).
	OpenTable *hub.TableConfig
	// Name: a change of name asked for from the profile (Push it), as
	// opposed to a player who has none yet being asked for one.
	Rename bool
	// Menu: a sentence for the player about what just happened ("Not
	// saved: ...").
	Note string
	// PlayNow: how many at the table (0: the game's fewest).
	Players int
	// Replay: the id of a game of the player's history.
	ID string
	// Set by Push, Back and Quit.
	over, back, quit bool
}

// The requests a screen makes of the router. Each is taken up as soon as
// the screen's Update returns, before the next key is read, so a key typed
// right after one that changes the page goes to the new page. Each returns
// a nil command, so that a screen can end its Update with it.

// Go replaces every screen with the one r names.
func (e *Env) Go(r Route) tea.Cmd {
	e.next = &r
	return nil
}

// Push opens r over the current screen; Back returns to it as it was.
func (e *Env) Push(r Route) tea.Cmd {
	r.over = true
	return e.Go(r)
}

// Back returns to the screen under the current one (the menu when there
// is none).
func (e *Env) Back() tea.Cmd {
	e.next = &Route{back: true}
	return nil
}

// Quit ends the session.
func (e *Env) Quit() tea.Cmd {
	e.next = &Route{quit: true}
	return nil
}
