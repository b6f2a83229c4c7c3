// Package store is what sshuffle keeps: the record types, the errors, and
// one interface per concern (accounts, results and boards, saves, today's
// deals, settings). It knows records, not game rules: whether a board
// ranks by points comes from the game registry, on the record. Backends
// live beside it (store/badger, the default); store/storetest is the one
// suite every backend must pass. Nothing above cmd names a backend.
//
// Every call takes a context and is safe for concurrent use. Missing
// records give ErrNotFound; a record that cannot be decoded gives an error
// wrapping ErrCorrupt that names the record.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"sshuffle/engine"
)

// Errors callers can test with errors.Is.
var (
	ErrNotFound  = errors.New("store: not found")
	ErrNameTaken = errors.New("that name is taken")
	ErrExists    = errors.New("store: account exists")
	ErrClosed    = errors.New("store: closed")
	ErrCorrupt   = errors.New("store: corrupt record")
	ErrInvalid   = errors.New("store: invalid input")
)

// Limits on what callers may store; a backend refuses more with ErrInvalid.
const (
	MaxIDLen      = 256     // account ids (SHA256 fingerprints are ~50 bytes)
	MaxKeyLen     = 100     // "game/variant" keys
	MaxSpecLen    = 200     // deal spec strings
	MaxSettingLen = 4096    // setting names and values
	MaxSaveLen    = 1 << 20 // saved game bytes
	MaxBoard      = 1000    // largest n Board and Results return
	// MaxFollowing caps how many accounts one account follows: a friends
	// board reads every followed account's entry, so the cap bounds it.
	MaxFollowing = 500
)

// Account is a player, known by the SHA256 fingerprint of their SSH key.
type Account struct {
	ID       string // SHA256 key fingerprint
	Name     string // lower-case, unique; "" until claimed
	Created  time.Time
	LastSeen time.Time
}

// Name rules.
const (
	MinNameLen = 3
	MaxNameLen = 20
)

// ValidName says whether name can be claimed (case-insensitively). The error
// is a sentence to show the player.
func ValidName(name string) error {
	n := len(name)
	if n < MinNameLen || n > MaxNameLen {
		return fmt.Errorf("A name needs %d to %d characters.", MinNameLen, MaxNameLen)
	}
	for i := 0; i < n; i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
		default:
			return errors.New("A name may use only letters a-z, digits, _ and -.")
		}
	}
	return nil
}

// ClaimableName says whether name can be taken as an account's name: a
// valid name that is not a computer player's, so that a person and a
// computer at a table are never named alike. Lookups of existing accounts
// use ValidName alone: an account that held such a name before the
// computers had names is still found by it. The error is a sentence to
// show the player.
func ClaimableName(name string) error {
	if err := ValidName(name); err != nil {
		return err
	}
	if engine.IsComputerName(name) {
		return fmt.Errorf("The name %q belongs to a computer player at the tables; pick another.", name)
	}
	return nil
}

// NormalName is the form a valid name is stored in: lower-case.
func NormalName(name string) string { return strings.ToLower(name) }

// Result is one finished game.
type Result struct {
	Account  string        // account id
	Name     string        // the player's name when it was played (Board shows the current one)
	Spec     string        // engine.Spec.String()
	Key      string        // engine.Spec.Key(): "game/variant"
	Won      bool          //
	Score    int           // points (may be negative in TriPeaks)
	Moves    int           //
	Elapsed  time.Duration //
	Finished time.Time     //
	Daily    bool          // this was the key's deal of the day
	Day      string        // "2026-11-30" (UTC) when Daily; the day of Finished if left empty
	// ByPoints: the game's boards rank by points after won/lost. The
	// store knows records, not games: the caller says so from the game
	// registry, and it is kept on the record.
	ByPoints bool `json:",omitempty"`
	// Total is the number of cards Home counts to in Timeline.
	Total int `json:",omitempty"`
	// Timeline is the game's progress move by move, at the time of each,
	// so a later race can replay this run as a ghost at its real pace.
	Timeline []Step `json:",omitempty"`
	// Abandoned: the player left the game for another deal before it was
	// over. It counts as played, never as a best score, and stays off
	// the boards: a board ranks games played out.
	Abandoned bool `json:",omitempty"`
	// Actions are the game's moves from the deal, as its history holds
	// them (undone moves are not in it), and Times when each was made
	// (from the game's start; one per action, or none), so a replay can
	// step through it at its real pace. Kept for games recorded since
	// history was added; older results have none. RecordResult refuses
	// (ErrInvalid) more than MaxActions, and Times that are neither empty
	// nor one per action. Only HistoryGame returns them: boards and lists
	// leave them out.
	Actions []engine.Action `json:",omitempty"`
	Times   []time.Duration `json:",omitempty"`
	// Options are the player's game options the moves were made with
	// (FreeCell's automatic moves change what a move does), kept and
	// returned with Actions.
	Options map[string]bool `json:",omitempty"`
}

