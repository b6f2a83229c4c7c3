package table

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/internal/uitest"
)

// A seat's rating follows its name (a provisional one marked), and a rated
// table says so in its header; a casual table does not.
func TestSeatsShowRatings(t *testing.T) {
	for _, rated := range []bool{false, true} {
		g := kingsGame(t, 7, 2)
		seat := g.Turn()
		rg := newKingsRig(t, g, seat, true)
		seats := fourSeats()[:2]
		seats[0].Rating, seats[1].Rating = "1623", "1500?"
		rg.r.Update(KingsState{Common: Common{Table: "KINGS", Seats: seats, Clock: 42 * time.Second, Rated: rated},
			View: g.View(seat)})
		f := rg.frame()
		uitest.Fits(t, f, 80, 24)
		// Beside the name, or under it when the name fills its line.
		require.Contains(t, f, rg.c.whoOnly(0))
		require.Contains(t, f, rg.c.whoOnly(1))
		require.Contains(t, f, "1623")
		require.Contains(t, f, "1500?")
		require.Regexp(t, `^`+rg.c.name(0)+` \(.*\) 1623$|^`+rg.c.name(0)+` 1623$`, rg.c.who(0))
		require.Regexp(t, ` 1500\?$`, rg.c.who(1))
		if rated {
			require.Contains(t, lineWith(t, f, "Kings in the Corner"), "· rated")
		} else {
			require.NotContains(t, f, "rated")
		}
	}
}
