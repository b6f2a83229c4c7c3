package arcade

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui/board"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/klondike"
	"sshuffle/internal/sshtest"
	"sshuffle/store"
)

var codeRE = regexp.MustCompile(`Race ([A-Z]{5})`)

// codeOn reads the room's code off a race screen.
func codeOn(t *testing.T, screen string) string {
	t.Helper()
	m := codeRE.FindStringSubmatch(screen)
	require.NotNil(t, m, "no race code on the screen:\n%s", screen)
	return m[1]
}

// solvedKlondikeDeal is a Draw 1 deal the solver wins, with its moves.
func solvedKlondikeDeal(t *testing.T) (engine.Spec, []engine.Action) {
	t.Helper()
	for seed := uint64(1); seed < 60; seed++ {
		spec := engine.Spec{Game: "klondike", Variant: "draw1", Seed: seed}
		if r := klondike.Solve(spec, 300_000); r.Outcome == engine.Solved {
			return spec, r.Moves
		}
	}
	t.Fatal("no solved deal")
	return engine.Spec{}, nil
}

// mouseRacer plays a mirror of a racer's game and clicks where the race
// screen draws its cards: the board at the left of a w-column window with
// the panel beside it, one line under the header.
type mouseRacer struct {
	t    *testing.T
	tm   *sshtest.Term
	g    engine.Solitaire
	w, h int
}

func (m *mouseRacer) cell(pile, index int) (int, int) {
	m.t.Helper()
	piles := m.g.Piles()
	bw, _ := board.Size(piles)
	reserve := 0
	if m.w-bw >= 24+2 {
		reserve = 24 + 1
	}
	off := max((m.w-reserve-bw)/2, 0)
	c := board.View{Unicode: true, Color: true, OffsetX: off}.Render(piles, min(m.w-reserve, 200), m.h-4, nil)
	for y := range c.Height() {
		for x := range c.Width() {
			if h := c.At(x, y); h.OK && h.Pile == pile && h.Index == index {
				return x, y + 1
			}
		}
	}
	m.t.Fatalf("no cell of pile %d card %d", pile, index)
	return 0, 0
}

// play makes move a with the mouse and waits for the screen to count it.
func (m *mouseRacer) play(a engine.Action) {
	m.t.Helper()
	piles := m.g.Piles()
	switch a.Kind {
	case engine.Draw:
		for i, p := range piles {
			if p.Kind == engine.Stock {
				x, y := m.cell(i, len(p.Cards)-1)
				m.tm.Click(x, y)
			}
		}
	case engine.Auto:
		idx := len(piles[a.From].Cards) - 1
		if a.Index >= 0 && a.Index < len(piles[a.From].Cards) {
			idx = a.Index
		}
		x, y := m.cell(a.From, idx)
		m.tm.Click(x, y)
		m.tm.Click(x, y)
	default:
		idx := a.Index
		if piles[a.From].Fan != engine.FanDown {
			idx = len(piles[a.From].Cards) - 1
		}
		x, y := m.cell(a.From, idx)
		m.tm.Click(x, y)
		x, y = m.cell(a.To, len(piles[a.To].Cards)-1)
		m.tm.Click(x, y)
	}
	require.NoError(m.t, m.g.Do(a))
	want := fmt.Sprintf("Moves %d ", m.g.Moves())
	m.tm.WaitFunc(want, func(s string) bool { return strings.Contains(s, want) || strings.Contains(s, "results") })
}

