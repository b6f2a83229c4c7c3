package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/games"
)

// race is a tiny two-seat table game for testing the harness apart from the
// real games: seats take turns adding 1 or 2 to a shared count, and whoever
// reaches 10 wins.
type race struct {
	spec  engine.Spec
	count int
	turn  int
	hist  []engine.Acted[int]
	won   int
}

type raceView struct{ Count, Seat int }

func (r *race) Spec() engine.Spec { return r.spec }
func (r *race) Seats() int        { return 2 }
func (r *race) Turn() int {
	if r.won >= 0 {
		return engine.NoSeat
	}
	return r.turn
}
func (r *race) Do(seat, a int) error {
	if seat != r.Turn() {
		return errors.New("it is not your turn")
	}
	if a < 1 || a > 2 {
		return fmt.Errorf("add 1 or 2, not %d", a)
	}
	r.count += a
	r.hist = append(r.hist, engine.Acted[int]{Seat: seat, Action: a})
	if r.count >= 10 {
		r.won = seat
	}
	r.turn = 1 - r.turn
	return nil
}
func (r *race) View(seat int) raceView { return raceView{r.count, seat} }
func (r *race) Legal(seat int) []int {
	if seat != r.Turn() {
		return nil
	}
	return []int{1, 2}
}
func (r *race) Over() (engine.TableResult, bool) {
	if r.won < 0 {
		return engine.TableResult{Winner: engine.NoSeat}, false
	}
	pts := []int{0, 0}
	pts[r.won] = 1
	return engine.TableResult{Winner: r.won, Points: pts}, true
}
func (r *race) History() []engine.Acted[int] { return r.hist }

type raceMatch struct{ g *race }

func (m raceMatch) Game() *race         { return m.g }
func (m raceMatch) Next() (*race, bool) { return nil, false }
func (m raceMatch) Totals() []int       { res, _ := m.g.Over(); return res.Points }
func (m raceMatch) Winner() int         { res, _ := m.g.Over(); return res.Winner }
func newRace(spec engine.Spec, n int) (raceMatch, error) {
	return raceMatch{&race{spec: spec, turn: int(spec.Seed % 2), won: -1}}, nil
}

// smart adds whatever lands on 7 or 10 (the winning counts), else at random.
type racePlayer struct {
	smart bool
	rng   *engine.RNG
}

func (p racePlayer) Choose(v raceView) int {
	if p.smart {
		for _, a := range []int{1, 2} {
			if (v.Count+a)%3 == 1 {
				return a
			}
		}
	}
	return 1 + p.rng.Intn(2)
}

var raceKit = games.TablePackage[int, raceView, *race, raceMatch]{
	Info:     engine.TableInfo{Name: "race", Title: "Race to ten", MinPlayers: 2, MaxPlayers: 2, Strengths: []string{"easy", "hard"}},
	NewMatch: newRace,
	NewPlayer: func(s string, seed uint64) (engine.Player[int, raceView], error) {
		return racePlayer{smart: s == "hard", rng: engine.NewRNG(seed)}, nil
	},
	Record: func(g *race, seats []string) any {
		return map[string]any{"game": "race", "seats": seats, "seed": g.spec.Seed, "actions": g.hist}
	},
	Describe:     func(_, _ raceView, _ int, _ int, _ []string) []string { return nil },
	EncodeAction: func(a int) ([]byte, error) { return json.Marshal(a) },
	DecodeAction: func(b []byte) (a int, err error) { err = json.Unmarshal(b, &a); return a, err },
	EncodeView:   func(v raceView) ([]byte, error) { return json.Marshal(v) },
	DecodeView:   func(b []byte) (v raceView, err error) { err = json.Unmarshal(b, &v); return v, err },
}.Kit()

func TestSelfplayHarness(t *testing.T) {
	cfg := selfplayConfig{seats: []string{"hard", "easy"}, games: 400, seed: 5}
	var a, b bytes.Buffer
	rep, err := selfplayRun(raceKit, cfg, &a)
	require.NoError(t, err)
	_, err = selfplayRun(raceKit, cfg, &b)
	require.NoError(t, err)
	require.Equal(t, a.String(), b.String(), "the same seed gives the same records")
	require.Equal(t, 400, strings.Count(a.String(), "\n"))
	require.Equal(t, 400, rep.Seats[0].Wins+rep.Seats[1].Wins+rep.Draws)
	require.Greater(t, rep.Seats[0].WinRate, 0.7, "the player who plays the winning counts wins most games")
	require.LessOrEqual(t, rep.Seats[0].CI95[0], rep.Seats[0].WinRate)
	require.GreaterOrEqual(t, rep.Seats[0].CI95[1], rep.Seats[0].WinRate)

	var other bytes.Buffer
	_, err = selfplayRun(raceKit, selfplayConfig{seats: cfg.seats, games: 400, seed: 6}, &other)
	require.NoError(t, err)
	require.NotEqual(t, a.String(), other.String())

	out, err := json.Marshal(rep)
	require.NoError(t, err)
	for _, f := range []string{`"game"`, `"settings"`, `"games"`, `"seconds"`, `"gamesPerSecond"`, `"seats"`, `"seat"`,
		`"strength"`, `"wins"`, `"winRate"`, `"ci95"`, `"meanScore"`, `"decisionP50Ms"`, `"decisionP99Ms"`} {
		require.Contains(t, string(out), f)
	}
}