// Step is one point of a result's timeline.
type Step struct {
	At    time.Duration `json:"t"`
	Home  int           `json:"h"` // cards home or cleared
	Moves int           `json:"m"`
}

// MaxTimeline bounds the steps kept with a result.
const MaxTimeline = 4096

// Stats are one account's totals for one key.
type Stats struct {
	Played    int // every game, abandoned ones too
	Won       int
	Abandoned int // games left for another deal before they were over
	// BestScore is the highest score of a won game (meaningful once Won >
	// 0): a lost or abandoned game's score says where the player stopped,
	// not how well they played.
	BestScore int
	BestTime  time.Duration // fastest won game; 0 until one is won
	TotalTime time.Duration // sum of Elapsed over all games
	Last      time.Time     // Finished of the latest game
}

// Streak counts consecutive UTC days on which the player won a key's daily deal.
type Streak struct {
	Current int
	Best    int
	LastDay string // last day whose daily deal was won, "" if none
}

// Day is the UTC day of t as the store writes it: "2026-11-30".
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// Accounts are the players and their names.
type Accounts interface {
	// Account returns the account with this id, or ErrNotFound.
	Account(ctx context.Context, id string) (Account, error)
	// AccountByName returns the account holding name, or ErrNotFound.
	AccountByName(ctx context.Context, name string) (Account, error)
	// CreateAccount creates the account id, claiming name unless name is
	// "". If the account exists it returns it and ErrExists; if the name is
	// taken, ErrNameTaken and nothing is created; a name ClaimableName
	// refuses gives ErrInvalid.
	CreateAccount(ctx context.Context, id, name string) (Account, error)
	// Touch sets the account's LastSeen.
	Touch(ctx context.Context, id string, now time.Time) error
	// ClaimName gives name (lower-cased) to the account, releasing its old
	// one; ErrNameTaken if another account holds it or wins a race for it,
	// ErrInvalid if ClaimableName refuses it.
	ClaimName(ctx context.Context, id, name string) (Account, error)
	// Rename is ClaimName, for an account that has a name already.
	Rename(ctx context.Context, id, name string) (Account, error)
}

// Results are finished games and what follows from them: stats, daily
// streaks and boards.
type Results interface {
	// RecordResult stores a finished game and, at once, the account's
	// stats, its streak (a won daily deal) and its board entries. It
	// returns once the result is durable; the same result again is a no-op.
	RecordResult(ctx context.Context, r Result) error
	// Stats returns the account's stats for every key it has played.
	Stats(ctx context.Context, account string) (map[string]Stats, error)
	// StatsFor returns the account's stats for key; zero if never played.
	StatsFor(ctx context.Context, account, key string) (Stats, error)
	// Streak is the account's daily streak for key as of today: Current is
	// 0 when the last daily win is older than yesterday.
	Streak(ctx context.Context, account, key string, today time.Time) (Streak, error)
	// Board returns up to n results of the board for key, best first: all
	// time when day is "", else that day's daily deal. One entry per
	// account (its best); Name is the account's current name.
	Board(ctx context.Context, key, day string, n int) ([]Result, error)
	// Rank is the account's place on a board (1 is first) and its entry,
	// or ErrNotFound.
	Rank(ctx context.Context, account, key, day string) (int, Result, error)
	// Results returns up to n of the account's results, newest first.
	Results(ctx context.Context, account string, n int) ([]Result, error)
}

