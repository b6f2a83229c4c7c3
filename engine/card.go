// Package engine holds what every card game shares: cards, decks, seeded
// shuffles, deal specs, the interface the arcade plays solitaires through,
// and the search core the solvers are built on. It does no I/O, reads no
// clock and uses no global random source, so a game is reproducible.
package engine

import (
	"fmt"
	"strings"
)

// Suit order follows the Microsoft FreeCell deal (clubs, diamonds, hearts,
// spades) so that a deck built in index order is the deck Rosetta Code uses.
type Suit uint8

const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
)

// Suits lists the four suits in deck order.
var Suits = [4]Suit{Clubs, Diamonds, Hearts, Spades}

// Red reports whether the suit is hearts or diamonds.
func (s Suit) Red() bool { return s == Hearts || s == Diamonds }

// Letter is the ASCII form used where the client cannot show symbols.
func (s Suit) Letter() string { return string("CDHS"[s&3]) }

// Symbol is the Unicode suit symbol.
func (s Suit) Symbol() string { return [...]string{"♣", "♦", "♥", "♠"}[s&3] }

// Name is the suit's English name, for error sentences.
func (s Suit) Name() string { return [...]string{"clubs", "diamonds", "hearts", "spades"}[s&3] }

// Rank runs from Ace (1) to King (13).
type Rank uint8

const (
	Ace   Rank = 1
	Jack  Rank = 11
	Queen Rank = 12
	King  Rank = 13
)

// Short is the rank as printed on a card: A 2..10 J Q K.
func (r Rank) Short() string {
	switch r {
	case Ace:
		return "A"
	case 10:
		return "10"
	case Jack:
		return "J"
	case Queen:
		return "Q"
	case King:
		return "K"
	}
	return string(rune('0' + r))
}

// Name is the rank in words, for error sentences.
func (r Rank) Name() string {
	switch r {
	case Ace:
		return "Ace"
	case Jack:
		return "Jack"
	case Queen:
		return "Queen"
	case King:
		return "King"
	}
	return fmt.Sprint(int(r))
}

// Card packs a suit and a rank into one byte. The zero Card is "no card".
type Card uint8

// NoCard is the zero value: an empty place.
const NoCard Card = 0

// NewCard makes a card of rank r and suit s.
func NewCard(r Rank, s Suit) Card { return Card(uint8(s)<<4 | uint8(r)) }

func (c Card) Rank() Rank  { return Rank(c & 0x0f) }
func (c Card) Suit() Suit  { return Suit(c >> 4 & 3) }
func (c Card) Red() bool   { return c.Suit().Red() }
func (c Card) Valid() bool { return c.Rank() >= Ace && c.Rank() <= King && c>>6 == 0 }

// Index is 0..51 in Microsoft deck order: rank-major, suits C D H S.
func (c Card) Index() int { return (int(c.Rank())-1)*4 + int(c.Suit()) }

// CardFromIndex inverts Index.
func CardFromIndex(i int) Card { return NewCard(Rank(i/4+1), Suit(i%4)) }

// String is the symbol form, "10♥", used in sentences for the player.
func (c Card) String() string {
	if c == NoCard {
		return "--"
	}
	return c.Rank().Short() + c.Suit().Symbol()
}

// ASCII is the two-character form "TH", "AS" of the Rosetta Code deals.
func (c Card) ASCII() string {
	if c == NoCard {
		return "--"
	}
	r := c.Rank().Short()
	if r == "10" {
		r = "T"
	}
	return r + c.Suit().Letter()
}

// Label renders the card for a terminal: symbols, or letters when the
// client's locale is not UTF-8.
func (c Card) Label(unicode bool) string {
	if unicode {
		return c.String()
	}
	return c.Rank().Short() + c.Suit().Letter()
}

// Colour word for sentences: "red" or "black".
func (c Card) Colour() string {
	if c.Red() {
		return "red"
	}
	return "black"
}

// ParseCard reads "TH", "10h", "K♠", "as" and the like.
func ParseCard(s string) (Card, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return NoCard, fmt.Errorf("empty card")
	}
	rs := []rune(strings.ToUpper(s))
	suitR := rs[len(rs)-1]
	rankS := string(rs[:len(rs)-1])
	var suit Suit
	switch suitR {
	case 'C', '♣':
		suit = Clubs
	case 'D', '♦':
		suit = Diamonds
	case 'H', '♥':
		suit = Hearts
	case 'S', '♠':
		suit = Spades
	default:
		return NoCard, fmt.Errorf("%q: unknown suit", s)
	}
	var rank Rank
	switch rankS {
	case "A", "1":
		rank = Ace
	case "T", "10":
		rank = 10
	case "J":
		rank = Jack
	case "Q":
		rank = Queen
	case "K":
		rank = King
	default:
		if len(rankS) == 1 && rankS[0] >= '2' && rankS[0] <= '9' {
			rank = Rank(rankS[0] - '0')
		} else {
			return NoCard, fmt.Errorf("%q: unknown rank", s)
		}
	}
	return NewCard(rank, suit), nil
}

// MustCards parses a space-separated list; for tests and tables.
func MustCards(s string) []Card {
	var out []Card
	for _, f := range strings.Fields(s) {
		c, err := ParseCard(f)
		if err != nil {
			panic(err)
		}
		out = append(out, c)
	}
	return out
}

// Deck returns one 52-card deck in index order.
func Deck() []Card {
	d := make([]Card, 52)
	for i := range d {
		d[i] = CardFromIndex(i)
	}
	return d
}
