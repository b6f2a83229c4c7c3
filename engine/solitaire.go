package engine

// The arcade plays every solitaire through this interface: it draws the
// piles a game reports, turns clicks and keys into Actions, and shows the
// error sentence of an illegal one. Each game package returns one from
// New(Spec).

// PileKind says what a pile is for; the arcade uses it for labels, for the
// empty-place outline and to decide what a tap on it means.
type PileKind uint8

const (
	Stock PileKind = iota
	Waste
	Foundation
	Tableau
	Cell
	Slot // one place of a fixed layout (Pyramid, TriPeaks): holds 0 or 1 card
)

// Fan is how a pile's cards are laid out on screen.
type Fan uint8

const (
	FanNone  Fan = iota // only the top card shows
	FanDown             // one line per card, downwards (tableau columns)
	FanRight            // the top Show cards side by side (Draw 3 waste)
)

// Pile is one place on the table as the player sees it. Cards are bottom
// first. FaceDown counts the face-down cards at the bottom of the pile; the
// arcade never learns what they are beyond that (their values are still in
// Cards so the renderer can hide them, so games that must not leak them put
// NoCard there instead).
type Pile struct {
	Kind     PileKind
	Cards    []Card
	FaceDown int
	Show     int  // FanRight: how many top cards to show
	Blocked  bool // Slot: covered, so not playable now (drawn dimmer)
	X, Y     int  // X in half-card columns, Y in card rows (lines)
	Fan      Fan
	Label    string // shown under or on an empty place, e.g. "23" for a stock count
}

// Top returns the top card or NoCard.
func (p Pile) Top() Card {
	if len(p.Cards) == 0 {
		return NoCard
	}
	return p.Cards[len(p.Cards)-1]
}

// ActionKind separates the few gestures a player has.
type ActionKind uint8

const (
	// Move takes the cards of pile From from position Index upwards and puts
	// them on pile To. Pyramid reads it as "pair card From with card To".
	Move ActionKind = iota
	// Draw is a tap on the stock: turn cards, deal a row, or redeal.
	Draw
	// Auto is a double click on card Index of pile From: send it to its
	// foundation, else to its best legal place (TriPeaks: to the waste;
	// Pyramid: remove a King).
	Auto
)

// Action is one player gesture. It is a value so that a save is a list of
// them and replaying the list rebuilds the game.
type Action struct {
	Kind  ActionKind `json:"k"`
	From  int        `json:"f"`
	Index int        `json:"i"`
	To    int        `json:"t"`
}

// Solitaire is a game in play. Do either applies the action and returns nil,
// or leaves the game exactly as it was and returns an error whose text is one
// sentence for the player. Undo steps back one successful Do, restoring score
// and move count too.
type Solitaire interface {
	Spec() Spec
	Piles() []Pile
	Do(a Action) error
	Undo() bool
	Score() int
	Moves() int
	Won() bool
	// Stuck reports that no legal move can change the position any more
	// (cycling a stock that reveals nothing new does not count).
	Stuck() bool
	// History is every successful action since the deal, in order, without
	// the undone ones: replaying it on a fresh deal rebuilds this game.
	History() []Action
	// Hint suggests an action using only what the player has seen. ok is
	// false when it finds nothing.
	Hint() (a Action, why string, ok bool)
}
