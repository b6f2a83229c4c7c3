//go:build linux

package arcade

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func tcpPair(t *testing.T) (server, client net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	got := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		got <- c
	}()
	client, err = net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	server = <-got
	require.NotNil(t, server)
	t.Cleanup(func() { server.Close(); client.Close() })
	return server, client
}

// More than the socket buffers hold, read slowly: the raw writes must
// meet a full buffer (EAGAIN), wait for room and still deliver every byte
// in order.
func TestDirectWriterWaitsForRoom(t *testing.T) {
	server, client := tcpPair(t)
	w := directWriter(server)
	require.NotNil(t, w)
	want := make([]byte, 16<<20)
	for i := range want {
		want[i] = byte(i * 7)
	}
	read := make(chan []byte, 1)
	go func() {
		var got bytes.Buffer
		buf := make([]byte, 64<<10)
		for got.Len() < len(want) {
			n, err := client.Read(buf)
			got.Write(buf[:n])
			if err != nil {
				break
			}
			if got.Len() < 1<<20 {
				time.Sleep(time.Millisecond) // slow at first: the writer fills the buffers
			}
		}
		read <- got.Bytes()
	}()
	for off := 0; off < len(want); off += 1 << 20 {
		n, err := w(want[off : off+1<<20])
		require.NoError(t, err)
		require.Equal(t, 1<<20, n)
	}
	require.True(t, bytes.Equal(want, <-read), "the bytes arrived changed")
}

// A write that cannot finish by the deadline fails as net's does: a
// net.Error that says it timed out.
func TestDirectWriterKeepsDeadlines(t *testing.T) {
	server, _ := tcpPair(t) // the client never reads
	w := directWriter(server)
	require.NoError(t, server.SetWriteDeadline(time.Now().Add(200*time.Millisecond)))
	var err error
	for range 1 << 12 {
		if _, err = w(make([]byte, 64<<10)); err != nil {
			break
		}
	}
	// The SSH library asserts the type itself (err.(net.Error)), so
	// errors.As would not do.
	ne, ok := err.(net.Error)
	require.True(t, ok, "%T is not a net.Error", err)
	require.True(t, ne.Timeout())
	require.ErrorIs(t, err, os.ErrDeadlineExceeded)
}

// A peer gone: the error is a net.Error (the SSH library closes the
// connection on one), and a closed conn says so.
func TestDirectWriterReportsBrokenConnections(t *testing.T) {
	server, client := tcpPair(t)
	w := directWriter(server)
	require.NoError(t, client.(*net.TCPConn).SetLinger(0))
	require.NoError(t, client.Close()) // a reset, not a clean close
	var err error
	for range 100 {
		if _, err = w([]byte("frame")); err != nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	_, ok := err.(net.Error)
	require.True(t, ok, "%T is not a net.Error", err)
	require.NoError(t, server.Close())
	_, err = w([]byte("frame"))
	require.ErrorIs(t, err, net.ErrClosed)
	_, ok = err.(net.Error)
	require.True(t, ok, "%T is not a net.Error", err)
}

func TestDirectWriterOnlyForTCP(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	require.Nil(t, directWriter(a))
	cc := &countedConn{Conn: a, write: directWriter(a)}
	go func() { _, _ = io.Copy(io.Discard, b) }()
	n, err := cc.Write([]byte("through the pipe's own Write"))
	require.NoError(t, err)
	require.Equal(t, 28, n)
	require.False(t, errors.Is(err, net.ErrClosed))
}

// A write allocates nothing: every frame of every session goes through it.
func TestDirectWriterAllocatesNothing(t *testing.T) {
	server, client := tcpPair(t)
	go func() { _, _ = io.Copy(io.Discard, client) }()
	write := directWriter(server)
	require.NotNil(t, write)
	frame := bytes.Repeat([]byte("x"), 120)
	allocs := testing.AllocsPerRun(200, func() {
		if _, err := write(frame); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs)
}
