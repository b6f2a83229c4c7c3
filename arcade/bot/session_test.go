package bot

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/kings"
)

// fast lifts the line limit for a test that plays whole games at once.
var fast = Limits{LinesPerSecond: 100000}

// TestHello: the first line says the protocol, the account and the limits.
func TestHello(t *testing.T) {
	x := newHarness(t, Config{})
	b := x.bytes()
	first, _, _ := bytes.Cut(b, []byte("\n"))
	require.JSONEq(t, `{"type":"hello","protocol":1,"account":{"id":"SHA256:bot1","name":"robot1"},
		"limits":{"maxLine":8192,"linesPerSecond":30,"openGames":4}}`, string(first))
}

// TestBadLines: a line that is no JSON object, one of no known type, one
// with no type, and one too long each get one error and nothing else; the
// session goes on, and a long line's tail is not read as a line of its
// own.
func TestBadLines(t *testing.T) {
	x := newHarness(t, Config{})
	for _, tc := range []struct{ line, want string }{
		{`not json`, "is not one JSON object"},
		{`{"type":"act"} {"type":"pong"}`, "is not one JSON object"},
		{`[1,2]`, "is not one JSON object"},
		{`{"type":"dance"}`, `There is no message of type "dance"`},
		{`{"id":3}`, `has no "type"`},
		{`{"type":"act","table":"ZZZZZZ","action":{"do":"end"}}`, `You are not at a table "ZZZZZZ".`},
		{`{"type":"leave","table":"x"}`, `You are not at a table "x".`},
		{`{"type":"accept","id":99}`, "invitation"},
		{`{"type":"seek","game":"spite","against":["grandmaster"]}`, `not "grandmaster"`},
		{`{"type":"seek","game":"spite","rated":true}`, "Rated games are not on offer yet"},
		{`{"type":"pong","id":1,"table":"` + strings.Repeat("x", 9000) + `"}`, "is 9" /* its length */},
	} {
		x.send(tc.line)
		m := x.expect(TError)
		require.Contains(t, m["error"], tc.want, "line %.40s", tc.line)
	}
	x.quiet()
}

// TestLineLimit: past the lines a second, a line gets an error and is not
// acted on; the next second the bot may talk again.
func TestLineLimit(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	var mu = make(chan struct{}, 1)
	mu <- struct{}{}
	clock := func() time.Time {
		<-mu
		defer func() { mu <- struct{}{} }()
		return now
	}
	x := newHarness(t, Config{Now: clock, Limits: Limits{LinesPerSecond: 3}})
	for range 3 {
		x.send(`{"type":"pong","id":1}`)
	}
	x.send(`{"type":"seek","game":"spite"}`)
	m := x.expect(TError)
	require.Equal(t, "Too many lines: at most 3 a second. That one was ignored.", m["error"])
	<-mu
	now = now.Add(time.Second)
	mu <- struct{}{}
	x.quiet()
	require.Empty(t, x.h.Tables(), "the seek refused was not made")
}

// TestLimitsPerAccount: two sessions of one bot account share its lines a
// second: what one spends, the other does not have.
func TestLimitsPerAccount(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now } // never moves: no line comes back
	shared := &Shared{}
	x := newHarness(t, Config{Now: clock, Limits: Limits{LinesPerSecond: 4}, Shared: shared})
	y := newHarness(t, Config{Hub: x.h, Now: clock, Limits: Limits{LinesPerSecond: 4}, Shared: shared})
	x.send(`{"type":"pong","id":1}`)
	x.send(`{"type":"pong","id":2}`)
	x.quiet()
	y.quiet()
	y.send(`{"type":"pong","id":3}`)
	require.Equal(t, "Too many lines: at most 4 a second. That one was ignored.", y.expect(TError)["error"])
}

