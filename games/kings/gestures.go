//lint:file-ignore ST1005 these errors are the sentences players read, capitalised and punctuated as the house rules ask

package kings

import "errors"

// What a player may try at a table that is no action of the game at all
// (picking up from an empty place, dropping a card off the piles), in the
// game's own words: a screen prints these rather than wording the rules
// itself, so every sentence about the rules comes from this package.
var (
	ErrNothingThere = errors.New("There is no card there to pick up.")
	ErrPileOntoPile = errors.New("A pile moves onto another pile or into an empty corner.")
	ErrCardOntoPile = errors.New("A card from your hand goes onto a pile.")
	ErrNoPlace      = errors.New("That is no place for a card.")
	// ErrFitsNowhere: a card or pile the player asked to place goes on
	// no pile now.
	ErrFitsNowhere = errors.New("That goes on no pile now.")
)
