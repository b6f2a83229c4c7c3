//go:build linux

package arcade

import (
	"net"
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// directWriter writes to a TCP connection with raw, non-blocking write
// calls instead of net's. The socket is non-blocking, so a write never
// sleeps in the kernel: when the socket buffer is full it returns EAGAIN
// and the runtime's poller waits for room, as net's own Write does. What
// is saved is the runtime's syscall bookkeeping: each write through
// syscall.Write wakes the runtime's monitor thread, which then polls every
// 20 µs until the process is idle again. At a few thousand sessions, each
// sent a clock frame a second, those wake-ups are about a tenth of the
// server's CPU in perf profiles (reports/capacity.md). Nil when c is not a
// TCP connection.
func directWriter(c net.Conn) func([]byte) (int, error) {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil
	}
	w := &rawWriter{c: c, rc: rc}
	w.fn = w.writeFD
	return w.write
}

// rawWriter keeps a write's state between the poller's calls of fn, so
// that a write allocates nothing (a closure per write did, for every frame).
type rawWriter struct {
	c  net.Conn
	rc syscall.RawConn
	fn func(fd uintptr) bool

	mu    sync.Mutex // one write at a time uses p, n and errno
	p     []byte
	n     int
	errno syscall.Errno
}

func (w *rawWriter) write(p []byte) (int, error) {
	w.mu.Lock()
	w.p, w.n, w.errno = p, 0, 0
	err := w.rc.Write(w.fn)
	n, errno := w.n, w.errno
	w.p = nil
	w.mu.Unlock()
	if err == nil && errno != 0 {
		err = os.NewSyscallError("write", errno)
	}
	if err != nil {
		// As net's Write does, so that callers that look for a
		// net.Error (the SSH library closes the connection on one)
		// still find it.
		return n, &net.OpError{Op: "write", Net: "tcp", Source: w.c.LocalAddr(), Addr: w.c.RemoteAddr(), Err: err}
	}
	return n, nil
}

// writeFD is the poller's call: false when the socket is full, to be
// called again once it has room.
func (w *rawWriter) writeFD(fd uintptr) bool {
	for w.n < len(w.p) {
		chunk := min(len(w.p)-w.n, 1<<30)
		r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&w.p[w.n])), uintptr(chunk))
		switch e {
		case 0:
			w.n += int(r)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false // the poller waits for room, then calls again
		default:
			w.errno = e
			return true
		}
	}
	return true
}
