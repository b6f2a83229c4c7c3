package table

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
	"sshuffle/internal/uitest"
)

func TestKingsFourSeatsFit80x24(t *testing.T) {
	for _, color := range []bool{true, false} {
		g := kingsGame(t, 7, 4)
		seat := g.Turn()
		rg := newKingsRig(t, g, seat, color)
		rg.r.Update(KingsState{Common: Common{Table: "KINGS", Seats: fourSeats(), Clock: 42 * time.Second,
			Log: []string{"bob played 7♣ on the 8♦ (N)", "cy moved W onto N", "dee ended the turn", "ann ended the turn"}},
			View: g.View(seat)})
		f := rg.frame()
		uitest.Fits(t, f, 80, 24)
		v := g.View(seat)
		for s, n := range v.Hands {
			line := lineWith(t, f, rg.c.name(s))
			require.Contains(t, line, fmt.Sprintf("%d cards", n), f)
		}
		require.Contains(t, f, "bob (hard)")
		require.Contains(t, f, "dee (away)")
		require.Contains(t, f, rg.c.name(seat)+" (you)")
		require.Contains(t, f, "your turn 0:42")
		require.Contains(t, f, fmt.Sprintf("stock %d", v.Stock))
		require.Contains(t, f, fmt.Sprintf("Your hand (%d)", len(v.Hand)))
		for _, c := range v.Hand {
			require.Contains(t, f, c.String())
		}
		for p, cs := range v.Piles {
			require.Contains(t, f, kings.Place(p).String())
			if len(cs) > 0 {
				require.Contains(t, f, cs[len(cs)-1].String())
			}
		}
		for _, l := range []string{"bob played 7♣ on the 8♦ (N)", "cy moved W onto N", "dee ended the turn", "ann ended the turn"} {
			require.Contains(t, f, l)
		}
	}
}