// TestOpenGames: a bot sits at as many tables as its limit, no more.
func TestOpenGames(t *testing.T) {
	x := newHarness(t, Config{Limits: Limits{OpenGames: 1}})
	x.send(`{"type":"seek","game":"spite","settings":"payoff=13"}`)
	s := x.expect(TSeeking)
	require.Equal(t, "spite", s["game"])
	require.Equal(t, "payoff=13", s["settings"])
	require.Equal(t, []any{map[string]any{"name": "robot1", "kind": "bot"}, map[string]any{"kind": "open"}}, s["seats"])
	x.send(`{"type":"seek","game":"kings"}`)
	require.Equal(t, "You are at 1 tables already, the most a bot may be at once.", x.expect(TError)["error"])
	x.sendJSON(map[string]any{"type": "leave", "table": s["table"]})
	require.Equal(t, "You left the table.", x.until(TTableEnd)["reason"])
	x.send(`{"type":"seek","game":"kings"}`)
	x.until(TSeeking)
}

// TestRejected: an action the rules refuse gets the game's own sentence,
// and the bot's state comes again, its turn still.
func TestRejected(t *testing.T) {
	x := newHarness(t, Config{})
	x.send(`{"type":"seek","game":"spite","settings":"payoff=13","against":["easy"],"pace":"instant"}`)
	table := x.expect(TSeeking)["table"].(string)
	ts := x.until(TTableStart, TState)
	require.Equal(t, table, ts["table"])
	require.EqualValues(t, 0, ts["seat"])
	for {
		m := x.until(TState)
		if m["yourTurn"] == true {
			require.NotEmpty(t, m["legal"])
			require.Positive(t, m["clockMs"], "a turn clock runs")
			break
		}
		require.Empty(t, m["legal"], "no actions listed out of turn")
	}
	// A pass, while the hand holds cards, is against the rules.
	x.sendJSON(map[string]any{"type": TAct, "table": strings.ToLower(table), "action": map[string]any{"do": "pass"}})
	r := x.expect(TRejected)
	require.Equal(t, table, r["table"])
	require.Equal(t, "You still hold cards: end your turn by discarding one onto a side stack.", r["reason"], "the game's own sentence")
	again := x.expect(TState)
	require.Equal(t, true, again["yourTurn"])
	x.sendJSON(map[string]any{"type": TAct, "table": table, "action": "pass"})
	require.Contains(t, x.expect(TError)["error"], `needs an "action"`)
}

// TestWholeMatchAndRecord: a bot plays a whole match of single games to
// its end; gameOver carries the result and names the stored record, and
// the bot leaves the finished table.
func TestWholeMatchAndRecord(t *testing.T) {
	x := newHarness(t, Config{Limits: fast})
	x.send(`{"type":"seek","game":"spite","settings":"payoff=13","against":["easy"],"pace":"instant"}`)
	table := x.expect(TSeeking)["table"].(string)
	overs := x.playOut(table)
	require.Len(t, overs, 1)
	o := overs[0]
	res := <-x.results
	require.Equal(t, table, res.Code)
	require.Equal(t, table+"/0", o["record"])
	require.EqualValues(t, res.Outcome.Winner, o["winner"])
	require.Equal(t, true, o["matchOver"])
	require.Nil(t, o["rating"], "unrated")
	require.NoError(t, mustKit(t, "spite").Replay(res.Record))
	require.Equal(t, "person", strings.Split(strings.Split(string(res.Record), `"seats":[`)[1], `"`)[1], "the bot's seat is a player's, not a computer's")
}

