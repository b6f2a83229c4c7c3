package arcade

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/engine"
	"sshuffle/engine/rating"
	"sshuffle/hostkeys"
	"sshuffle/internal/sshtest"
	"sshuffle/store"
	"sshuffle/store/badger"
)

// statsRating is what `stats --json` says of a table game's rating.
type statsRating struct {
	Game        string   `json:"game"`
	Rating      *float64 `json:"rating"`
	Deviation   *float64 `json:"deviation"`
	Provisional *bool    `json:"provisional"`
	Games       *int     `json:"games"`
}

func ratingInStats(t *testing.T, p *player, game string) statsRating {
	t.Helper()
	var v struct {
		Games []statsRating `json:"games"`
	}
	runJSON(t, p.c, "stats", &v)
	for _, g := range v.Games {
		if g.Game == game {
			require.NotNil(t, g.Rating, "stats gives %s no rating", game)
			return g
		}
	}
	t.Fatalf("stats has no %s", game)
	return statsRating{}
}

// A rated Spite game between two people over SSH: both start as
// newcomers ("1500?" at the table), and afterwards `stats --json` gives
// each the rating, deviation and game count that the Glicko-2 reference
// computes from the game's result; the rating board lists both.
func TestEndToEndRatedSpite(t *testing.T) {
	ts := startTableServer(t, t.TempDir())
	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	bob := &player{name: "bob", key: sshtest.NewClientKey(t)}
	code := openTable(t, ts, "table spite --rated", alice, bob)
	// The lobby relists its tables at most every so often: the detail
	// may come a frame after the seat.
	alice.tm.WaitFor("Rated.")
	alice.tm.Send("s")
	for _, p := range []*player{alice, bob} {
		s := p.tm.WaitFor("· rated")
		require.Contains(t, s, "Spite and Malice")
		require.Contains(t, s, "(you) 1500?")
	}
	for _, p := range []*player{alice, bob} {
		require.Equal(t, 0, *ratingInStats(t, p, "spite").Games)
	}
	// The turn clock plays every turn: the game ends without a key.
	aliceID, bobID := bobID(t, ts.testServer, "alice"), bobID(t, ts.testServer, "bob")
	runUntil(t, ts.clk, "the game stored", func() bool { return len(recorded(t, ts, bobID, code)) == 1 })
	g := recorded(t, ts, bobID, code)[0]
	require.True(t, g.Rated)

	// The reference: Glickman's algorithm on the result, both at a
	// newcomer's rating before it.
	gone := []bool{g.Seats[0].Gone, g.Seats[1].Gone}
	places := rating.Places(rating.Outcome{Winner: g.Winner, Points: g.Points, LowWins: g.LowWins, Gone: gone})
	want, err := rating.RateGame([]rating.Seat{{Rating: rating.Default()}, {Rating: rating.Default()}}, places)
	require.NoError(t, err)
	if g.Winner >= 0 {
		require.NotEqual(t, want[0].Rating, want[1].Rating, "a won game moves the two apart")
	}
	for _, p := range []*player{alice, bob} {
		id := aliceID
		if p == bob {
			id = bobID
		}
		seat := 0
		if g.Seats[1].Account == id {
			seat = 1
		}
		got := ratingInStats(t, p, "spite")
		require.InDelta(t, want[seat].Rating, *got.Rating, 1e-9, p.name)
		require.InDelta(t, want[seat].Deviation, *got.Deviation, 1e-9, p.name)
		require.Equal(t, 1, *got.Games, p.name)
		require.True(t, *got.Provisional, "one game leaves a rating provisional")
		// The table shows the new rating once the game is recorded.
		p.tm.WaitFor("(you) " + rating.Label(want[seat]))
		out, _, status := run(t, p.c, "stats")
		require.Equal(t, 0, status)
		require.Contains(t, out, "Spite and Malice rating: "+rating.Label(want[seat])+" (deviation ")
		require.Contains(t, out, ", 1 rated game).")
	}
	var board struct {
		Rows []struct {
			Name   string  `json:"name"`
			Rating float64 `json:"rating"`
		} `json:"rows"`
	}
	runJSON(t, alice.c, "leaderboard spite", &board)
	require.Len(t, board.Rows, 2)
	require.GreaterOrEqual(t, board.Rows[0].Rating, board.Rows[1].Rating)
	out, _, code2 := run(t, bob.c, "leaderboard spite")
	require.Equal(t, 0, code2)
	require.Contains(t, out, "Spite and Malice: ratings")
	require.True(t, strings.Contains(out, "alice") && strings.Contains(out, "bob"), out)
}