// lineWith is the frame's line holding s.
func lineWith(t *testing.T, frame, s string) string {
	t.Helper()
	for _, l := range strings.Split(frame, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	t.Fatalf("no line holds %q:\n%s", s, frame)
	return ""
}

func TestKingsLongHandAndPiles(t *testing.T) {
	// A hand late in a two-seat game (many cards drawn) and long piles
	// still fit, and every card of the hand can be reached.
	var g *kings.Game
	seat := 0
	for seed := uint64(1); g == nil; seed++ {
		require.Less(t, seed, uint64(200), "no deal gave a long hand")
		g = kingsGame(t, seed, 2)
		if !playKingsUntil(t, g, func() bool { return g.Turn() == seat && len(g.View(seat).Hand) >= 13 }) {
			g = nil
		}
	}
	rg := newKingsRig(t, g, seat, true)
	uitest.Fits(t, rg.frame(), 80, 24)
	v := g.View(seat)
	for i := range v.Hand {
		uitest.Press(rg.r, fmt.Sprint((i+1)%10))
		if i < 10 {
			require.Equal(t, spot{kind: spHand, seat: seat, i: i}, rg.c.cursor)
		}
	}
	rg.walk(spot{kind: spHand, seat: seat, i: len(v.Hand) - 1})
	require.Contains(t, rg.frame(), v.Hand[len(v.Hand)-1].String())
}

func TestSpiteBothSeats(t *testing.T) {
	g := spiteGame(t, 3)
	require.True(t, playSpiteUntil(t, g, func() bool { return len(g.History()) >= 6 }))
	for seat := range 2 {
		rg := newSpiteRig(t, g, seat, true)
		f := rg.frame()
		uitest.Fits(t, f, 80, 24)
		v := g.View(seat)
		me, other := v.Players[seat], v.Players[1-seat]
		require.Contains(t, lineWith(t, f, rg.c.name(seat)+" (you)"),
			fmt.Sprintf("%d in hand · pay-off %s, %d left", me.HandCount, me.PayoffTop, me.PayoffLeft))
		require.Contains(t, lineWith(t, f, rg.c.who(1-seat)),
			fmt.Sprintf("%d in hand · pay-off %s, %d left", other.HandCount, other.PayoffTop, other.PayoffLeft))
		hand := lineWith(t, f, "  hand  ")
		for _, c := range v.Hand {
			require.Contains(t, hand, c.String())
		}
		require.Contains(t, f, fmt.Sprintf("stock %d", v.Stock))
		if g.Turn() == seat {
			require.Contains(t, f, "your turn 0:42")
		} else {
			require.Contains(t, f, rg.c.name(g.Turn())+"'s turn 0:42")
		}
	}
}

// spiteFind is the first legal action of seat that ok picks.
func spiteFind(g *spite.Game, ok func(spite.Action) bool) (spite.Action, bool) {
	for _, a := range g.Legal(g.Turn()) {
		if ok(a) {
			return a, true
		}
	}
	return spite.Action{}, false
}

func handIndex(hand []engine.Card, c engine.Card) int {
	for i, h := range hand {
		if h == c {
			return i
		}
	}
	return -1
}

func TestSpiteGesturesGiveTheirActions(t *testing.T) {
	kinds := []struct {
		name    string
		want    func(spite.Action) bool
		gesture func(rg *rig[spite.Action], v spite.View, a spite.Action)
	}{
		{"hand to a centre stack, by keys", func(a spite.Action) bool { return a.Do == spite.Play && a.From == spite.FromHand },
			func(rg *rig[spite.Action], v spite.View, a spite.Action) {
				i := handIndex(v.Hand, a.Card)
				uitest.Press(rg.r, fmt.Sprint(i+1), "space")
				rg.walk(spot{kind: spCentre, i: a.To})
				uitest.Press(rg.r, "enter")
			}},
		{"discard onto a side stack, by keys", func(a spite.Action) bool { return a.Do == spite.Discard },
			func(rg *rig[spite.Action], v spite.View, a spite.Action) {
				i := handIndex(v.Hand, a.Card)
				uitest.Press(rg.r, fmt.Sprint(i+1), "space")
				rg.walk(spot{kind: spSide, seat: v.Seat, i: a.Side})
				uitest.Press(rg.r, "space")
			}},
		{"pay-off to a centre stack, click then click", func(a spite.Action) bool { return a.Do == spite.Play && a.From == spite.FromPayoff },
			func(rg *rig[spite.Action], v spite.View, a spite.Action) {
				rg.click(spot{kind: spPayoff, seat: v.Seat})
				rg.click(spot{kind: spCentre, i: a.To})
			}},
		{"side stack to a centre stack, dragged", func(a spite.Action) bool { return a.Do == spite.Play && a.From == spite.FromSide },
			func(rg *rig[spite.Action], v spite.View, a spite.Action) {
				rg.dragTo(spot{kind: spSide, seat: v.Seat, i: a.Side}, spot{kind: spCentre, i: a.To})
			}},
		{"pass with an empty hand, e", func(a spite.Action) bool { return a.Do == spite.Pass },
			func(rg *rig[spite.Action], v spite.View, a spite.Action) { uitest.Press(rg.r, "e") }},
		{"pass with an empty hand, the button", func(a spite.Action) bool { return a.Do == spite.Pass },
			func(rg *rig[spite.Action], v spite.View, a spite.Action) {
				require.Contains(rg.t, rg.frame(), "(no cards)")
				rg.click(spot{kind: spEnd})
			}},
		{"hand to a centre stack, dragged", func(a spite.Action) bool { return a.Do == spite.Play && a.From == spite.FromHand },
			func(rg *rig[spite.Action], v spite.View, a spite.Action) {
				rg.dragTo(spot{kind: spHand, seat: v.Seat, i: handIndex(v.Hand, a.Card)}, spot{kind: spCentre, i: a.To})
			}},
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			g, strength := spiteGame(t, 5), "normal"
			// A pass needs an empty hand: easy players at a table of
			// 30-card pay-off piles come to one soon.
			if strings.HasPrefix(k.name, "pass") {
				var err error
				g, err = spite.New(engine.Spec{Game: spite.Name, Settings: "payoff=30", Seed: 1}, 2)
				require.NoError(t, err)
				strength = "easy"
			}
			var a spite.Action
			require.True(t, playSpiteWith(t, g, strength, func() bool {
				var ok bool
				a, ok = spiteFind(g, k.want)
				return ok
			}))
			seat := g.Turn()
			for _, color := range []bool{true, false} {
				rg := newSpiteRig(t, g, seat, color)
				k.gesture(rg, g.View(seat), a)
				require.Equal(t, []spite.Action{a}, rg.take(), rg.frame())
			}
			require.NoError(t, g.Do(seat, a), "the screen's action is the game's")
		})
	}
}

