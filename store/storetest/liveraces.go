package storetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"sshuffle/store"
)

// liveRace is a race of klondike/draw1 with the given racers.
func liveRace(code string, racers ...store.LiveRacer) store.LiveRace {
	return store.LiveRace{Code: code, Spec: "klondike/draw1/7", Key: "klondike/draw1", Started: t0, Racers: racers}
}

func save(t *testing.T, s store.Store, account string) string {
	t.Helper()
	data, err := s.GetSave(ctx, account, "klondike/draw1")
	if err != nil {
		require.ErrorIs(t, err, store.ErrNotFound)
		return ""
	}
	return string(data)
}

func testLiveRaces(t *testing.T, open Opener) {
	s := open(t, nil)
	rs, err := s.LiveRaces(ctx)
	require.NoError(t, err)
	assert.Empty(t, rs)
	a := store.LiveRacer{Account: "a", Save: []byte(`{"a":1}`), Moves: 1}
	b := store.LiveRacer{Account: "b"}
	require.NoError(t, s.PutLiveRace(ctx, liveRace("BBBBB", a, b)))
	require.NoError(t, s.PutLiveRace(ctx, liveRace("AAAAA", b)))
	a2 := store.LiveRacer{Account: "a", Save: []byte(`{"a":2}`), Moves: 2, Done: true}
	require.NoError(t, s.PutLiveRace(ctx, liveRace("BBBBB", a2, b)), "a newer record replaces the older")
	rs, err = s.LiveRaces(ctx)
	require.NoError(t, err)
	require.Len(t, rs, 2)
	assert.Equal(t, liveRace("AAAAA", b), rs[0], "in code order")
	assert.Equal(t, liveRace("BBBBB", a2, b), rs[1])
	require.NoError(t, s.PutLiveRace(ctx, liveRace("BBBBB", b)), "a racer no longer listed goes")
	rs, err = s.LiveRaces(ctx)
	require.NoError(t, err)
	assert.Equal(t, liveRace("BBBBB", b), rs[1])
	require.NoError(t, s.DeleteLiveRace(ctx, "AAAAA"))
	require.NoError(t, s.DeleteLiveRace(ctx, "AAAAA"), "none is no error")
	rs, err = s.LiveRaces(ctx)
	require.NoError(t, err)
	assert.Equal(t, []store.LiveRace{liveRace("BBBBB", b)}, rs)

	for _, bad := range []func(*store.LiveRace){
		func(r *store.LiveRace) { r.Code = "" },
		func(r *store.LiveRace) { r.Key = "" },
		func(r *store.LiveRace) { r.Spec = "" },
		func(r *store.LiveRace) { r.Racers = []store.LiveRacer{{Account: ""}} },
		func(r *store.LiveRace) { r.Racers = []store.LiveRacer{{Account: "a"}, {Account: "a"}} },
		func(r *store.LiveRace) {
			r.Racers = []store.LiveRacer{{Account: "a", Save: []byte(strings.Repeat("x", store.MaxLiveRace+1))}}
		},
	} {
		r := liveRace("CCCCC", a)
		bad(&r)
		require.ErrorIs(t, s.PutLiveRace(ctx, r), store.ErrInvalid)
	}
	require.ErrorIs(t, s.DeleteLiveRace(ctx, ""), store.ErrInvalid)
}

// Many races at once, as the server keeps them: all written, whatever the
// store's limit on one write, a bad one left out with its error, and the
// gone ones forgotten.
func testKeepLiveRaces(t *testing.T, open Opener) {
	s := open(t, nil)
	var races []store.LiveRace
	big := []byte(`"` + strings.Repeat("x", 12_000) + `"`)
	for i := range 60 {
		code := fmt.Sprintf("K%04d", i)
		var racers []store.LiveRacer
		for k := range 4 {
			racers = append(racers, store.LiveRacer{Account: fmt.Sprintf("r%d", k), Save: big, Moves: i + k})
		}
		races = append(races, liveRace(code, racers...))
	}
	bad := liveRace("BAD01", store.LiveRacer{Account: ""})
	err := s.KeepLiveRaces(ctx, append(slices.Clone(races[:30]), bad), nil)
	require.ErrorIs(t, err, store.ErrInvalid, "the bad race's error")
	require.NoError(t, s.KeepLiveRaces(ctx, races[30:], nil))
	rs, err := s.LiveRaces(ctx)
	require.NoError(t, err)
	require.Len(t, rs, 60, "every good race is written, the bad one is not")
	assert.Equal(t, races[0], rs[0])
	assert.Equal(t, races[59], rs[59])

	one := races[7]
	one.Racers = one.Racers[:1]
	var gone []string
	for _, r := range races[10:] {
		gone = append(gone, r.Code)
	}
	require.NoError(t, s.KeepLiveRaces(ctx, []store.LiveRace{one}, gone))
	rs, err = s.LiveRaces(ctx)
	require.NoError(t, err)
	require.Len(t, rs, 10)
	assert.Equal(t, one, rs[7], "a racer no longer listed goes")
	assert.Equal(t, races[9], rs[9])
	require.NoError(t, s.KeepLiveRaces(ctx, nil, nil), "nothing to write")
}

