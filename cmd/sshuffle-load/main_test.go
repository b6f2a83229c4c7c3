package main

import (
	"log/slog"
	"net"
	"path/filepath"
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
}

func TestTableTimesMovesOnTheOtherScreen(t *testing.T) {
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

	r := runTable(l.Addr().String(), 0, time.Now().Add(4*time.Second))
	require.NoError(t, r.err)
	require.Zero(t, r.missed)
	require.Positive(t, r.moves)
	require.Len(t, r.lat, r.moves, "every move reached the other screen")
}