// Saves are games in progress, as bytes the arcade writes.
type Saves interface {
	PutSave(ctx context.Context, account, key string, data []byte) error
	// GetSave returns the save, or ErrNotFound.
	GetSave(ctx context.Context, account, key string) ([]byte, error)
	// DeleteSave removes a save; a missing one is not an error.
	DeleteSave(ctx context.Context, account, key string) error
	// Saves lists the keys the account has a save for.
	Saves(ctx context.Context, account string) ([]string, error)
}

// Dailies are today's deals.
type Dailies interface {
	// Daily returns the deal spec kept for key on day ("2026-11-30"),
	// choosing it with choose the first time and keeping it; concurrent
	// first callers get the same answer.
	Daily(ctx context.Context, key, day string, choose func() (string, error)) (string, error)
}

// Settings are a player's named settings.
type Settings interface {
	PutSetting(ctx context.Context, account, name, value string) error
	// Setting returns one setting, or ErrNotFound.
	Setting(ctx context.Context, account, name string) (string, error)
	Settings(ctx context.Context, account string) (map[string]string, error)
}

// Friends are whom each account follows, for the friends boards. Following
// is one way, needs no consent and tells the other nothing.
type Friends interface {
	// Follow makes account follow other (account ids); again is a no-op.
	// Following oneself is ErrInvalid, an account that does not exist
	// ErrNotFound, more than MaxFollowing ErrInvalid.
	Follow(ctx context.Context, account, other string) error
	// Unfollow undoes Follow; unfollowing one not followed is a no-op.
	Unfollow(ctx context.Context, account, other string) error
	// Following lists the ids account follows, in id order.
	Following(ctx context.Context, account string) ([]string, error)
}

// RaceRecord is one finished race, as every racer in it keeps it.
type RaceRecord struct {
	Code     string
	Spec     string
	Key      string
	Ranked   bool // on the day's deal
	Started  time.Time
	Finished time.Time
	Racers   []RaceRacer // in finishing order, placed first
}

// RaceRacer is one racer's line of a race.
type RaceRacer struct {
	Account string `json:",omitempty"` // "" for a ghost
	Name    string
	Ghost   bool `json:",omitempty"`
	Place   int  // 0: no place (gave up, dropped, or not finished)
	Status  string
	Time    time.Duration
	Moves   int
	Home    int
	Total   int
}

// MaxRaceRacers bounds a stored race's racers.
const MaxRaceRacers = 16

// Races are finished races, kept on every human racer's record.
type Races interface {
	// RecordRace keeps a race for each human racer in it, at once; the
	// same race again is a no-op.
	RecordRace(ctx context.Context, r RaceRecord) error
	// Races returns up to n of the account's races, newest first.
	Races(ctx context.Context, account string, n int) ([]RaceRecord, error)
}

// TableGame is one finished game of a table (Spite and Malice, Kings in
// the Corner), as each person seated at it keeps it.
type TableGame struct {
	Code   string `json:"code"`
	Game   string `json:"game"` // spite or kings
	Spec   string `json:"spec"` // the match's deal spec (its seed dealt game 0)
	GameNo int    `json:"gameNo"`
	// Record is the game as one docs/tablegames.md record line: it replays
	// through the game package's Replay.
	Record json.RawMessage `json:"record"`
	Seats  []TableSeat     `json:"seats"`
	Winner int             `json:"winner"` // the seat that won or went out; -1 nobody
	// Points per seat: the score won (Spite) or penalty points (Kings,
	// LowWins).
	Points  []int `json:"points"`
	LowWins bool  `json:"lowWins,omitempty"`
	// Totals are the match's totals including this game; MatchEnd says
	// this game ended the match, won by MatchWinner (-1 on a tie).
	Totals      []int     `json:"totals"`
	MatchEnd    bool      `json:"matchEnd,omitempty"`
	MatchWinner int       `json:"matchWinner"`
	Started     time.Time `json:"started"`
	Finished    time.Time `json:"finished"`
	// Rated: the game was played at a rated table and moves its people's
	// ratings (see Tables.RecordTableGame).
	Rated bool `json:"rated,omitempty"`
}

