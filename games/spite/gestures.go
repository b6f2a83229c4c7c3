//lint:file-ignore ST1005 these errors are the sentences players read, capitalised and punctuated as the house rules ask

package spite

import (
	"errors"
	"fmt"
)

// What a player may try at a table that is no action of the game at all
// (picking up a card from a centre stack, dropping one on a pay-off pile),
// in the game's own words: a screen prints these rather than wording the
// rules itself, so every sentence about the rules comes from this package.
var (
	ErrCentreStays  = errors.New("Cards on the centre stacks stay there.")
	ErrIntoHand     = errors.New("A card can't go back into your hand.")
	ErrOntoPayoff   = errors.New("Nothing goes onto a pay-off pile.")
	ErrSideFromHand = errors.New("A side stack takes cards from your hand only.")
	ErrNoPlace      = errors.New("That is no place for a card.")
	// ErrFitsNowhere: a card the player asked to place fits on no centre
	// stack now.
	ErrFitsNowhere = errors.New("That card fits on no centre stack now.")
	ErrPayoffEmpty = errors.New("Your pay-off pile is empty.")
	ErrSideEmpty   = errors.New("That side stack is empty.")
	// ErrEndByDiscard: a turn with cards in hand ends only by a discard.
	ErrEndByDiscard = errors.New("You end your turn by discarding a card from your hand onto one of your side stacks.")
)

// ErrNotYours says a place belongs to the other player, named by the
// screen: "That is bob's." or, with what, "That is bob's side stack."
func ErrNotYours(name, what string) error {
	if what == "" {
		return fmt.Errorf("That is %s's.", name)
	}
	return fmt.Errorf("That is %s's %s.", name, what)
}