// A race of three over real SSH: the countdown seen by all, each sees the
// others' progress, one drops and rejoins where they were, the finishing
// order is shown and stored.
func TestEndToEndRaceOfThree(t *testing.T) {
	clk := hub.NewManualClock()
	// No invite host set: the line names the address the client reached.
	ts := startServerWith(t, Config{HubClock: clk})
	spec, moves := solvedKlondikeDeal(t)
	keys := map[string]any{}
	_ = keys
	aliceKey, bobKey, carolKey := sshtest.NewClientKey(t), sshtest.NewClientKey(t), sshtest.NewClientKey(t)

	ca := sshtest.Dial(t, ts.addr, "alice", aliceKey)
	defer ca.Close()
	alice := sshtest.OpenTermSize(t, ca, nil, "race "+spec.String(), 80, 60)
	s := alice.WaitFor("Invite: ")
	code := codeOn(t, s)
	_, port, _ := strings.Cut(ts.addr, ":")
	line := "ssh -t -p " + port + " 127.0.0.1 join " + code
	require.Contains(t, s, line, "the invite line names the real host and port")

	cb := sshtest.Dial(t, ts.addr, "bob", bobKey)
	defer cb.Close()
	bob := sshtest.OpenTermCmd(t, cb, nil, "join "+code)
	cc := sshtest.Dial(t, ts.addr, "carol", carolKey)
	carol := sshtest.OpenTermCmd(t, cc, nil, "join "+code)
	for _, tm := range []*sshtest.Term{alice, bob, carol} {
		tm.WaitFor("Racers (3/8)")
	}
	s = bob.WaitFor("carol")
	require.Contains(t, s, "alice")
	require.Contains(t, s, "Waiting for the host")

	alice.Send("s")
	for n := 3; n >= 1; n-- {
		for _, tm := range []*sshtest.Term{alice, bob, carol} {
			tm.WaitFor(fmt.Sprintf("Starting in %d", n))
		}
		clk.Advance(time.Second)
	}
	for _, tm := range []*sshtest.Term{alice, bob, carol} {
		tm.WaitFor("Moves 0 ")
	}

	// Each sees the others move: bob turns a card, carol two.
	bob.Send("d")
	bob.WaitFor("Moves 1 ")
	alice.WaitFor("0/52 1m")
	carol.WaitFor("0/52 1m")
	carol.Send("d")
	carol.WaitFor("Moves 1 ")
	carol.Send("d")
	carol.WaitFor("Moves 2 ")
	alice.WaitFor("0/52 2m")
	bob.WaitFor("0/52 2m")

	// Carol's connection drops: she is out, then back where she was.
	cc.Close()
	alice.WaitFor("out (dropped)")
	cc2 := sshtest.Dial(t, ts.addr, "carol", carolKey)
	defer cc2.Close()
	carol = sshtest.OpenTermCmd(t, cc2, nil, "join "+code)
	s = carol.WaitFor("Back in the race")
	require.Contains(t, s, "Moves 2 ", "her game continues where it was")
	alice.WaitFor("0/52 2m")

	// Bob and carol give up; alice plays the deal out by mouse.
	bob.Send("q")
	bob.WaitFor("Press q again")
	bob.Send("q")
	bob.WaitFor("You are out of this race")
	carol.Send("qq")
	carol.WaitFor("You are out of this race")
	alice.WaitFor("out (gave up)")

	// Dave comes after the start: he watches, sees every racer, and
	// follows alice's board.
	cd := sshtest.Dial(t, ts.addr, "dave", sshtest.NewClientKey(t))
	defer cd.Close()
	dave := sshtest.OpenTermCmd(t, cd, nil, "join "+code)
	s = dave.WaitFor("You are watching")
	for _, who := range []string{"alice", "bob", "carol"} {
		require.Contains(t, s, who)
	}
	m := regexp.MustCompile(`(?m)^(\d) .*alice`).FindStringSubmatch(s)
	require.NotNil(t, m, "alice's line on the watcher's screen:\n%s", s)
	dave.Send(m[1])
	dave.WaitFor("watching alice")
	bob.WaitFor("1 watching")

	entry, _ := games.Default().Entry("klondike/draw1")
	g, err := entry.Game.New(spec, entry.Defaults())
	require.NoError(t, err)
	mr := &mouseRacer{t: t, tm: alice, g: g, w: 80, h: 60}
	for _, a := range moves {
		mr.play(a)
	}
	for _, tm := range []*sshtest.Term{alice, bob, carol, dave} {
		s = tm.WaitFor("results")
		require.Regexp(t, `1\s+1st\s+alice`, s)
	}

	// Stored: the race on every racer's record, alice's win as a result.
	var races []store.RaceRecord
	require.Eventually(t, func() bool {
		races, err = ts.store.Races(t.Context(), bobID(t, ts, "bob"), 10)
		return err == nil && len(races) == 1
	}, 10*time.Second, 20*time.Millisecond)
	// A race that ends as races end leaves no record for a restart.
	require.Eventually(t, func() bool {
		live, err := ts.store.LiveRaces(t.Context())
		return err == nil && len(live) == 0
	}, 10*time.Second, 20*time.Millisecond)
	rec := races[0]
	require.Equal(t, code, rec.Code)
	require.Equal(t, spec.String(), rec.Spec)
	require.Len(t, rec.Racers, 3)
	require.Equal(t, "alice", rec.Racers[0].Name)
	require.Equal(t, 1, rec.Racers[0].Place)
	require.Equal(t, "won", rec.Racers[0].Status)
	for _, r := range rec.Racers[1:] {
		require.Equal(t, 0, r.Place)
		require.Equal(t, "gave up", r.Status)
	}
	// On the profile too.
	for _, tm := range []*sshtest.Term{alice, bob} {
		tm.Send("q")
		tm.WaitFor("Playing as")
		tm.Send("p")
		s = tm.WaitFor("Races: 1")
		require.Contains(t, s, spec.String())
	}
	require.Contains(t, alice.Screen(), "Races: 1, first in 1")
	require.Regexp(t, `1st\s+of 3`, alice.Screen())
	require.Regexp(t, `out\s+of 3`, bob.Screen())

	results, err := ts.store.Results(t.Context(), bobID(t, ts, "alice"), 5)
	require.NoError(t, err)
	require.NotEmpty(t, results)
	require.True(t, results[0].Won)
	require.Equal(t, len(moves), results[0].Moves)
	require.NotEmpty(t, results[0].Timeline, "the run keeps its timeline for ghosts")
	n, _ := strconv.Atoi(fmt.Sprint(len(results[0].Timeline)))
	require.Equal(t, len(moves)+1, n, "a step per move and the start")

	// In alice's history the race has her moves, each with its time, so
	// it replays on her board.
	h, err := ts.store.HistoryGame(t.Context(), bobID(t, ts, "alice"), store.RaceID(rec))
	require.NoError(t, err)
	require.NotNil(t, h.Result)
	require.Len(t, h.Result.Actions, len(moves))
	require.Len(t, h.Result.Times, len(moves))
	replayed, err := entry.Game.New(spec, entry.Defaults())
	require.NoError(t, err)
	for _, a := range h.Result.Actions {
		require.NoError(t, replayed.Do(a))
	}
	require.True(t, replayed.Won(), "her kept moves win the deal again")
}

// bobID is the account id of a named player.
func bobID(t *testing.T, ts *testServer, name string) string {
	t.Helper()
	a, err := ts.store.AccountByName(t.Context(), name)
	require.NoError(t, err)
	return a.ID
}
