package pyramid

import (
	"testing"

	"sshuffle/engine"
	"sshuffle/internal/gametest"
)

// BenchmarkHint times a fresh hint from every other position reached in
// play of deals 1-40 and reports the 99th percentile and the worst, in ms,
// and how many positions had none:
//
//	go test -run '^$' -bench Hint -benchtime 1x ./games/pyramid/
func BenchmarkHint(b *testing.B) {
	games := gametest.PlayedPositions(b, gametest.Specs("pyramid", "", 40), 2, New,
		func(s engine.Spec) engine.Result[engine.Action] { return Solve(s, 500_000) },
		func(g *Game) *Game { c := Game{spec: g.spec, st: g.st}; return &c })
	gametest.HintTimes(b, len(games), func(i int) bool { _, _, ok := games[i].Hint(); return ok })
}
