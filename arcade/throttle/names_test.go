package throttle

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// lookups runs tries unknown-name lookups as fast as they come and says
// how many were allowed.
func lookups(n *Names, account, addr string, tries int) int {
	ok := 0
	for range tries {
		if n.Allow(account, addr) {
			ok++
			n.Failed(account, addr)
		}
	}
	return ok
}

func TestUnknownNamesAreThrottledPerAccount(t *testing.T) {
	now := time.Unix(1000, 0)
	n := NewNames(func() time.Time { return now }, nil)
	require.Equal(t, accountBurst, lookups(n, "acct-a", "", 100))
	require.False(t, n.Allow("acct-a", ""), "a known name is refused too while held back")
	require.True(t, n.Allow("acct-b", ""), "another account is not held back")
	now = now.Add(time.Second)
	require.Equal(t, accountRate, lookups(n, "acct-a", "", 100), "a second later")
}

func TestUnknownNamesAreThrottledPerAddress(t *testing.T) {
	now := time.Unix(1000, 0)
	n := NewNames(func() time.Time { return now }, nil)
	allowed := 0
	for i := range 100 {
		allowed += lookups(n, fmt.Sprint("acct-", i), "10.0.0.1", accountBurst)
	}
	require.Equal(t, addrBurst, allowed, "fresh accounts from one address")
	require.True(t, n.Allow("acct-new", "10.0.0.2"))
}

func TestNilNamesAllowsEverything(t *testing.T) {
	var n *Names
	require.Equal(t, 100, lookups(n, "a", "b", 100))
}

func TestNamesForgetsFullBuckets(t *testing.T) {
	now := time.Unix(1000, 0)
	n := NewNames(func() time.Time { return now }, nil)
	for i := range maxKeys + 10 {
		n.Failed(fmt.Sprint("acct-", i), "")
		now = now.Add(time.Millisecond)
	}
	require.LessOrEqual(t, n.size(), maxKeys)
}