// TableSeat is one seat of a finished table game.
type TableSeat struct {
	Account  string `json:"account,omitempty"` // a person's; "" for a computer
	Name     string `json:"name,omitempty"`
	Strength string `json:"strength"` // "person", or the computer's strength
	// StoodIn: a computer played some of this person's turns; Gone: the
	// seat went to the computer for good.
	StoodIn bool `json:"stoodIn,omitempty"`
	Gone    bool `json:"gone,omitempty"`
	// Place is the seat's place in a rated game, 1 the best, equal places
	// a tie (rating.Places); 0 in a casual one.
	Place int `json:"place,omitempty"`
	// Rating, in a rated game: a computer's fixed rating, given by the
	// caller; a person's rating before the game and After it, filled in by
	// the store.
	Rating *SeatRating `json:"rating,omitempty"`
}

// SeatRating is a seat's rating in a rated table game.
type SeatRating struct {
	Rating     float64 `json:"rating"`
	Deviation  float64 `json:"deviation"`
	Volatility float64 `json:"volatility,omitempty"`
	// After is a person's rating once the game counted (and its deviation,
	// AfterDeviation); 0 for a computer, whose rating is fixed.
	After          float64 `json:"after,omitempty"`
	AfterDeviation float64 `json:"afterDeviation,omitempty"`
}

// TableStats are one account's figures at one table game.
type TableStats struct {
	Game          string `json:"game"`
	Played        int    `json:"played"`        // games finished in a seat of theirs
	Won           int    `json:"won"`           // of those, won (or went out first)
	Matches       int    `json:"matches"`       // matches seen to their end
	MatchesWon    int    `json:"matchesWon"`    // of those, won
	AgainstPeople int    `json:"againstPeople"` // games with another person seated
}

// MaxTableSeats bounds a stored table game's seats; MaxTableRecord its record.
const (
	MaxTableSeats  = 8
	MaxTableRecord = 1 << 20
)

// Tables are the table games: finished games on every seated person's
// record with their stats, and the snapshots of tables in play (kept for a
// restart, as bytes the live layer reads).
type Tables interface {
	// RecordTableGame keeps a finished game for each person seated at it
	// and counts it in their stats, at once; the same game again (code,
	// deal and game number) is a no-op. A rematch at the same code deals
	// afresh, so its games are others.
	//
	// A Rated game also moves its people's ratings at g.Game, in the same
	// transaction and so only once: every seat has a Place, and every
	// computer's seat (no Account) a Rating, its fixed one. Each person's
	// rating becomes rating.RateGame's: one Glicko-2 period against every
	// other seat, a better place a win and an equal one a draw, from
	// everyone's rating before the game (a person never rated starts at
	// rating.Default). The copies kept carry each person's rating before
	// and after the game in their seat's Rating. A rated game missing a
	// place or a computer's rating, or with an account in two seats, is
	// ErrInvalid.
	RecordTableGame(ctx context.Context, g TableGame) error
	// TableGames returns up to n of the account's table games, newest first.
	TableGames(ctx context.Context, account string, n int) ([]TableGame, error)
	// TableStats returns the account's stats per table game, by game name.
	TableStats(ctx context.Context, account string) ([]TableStats, error)
	// PutTable keeps a table's snapshot under its code (replacing one);
	// DeleteTable forgets it (none is no error); SavedTables returns them all.
	PutTable(ctx context.Context, code string, snapshot []byte) error
	DeleteTable(ctx context.Context, code string) error
	SavedTables(ctx context.Context) (map[string][]byte, error)
}

// Rating is an account's rating at one table game (Glicko-2, see
// sshuffle/engine/rating).
type Rating struct {
	Account    string  `json:"account,omitempty"`
	Name       string  `json:"name,omitempty"` // on a board: the account's current name
	Game       string  `json:"game"`
	Rating     float64 `json:"rating"`
	Deviation  float64 `json:"deviation"`
	Volatility float64 `json:"volatility"`
	Games      int     `json:"games"` // rated games that counted
	// Last is when the latest of them finished; zero before any.
	Last time.Time `json:"last,omitzero"`
}

// Ratings are the accounts' ratings at the table games, moved by rated
// games as Tables.RecordTableGame keeps them; nothing else writes them.
type Ratings interface {
	// Rating is the account's rating at game; an account with no rated
	// game there gets rating.Default with Games 0 (not ErrNotFound).
	Rating(ctx context.Context, account, game string) (Rating, error)
	// Ratings are the account's ratings at every game it has a rated game
	// of, by game name.
	Ratings(ctx context.Context, account string) ([]Rating, error)
	// RatingBoard returns up to n ratings at game, highest first (ties by
	// account id), each with the account's current name.
	RatingBoard(ctx context.Context, game string, n int) ([]Rating, error)
}

