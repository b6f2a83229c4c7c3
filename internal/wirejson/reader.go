// Package wirejson reads JSON written in one exact form, the form a table
// game's codec writes its views in, without encoding/json's reflection,
// and has the appenders the codecs write that form with. A
// Reader gives up at the first byte out of that form (OK turns false), and
// the codec then reads the bytes with json.Unmarshal as before: what a
// Reader reads, it reads as json.Unmarshal would.
package wirejson

import (
	"bytes"
	"strconv"

	"sshuffle/engine"
)

// Reader reads b token by token.
type Reader struct {
	b  []byte
	ok bool
}

// NewReader reads b.
func NewReader(b []byte) *Reader { return &Reader{b: b, ok: true} }

// OK: everything so far was in the form, and Done: all of it was read.
func (r *Reader) OK() bool   { return r.ok }
func (r *Reader) Done() bool { return r.ok && len(r.b) == 0 }

// Next is the next byte, 0 at the end or once out of the form.
func (r *Reader) Next() byte {
	if !r.ok || len(r.b) == 0 {
		return 0
	}
	return r.b[0]
}

// At: the bytes next are s (read by nothing yet).
func (r *Reader) At(s string) bool {
	return r.ok && len(r.b) >= len(s) && string(r.b[:len(s)]) == s
}

// Lit reads s exactly.
func (r *Reader) Lit(s string) {
	if r.ok && len(r.b) >= len(s) && string(r.b[:len(s)]) == s {
		r.b = r.b[len(s):]
		return
	}
	r.ok = false
}

// Int reads a number as strconv.AppendInt writes an int: a minus sign or
// not, then one to nine digits without a leading zero (longer ones are
// json.Unmarshal's to judge).
func (r *Reader) Int() int {
	if !r.ok {
		return 0
	}
	i := 0
	if i < len(r.b) && r.b[i] == '-' {
		i++
	}
	start := i
	for i < len(r.b) && r.b[i] >= '0' && r.b[i] <= '9' {
		i++
	}
	digits := i - start
	if digits == 0 || digits > 9 || (digits > 1 && r.b[start] == '0') {
		r.ok = false
		return 0
	}
	n, err := strconv.Atoi(string(r.b[:i]))
	if err != nil {
		r.ok = false
		return 0
	}
	r.b = r.b[i:]
	return n
}

// Bool reads true or false.
func (r *Reader) Bool() bool {
	if r.Next() == 't' {
		r.Lit("true")
		return true
	}
	r.Lit("false")
	return false
}

// Ints reads null or [n,n,...].
func (r *Reader) Ints() []int {
	if !r.ok {
		return nil
	}
	if r.Next() == 'n' {
		r.Lit("null")
		return nil
	}
	r.Lit("[")
	out := []int{}
	if r.Next() == ']' {
		r.b = r.b[1:]
		return out
	}
	for r.ok {
		out = append(out, r.Int())
		if r.Next() == ']' {
			r.b = r.b[1:]
			return out
		}
		r.Lit(",")
	}
	return nil
}

// Plain reads a string of letters, digits and '-' between quotes, which
// JSON writes as it is.
func (r *Reader) Plain() string {
	if r.Next() != '"' {
		r.ok = false
		return ""
	}
	i := 1
	for i < len(r.b) && plain(r.b[i]) {
		i++
	}
	if i >= len(r.b) || r.b[i] != '"' {
		r.ok = false
		return ""
	}
	s := string(r.b[1:i])
	r.b = r.b[i+1:]
	return s
}

func plain(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '-'
}

// Cards reads null or a list of cards as engine.WireCards reads them.
func (r *Reader) Cards() engine.WireCards {
	if !r.ok {
		return nil
	}
	if r.Next() == 'n' {
		r.Lit("null")
		return nil
	}
	end := bytes.IndexByte(r.b, ']')
	if r.Next() != '[' || end < 0 {
		r.ok = false
		return nil
	}
	// Cards are letters or digits between quotes: a ']' in the list
	// would be in no card, and the list ends at the first.
	for _, c := range r.b[1:end] {
		if c != '"' && c != ',' && (!plain(c) || c == '-') {
			r.ok = false
			return nil
		}
	}
	var cs engine.WireCards
	if err := cs.UnmarshalJSON(r.b[:end+1]); err != nil || cs == nil {
		r.ok = false
		return nil
	}
	r.b = r.b[end+1:]
	return cs
}