// TestNoHiddenCardInStream: over a whole three-seat Kings in the Corner
// game, no byte the bot is sent names a card its seat never saw: the cards
// the other players still hold at the end were in no view of the bot's
// seat, and appear nowhere in its stream, in either form a card is
// written. The bot's own first hand, which it did see, does appear: the
// search finds cards where there are some.
func TestNoHiddenCardInStream(t *testing.T) {
	x := newHarness(t, Config{Limits: fast})
	x.send(`{"type":"seek","game":"kings","against":["easy","easy"],"pace":"instant"}`)
	table := x.expect(TSeeking)["table"].(string)
	x.playOut(table)
	res := <-x.results
	g, err := kings.Resume(res.Record)
	require.NoError(t, err)
	var rec struct{ Start kings.Start }
	require.NoError(t, json.Unmarshal(res.Record, &rec))
	start := rec.Start
	stream := x.bytes()
	// A card's two letters standing alone (quoted, or escaped inside a
	// string), or its symbol form as the log writes it.
	named := func(c engine.Card) bool {
		alone := regexp.MustCompile(`(^|[^A-Za-z0-9])` + c.ASCII() + `($|[^A-Za-z0-9])`)
		return alone.Match(stream) || bytes.Contains(stream, []byte(c.String()))
	}
	var hidden []engine.Card
	for seat := 1; seat < 3; seat++ {
		hidden = append(hidden, g.View(seat).Hand...)
	}
	require.NotEmpty(t, hidden, "someone else holds cards at the end")
	for _, c := range hidden {
		require.False(t, named(c), "the bot was sent %s, which it never saw", c)
	}
	for _, c := range start.Hands[0] {
		require.True(t, named(c), "the bot's own card %s is in its stream", c)
	}
}

// TestChallenge: a person invites the bot to their table; the bot hears a
// challenge, accepts, sits, and the game is dealt when the host starts
// it. A second challenge declined is answered to the challenger.
func TestChallenge(t *testing.T) {
	x := newHarness(t, Config{})
	ann := hub.Person{ID: "SHA256:ann", Name: "ann"}
	notes := make(chan hub.Notice, 8)
	live := x.h.Connect(ann, true, func(n hub.Notice) { notes <- n })
	defer live.Close()
	tb, err := x.h.OpenTable(hub.TableConfig{Game: "kings", Host: ann, Seats: []hub.SeatPlan{{}, {Reserved: bot1}, {Computer: "easy"}}, Pace: time.Millisecond})
	require.NoError(t, err)
	states := make(chan hub.TableState, 64)
	m, err := tb.Join(ann, 0, func(st hub.TableState) { states <- st })
	require.NoError(t, err)
	require.NoError(t, live.Invite(bot1, tb.Code()))

	c := x.expect(TChallenge)
	require.Equal(t, tb.Code(), c["table"])
	require.Equal(t, "ann", c["from"])
	require.Equal(t, "kings", c["game"])
	require.Equal(t, false, c["rated"])
	require.Len(t, c["seats"], 3)
	x.sendJSON(map[string]any{"type": TAccept, "id": c["id"]})
	require.Eventually(t, func() bool {
		in, err := tb.Info()
		return err == nil && in.Free == 0
	}, guard, time.Millisecond, "the bot took its seat")
	require.Equal(t, hub.Accepted, (<-notes).Kind)
	require.NoError(t, m.Start())
	st := x.until(TTableStart)
	require.EqualValues(t, 1, st["seat"])
	require.Equal(t, []any{
		map[string]any{"name": "ann", "kind": "person"},
		map[string]any{"name": "robot1", "kind": "bot"},
		map[string]any{"name": engine.ComputerName("easy", 2), "kind": "computer", "strength": "easy"},
	}, st["seats"])
	x.until(TState)

	tb2, err := x.h.OpenTable(hub.TableConfig{Game: "spite", Host: ann, Seats: []hub.SeatPlan{{}, {}}})
	require.NoError(t, err)
	_, err = tb2.Join(ann, 0, func(hub.TableState) {})
	require.NoError(t, err)
	require.NoError(t, live.Invite(bot1, tb2.Code()))
	c2 := x.until(TChallenge, TState)
	require.Equal(t, "spite", c2["game"])
	x.sendJSON(map[string]any{"type": TDecline, "id": c2["id"]})
	for n := range notes {
		if n.Kind == hub.Declined {
			break
		}
	}
}