func TestSpiteEndTurnAndMisplays(t *testing.T) {
	g := spiteGame(t, 5)
	seat := g.Turn()
	rg := newSpiteRig(t, g, seat, true)
	uitest.Press(rg.r, "e")
	require.Empty(t, rg.take())
	require.Contains(t, rg.frame(), "You end your turn by discarding")
	// A pay-off card can't go on a side stack; the screen says so itself.
	rg.click(spot{kind: spPayoff, seat: seat})
	rg.click(spot{kind: spSide, seat: seat, i: 0})
	require.Empty(t, rg.take())
	require.Contains(t, rg.frame(), "A side stack takes cards from your hand only.")
	// Nor can anything be taken from the other seat.
	rg.click(spot{kind: spPayoff, seat: 1 - seat})
	require.Contains(t, rg.frame(), "That is "+rg.c.name(1-seat)+"'s.")
	// esc puts a held card back.
	uitest.Press(rg.r, "1", "space")
	require.Contains(t, rg.frame(), "Holding ")
	uitest.Press(rg.r, "esc")
	require.NotContains(t, rg.frame(), "Holding ")
	require.Empty(t, rg.take())
}

func TestSpiteIllegalMoveSentenceInRed(t *testing.T) {
	g := spiteGame(t, 5)
	seat := g.Turn()
	v := g.View(seat)
	// A hand card that does not fit centre stack 0.
	i := -1
	for j, c := range v.Hand {
		if err := g.Do(seat, spite.PlayHand(c, 0)); err != nil {
			i = j
			break
		}
		t.Fatalf("the deal let %v go on an empty stack; pick another seed", c)
	}
	require.GreaterOrEqual(t, i, 0)
	rg := newSpiteRig(t, g, seat, true)
	uitest.Press(rg.r, fmt.Sprint(i+1), "space")
	rg.walk(spot{kind: spCentre, i: 0})
	uitest.Press(rg.r, "space")
	sent := rg.take()
	require.Equal(t, []spite.Action{spite.PlayHand(v.Hand[i], 0)}, sent)
	err := g.Do(seat, sent[0])
	require.Error(t, err)
	rg.r.Update(Refused{Table: "OTHER", Text: "not for this table"})
	rg.r.Update(Refused{Table: "SPITE", Text: err.Error()})
	raw := rg.r.View().Content
	require.Contains(t, raw, ui.ErrStyle.Render(ui.FitLines(err.Error(), 80, 2)[0]))
	require.NotContains(t, raw, "not for this table")
	// Without colour the sentence is marked instead.
	rg = newSpiteRig(t, g, seat, false)
	rg.r.Update(Refused{Table: "SPITE", Text: err.Error()})
	require.Contains(t, rg.frame(), "! "+err.Error())
	// The next key clears it.
	uitest.Press(rg.r, "right")
	require.NotContains(t, rg.frame(), err.Error())
}

func TestOutOfTurnSaysWhose(t *testing.T) {
	g := spiteGame(t, 5)
	seat := 1 - g.Turn()
	rg := newSpiteRig(t, g, seat, true)
	uitest.Press(rg.r, "1", "space")
	require.Empty(t, rg.take())
	require.Contains(t, rg.frame(), "It is "+rg.c.name(g.Turn())+"'s turn.")
	require.Contains(t, rg.frame(), rg.c.name(g.Turn())+"'s turn 0:42")
}

func kingsFind(g *kings.Game, ok func(kings.Action) bool) (kings.Action, bool) {
	for _, a := range g.Legal(g.Turn()) {
		if ok(a) {
			return a, true
		}
	}
	return kings.Action{}, false
}

