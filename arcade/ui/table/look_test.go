package table

import (
	"os"
	"testing"

	"sshuffle/games/kings"
)

func TestLook(t *testing.T) {
	if os.Getenv("LOOK") == "" {
		t.Skip()
	}
	var g *kings.Game
	for seed := uint64(1); g == nil && seed < 300; seed++ {
		g = kingsGame(t, seed, 2)
		if !playKingsUntil(t, g, func() bool { return g.Turn() == 0 && len(g.View(0).Hand) >= 14 }) {
			g = nil
		}
	}
	rg := newKingsRig(t, g, 0, false)
	press(rg.r, "9", "right", "right", "right", "down")
	t.Log("\n" + rg.frame())
	sg := spiteGame(t, 5)
	playSpiteUntil(t, sg, func() bool { return len(sg.History()) > 120 && sg.Turn() == 0 })
	srg := newSpiteRig(t, sg, 0, false)
	t.Log("\n" + srg.frame())
}