// The wiring rates what a rated table records and nothing of a casual
// one: two people and a computer at Kings, the same result recorded once
// casual and once rated; only the rated one moves the people's ratings,
// by the package's computation with the computer's fixed rating.
func TestTableResultRatedOrCasual(t *testing.T) {
	dir := t.TempDir()
	key, err := hostkeys.LoadOrCreate(dir)
	require.NoError(t, err)
	st, err := badger.OpenInMemory()
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	srv, err := New(Config{HostKeyPEM: key.PEM, Logger: slog.New(slog.DiscardHandler)}, st)
	require.NoError(t, err)
	ctx := t.Context()
	for _, a := range [][2]string{{"id-ann", "ann"}, {"id-bob", "bob"}} {
		_, err := st.CreateAccount(ctx, a[0], a[1])
		require.NoError(t, err)
	}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	result := func(code string, rated bool) hub.TableResult {
		return hub.TableResult{
			Code: code, Spec: engine.Spec{Game: "kings", Seed: 3}, Record: []byte(`{"game":"kings"}`),
			Seats: []hub.ResultSeat{
				{Person: hub.Person{ID: "id-ann", Name: "ann"}, Name: "ann", Strength: hub.PersonSeat},
				{Name: "Ada", Strength: "hard"},
				{Person: hub.Person{ID: "id-bob", Name: "bob"}, Name: "bob", Strength: hub.PersonSeat},
			},
			// bob went out; ann holds fewer penalty points than the computer.
			Outcome: engine.TableResult{Winner: 2, Points: []int{3, 7, 0}, LowWins: true},
			Totals:  []int{3, 7, 0}, MatchEnd: true, MatchWinner: 2, Started: now, Ended: now.Add(time.Minute), Rated: rated,
		}
	}
	srv.tableFinished(result("CASUL", false))
	for _, id := range []string{"id-ann", "id-bob"} {
		rs, err := st.Ratings(ctx, id)
		require.NoError(t, err)
		require.Empty(t, rs, "a casual game rates nobody")
		gs, err := st.TableGames(ctx, id, 10)
		require.NoError(t, err)
		require.Len(t, gs, 1, "but is kept")
	}
	srv.tableFinished(result("RATED", true))
	kit, _ := srv.games.TableKit("kings")
	hard := kit.Info().Ratings["hard"]
	want, err := rating.RateGame([]rating.Seat{{Rating: rating.Default()},
		{Rating: rating.Rating{Rating: hard.Rating, Deviation: hard.Deviation, Volatility: rating.DefaultVolatility}, Fixed: true},
		{Rating: rating.Default()}}, []int{2, 3, 1})
	require.NoError(t, err)
	for i, id := range map[int]string{0: "id-ann", 2: "id-bob"} {
		r, err := st.Rating(ctx, id, "kings")
		require.NoError(t, err)
		require.Equal(t, want[i], rating.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}, id)
		require.Equal(t, 1, r.Games)
	}
	gs, err := st.TableGames(ctx, "id-ann", 10)
	require.NoError(t, err)
	require.True(t, gs[0].Rated)
	require.Equal(t, []int{2, 3, 1}, []int{gs[0].Seats[0].Place, gs[0].Seats[1].Place, gs[0].Seats[2].Place})
	require.Equal(t, &store.SeatRating{Rating: hard.Rating, Deviation: hard.Deviation, Volatility: rating.DefaultVolatility},
		gs[0].Seats[1].Rating, "the computer's fixed rating, kept with the game")
	require.Equal(t, "1500?", srv.ratingLabel("id-nobody", "kings"))
}