func TestKingsGesturesGiveTheirActions(t *testing.T) {
	kinds := []struct {
		name    string
		want    func(kings.Action) bool
		gesture func(rg *rig[kings.Action], v kings.View, a kings.Action)
	}{
		{"hand to a pile, by keys", func(a kings.Action) bool { return a.Do == kings.Play },
			func(rg *rig[kings.Action], v kings.View, a kings.Action) {
				uitest.Press(rg.r, fmt.Sprint(handIndex(v.Hand, a.Card)+1), "space")
				rg.walk(spot{kind: spPile, i: int(a.To)})
				uitest.Press(rg.r, "space")
			}},
		{"hand to a pile, click then click", func(a kings.Action) bool { return a.Do == kings.Play },
			func(rg *rig[kings.Action], v kings.View, a kings.Action) {
				rg.click(spot{kind: spHand, seat: v.Seat, i: handIndex(v.Hand, a.Card)})
				rg.click(spot{kind: spPile, i: int(a.To)})
			}},
		{"a pile onto a pile, dragged", func(a kings.Action) bool { return a.Do == kings.Move },
			func(rg *rig[kings.Action], v kings.View, a kings.Action) {
				rg.dragTo(spot{kind: spPile, i: int(a.From)}, spot{kind: spPile, i: int(a.To)})
			}},
		{"a pile onto a pile, by keys", func(a kings.Action) bool { return a.Do == kings.Move },
			func(rg *rig[kings.Action], v kings.View, a kings.Action) {
				rg.walk(spot{kind: spPile, i: int(a.From)})
				uitest.Press(rg.r, "space")
				rg.walk(spot{kind: spPile, i: int(a.To)})
				uitest.Press(rg.r, "space")
			}},
		{"end the turn, e", func(a kings.Action) bool { return a.Do == kings.End },
			func(rg *rig[kings.Action], v kings.View, a kings.Action) { uitest.Press(rg.r, "e") }},
		{"end the turn, a click on the button", func(a kings.Action) bool { return a.Do == kings.End },
			func(rg *rig[kings.Action], v kings.View, a kings.Action) { rg.click(spot{kind: spEnd}) }},
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			g := kingsGame(t, 9, 4)
			var a kings.Action
			require.True(t, playKingsUntil(t, g, func() bool {
				var ok bool
				a, ok = kingsFind(g, k.want)
				return ok
			}))
			seat := g.Turn()
			for _, color := range []bool{true, false} {
				rg := newKingsRig(t, g, seat, color)
				uitest.Fits(t, rg.frame(), 80, 24)
				k.gesture(rg, g.View(seat), a)
				require.Equal(t, []kings.Action{a}, rg.take(), rg.frame())
			}
			require.NoError(t, g.Do(seat, a), "the screen's action is the game's")
		})
	}
}

func TestKingsIllegalMoveSentence(t *testing.T) {
	g := kingsGame(t, 9, 4)
	seat := g.Turn()
	v := g.View(seat)
	rg := newKingsRig(t, g, seat, true)
	// The first hand card onto the first pile it does not fit.
	var bad kings.Action
	var err error
	for p := range v.Piles {
		bad = kings.Action{Do: kings.Play, Card: v.Hand[0], To: kings.Place(p)}
		if err = g.Do(seat, bad); err != nil {
			break
		}
		t.Fatalf("%v fit; pick another seed", bad)
	}
	rg.click(spot{kind: spHand, seat: seat, i: 0})
	rg.click(spot{kind: spPile, i: int(bad.To)})
	require.Equal(t, []kings.Action{bad}, rg.take())
	rg.r.Update(Refused{Table: "KINGS", Text: err.Error()})
	require.Contains(t, rg.r.View().Content, ui.ErrStyle.Render(ui.FitLines(err.Error(), 80, 2)[0]))
	// Out of turn, the screen names whose turn it is, and sends nothing.
	other := (seat + 1) % 4
	rg = newKingsRig(t, g, other, true)
	uitest.Press(rg.r, "e")
	require.Empty(t, rg.take())
	require.Contains(t, rg.frame(), "It is "+rg.c.name(seat)+"'s turn.")
	require.True(t, errors.Is(g.Do(other, kings.Action{Do: kings.End}), kings.ErrNotYourTurn))
}

func TestWatcherSeesNoHand(t *testing.T) {
	g := kingsGame(t, 7, 4)
	rg := newKingsRig(t, g, engine.Spectator, true)
	f := rg.frame()
	uitest.Fits(t, f, 80, 24)
	require.NotContains(t, f, "Your hand")
	require.NotContains(t, f, "(you)")
	require.NotContains(t, f, "[end turn]")
	require.Contains(t, f, "You are watching")
	for _, k := range []string{"1", "space", "e", "left", "space", "enter"} {
		uitest.Press(rg.r, k)
	}
	require.Empty(t, rg.take())
	require.Contains(t, rg.frame(), hub.ErrNotSeated.Error())

	sg := spiteGame(t, 3)
	srg := newSpiteRig(t, sg, engine.Spectator, false)
	f = srg.frame()
	uitest.Fits(t, f, 80, 24)
	require.NotRegexp(t, "(?m)^  hand", f)
	require.NotContains(t, f, "(you)")
	require.NotContains(t, f, ">", "no cursor is drawn for a watcher")
	v := sg.View(engine.Spectator)
	for s := range 2 {
		require.Contains(t, f, fmt.Sprintf("%d in hand · pay-off %s, %d left", v.Players[s].HandCount, v.Players[s].PayoffTop, v.Players[s].PayoffLeft))
	}
	srg.click(spot{kind: spCentre, i: 0})
	require.Empty(t, srg.take())
}

