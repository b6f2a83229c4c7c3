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

func (cs RecordCards) MarshalJSON() ([]byte, error) {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ASCII()
	}
	return json.Marshal(out)
}

func (cs *RecordCards) UnmarshalJSON(data []byte) error {
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

// ParseRecordCard reads only the record's form, so a record is never read
// differently by a lenient reader here and a strict one elsewhere.
func ParseRecordCard(s string) (Card, error) {
	c, err := ParseCard(s)
	if err != nil || len(s) != 2 || c.ASCII() != s {
		return NoCard, fmt.Errorf("%q is not a card (want rank A23456789TJQK and suit SHDC, like \"TD\")", s)
	}
	return c, nil
}
