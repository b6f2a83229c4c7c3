package arcade

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// Startups is random early drop of new unauthenticated connections, as
// OpenSSH's MaxStartups start:rate:full: with Start or more connections
// not yet past their login, a new one is refused with probability Rate%,
// rising linearly to 100% at Full. Connections that are half-open on
// purpose (a flood that never finishes its handshake) then stop well short
// of the server's total cap, so the players' sessions are never refused
// for them, and an honest login among the flood still gets in with the
// odds that remain (a retry usually does).
type Startups struct{ Start, Rate, Full int }

// DefaultStartups are OpenSSH's own figures. Ten logins in their
// handshake at once is far more than an arcade sees (a handshake takes a
// few round trips, so ten at a time is hundreds of logins a second on a
// near link), and a hundred half-open connections hold about 2 MB of
// buffers and a goroutine each: nothing the server notices.
var DefaultStartups = Startups{Start: 10, Rate: 30, Full: 100}

func (s Startups) String() string { return fmt.Sprintf("%d:%d:%d", s.Start, s.Rate, s.Full) }

// ParseStartups reads "start:rate:full" (or a lone "full": every new
// connection refused at full, none before, as OpenSSH reads it).
func ParseStartups(v string) (Startups, error) {
	parts := strings.Split(v, ":")
	nums := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return Startups{}, fmt.Errorf("max-startups %q: want start:rate:full, three whole numbers (e.g. 10:30:100)", v)
		}
		nums[i] = n
	}
	var s Startups
	switch len(nums) {
	case 1:
		s = Startups{Start: nums[0], Rate: 100, Full: nums[0]}
	case 3:
		s = Startups{Start: nums[0], Rate: nums[1], Full: nums[2]}
	default:
		return Startups{}, fmt.Errorf("max-startups %q: want start:rate:full (e.g. 10:30:100)", v)
	}
	if s.Full < s.Start || s.Rate > 100 || s.Full == 0 {
		return Startups{}, fmt.Errorf("max-startups %q: want start <= full, full above 0, and a rate of at most 100 (%%)", v)
	}
	return s, nil
}

// refuse says whether a new connection is refused with n connections
// unauthenticated; draw gives a number in [0, 1).
func (s Startups) refuse(n int, draw func() float64) bool {
	switch {
	case n < s.Start:
		return false
	case n >= s.Full:
		return true
	}
	p := float64(s.Rate) + float64(100-s.Rate)*float64(n-s.Start)/float64(s.Full-s.Start)
	return draw()*100 < p
}

// staleLogin is how long a connection may sit in its login before a new
// one may take its place while many are in theirs: a key login takes a
// few round trips, well under this on any link players use, while a
// half-open flood holds its connections for as long as it can. A person
// typing a key's passphrase may take longer, and is cut off only during
// such a flood (their ssh then says so, and a retry gets in).
const staleLogin = 2 * time.Second

// randFloat is the default draw: unpredictable, so a flood cannot time its
// connections to the drops.
func randFloat() float64 { return rand.Float64() }