// plainCard is how the board draws c without colour.
func plainCard(c engine.Card) string {
	r := c.Rank().Short()
	if len(r) == 1 {
		r = " " + r
	}
	if c.Red() {
		return "(" + r + c.Suit().Symbol() + ")"
	}
	return "[" + r + c.Suit().Symbol() + "]"
}

func TestNoColourMarksCursorAndHeld(t *testing.T) {
	g := kingsGame(t, 7, 4)
	seat := g.Turn()
	v := g.View(seat)
	rg := newKingsRig(t, g, seat, false)
	require.Contains(t, rg.frame(), ">"+plainCard(v.Hand[0])+"<")
	uitest.Press(rg.r, "space")
	require.Contains(t, rg.frame(), ">"+plainCard(v.Hand[0])+"*", "held under the cursor")
	uitest.Press(rg.r, "right")
	f := rg.frame()
	require.Contains(t, f, "*"+plainCard(v.Hand[0])+"*", "held")
	require.Contains(t, f, ">"+plainCard(v.Hand[1])+"<", "the cursor")
	require.Contains(t, f, "Holding "+v.Hand[0].String()+" from your hand")

	sg := spiteGame(t, 5)
	srg := newSpiteRig(t, sg, sg.Turn(), false)
	sv := sg.View(sg.Turn())
	uitest.Press(srg.r, "2", "space")
	require.Contains(t, srg.frame(), ">"+plainCard(sv.Hand[1])+"*")
	srg.walk(spot{kind: spCentre, i: 1})
	require.Contains(t, srg.frame(), ">[   ]<", "the cursor on an empty stack")
	require.Contains(t, srg.frame(), "*"+plainCard(sv.Hand[1])+"*")
}

var ourCodes = regexp.MustCompile("\x1b\\[[0-9;:]*m")

func TestOddBytesNeverReachTheScreen(t *testing.T) {
	odd := []Seat{{Name: "ev\x1b[31mil\r\n"}, {Name: "b\x07ob\x1b]0;pwned\x07", Computer: true, Strength: "h\x1b[2Jard"}, {Name: "c\x00y\x7f"}, {Name: "d\u009bee"}}
	log := []string{"ev\x1b[31mil played\r 7♣", "\x1b[2J\x1b[Hcleared"}
	g := kingsGame(t, 7, 4)
	seat := g.Turn()
	rg := newKingsRig(t, g, seat, true)
	rg.r.Update(KingsState{Common: Common{Table: "KINGS", Seats: odd, Log: log, Note: "note\x1b[5m"}, View: g.View(seat)})
	sg := spiteGame(t, 5)
	srg := newSpiteRig(t, sg, engine.Spectator, false)
	srg.r.Update(SpiteState{Common: Common{Table: "SPITE", Seats: odd[:2], Log: log}, View: sg.View(engine.Spectator)})
	frames := []string{rg.r.View().Content, srg.r.View().Content}
	uitest.Press(rg.r, "q")
	rg.r.Update(Refused{Table: "KINGS", Text: "b\x1b[31mad\x08\x08"})
	frames = append(frames, rg.r.View().Content)
	for _, raw := range frames {
		require.NotContains(t, raw, "\x1b[31m")
		require.NotContains(t, raw, "\x1b[2J")
		rest := ourCodes.ReplaceAllString(raw, "")
		for _, r := range rest {
			require.False(t, (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0), "control %q in %q", r, rest)
		}
	}
	require.Contains(t, uitest.Plain(frames[0]), "ev[31mil")
}