// A race the server lost: its code is ended for a while, and each racer's
// game in progress becomes their saved game unless they saved a newer one.
func testLostRaces(t *testing.T, open Opener) {
	s := open(t, nil)
	lost, err := s.LoseRaces(ctx, t0, t0.Add(24*time.Hour))
	require.NoError(t, err)
	assert.Empty(t, lost, "nothing kept, nothing lost")

	// b and c had saves of the game before the race, d saved one since
	// (in another session), e finished the race, f never moved.
	require.NoError(t, s.PutSave(ctx, "b", "klondike/draw1", []byte("b's old game")))
	require.NoError(t, s.PutSave(ctx, "c", "klondike/draw1", []byte("c's old game")))
	racers := []store.LiveRacer{
		{Account: "a", Save: []byte("a's race"), Moves: 3},
		{Account: "b", Save: []byte("b's race"), Moves: 5},
		{Account: "c", Save: []byte("c's race"), Moves: 2},
		{Account: "d", Save: []byte("d's race"), Moves: 9},
		{Account: "e", Save: []byte("e's race"), Moves: 90, Done: true},
		{Account: "f", Save: []byte("f's race")},
	}
	require.NoError(t, s.PutLiveRace(ctx, liveRace("KQTWX", racers...)))
	require.NoError(t, s.PutSave(ctx, "d", "klondike/draw1", []byte("d's newer game")))
	// c moves on in the race after d's save: c's line changes, the others'
	// are written again as they were.
	racers[2] = store.LiveRacer{Account: "c", Save: []byte("c's race, later"), Moves: 4}
	require.NoError(t, s.PutLiveRace(ctx, liveRace("KQTWX", racers...)))
	require.NoError(t, s.PutLiveRace(ctx, liveRace("MMMMM", store.LiveRacer{Account: "g", Save: []byte("g's race"), Moves: 1})))

	until := t0.Add(24 * time.Hour)
	lost, err = s.LoseRaces(ctx, t0, until)
	require.NoError(t, err)
	require.Len(t, lost, 2)
	assert.Equal(t, "KQTWX", lost[0].Code)
	assert.Equal(t, "klondike/draw1", lost[0].Key)
	assert.ElementsMatch(t, []string{"a", "b", "c"}, lost[0].Kept)
	assert.Equal(t, []string{"g"}, lost[1].Kept)
	for acc, want := range map[string]string{
		"a": "a's race", "b": "b's race", "c": "c's race, later", "g": "g's race",
		"d": "d's newer game", // newer than the race's last word of d
		"e": "",               // finished: no game in progress
		"f": "",               // never moved: nothing to continue
	} {
		assert.Equal(t, want, save(t, s, acc), acc)
	}
	rs, err := s.LiveRaces(ctx)
	require.NoError(t, err)
	assert.Empty(t, rs, "a lost race is settled once")
	lost, err = s.LoseRaces(ctx, t0, until)
	require.NoError(t, err)
	assert.Empty(t, lost)

	ended, err := s.EndedRaces(ctx, t0.Add(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, map[string]time.Time{"KQTWX": until, "MMMMM": until}, utc(ended))
	ended, err = s.EndedRaces(ctx, until)
	require.NoError(t, err)
	assert.Empty(t, ended, "ended codes are kept until their time")

	// A later start forgets the codes whose time is past.
	require.NoError(t, s.PutLiveRace(ctx, liveRace("NNNNN")))
	lost, err = s.LoseRaces(ctx, until.Add(time.Minute), until.Add(25*time.Hour))
	require.NoError(t, err)
	require.Len(t, lost, 1)
	assert.Empty(t, lost[0].Kept)
	ended, err = s.EndedRaces(ctx, t0)
	require.NoError(t, err)
	assert.Equal(t, []string{"NNNNN"}, keys(ended), "the old codes went; the new one is kept")
}

// A room that ended keeps its code as ended for a later start, with the
// lost races' codes; the later time wins, and a past one is forgotten as
// theirs are.
func testEndCode(t *testing.T, open Opener) {
	s := open(t, nil)
	day := t0.Add(24 * time.Hour)
	require.NoError(t, s.EndCode(ctx, "TTTTT", day))
	require.NoError(t, s.EndCode(ctx, "RRRRR", t0.Add(time.Hour)))
	require.NoError(t, s.EndCode(ctx, "RRRRR", day.Add(time.Hour)), "a later end moves the time on")
	require.NoError(t, s.EndCode(ctx, "TTTTT", t0.Add(2*time.Hour)), "an earlier one does not move it back")
	require.NoError(t, s.PutLiveRace(ctx, liveRace("LLLLL")))
	_, err := s.LoseRaces(ctx, t0, day)
	require.NoError(t, err)
	ended, err := s.EndedRaces(ctx, t0.Add(3*time.Hour))
	require.NoError(t, err)
	assert.Equal(t, map[string]time.Time{"TTTTT": day, "RRRRR": day.Add(time.Hour), "LLLLL": day}, utc(ended))
	ended, err = s.EndedRaces(ctx, day)
	require.NoError(t, err)
	assert.Equal(t, []string{"RRRRR"}, keys(ended))
	_, err = s.LoseRaces(ctx, day.Add(2*time.Hour), day.Add(48*time.Hour))
	require.NoError(t, err)
	ended, err = s.EndedRaces(ctx, t0)
	require.NoError(t, err)
	assert.Empty(t, ended, "past codes are forgotten at a start")
	require.ErrorIs(t, s.EndCode(ctx, "", day), store.ErrInvalid)
}

func utc(m map[string]time.Time) map[string]time.Time {
	out := map[string]time.Time{}
	for k, v := range m {
		out[k] = v.UTC()
	}
	return out
}

func keys(m map[string]time.Time) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
