package hub

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// CodeAlphabet is the letters a code is made of: no digits at all, and none
// of the letters that read as digits or as each other (I, L, O).
const CodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ"

// CodeLen is five letters: 23^5 is about 6.4 million codes, so with a few
// thousand live rooms a guessed code almost never opens one, and five
// letters still fit in one glance and one breath.
const CodeLen = 5

// expiredMemory is how long, and for how many codes, the hub remembers a
// code whose room has ended: long enough that yesterday's invite line says
// "ended" rather than "no such room", and that a fresh room does not take
// over a code still pasted in someone's chat.
const (
	expiredFor = 24 * time.Hour
	expiredMax = 100_000
)

// Rand is the random source codes are drawn from; *engine.RNG is one. The
// hub reads it under its own lock, so it needs none of its own.
type Rand interface {
	Uint64() uint64
}

// drawCode makes one code, each letter drawn without modulo bias.
func drawCode(r Rand) string {
	n := uint64(len(CodeAlphabet))
	limit := -n % n // 2^64 mod n: values below it would favour the first letters
	var b [CodeLen]byte
	for i := range b {
		v := r.Uint64()
		for v < limit {
			v = r.Uint64()
		}
		b[i] = CodeAlphabet[v%n]
	}
	return string(b[:])
}

// NormalizeCode reads a code as a player might type it (any case, spaces
// around) and returns it in the form the hub keeps, or ErrBadCode. Its
// result contains only letters of CodeAlphabet, which is what makes it safe
// to repeat back to the player.
func NormalizeCode(text string) (string, error) {
	c := strings.ToUpper(strings.TrimSpace(text))
	if len(c) != CodeLen {
		return "", ErrBadCode
	}
	for i := 0; i < len(c); i++ {
		if strings.IndexByte(CodeAlphabet, c[i]) < 0 {
			return "", ErrBadCode
		}
	}
	return c, nil
}

// InviteLine is the command a player pastes to land in the room with the
// given code: "ssh -t -p PORT HOST join CODE". Port 22 is left out because
// ssh assumes it, which keeps the line short. An IPv6 address is fine bare:
// ssh takes the host as its own argument.
func InviteLine(host string, port int, code string) string {
	if port == 22 || port == 0 {
		return fmt.Sprintf("ssh -t %s join %s", host, code)
	}
	return "ssh -t -p " + strconv.Itoa(port) + " " + host + " join " + code
}
