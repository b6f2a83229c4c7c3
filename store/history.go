package store

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"strconv"
	"strings"
	"time"
)

// The kinds of game a history holds.
const (
	HistorySolitaire = "solitaire"
	HistoryRace      = "race"
	HistoryTable     = "table"
)

// MaxActions bounds the moves kept with a result: a longer game keeps none
// (a replay needs every move from the deal, so a cut list is no replay).
const MaxActions = 4096

// HistoryEntry is one finished game of an account: exactly one of Result
// (a solitaire), Race or Table is set, except that a race carries the
// account's own result of it in Result when the store has one.
type HistoryEntry struct {
	// ID names the game for good: the same game has the same id in every
	// list and for every person who played it (a table's game, a race),
	// and ids sort as the history does (newest first is highest first).
	ID       string    `json:"id"`
	Kind     string    `json:"kind"` // HistorySolitaire, HistoryRace or HistoryTable
	Game     string    `json:"game"` // the game's name: "klondike", "spite"
	Finished time.Time `json:"finished"`

	Result *Result     `json:"result,omitempty"`
	Race   *RaceRecord `json:"race,omitempty"`
	Table  *TableGame  `json:"table,omitempty"`
	// Racers (HistoryGame of a race only) are the results of the race's
	// human racers that the store keeps, in the race's racer order, their
	// moves included: a replay shows any racer's board beside the race's
	// panel (the race is over: every racer's board was theirs to watch).
	Racers []Result `json:"racers,omitempty"`
}

// HistoryQuery says which part of a history to read.
type HistoryQuery struct {
	Game  string    // only this game's ("klondike", "spite"); "" for every game
	Since time.Time // only games finished at or after it; zero for all
	// After is an id the caller read last: only games after it in the
	// list (older) come, for reading a long history page by page.
	After string
	N     int // at most this many (and at most MaxBoard)
}

// History is every finished game of an account, of every kind, in one list.
type History interface {
	// History returns the account's finished games, newest first (by
	// Finished, then id), as q asks. A solitaire result recorded for a
	// race (same Finished and deal as a race of the account) is listed as
	// the race's Result, not apart. Lists hold no moves: a Result's Actions
	// and Times are nil.
	History(ctx context.Context, account string, q HistoryQuery) ([]HistoryEntry, error)
	// HistoryGame returns the account's game with this id, whole (a
	// solitaire's moves included when kept; a race's Racers). An id that is
	// not one of the account's games, another account's included, gives
	// ErrNotFound; an id that is not an id, ErrInvalid.
	HistoryGame(ctx context.Context, account, id string) (HistoryEntry, error)
}

// idEncoding keeps the order of the bytes it encodes: ids sort by time.
var idEncoding = base32.HexEncoding.WithPadding(base32.NoPadding)

// IDLen is the length of every history id.
const IDLen = 19

// historyID is 13 characters of the time (ordered), the kind's letter, and
// five of a hash of what tells games finished at the same time apart.
func historyID(kind byte, finished time.Time, tell string) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(finished.UnixNano())^(1<<63))
	h := sha256.Sum256(append([]byte{kind}, tell...))
	return strings.ToLower(idEncoding.EncodeToString(b[:]) + string(kind) + idEncoding.EncodeToString(h[:3]))
}

// ResultID is the history id of a solitaire result.
func ResultID(r Result) string { return historyID('s', r.Finished, r.Spec) }

// RaceID is the history id of a race.
func RaceID(r RaceRecord) string { return historyID('r', r.Finished, r.Code) }

// TableGameID is the history id of a table game.
func TableGameID(g TableGame) string {
	return historyID('t', g.Finished, g.Code+"\x00"+strconv.Itoa(g.GameNo)+"\x00"+g.Spec)
}

// ParseHistoryID reads the kind (HistorySolitaire...) and finishing time
// of an id; ok is false for anything that is not an id.
func ParseHistoryID(id string) (kind string, finished time.Time, ok bool) {
	if len(id) != IDLen {
		return "", time.Time{}, false
	}
	b, err := idEncoding.DecodeString(strings.ToUpper(id[:13]))
	if err != nil || len(b) != 8 || strings.ToLower(idEncoding.EncodeToString(b)) != id[:13] {
		return "", time.Time{}, false
	}
	if _, err := idEncoding.DecodeString(strings.ToUpper(id[14:])); err != nil {
		return "", time.Time{}, false
	}
	switch id[13] {
	case 's':
		kind = HistorySolitaire
	case 'r':
		kind = HistoryRace
	case 't':
		kind = HistoryTable
	default:
		return "", time.Time{}, false
	}
	return kind, time.Unix(0, int64(binary.BigEndian.Uint64(b)^(1<<63))).UTC(), true
}

// GameOfKey is the game's name in a "game/variant" key.
func GameOfKey(key string) string {
	g, _, _ := strings.Cut(key, "/")
	return g
}
