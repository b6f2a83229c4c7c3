package klondike

import (
	"testing"

	"sshuffle/engine"
	"sshuffle/internal/gametest"
)

// BenchmarkHint times a hint from every third position reached in play of
// deals 1-40 in each draw:
//
//	go test -run '^$' -bench Hint -benchtime 1x ./games/klondike/
func BenchmarkHint(b *testing.B) {
	for _, v := range []string{"draw1", "draw3"} {
		b.Run(v, func(b *testing.B) {
			games := gametest.PlayedPositions(b, gametest.Specs("klondike", v, 40), 3, New,
				func(s engine.Spec) engine.Result[engine.Action] { return Solve(s, 200_000) }, (*Game).clone)
			gametest.HintTimes(b, len(games), func(i int) bool { _, _, ok := games[i].Hint(); return ok })
		})
	}
}
