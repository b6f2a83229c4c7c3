package table

import (
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// TestKeptTableFramesAreFresh: after every step of two of the recorded
// scripts (a seat at Spite, a watcher at Kings: the longest, between them
// every kind of step), the frame drawn from what the screen kept is the
// frame drawn afresh, and its pieces put together are the view.
func TestKeptTableFramesAreFresh(t *testing.T) {
	for _, sc := range tableScripts {
		if sc.name != "spite_seat2" && sc.name != "kings_watcher" {
			continue
		}
		t.Run(sc.name, func(t *testing.T) {
			playTableFrames(t, sc, func(v *simView) {
				t.Helper()
				c := v.core()
				kept := c.View()
				require.Equal(t, kept, strings.Join(c.ViewPieces(nil), ""), "the pieces are not the view")
				c.frame = frameParts{}
				require.Equal(t, c.View(), kept, "the frame drawn from what was kept differs from one drawn afresh")
			})
		})
	}
}

// A turn of the clock makes the header line alone: the other lines are
// the strings of the frame before.
func TestTableClockTurnMakesOneLine(t *testing.T) {
	for _, game := range []string{"spite", "kings"} {
		t.Run(game, func(t *testing.T) {
			names, people := []string{"ann", "bob"}, []bool{true, true}
			if game == "kings" {
				names, people = []string{"ann", "Hopper", "bob", "Turing"}, []bool{true, false, true, false}
			}
			s := newSim(t, game, "", 3, names, people, []int{0, engine.Spectator})
			for s.g.Turn() != 0 {
				s.play()
			}
			s.push()
			for _, v := range s.views {
				c := v.core()
				before := c.ViewPieces(nil)
				require.Len(t, before, v.e.Height, "a piece a line")
				s.clk.Advance(time.Second)
				after := c.ViewPieces(nil)
				require.Len(t, after, len(before))
				require.NotEqual(t, before[0], after[0], "the clock turned")
				for i := 1; i < len(after); i++ {
					require.Equal(t, unsafe.StringData(before[i]), unsafe.StringData(after[i]), "line %d was made again", i)
				}
				// Nothing turned: nothing is made.
				again := c.ViewPieces(nil)
				require.Equal(t, unsafe.StringData(after[0]), unsafe.StringData(again[0]))
				c.frame = frameParts{}
				require.Equal(t, c.View(), strings.Join(after, ""), "the pieces differ from a frame drawn afresh")
			}
		})
	}
}
