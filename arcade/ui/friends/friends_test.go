package friends

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/throttle"
	"sshuffle/internal/uitest"
)

// type enters a name at the screen's add prompt.
func typeName(s *screen, name string) {
	s.Update(uitest.Key("a"))
	for _, r := range name {
		s.Update(uitest.Key(string(r)))
	}
	s.Update(uitest.Key("enter"))
}

// Names nobody has are answered a few times, then held back with a
// sentence, for every name alike.
func TestUnknownNamesAreHeldBack(t *testing.T) {
	e, clk := uitest.Env(t)
	e.Player.Addr = "192.0.2.1"
	e.Names = throttle.NewNames(clk.Now, nil)
	_, err := e.Store.CreateAccount(t.Context(), "SHA256:bob", "bob")
	require.NoError(t, err)
	s := New(e).(*screen)
	unknown, held := 0, 0
	for i := range 12 {
		typeName(s, fmt.Sprintf("ghost%d", i))
		switch {
		case strings.HasPrefix(s.msg, "Nobody here is called"):
			unknown++
		case s.msg == throttle.TooManyNames:
			held++
		default:
			t.Fatalf("ghost%d: %q", i, s.msg)
		}
	}
	require.Positive(t, unknown)
	require.Positive(t, held)
	typeName(s, "bob")
	require.Equal(t, throttle.TooManyNames, s.msg, "a known name is held back alike")
}