func TestClockCountsDownAndRestarts(t *testing.T) {
	g := kingsGame(t, 7, 4)
	seat := g.Turn()
	rg := newKingsRig(t, g, seat, true)
	require.Contains(t, rg.frame(), "your turn 0:42")
	left, _ := rg.c.clockLeft()
	next := left % time.Second
	if next == 0 {
		next = time.Second
	}
	require.Equal(t, next, rg.c.NextChange(), "the clock next turns as the second runs out")
	rg.clk.T = rg.clk.T.Add(next)
	require.Contains(t, rg.frame(), "your turn 0:41")
	rg.clk.T = rg.clk.T.Add(9 * time.Second)
	require.Equal(t, time.Second, rg.c.NextChange())
	require.Contains(t, rg.frame(), "your turn 0:32")
	require.NotContains(t, rg.frame(), "hurry")
	rg.clk.T = rg.clk.T.Add(22 * time.Second)
	require.Contains(t, rg.frame(), "hurry! your turn 0:10", "the last ten seconds warn")
	rg.clk.T = rg.clk.T.Add(time.Minute)
	require.Contains(t, rg.frame(), "your turn 0:00")
	require.Zero(t, rg.c.NextChange(), "a clock run out turns no more")
	rg.r.Update(KingsState{Common: Common{Table: "KINGS", Seats: fourSeats(), Clock: time.Minute}, View: g.View(seat)})
	require.Contains(t, rg.frame(), "your turn 1:00")
	rg.r.Update(KingsState{Common: Common{Table: "KINGS", Seats: fourSeats()}, View: g.View(seat)})
	require.NotContains(t, rg.frame(), ":0")
	require.Zero(t, rg.c.NextChange(), "no clock, no turns")
}

func TestStateOfAnotherTableIsDropped(t *testing.T) {
	g := kingsGame(t, 7, 4)
	seat := g.Turn()
	rg := newKingsRig(t, g, seat, true)
	before := rg.frame()
	rg.r.Update(KingsState{Common: Common{Table: "OTHER", Seats: fourSeats(), Log: []string{"elsewhere"}}, View: g.View(engine.Spectator)})
	require.Equal(t, before, rg.frame())
}

func TestTooSmall(t *testing.T) {
	g := kingsGame(t, 7, 4)
	rg := newKingsRig(t, g, 0, true)
	rg.r.Update(tea.WindowSizeMsg{Width: 79, Height: 24})
	require.Contains(t, rg.frame(), "Make the window at least 80x24")
	rg.r.Update(tea.WindowSizeMsg{Width: 80, Height: 23})
	require.Contains(t, rg.frame(), "Make the window at least 80x24")
	rg.r.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	f := rg.frame()
	uitest.Fits(t, f, 120, 40)
	require.Contains(t, f, "Kings in the Corner")
}

func TestLeaveAsksOnceThenLeaves(t *testing.T) {
	g := spiteGame(t, 5)
	rg := newSpiteRig(t, g, 0, true)
	uitest.Press(rg.r, "?")
	f := rg.frame()
	uitest.Fits(t, f, 80, 24)
	require.Contains(t, f, "Keys at the table")
	require.Contains(t, f, "Spite and Malice: play your pay-off card")
	require.NotContains(t, f, "…", "the help fits 80x24 whole")
	uitest.Press(rg.r, "q") // any key closes the help, and does nothing else
	require.NotContains(t, rg.frame(), "Keys at the table")
	require.Zero(t, rg.left)
	uitest.Press(rg.r, "q")
	require.Contains(t, rg.frame(), "Press q again to leave")
	require.Zero(t, rg.left)
	uitest.Press(rg.r, "q")
	require.Equal(t, 1, rg.left)
	require.Equal(t, ui.Menu, rg.r.Current().(*uitest.Page).Route.Page)
	// A watcher leaves at once.
	rg = newSpiteRig(t, g, engine.Spectator, true)
	uitest.Press(rg.r, "q")
	require.Equal(t, 1, rg.left)
}

func TestASCIIClientFitsInASCII(t *testing.T) {
	g := kingsGame(t, 9, 4)
	require.True(t, playKingsUntil(t, g, func() bool {
		n := 0
		for _, p := range g.View(0).Piles {
			if len(p) > 2 {
				n++
			}
		}
		return n > 0 && g.Turn() == 0
	}))
	sg := spiteGame(t, 5)
	require.True(t, playSpiteUntil(t, sg, func() bool { return len(sg.History()) > 60 && sg.Turn() == 0 }))
	for _, color := range []bool{true, false} {
		krg := newKingsRig(t, g, 0, color)
		srg := newSpiteRig(t, sg, 0, color)
		for _, rg := range []interface {
			frame() string
		}{krg, srg} {
			switch rg := rg.(type) {
			case *rig[kings.Action]:
				rg.e.Unicode = false
			case *rig[spite.Action]:
				rg.e.Unicode = false
			}
			f := rg.frame()
			uitest.Fits(t, f, 80, 24)
			for _, r := range f {
				require.Less(t, r, rune(0x80), "%q in\n%s", r, f)
			}
		}
	}
}

