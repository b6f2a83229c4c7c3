package engine

import (
	"encoding/json"
	"fmt"
)

// RecordCards is a list of cards that JSON writes as the two-character
// strings of the table games' records ("TD"), bottom first, rather than
// as bytes. Both table games write and read their records through it, so a
// record is read the same way by every game.
type RecordCards []Card

// MarshalJSON writes what json.Marshal writes for the cards' strings,
// without the strings: a table's views are written with every state it
// sends, and their cards are most of them.
func (cs RecordCards) MarshalJSON() ([]byte, error) {
	return cs.AppendJSON(make([]byte, 0, 2+5*len(cs)))
}

// AppendJSON appends what MarshalJSON writes to b, for a caller writing a
// larger value by hand.
func (cs RecordCards) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, '[')
	for i, c := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		s := recordASCII[c]
		if !plainJSON(s) {
			q, err := json.Marshal(s)
			if err != nil {
				return nil, err
			}
			b = append(b, q...)
			continue
		}
		b = append(b, '"')
		b = append(b, s...)
		b = append(b, '"')
	}
	return append(b, ']'), nil
}

// plainJSON: json.Marshal writes s as it is between quotes.
func plainJSON(s string) bool {
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

func (cs *RecordCards) UnmarshalJSON(data []byte) error {
	if out, ok := plainCards(data); ok {
		*cs = out
		return nil
	}
	var ss []string
	if err := json.Unmarshal(data, &ss); err != nil {
		return err
	}
	out := make(RecordCards, len(ss))
	for i, s := range ss {
		c, err := ParseRecordCard(s)
		if err != nil {
			return err
		}
		out[i] = c
	}
	*cs = out
	return nil
}

// plainCards reads the form MarshalJSON writes, ["AS","TD"] with nothing
// between the tokens, and says false for anything else (spaces, escapes,
// a string that is not a card), which the general reader then reads or
// refuses as it always has.
func plainCards(data []byte) (RecordCards, bool) {
	if len(data) < 2 || data[0] != '[' || data[len(data)-1] != ']' {
		return nil, false
	}
	body := data[1 : len(data)-1]
	if len(body) == 0 {
		return RecordCards{}, true
	}
	if (len(body)+1)%5 != 0 {
		return nil, false
	}
	out := make(RecordCards, 0, (len(body)+1)/5)
	for i := 0; i < len(body); i += 5 {
		if body[i] != '"' || body[i+3] != '"' || (i+4 < len(body) && body[i+4] != ',') {
			return nil, false
		}
		c, ok := recordCardOf(body[i+1], body[i+2])
		if !ok {
			return nil, false
		}
		out = append(out, c)
	}
	return out, true
}

// ParseRecordCard reads only the record's form, so a record is never read
// differently by a lenient reader here and a strict one elsewhere.
func ParseRecordCard(s string) (Card, error) {
	if len(s) == 2 {
		if c, ok := recordCardOf(s[0], s[1]); ok {
			return c, nil
		}
	}
	return NoCard, fmt.Errorf("%q is not a card (want rank A23456789TJQK and suit SHDC, like \"TD\")", s)
}

// recordASCII is each card value's ASCII form, and recordCard the card
// of each two ASCII characters ParseRecordCard reads (NoCard for the
// others): exactly the forms ParseCard reads back to the card whose ASCII
// form they are.
var (
	recordASCII [256]string
	recordCard  [128 * 128]Card
)

func recordCardOf(a, b byte) (Card, bool) {
	if a >= 128 || b >= 128 {
		return NoCard, false
	}
	c := recordCard[int(a)*128+int(b)]
	return c, c != NoCard
}

func init() {
	for i := range recordASCII {
		c := Card(i)
		s := c.ASCII()
		recordASCII[i] = s
		if p, err := ParseCard(s); err == nil && len(s) == 2 && p.ASCII() == s && s[0] < 128 && s[1] < 128 {
			recordCard[int(s[0])*128+int(s[1])] = p
		}
	}
}
