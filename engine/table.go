package engine

import (
	"fmt"
	"slices"
	"strings"
)

// The table games (Spite and Malice, Kings in the Corner) are played
// through this contract. It is generic in the game's own action and view
// types, because what a seat may do and see differs from game to game, and
// a view that had to fit one shared shape would tempt a game to put a
// hidden card in a field "for the screen to blank".

// Spectator is the seat number of someone watching: their view holds no
// hand at all.
const Spectator = -1

// NoSeat marks an entry of a history that no seat made (a reshuffle of the
// recycle pile, say).
const NoSeat = -1

// Acted is one entry of a table's history: who did what.
type Acted[A any] struct {
	Seat   int
	Action A
}

// TableResult is how a finished game (or hand) came out.
type TableResult struct {
	// Winner is the seat that won or went out first; NoSeat when nobody did
	// (a drawn stalemate, a Kings hand that ended with nobody out).
	Winner int
	// Points holds one figure a seat: the score won in Spite and Malice,
	// penalty points in Kings in the Corner (see LowWins).
	Points []int
	// LowWins says the points are penalties: the lowest total wins a match.
	LowWins bool
}

// Table is a multi-seat game in play. Every method is deterministic: the
// same spec, seat count and actions give the same game on every machine.
type Table[A any, V any] interface {
	Spec() Spec
	Seats() int
	// Turn is the seat to act, or NoSeat once the game is over.
	Turn() int
	// Do applies the action for seat, or leaves the game exactly as it was
	// and returns an error whose text is one sentence for that player
	// ("It is bob's turn" is the screen's wording of ErrNotYourTurn).
	Do(seat int, a A) error
	// View is what seat may see and nothing else; Spectator gets the public
	// view. A card the seat may not see is never in it, not even as a value
	// to be hidden later. It is a value of its own, sharing no memory with
	// the game, so a computer player may read it on another goroutine while
	// the game goes on.
	View(seat int) V
	// Legal lists every action seat may take now (none when it is not the
	// seat's turn).
	Legal(seat int) []A
	// Over reports whether the game has ended, and how.
	Over() (TableResult, bool)
	// History is every action since the deal, including the ones no seat
	// made (NoSeat), in order.
	History() []Acted[A]
}

// Player is a computer player: it chooses an action for the seat whose view
// it is given. It is handed the view alone, so it cannot use what the seat
// cannot see; any randomness comes from its own seeded source.
type Player[A any, V any] interface {
	Choose(view V) A
}

// Setting is one table option as docs/tablegames.md lists it: Values[0] is the
// default, and the only values a spec may hold are the ones listed.
type Setting struct {
	Key    string
	Label  string // for the screen that opens a table, e.g. "Pay-off pile"
	Values []string
}

// NormalizeSettings checks a settings text ("k=v,...", any order) against
// the game's settings and returns its canonical form, defaults left out.
func NormalizeSettings(text string, defs []Setting) (string, error) {
	m, err := ParseSettings(text)
	if err != nil {
		return "", err
	}
	defaults := map[string]string{}
	for _, d := range defs {
		defaults[d.Key] = d.Values[0]
	}
	for k, v := range m {
		var def *Setting
		for i := range defs {
			if defs[i].Key == k {
				def = &defs[i]
			}
		}
		if def == nil {
			return "", fmt.Errorf("there is no setting %q", k)
		}
		if !slices.Contains(def.Values, v) {
			return "", fmt.Errorf("%s can be %s, not %q", k, strings.Join(def.Values, ", "), v)
		}
	}
	return CanonicalSettings(m, defaults), nil
}