func TestGameOverShowsOutcomeTotalsAndRematch(t *testing.T) {
	g := kingsGame(t, 9, 4)
	require.False(t, playKingsUntil(t, g, func() bool { return false }), "played to the end")
	e, _ := uitest.Env(nil, uitest.NoStore(), uitest.Player("SHA256:k", "ann"), uitest.At(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)))
	rematches := 0
	v := g.View(1)
	s := NewKings(e, Config[kings.Action]{Table: "K", Act: func(kings.Action) { t.Fatal("no action after the end") }, Rematch: func() { rematches++ }},
		KingsState{Common: Common{Table: "K", Seats: fourSeats(), Totals: []int{3, 12, 0, 25}, Watchers: 2}, View: v})
	r := ui.NewRouter(e, uitest.Pages, s, "")
	f := uitest.Frame(r)
	uitest.Fits(t, f, 80, 24)
	require.Contains(t, f, "game over")
	require.Contains(t, f, "· 2 watching")
	require.NotContains(t, f, "r: rematch", "not offered between the games of a match")
	uitest.Press(r, "r")
	require.Zero(t, rematches)
	r.Update(KingsState{Common: Common{Table: "K", Seats: fourSeats(), Totals: []int{3, 12, 0, 25}, Watchers: 2, CanRematch: true}, View: v})
	uitest.Press(r, "left") // a key clears the last warning
	f = uitest.Frame(r)
	require.Contains(t, f, "r: rematch")
	out := "Nobody went out."
	if v.Out >= 0 {
		out = fourSeats()[v.Out].Name + " went out."
	}
	require.Contains(t, f, out)
	require.Contains(t, f, "Penalty points:")
	require.Contains(t, f, "(match total)")
	require.Contains(t, lineWith(t, f, "dee (away)"), "(25)")
	uitest.Press(r, "e", "1", "space")
	require.Contains(t, uitest.Frame(r), hub.ErrNotPlaying.Error())
	uitest.Press(r, "r")
	require.Equal(t, 1, rematches)
	require.Contains(t, uitest.Frame(r), "Asked for a rematch")

	sg := spiteGame(t, 5)
	require.False(t, playSpiteUntil(t, sg, func() bool { return false }))
	srg := newSpiteRig(t, sg, 0, true)
	f = srg.frame()
	uitest.Fits(t, f, 80, 24)
	sv := sg.View(0)
	if sv.Winner >= 0 {
		require.Contains(t, f, fmt.Sprintf("%s wins, scoring %d.", srg.c.name(sv.Winner), sv.Score[sv.Winner]))
	} else {
		require.Contains(t, f, "The game is drawn.")
	}
	uitest.Press(srg.r, "r")
	require.Contains(t, srg.frame(), "No rematch is on offer here now.")
	// Leaving a finished game asks nothing.
	uitest.Press(srg.r, "q")
	require.Equal(t, 1, srg.left)
}

func TestVimKeysMoveAsArrows(t *testing.T) {
	g := spiteGame(t, 5)
	a := newSpiteRig(t, g, g.Turn(), true)
	b := newSpiteRig(t, g, g.Turn(), true)
	for i, k := range []string{"l", "l", "k", "h", "k", "l", "j", "j"} {
		uitest.Press(a.r, k)
		uitest.Press(b.r, []string{"right", "right", "up", "left", "up", "right", "down", "down"}[i])
		require.Equal(t, b.c.cursor, a.c.cursor, "after %d keys", i+1)
	}
	require.Equal(t, b.frame(), a.frame())
}