func TestWilson(t *testing.T) {
	lo, hi := wilson(80, 100)
	require.InDelta(t, 0.7112, lo, 1e-3)
	require.InDelta(t, 0.8666, hi, 1e-3)
	lo, hi = wilson(0, 10)
	require.Equal(t, 0.0, lo)
	require.InDelta(t, 0.2775, hi, 1e-3)
}

func TestReplayTableCounts(t *testing.T) {
	tg := func(line []byte) error {
		if bytes.Contains(line, []byte("bad")) {
			return errors.New("action 3 {\"x\":1}: not legal")
		}
		return nil
	}
	var out, errb bytes.Buffer
	long := `{"ok":"` + strings.Repeat("x", 200000) + `"}`
	code := replayTable(tg, strings.NewReader(`{"a":1}`+"\n\n"+long+"\n"+`{"bad":1}`), &out, &errb)
	require.Equal(t, 1, code)
	require.Contains(t, out.String(), "record 3: action 3")
	require.True(t, strings.HasSuffix(out.String(), "2 passed, 1 failed\n"), out.String())
	out.Reset()
	require.Equal(t, 0, replayTable(tg, strings.NewReader(`{"a":1}`), &out, &errb))
	require.Contains(t, out.String(), "1 passed, 0 failed")
}

func TestSelfplayAndReplayTableGames(t *testing.T) {
	for _, c := range []struct{ game, seats, settings string }{
		{"spite", "hard,easy", ""},
		{"spite", "normal,hard", "payoff=13,centres=3,kingAce=true"},
		{"kings", "hard,easy,normal", "draw=end"},
		{"kings", "easy,hard", "kingsAtOnce=true,match=25"},
	} {
		t.Run(c.game+"/"+c.seats, func(t *testing.T) {
			dir := t.TempDir()
			recs := dir + "/r.jsonl"
			var out, errb bytes.Buffer
			args := []string{"selfplay", c.game, "--seats", c.seats, "--games", "12", "--seed", "9", "--records", recs, "--json"}
			if c.settings != "" {
				args = append(args, "--settings", c.settings)
			}
			require.Equal(t, 0, run(args, &out, &errb), errb.String())
			var rep selfplayReport
			require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
			require.Equal(t, 12, rep.Games)
			require.Len(t, rep.Seats, len(strings.Split(c.seats, ",")))
			wins := rep.Draws
			for _, s := range rep.Seats {
				wins += s.Wins
			}
			require.Equal(t, 12, wins, "every game has one winner or none")

			data, err := os.ReadFile(recs)
			require.NoError(t, err)
			require.GreaterOrEqual(t, strings.Count(string(data), "\n"), 12)
			kit, ok := games.Default().TableKit(c.game)
			require.True(t, ok)
			tg := kit.Replay
			out.Reset()
			require.Equal(t, 0, replayTable(tg, bytes.NewReader(data), &out, &errb), out.String())

			// One action changed makes the replay fail, and say which.
			lines := strings.SplitN(string(data), "\n", 2)
			var rec map[string]any
			require.NoError(t, json.Unmarshal([]byte(lines[0]), &rec))
			acts := rec["actions"].([]any)
			rec["actions"] = append([]any{acts[len(acts)-1]}, acts...)
			bad, err := json.Marshal(rec)
			require.NoError(t, err)
			out.Reset()
			require.Equal(t, 1, replayTable(tg, bytes.NewReader(bad), &out, &errb))
			require.Contains(t, out.String(), "0 passed, 1 failed")
		})
	}
	var out, errb bytes.Buffer
	require.Equal(t, 2, run([]string{"selfplay", "spite", "--seats", "hard,easy,easy"}, &out, &errb))
	require.Equal(t, 2, run([]string{"selfplay", "kings", "--seats", "hard", "--players", "5"}, &out, &errb))
	require.Equal(t, 2, run([]string{"selfplay", "kings", "--seats", "hard,easy", "--settings", "draw=never"}, &out, &errb))
	require.Contains(t, errb.String(), "draw can be start, end")
	require.Equal(t, 2, run([]string{"selfplay", "chess", "--seats", "hard,easy"}, &out, &errb))
}
