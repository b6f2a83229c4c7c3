package engine

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// slowRecordCard is the record's card read the long way: any card ParseCard
// reads whose ASCII form is exactly the text.
func slowRecordCard(s string) (Card, bool) {
	c, err := ParseCard(s)
	return c, err == nil && len(s) == 2 && c.ASCII() == s
}

// TestRecordCardsAsJSONWrites: the cards' codec writes and reads exactly
// what encoding/json writes and reads for the cards' two-character
// strings, for every card value, every two characters, and lists written
// with spaces or escapes.
func TestRecordCardsAsJSONWrites(t *testing.T) {
	all := make(RecordCards, 256)
	for i := range all {
		all[i] = Card(i)
	}
	for _, n := range []int{0, 1, 2, 256} {
		cs := all[:n]
		ss := make([]string, len(cs))
		for i, c := range cs {
			ss[i] = c.ASCII()
		}
		want, err := json.Marshal(ss)
		require.NoError(t, err)
		got, err := cs.MarshalJSON()
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
	}
	var nilCards RecordCards
	got, err := json.Marshal(nilCards)
	require.NoError(t, err)
	require.Equal(t, "[]", string(got))

	for a := range 128 {
		for b := range 128 {
			s := string([]byte{byte(a), byte(b)})
			want, wantOK := slowRecordCard(s)
			c, err := ParseRecordCard(s)
			require.Equal(t, wantOK, err == nil, "%q", s)
			if wantOK {
				require.Equal(t, want, c, "%q", s)
			}
			q, _ := json.Marshal(s)
			var back RecordCards
			err = json.Unmarshal([]byte("["+string(q)+","+string(q)+"]"), &back)
			require.Equal(t, wantOK, err == nil, "%s", q)
			if wantOK {
				require.Equal(t, RecordCards{want, want}, back)
			}
		}
	}
	for text, want := range map[string]RecordCards{
		`[]`:                    {},
		`[ ]`:                   {},
		`[ "TD" , "AS" ]`:       {NewCard(10, Diamonds), NewCard(Ace, Spades)},
		`["\u0054D","AS"]`:      {NewCard(10, Diamonds), NewCard(Ace, Spades)},
		"[\n\"KH\"\n]":          {NewCard(King, Hearts)},
		`null`:                  {},
		`["TD","AS","2H","3C"]`: {NewCard(10, Diamonds), NewCard(Ace, Spades), NewCard(2, Hearts), NewCard(3, Clubs)},
	} {
		var back RecordCards
		require.NoError(t, json.Unmarshal([]byte(text), &back), text)
		require.Equal(t, want, back, text)
	}
	for _, bad := range []string{`["TD",]`, `["TD""AS"]`, `["TD";"AS"]`, `["T"]`, `["TDX"]`, `[TD]`, `["TD","A"]`, `{}`, `"TD"`} {
		var back RecordCards
		require.Error(t, json.Unmarshal([]byte(bad), &back), bad)
		require.Error(t, back.UnmarshalJSON([]byte(bad)), "called directly: %s", bad)
	}
}

func BenchmarkRecordCards(b *testing.B) {
	cs := RecordCards(MustCards("TD AS 2H 3C 4D 5S 6H 7C 8D 9S JH QC KD"))
	data, _ := json.Marshal(cs)
	b.Run("marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := cs.MarshalJSON(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var back RecordCards
			if err := back.UnmarshalJSON(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