// The last actions are under the table, newest last, each on a line of
// its own at 80 columns, and never run into the stock and the done pile.
func TestSpiteLogUnderTheBoard(t *testing.T) {
	g := spiteGame(t, 5)
	rg := newSpiteRig(t, g, 0, false)
	log := []string{"game 1 is dealt; ann plays first"}
	for i := range 6 {
		log = append(log, fmt.Sprintf("computer 2 plays the 7♥ from its hand on centre stack %d, then discards", i+1))
	}
	rg.r.Update(SpiteState{Common: Common{Table: "SPITE", Seats: fourSeats()[:2], Clock: 42 * time.Second, Log: log}, View: g.View(0)})
	f := rg.frame()
	uitest.Fits(t, f, 80, 24)
	require.NotContains(t, f, "…")
	require.Contains(t, f, "computer 2 plays the 7♥ from its hand on centre stack 6, then discards\n", "the newest entry is whole, on a line of its own")
	for i := 1; i <= 6; i++ {
		require.Regexp(t, fmt.Sprintf(`(?m)^computer 2 plays the 7♥ from its hand on centre stack %d, then discards$`, i), f, "the last six entries show at 80x24")
	}
	require.Regexp(t, `(?m)^  stock \d+ `, f)
	require.Regexp(t, `(?m)^  done \d+$`, f)
	for _, l := range strings.Split(f, "\n") {
		require.NotRegexp(t, `(stock|done) \d+[^\d\s]`, l, "nothing runs into the piles' counts")
	}
}

// Arrows go to what lies that way on the screen: up from the south pile is
// the north one, past the stock between them, not a nearer pile off to
// the side.
func TestArrowsFollowTheScreen(t *testing.T) {
	g := kingsGame(t, 7, 4)
	rg := newKingsRig(t, g, g.Turn(), true)
	rg.frame()
	at := func(p kings.Place) spot { return spot{kind: spPile, i: int(p)} }
	for _, c := range []struct {
		from kings.Place
		key  string
		to   kings.Place
	}{{kings.S, "up", kings.N}, {kings.N, "down", kings.S}, {kings.W, "right", kings.E}, {kings.SW, "up", kings.W}} {
		rg.c.cursor = at(c.from)
		uitest.Press(rg.r, c.key)
		require.Equal(t, at(c.to), rg.c.cursor, "%s from pile %d", c.key, c.from)
	}
}

// Space twice on a card plays it where the game lets it go first, as in
// the solitaires; a card that fits nowhere says so and sends nothing.
func TestSpaceTwicePlaysTheCard(t *testing.T) {
	for seed := uint64(1); seed < 40; seed++ {
		g := spiteGame(t, seed)
		seat := g.Turn()
		v := g.View(seat)
		fits, stuck := -1, -1
		for i, c := range v.Hand {
			ok := slices.ContainsFunc(g.Legal(seat), func(a spite.Action) bool { return a.Do == spite.Play && a.Card == c })
			switch {
			case ok && fits < 0:
				fits = i
			case !ok && stuck < 0:
				stuck = i
			}
		}
		if fits < 0 || stuck < 0 {
			continue
		}
		rg := newSpiteRig(t, g, seat, false)
		uitest.Press(rg.r, strconv.Itoa(fits+1), "space", "space")
		sent := rg.take()
		require.Len(t, sent, 1)
		require.Equal(t, spite.Play, sent[0].Do)
		require.Equal(t, v.Hand[fits], sent[0].Card)
		require.NoError(t, g.Do(seat, sent[0]), "the game takes it")
		rg = newSpiteRig(t, spiteGame(t, seed), seat, false)
		uitest.Press(rg.r, strconv.Itoa(stuck+1), "space", "space")
		require.Empty(t, rg.take())
		require.Contains(t, rg.frame(), spite.ErrFitsNowhere.Error())
		return
	}
	t.Fatal("no deal with a hand card that fits and one that does not")
}

// What the last key was told gives way to the outcome when the game ends:
// a player who pressed a key out of turn is not left reading "It is
// bob's turn." over a finished game.
func TestOutcomeReplacesAStaleMessage(t *testing.T) {
	g := spiteGame(t, 5)
	seat := 1 - g.Turn()
	rg := newSpiteRig(t, g, seat, true)
	uitest.Press(rg.r, "1", "space")
	require.Contains(t, rg.frame(), "It is "+rg.c.name(g.Turn())+"'s turn.")
	require.False(t, playSpiteUntil(t, g, func() bool { return false }), "played to the end")
	rg.r.Update(SpiteState{Common: Common{Table: "SPITE", Seats: fourSeats()[:2]}, View: g.View(seat)})
	f := rg.frame()
	require.NotContains(t, f, "'s turn.")
	v := g.View(seat)
	if v.Winner >= 0 {
		require.Contains(t, f, fmt.Sprintf("%s wins, scoring %d.", rg.c.name(v.Winner), v.Score[v.Winner]))
	} else {
		require.Contains(t, f, "The game is drawn.")
	}
}
