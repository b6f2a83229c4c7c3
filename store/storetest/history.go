package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/store"
)

func historyIDs(es []store.HistoryEntry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

// historyFixture records, for ann (a) and bob (b): a solitaire of ann's
// with its moves, a race of both (each with their result of it), a table
// game of both, and an older solitaire of bob's. It returns the ids
// newest first as ann's history lists them.
func historyFixture(t *testing.T, s store.Store) (solitaire, race, table store.HistoryEntry) {
	t.Helper()
	sol := store.Result{Account: "a", Name: "ann", Key: "klondike/draw1", Spec: "klondike/draw1/5", Won: true, Moves: 2,
		Elapsed: 9 * time.Second, Finished: t0,
		Actions: []engine.Action{{Kind: engine.Draw}, {Kind: engine.Move, From: 1, Index: 0, To: 2}},
		Times:   []time.Duration{2 * time.Second, 9 * time.Second}, Options: map[string]bool{"auto": true}}
	require.NoError(t, s.RecordResult(ctx, sol))
	raceAt := t0.Add(time.Minute)
	rec := store.RaceRecord{Code: "RRRRR", Spec: "freecell/9", Key: "freecell", Started: raceAt.Add(-time.Minute), Finished: raceAt,
		Racers: []store.RaceRacer{
			{Account: "b", Name: "bob", Place: 1, Status: "won", Time: time.Minute, Moves: 90, Home: 52, Total: 52},
			{Account: "a", Name: "ann", Status: "gave up", Time: 30 * time.Second, Moves: 10, Home: 4, Total: 52},
		}}
	for _, who := range []string{"a", "b"} {
		r := store.Result{Account: who, Name: who, Key: "freecell", Spec: "freecell/9", Won: who == "b", Moves: 10,
			Elapsed: time.Minute, Finished: raceAt, Total: 52, Timeline: []store.Step{{At: time.Second, Home: 1, Moves: 1}}}
		if who == "b" {
			r.Actions = []engine.Action{{Kind: engine.Move, From: 8, Index: 0, To: 0}}
		}
		require.NoError(t, s.RecordResult(ctx, r))
	}
	require.NoError(t, s.RecordRace(ctx, rec))
	tg := store.TableGame{
		Code: "TTTTT", Game: "spite", Spec: "spite/3", GameNo: 0, Record: []byte(`{"game":"spite"}`),
		Seats:  []store.TableSeat{{Account: "a", Name: "ann", Strength: "person"}, {Account: "b", Name: "bob", Strength: "person"}},
		Winner: 1, Points: []int{0, 7}, Totals: []int{0, 7}, MatchEnd: true, MatchWinner: 1,
		Started: t0, Finished: t0.Add(2 * time.Minute),
	}
	require.NoError(t, s.RecordTableGame(ctx, tg))
	old := store.Result{Account: "b", Name: "bob", Key: "spider/2suit", Spec: "spider/2suit/1", Moves: 1,
		Finished: t0.Add(-time.Hour), Abandoned: true}
	require.NoError(t, s.RecordResult(ctx, old))
	return store.HistoryEntry{ID: store.ResultID(sol)}, store.HistoryEntry{ID: store.RaceID(rec)}, store.HistoryEntry{ID: store.TableGameID(tg)}
}

// A history lists every kind of finished game in one list, newest first,
// with ids that stay the same from list to list and person to person;
// the solitaire result a race recorded is the race's, not listed apart.
func testHistoryList(t *testing.T, open Opener) {
	s := open(t, nil)
	es, err := s.History(ctx, "a", store.HistoryQuery{N: 10})
	require.NoError(t, err)
	assert.Empty(t, es)
	sol, race, table := historyFixture(t, s)

	es, err = s.History(ctx, "a", store.HistoryQuery{N: 10})
	require.NoError(t, err)
	require.Equal(t, []string{table.ID, race.ID, sol.ID}, historyIDs(es), "newest first, the race's result inside its race")
	assert.Equal(t, store.HistoryTable, es[0].Kind)
	assert.Equal(t, "spite", es[0].Game)
	assert.Equal(t, "TTTTT", es[0].Table.Code)
	assert.Equal(t, store.HistoryRace, es[1].Kind)
	assert.Equal(t, "freecell", es[1].Game)
	require.NotNil(t, es[1].Result, "the race carries ann's own result of it")
	assert.Equal(t, "a", es[1].Result.Account)
	assert.Equal(t, store.HistorySolitaire, es[2].Kind)
	assert.Equal(t, "klondike", es[2].Game)
	assert.Nil(t, es[2].Result.Actions, "lists hold no moves")
	for _, e := range es {
		kind, at, ok := store.ParseHistoryID(e.ID)
		require.True(t, ok, e.ID)
		assert.Equal(t, e.Kind, kind)
		assert.True(t, at.Equal(e.Finished), "%s: %v, %v", e.ID, at, e.Finished)
	}

	bob, err := s.History(ctx, "b", store.HistoryQuery{N: 10})
	require.NoError(t, err)
	require.Len(t, bob, 3)
	assert.Equal(t, []string{table.ID, race.ID}, historyIDs(bob[:2]), "the same games have the same ids for bob")
	assert.True(t, bob[2].Result.Abandoned)

	again, err := s.History(ctx, "a", store.HistoryQuery{N: 10})
	require.NoError(t, err)
	assert.Equal(t, historyIDs(es), historyIDs(again), "ids are stable")

	// Limits, pages, by game, since.
	es, err = s.History(ctx, "a", store.HistoryQuery{N: 2})
	require.NoError(t, err)
	assert.Equal(t, []string{table.ID, race.ID}, historyIDs(es))
	es, err = s.History(ctx, "a", store.HistoryQuery{N: 2, After: race.ID})
	require.NoError(t, err)
	assert.Equal(t, []string{sol.ID}, historyIDs(es), "the page after the race")
	es, err = s.History(ctx, "a", store.HistoryQuery{N: 10, Game: "klondike"})
	require.NoError(t, err)
	assert.Equal(t, []string{sol.ID}, historyIDs(es))
	es, err = s.History(ctx, "a", store.HistoryQuery{N: 10, Game: "spite"})
	require.NoError(t, err)
	assert.Equal(t, []string{table.ID}, historyIDs(es))
	es, err = s.History(ctx, "a", store.HistoryQuery{N: 10, Game: "pyramid"})
	require.NoError(t, err)
	assert.Empty(t, es)
	es, err = s.History(ctx, "a", store.HistoryQuery{N: 10, Since: t0.Add(time.Minute)})
	require.NoError(t, err)
	assert.Equal(t, []string{table.ID, race.ID}, historyIDs(es), "since is inclusive")
	es, err = s.History(ctx, "a", store.HistoryQuery{N: 0})
	require.NoError(t, err)
	assert.Empty(t, es)
	_, err = s.History(ctx, "a", store.HistoryQuery{N: 1, After: "nonsense"})
	require.ErrorIs(t, err, store.ErrInvalid)
}

// One game by id: whole (a solitaire's moves and their times, a race's
// racers), and only for an account that played it.
func testHistoryGame(t *testing.T, open Opener) {
	s := open(t, nil)
	sol, race, table := historyFixture(t, s)

	e, err := s.HistoryGame(ctx, "a", sol.ID)
	require.NoError(t, err)
	require.NotNil(t, e.Result)
	assert.Equal(t, "klondike/draw1/5", e.Result.Spec)
	assert.Equal(t, []engine.Action{{Kind: engine.Draw}, {Kind: engine.Move, From: 1, Index: 0, To: 2}}, e.Result.Actions)
	assert.Equal(t, []time.Duration{2 * time.Second, 9 * time.Second}, e.Result.Times)
	assert.Equal(t, map[string]bool{"auto": true}, e.Result.Options)
	rs, err := s.Results(ctx, "a", 10)
	require.NoError(t, err)
	for _, r := range rs {
		assert.Nil(t, r.Actions, "results lists hold no moves")
	}

	e, err = s.HistoryGame(ctx, "a", race.ID)
	require.NoError(t, err)
	require.NotNil(t, e.Race)
	assert.Equal(t, "RRRRR", e.Race.Code)
	require.Len(t, e.Racers, 2, "both racers' results, in the race's order")
	assert.Equal(t, "b", e.Racers[0].Account)
	assert.Equal(t, "a", e.Racers[1].Account)
	assert.Equal(t, []engine.Action{{Kind: engine.Move, From: 8, Index: 0, To: 0}}, e.Racers[0].Actions, "every racer's moves")
	require.NotNil(t, e.Result)
	assert.Equal(t, "a", e.Result.Account)

	for _, who := range []string{"a", "b"} {
		e, err = s.HistoryGame(ctx, who, table.ID)
		require.NoError(t, err, who)
		assert.Equal(t, "TTTTT", e.Table.Code)
		assert.JSONEq(t, `{"game":"spite"}`, string(e.Table.Record))
	}

	_, err = s.HistoryGame(ctx, "b", sol.ID)
	require.ErrorIs(t, err, store.ErrNotFound, "another account's game is refused")
	_, err = s.HistoryGame(ctx, "c", table.ID)
	require.ErrorIs(t, err, store.ErrNotFound, "a table game of others is refused")
	_, err = s.HistoryGame(ctx, "a", "nonsense")
	require.ErrorIs(t, err, store.ErrInvalid)
	// An id of the right form at the right time but another deal.
	other := store.ResultID(store.Result{Finished: t0, Spec: "klondike/draw1/6"})
	_, err = s.HistoryGame(ctx, "a", other)
	require.ErrorIs(t, err, store.ErrNotFound)
}

// Moves are bounded, and come with one time each or none.
func testHistoryMovesBounded(t *testing.T, open Opener) {
	s := open(t, nil)
	r := store.Result{Account: "a", Name: "ann", Key: "klondike/draw1", Spec: "klondike/draw1/5", Moves: 1,
		Finished: t0, Abandoned: true, Actions: make([]engine.Action, store.MaxActions+1)}
	require.ErrorIs(t, s.RecordResult(ctx, r), store.ErrInvalid)
	r.Actions, r.Times = make([]engine.Action, 3), make([]time.Duration, 2)
	require.ErrorIs(t, s.RecordResult(ctx, r), store.ErrInvalid)
	r.Times = nil
	require.NoError(t, s.RecordResult(ctx, r), "moves without times")
	e, err := s.HistoryGame(ctx, "a", store.ResultID(r))
	require.NoError(t, err)
	assert.Len(t, e.Result.Actions, 3)
	assert.Nil(t, e.Result.Times)
}

// Paging with After through a history of every kind, finished in an
// interleaved order (some at the same moment), gives each game once,
// newest first, and the same list as one read.
func testHistoryPaging(t *testing.T, open Opener) {
	s := open(t, nil)
	n := 0
	for i := range 24 {
		at := t0.Add(time.Duration(i/2) * time.Minute) // two games a minute: ties
		switch i % 3 {
		case 0:
			require.NoError(t, s.RecordResult(ctx, store.Result{Account: "a", Key: "pyramid", Spec: "pyramid/" + histItoa(i),
				Moves: 1, Finished: at, Abandoned: true}))
		case 1:
			require.NoError(t, s.RecordRace(ctx, store.RaceRecord{Code: "R" + histItoa(i), Spec: "tripeaks/1", Key: "tripeaks",
				Started: at.Add(-time.Minute), Finished: at, Racers: []store.RaceRacer{{Account: "a", Name: "ann"}}}))
		default:
			require.NoError(t, s.RecordTableGame(ctx, store.TableGame{Code: "T" + histItoa(i), Game: "kings", Spec: "kings/1",
				Record: []byte(`{}`), Seats: []store.TableSeat{{Account: "a", Strength: "person"}}, Finished: at}))
		}
		n++
	}
	all, err := s.History(ctx, "a", store.HistoryQuery{N: 100})
	require.NoError(t, err)
	require.Len(t, all, n)
	for i := 1; i < len(all); i++ {
		require.False(t, all[i].Finished.After(all[i-1].Finished), "newest first")
		require.Less(t, all[i].ID, all[i-1].ID, "ids sort as the list")
	}
	var paged []store.HistoryEntry
	after := ""
	for {
		page, err := s.History(ctx, "a", store.HistoryQuery{N: 5, After: after})
		require.NoError(t, err)
		paged = append(paged, page...)
		if len(page) < 5 {
			break
		}
		after = page[len(page)-1].ID
	}
	require.Equal(t, historyIDs(all), historyIDs(paged))
	kings, err := s.History(ctx, "a", store.HistoryQuery{N: 100, Game: "kings"})
	require.NoError(t, err)
	require.Len(t, kings, n/3)
}

func histItoa(i int) string { return fmt.Sprint(i) }