// TestHangUpHoldsSeat: a bot whose connection goes keeps its seat for the
// hold, the computer playing for it, like a person; a new session takes
// it back at once.
func TestHangUpHoldsSeat(t *testing.T) {
	x := newHarness(t, Config{})
	x.send(`{"type":"seek","game":"spite","against":["easy"]}`)
	table := x.expect(TSeeking)["table"].(string)
	x.until(TTableStart, TState)
	require.NoError(t, x.in.Close())
	require.NoError(t, <-x.done)
	x.done <- nil // for the cleanup
	tb, err := x.h.Table(table)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		in, err := tb.Info()
		return err == nil && in.Seats[0].Person.ID == bot1.ID && !in.Seats[0].Here && in.Seats[0].StandIn
	}, guard, time.Millisecond)

	y := newHarness(t, Config{Hub: x.h})
	ts := y.until(TTableStart)
	require.Equal(t, table, ts["table"])
	y.until(TState)
}

func mustKit(t *testing.T, game string) engine.TableKit {
	t.Helper()
	k, ok := games.Default().TableKit(game)
	require.True(t, ok)
	return k
}

// TestSeekStartsWhenFull: a seek's table is listed in the lobby with an
// open seat; when a person takes it, the bot (its host) deals at once.
func TestSeekStartsWhenFull(t *testing.T) {
	x := newHarness(t, Config{})
	x.send(`{"type":"seek","game":"spite"}`)
	table := x.expect(TSeeking)["table"].(string)
	require.Eventually(t, func() bool {
		for _, in := range x.h.Tables() {
			if in.Code == table && in.Free == 1 && in.Host.ID == bot1.ID {
				return true
			}
		}
		return false
	}, guard, time.Millisecond, "the table is listed with its open seat")
	tb, err := x.h.Table(table)
	require.NoError(t, err)
	ann := hub.Person{ID: "SHA256:ann", Name: "ann"}
	states := make(chan hub.TableState, 64)
	_, err = tb.Join(ann, hub.AnySeat, func(st hub.TableState) { states <- st })
	require.NoError(t, err)
	ts := x.until(TTableStart)
	require.Equal(t, []any{map[string]any{"name": "robot1", "kind": "bot"}, map[string]any{"name": "ann", "kind": "person"}}, ts["seats"])
	for st := range states {
		if st.Phase == hub.TablePlaying {
			break
		}
	}
}

// TestSeekWaitsForTheLobbysPace: a seat and a deal the hub's pace of
// lobby actions refuses (a bot playing match after match meets it) are
// asked for again, and the table deals once the pace allows.
func TestSeekWaitsForTheLobbysPace(t *testing.T) {
	cat := games.Default()
	h := hub.New(hub.Config{Rand: engine.NewRNG(3), Grace: time.Minute, TableKit: cat.TableKit,
		Limits: hub.Limits{Actions: hub.Rate{PerSecond: 2, Burst: 1}}})
	t.Cleanup(h.Close)
	x := newHarness(t, Config{Hub: h})
	// The open takes the one action at once; the seat and the deal wait.
	x.send(`{"type":"seek","game":"kings","against":["easy"],"pace":"instant"}`)
	x.expect(TSeeking)
	x.until(TTableStart)
}

// TestRatedSeek: where rated games are on offer, a rated seek opens a
// rated table, and says so.
func TestRatedSeek(t *testing.T) {
	x := newHarness(t, Config{Rated: true})
	x.send(`{"type":"seek","game":"kings","rated":true}`)
	s := x.expect(TSeeking)
	require.Equal(t, true, s["rated"])
	tb, err := x.h.Table(s["table"].(string))
	require.NoError(t, err)
	in, err := tb.Info()
	require.NoError(t, err)
	require.True(t, in.Rated)
}
