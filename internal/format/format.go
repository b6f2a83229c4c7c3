// Package format writes the few values that screens and text commands
// show alike: durations, and text that came from a client.
package format

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Duration is "m:ss", or "h:mm:ss" from an hour up.
func Duration(d time.Duration) string {
	d = d.Round(time.Second)
	h := int(d / time.Hour)
	m := int(d % time.Hour / time.Minute)
	s := int(d % time.Minute / time.Second)
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}

// UntilChange is how long until Duration shows a clock that reads d now
// something else (it rounds to the second, so the text turns at each half
// second).
func UntilChange(d time.Duration) time.Duration {
	return time.Second - (d+time.Second/2)%time.Second
}

// Clean strips control characters (and escape sequences with them) from
// text that came from a client, and bounds its length.
func Clean(s string, max int) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			continue
		}
		if n >= max {
			break
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// AppendDuration appends Duration(d) to dst, without making the string.
func AppendDuration(dst []byte, d time.Duration) []byte {
	d = d.Round(time.Second)
	if d < 0 {
		return append(dst, Duration(d)...)
	}
	h := int64(d / time.Hour)
	m := int64(d % time.Hour / time.Minute)
	s := int64(d % time.Minute / time.Second)
	if h > 0 {
		dst = strconv.AppendInt(dst, h, 10)
		dst = append(dst, ':')
		dst = append2(dst, m)
	} else {
		dst = strconv.AppendInt(dst, m, 10)
	}
	dst = append(dst, ':')
	return append2(dst, s)
}

// append2 appends n (0-59) in two digits.
func append2(dst []byte, n int64) []byte {
	return append(dst, byte('0'+n/10), byte('0'+n%10))
}

// Ordinal is n as a place: 1st, 2nd, 3rd, 4th, 11th, 21st.
func Ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}
