package wirejson

import (
	"strconv"

	"sshuffle/engine"
)

// AppendCards appends what engine.WireCards's MarshalJSON writes for cs
// (null for a nil slice, as json.Marshal writes one).
func AppendCards(b []byte, cs []engine.Card) ([]byte, error) {
	if cs == nil {
		return append(b, "null"...), nil
	}
	return engine.RecordCards(cs).AppendJSON(b)
}

// AppendInts appends what json.Marshal writes for ns.
func AppendInts(b []byte, ns []int) []byte {
	if ns == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, n := range ns {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, ']')
}
