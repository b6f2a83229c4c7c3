// Package bot speaks the bot protocol of docs/bots.md: JSON Lines both ways
// over an SSH session without a terminal (ssh HOST bot). A bot is a member
// of the tables it plays like a person's screen is: it holds a
// hub.TableMember, is sent its seat's view and nothing else, and its
// actions go through the same Do, refused with the game's own sentence.
// The package knows no SSH: the wiring hands it the session's reader and
// writer and who is connected.
package bot

import (
	"encoding/json"
	"time"
)

// Protocol is the version of the protocol a hello announces. A change that
// a bot written for this one would misread gets a new number.
const Protocol = 1

// Message types, the "type" of every line.
const (
	// To the bot.
	THello      = "hello"
	TChallenge  = "challenge"
	TSeeking    = "seeking"
	TTableStart = "tableStart"
	TState      = "state"
	TRejected   = "rejected"
	TGameOver   = "gameOver"
	TTableEnd   = "tableEnd"
	TPing       = "ping"
	TError      = "error"
	TSeekEnd    = "seekEnd"
	// From the bot.
	TSeek    = "seek"
	TAccept  = "accept"
	TDecline = "decline"
	TAct     = "act"
	TLeave   = "leave"
	TPong    = "pong"
	// TStopSeek leaves the play-now pool.
	TStopSeek = "stopSeek"
)

// Hello is the first line a bot is sent.
type Hello struct {
	Type     string  `json:"type"`
	Protocol int     `json:"protocol"`
	Account  Account `json:"account"`
	Limits   Limits  `json:"limits"`
}

// Account is the bot's account.
type Account struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Limits are what one bot session may do; past them a line is refused
// with an error and nothing else happens.
type Limits struct {
	// MaxLine is the longest line read, in bytes, newline included.
	MaxLine int `json:"maxLine"`
	// LinesPerSecond is how many lines are read in any second; the rest
	// that second are refused.
	LinesPerSecond int `json:"linesPerSecond"`
	// OpenGames is how many tables the bot may sit at (or seek) at once.
	OpenGames int `json:"openGames"`
}

// Defaults of Limits.
const (
	DefaultMaxLine        = 8 << 10
	DefaultLinesPerSecond = 30
	DefaultOpenGames      = 4
)

func (l *Limits) defaults() {
	if l.MaxLine <= 0 {
		l.MaxLine = DefaultMaxLine
	}
	if l.LinesPerSecond <= 0 {
		l.LinesPerSecond = DefaultLinesPerSecond
	}
	if l.OpenGames <= 0 {
		l.OpenGames = DefaultOpenGames
	}
}

// Challenge is a person asking the bot to their table.
type Challenge struct {
	Type     string `json:"type"`
	ID       uint64 `json:"id"`    // the challenge's number, for accept and decline
	Table    string `json:"table"` // the table's code
	From     string `json:"from"`  // the challenger's name
	Game     string `json:"game"`
	Settings string `json:"settings"`
	Rated    bool   `json:"rated"`
	Seats    []Seat `json:"seats"`
}

// Seeking says that a seek opened a table, listed in the lobby, and the bot
// sits at it waiting for its other seats.
type Seeking struct {
	Type string `json:"type"`
	// Pool says the bot waits in the play-now pool: no table yet (Table
	// is ""), until the pool seats it.
	Pool     bool   `json:"pool,omitempty"`
	Table    string `json:"table"`
	Game     string `json:"game"`
	Settings string `json:"settings"`
	Rated    bool   `json:"rated"`
	Seats    []Seat `json:"seats"`
}

// Seat is one seat of a table.
type Seat struct {
	Name string `json:"name,omitempty"` // "" for a seat still open
	// Kind is "person", "bot", "computer" or "open".
	Kind     string `json:"kind"`
	Strength string `json:"strength,omitempty"` // a computer's
}

// TableStart says a game is dealt at a table the bot sits at.
type TableStart struct {
	Type     string `json:"type"`
	Table    string `json:"table"`
	Game     string `json:"game"`
	Settings string `json:"settings"`
	GameNo   int    `json:"gameNo"` // from 0, within the match
	Seat     int    `json:"seat"`   // the bot's, from 0
	Seats    []Seat `json:"seats"`
}

