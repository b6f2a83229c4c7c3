package main

import (
	"log/slog"
	"net"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade"
	"sshuffle/hostkeys"
	store "sshuffle/store/badger"
)

func TestPlayTimesEchoes(t *testing.T) {
	dir := t.TempDir()
	key, err := hostkeys.LoadOrCreate(dir)
	require.NoError(t, err)
	st, err := store.Open(filepath.Join(dir, "store"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	defer st.Close()
	srv, err := arcade.New(arcade.Config{HostKeyPEM: key.PEM, Logger: slog.New(slog.DiscardHandler)}, st)
	require.NoError(t, err)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(l) }()
	defer srv.Shutdown(t.Context())

	lat, err := play(l.Addr().String(), "loadtest", time.Now().Add(3*time.Second), 100*time.Millisecond)
	require.NoError(t, err)
	require.NotEmpty(t, lat)
	for _, d := range lat {
		require.Positive(t, d, "an echo comes after its key")
	}
}

func TestRaceTimesMovesOnOtherScreens(t *testing.T) {
	dir := t.TempDir()
	key, err := hostkeys.LoadOrCreate(dir)
	require.NoError(t, err)
	st, err := store.Open(filepath.Join(dir, "store"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	defer st.Close()
	srv, err := arcade.New(arcade.Config{HostKeyPEM: key.PEM, Logger: slog.New(slog.DiscardHandler)}, st)
	require.NoError(t, err)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(l) }()
	defer srv.Shutdown(t.Context())

	r := runRace(l.Addr().String(), 0, 3, time.Now().Add(5*time.Second), 300*time.Millisecond)
	require.NoError(t, r.err)
	require.Zero(t, r.missed)
	require.Positive(t, r.moves)
	require.Len(t, r.lat, 2*r.moves, "every move reached both other screens")
	require.Len(t, r.moveBytes, len(r.lat))
}

func TestTableTimesMovesOnTheOtherScreen(t *testing.T) {
	for _, game := range []string{"kings", "spite"} {
		t.Run(game, func(t *testing.T) { tableTimesMoves(t, game) })
	}
}

// tableTimesMoves plays one table of game with a watcher: every person's
// turn it ends reaches the other seat's and the watcher's screen.
func tableTimesMoves(t *testing.T, game string) {
	dir := t.TempDir()
	key, err := hostkeys.LoadOrCreate(dir)
	require.NoError(t, err)
	st, err := store.Open(filepath.Join(dir, "store"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	defer st.Close()
	srv, err := arcade.New(arcade.Config{HostKeyPEM: key.PEM, Logger: slog.New(slog.DiscardHandler),
		TablePace: 20 * time.Millisecond}, st)
	require.NoError(t, err)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(l) }()
	defer srv.Shutdown(t.Context())

	r := runTable(l.Addr().String(), tableGames[game], 0, 1, 0, time.Now().Add(4*time.Second))
	require.NoError(t, r.err)
	require.Zero(t, r.missed)
	require.Positive(t, r.moves)
	require.Len(t, r.lat, 2*r.moves, "every move reached the other seat's and the watcher's screen")
	require.Len(t, r.moveBytes, len(r.lat))
	require.Len(t, r.sent, len(r.lat), "each latency has its key's time")
	for _, b := range r.moveBytes {
		require.Positive(t, b, "a move's frame has bytes")
	}
}

func TestStealShares(t *testing.T) {
	a := parseCPUTicks("cpu  10 0 10 80 0 0 0 0 0 0\ncpu0 5 0 5 40 0 0 0 0 0 0\ncpu1 5 0 5 40 0 0 0 0 0 0\nintr 1 2\n")
	b := parseCPUTicks("cpu  0 0 0 0 0 0 0 0 0 0\ncpu0 10 0 10 70 0 0 0 10 3 0\ncpu1 25 0 5 60 0 0 0 50 0 0\n")
	require.Len(t, a, 2)
	require.Equal(t, cpuTicks{steal: 10, total: 100}, b[0], "guest time is in user time already")
	require.Equal(t, "0:20,1:56", stealText(a, b))
	require.Equal(t, "?", stealText(a, b[:1]))
}

func TestRunqWait(t *testing.T) {
	require.Equal(t, 2500*time.Microsecond, parseRunqWait("123456 2500000 17\n"))
	require.Zero(t, parseRunqWait(""))
}

func TestOnlyHostile(t *testing.T) {
	all := slices.Clone(hostileItems)
	t.Cleanup(func() { hostileItems = all })
	if err := onlyHostile("4,1-huge-window"); err != nil {
		t.Fatal(err)
	}
	if len(hostileItems) != 2 || hostileItems[0].name != "4-idle-conns" || hostileItems[1].name != "1-huge-window" {
		t.Fatalf("kept %v", hostileItems)
	}
	hostileItems = slices.Clone(all)
	if err := onlyHostile("99"); err == nil {
		t.Fatal("an unknown item is refused")
	}
}

func TestOpenOrderInterleavesGroups(t *testing.T) {
	order := openOrder([]roomGroup{{kind: "kings", n: 4}, {kind: "spite", n: 2}})
	require.Equal(t, []int{0, 1, 0, 0, 1, 0}, order, "two Kings tables to each Spite table, both ramped from the start to the end")
	require.Equal(t, []int{0, 0, 0}, openOrder([]roomGroup{{n: 3}}))
	require.Empty(t, openOrder(nil))
}

func TestParseMix(t *testing.T) {
	m, err := parseMix("kings:400, spite:200")
	require.NoError(t, err)
	require.Equal(t, []tableCount{{"kings", 400}, {"spite", 200}}, m)
	for _, bad := range []string{"", "kings", "kings:0", "kings:x", "poker:3", "kings:2,kings:3"} {
		_, err := parseMix(bad)
		require.Error(t, err, bad)
	}
}

// The window's quantiles are of the keys sent in it alone.
func TestWindowLatencies(t *testing.T) {
	t0 := time.Now()
	var g groupResult
	g.add(raceResult{lat: []time.Duration{900 * time.Millisecond, 5 * time.Millisecond, 7 * time.Millisecond, 800 * time.Millisecond},
		sent: []time.Time{t0, t0.Add(2 * time.Second), t0.Add(3 * time.Second), t0.Add(9 * time.Second)}})
	g.sort(t0.Add(time.Second), t0.Add(8*time.Second))
	require.Equal(t, []time.Duration{5 * time.Millisecond, 7 * time.Millisecond}, g.win, "the ramp's and the closing's keys are out")
	require.Equal(t, 7*time.Millisecond, g.qw(0.99))
	require.Equal(t, 900*time.Millisecond, g.q(0.99), "the whole run's has them")
}