// LiveRace is a race in play as the store keeps it while it runs: enough
// for a later start, after the server stopped in the middle of it, to say
// that its code has ended and to keep each racer's game as their saved
// game. Races themselves are not restored: their racers are gone.
type LiveRace struct {
	Code    string
	Spec    string
	Key     string // the save key of the race's game ("klondike/draw1")
	Started time.Time
	Racers  []LiveRacer // the human racers, one each
}

// LiveRacer is one racer's game in a live race.
type LiveRacer struct {
	Account string
	Save    []byte `json:",omitempty"` // the game's latest save; nil before it has one
	Moves   int
	// Done: the racer's race is over (won, ended, gave up): their game
	// is not in progress, so nothing of it is kept as a save.
	Done bool `json:",omitempty"`
}

// LostRace is a live race settled at a start: the server lost it. Kept
// are the racers whose game became their saved game of Key.
type LostRace struct {
	LiveRace
	Kept []string
}

// MaxLiveRace bounds a live race's record, saves included: it is written
// in one transaction, which the Badger backend's small memtables cap at a
// little over a megabyte. A race game's save is a few kilobytes (its
// moves), so eight racers fit many times over.
const MaxLiveRace = 512 << 10

// LiveRaces are the races in play, kept so that a race the server loses
// (it stopped mid-race) is known at the next start: its code answers that
// the room has ended, and its racers' games become their saved games.
type LiveRaces interface {
	// PutLiveRace keeps a race in play, replacing what was kept of it. A
	// racer whose line is unchanged keeps the time it was last written
	// (see LoseRaces).
	PutLiveRace(ctx context.Context, r LiveRace) error
	// DeleteLiveRace forgets a race that ended as races end; none is no
	// error.
	DeleteLiveRace(ctx context.Context, code string) error
	// KeepLiveRaces puts races and forgets the races of gone at once, as
	// PutLiveRace and DeleteLiveRace would one by one but in as few
	// writes as the store takes. A race that fails its checks is left
	// out and its error returned (joined) after the others are written.
	KeepLiveRaces(ctx context.Context, races []LiveRace, gone []string) error
	// LiveRaces returns the races kept, in code order. A record that
	// cannot be read is logged and left out.
	LiveRaces(ctx context.Context) ([]LiveRace, error)
	// LoseRaces settles every race still kept as lost, each at once:
	// its code is kept as ended until until; each racer with a game in
	// progress (not Done, at least one move) gets it as their save of the
	// race's Key, unless they have a save of Key written after their
	// line of the race last changed (a game they played since is theirs to
	// keep: it is the newer); the record goes. A record that cannot be
	// read is logged, and its code ended and record dropped all the same.
	// Ended codes whose time is past now are forgotten.
	LoseRaces(ctx context.Context, now, until time.Time) ([]LostRace, error)
	// EndCode keeps the code of a room (a race or a table) that ended as
	// ended until until, so that a later start still answers it as ended;
	// a code kept already gets the later of the two times.
	EndCode(ctx context.Context, code string, until time.Time) error
	// EndedRaces returns the codes kept as ended at now (of lost races,
	// and of rooms ended by EndCode), with the time each is kept until.
	EndedRaces(ctx context.Context, now time.Time) (map[string]time.Time, error)
}

// Bots are the accounts marked as bots: programs that play through
// `ssh HOST bot` (docs/bots.md). The mark is for good: nothing unmarks an
// account.
type Bots interface {
	// MarkBot marks the account as a bot; marking one already marked is a
	// no-op. An account that does not exist is ErrNotFound. Whether it has
	// played as a person is the caller's to check first (its results,
	// table games and races): the store only keeps the mark.
	MarkBot(ctx context.Context, id string) error
	// IsBot says whether the account is marked; an account that does not
	// exist is not a bot (no error).
	IsBot(ctx context.Context, id string) (bool, error)
}

// Store is every concern of one backend.
type Store interface {
	Accounts
	Results
	Saves
	Dailies
	Settings
	Friends
	Races
	Tables
	LiveRaces
	Bots
	Ratings
	History
	// Health is nil while the store takes writes.
	Health() error
	// Close releases the store; later calls return ErrClosed.
	Close() error
}