// State is the table as the bot's seat sees it, sent on every change.
type State struct {
	Type   string `json:"type"`
	Table  string `json:"table"`
	GameNo int    `json:"gameNo"`
	Seat   int    `json:"seat"`
	// Turn is the seat to act, -1 when none; YourTurn says it is the bot's
	// and it may act now.
	Turn     int  `json:"turn"`
	YourTurn bool `json:"yourTurn"`
	// ClockMs is what the seat to act has left on the turn clock as this
	// state is made (0: no clock runs); Auto says it ran out and the
	// computer is playing that turn for its seat.
	ClockMs int64 `json:"clockMs"`
	Auto    bool  `json:"auto,omitempty"`
	// View is the game's view of the bot's seat, exactly as the screen of
	// a person in that seat is sent it (docs/bots.md describes both games').
	View json.RawMessage `json:"view"`
	// Legal lists every action the bot may send now, in the act syntax;
	// empty unless YourTurn.
	Legal   []json.RawMessage `json:"legal"`
	Log     []string          `json:"log"`
	Totals  []int             `json:"totals"`
	Version uint64            `json:"version"`
}

// Rejected is an act the game refused, with its sentence.
type Rejected struct {
	Type   string          `json:"type"`
	Table  string          `json:"table"`
	Action json.RawMessage `json:"action,omitempty"`
	Reason string          `json:"reason"`
}

// GameOver ends one game of a match.
type GameOver struct {
	Type   string `json:"type"`
	Table  string `json:"table"`
	GameNo int    `json:"gameNo"`
	// Winner is the seat that won or went out, -1 for nobody.
	Winner int `json:"winner"`
	// Points per seat: the score won (Spite and Malice) or the penalty
	// points (Kings in the Corner, where LowWins).
	Points  []int `json:"points"`
	LowWins bool  `json:"lowWins,omitempty"`
	Totals  []int `json:"totals"`
	// MatchOver says the match ended with this game; MatchWinner is its
	// winner (-1 on a tie).
	MatchOver   bool `json:"matchOver"`
	MatchWinner int  `json:"matchWinner"`
	// Rating is the bot's rating change when the game was rated, null
	// otherwise (or when the stored game could not be read in time).
	Rating *RatingChange `json:"rating"`
	// Record names the game by the table's code and the game's number;
	// History is the stored game's history id (ssh HOST replay ID), ""
	// when it could not be read in time.
	Record  string `json:"record"`
	History string `json:"history"`
}

// RatingChange is a rated game's effect on the bot's rating at the game:
// its rating and rating deviation before and after (Glicko-2, rounded).
type RatingChange struct {
	Before          int `json:"before"`
	After           int `json:"after"`
	DeviationBefore int `json:"deviationBefore"`
	DeviationAfter  int `json:"deviationAfter"`
}

// SeekEnd says the bot is out of the play-now pool without a table.
type SeekEnd struct {
	Type   string `json:"type"`
	Reason string `json:"reason"`
}

// TableEnd says the bot is no longer at a table, and why.
type TableEnd struct {
	Type   string `json:"type"`
	Table  string `json:"table"`
	Reason string `json:"reason"`
}

// Ping asks for a pong with the same id.
type Ping struct {
	Type string `json:"type"`
	ID   uint64 `json:"id"`
}

// Error answers a line that could not be taken: malformed, too long, too
// many, or a request that cannot be done. Nothing else happened.
type Error struct {
	Type  string `json:"type"`
	Error string `json:"error"`
	// In echoes the line's type, when it had one that could be read.
	In string `json:"in,omitempty"`
}

// In is any line from the bot; the fields its type uses are read.
type In struct {
	Type string `json:"type"`
	// seek
	Game     string   `json:"game"`
	Settings string   `json:"settings"`
	Rated    bool     `json:"rated"`
	Against  []string `json:"against"`
	Pace     string   `json:"pace"`
	// Pool: wait in the play-now pool for people, for a table of Players
	// (0: the game's fewest).
	Pool    bool `json:"pool"`
	Players int  `json:"players"`
	// accept, decline: ID (the challenge's); pong: ID (the ping's)
	ID uint64 `json:"id"`
	// act, leave
	Table  string          `json:"table"`
	Action json.RawMessage `json:"action"`
}

// millis is d in whole milliseconds.
func millis(d time.Duration) int64 { return int64(d / time.Millisecond) }
