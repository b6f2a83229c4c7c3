//go:build linux

package arcade

import (
	"net"
	"os"
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
// sent a clock frame a second, those wake-ups were about a tenth of the
// server's CPU on the 2-core VM (issue 15's perf profiles). Nil when c is
// not a TCP connection.
func directWriter(c net.Conn) func([]byte) (int, error) {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil
	}
	return func(p []byte) (int, error) {
		n := 0
		var errno syscall.Errno
		err := rc.Write(func(fd uintptr) bool {
			for n < len(p) {
				chunk := min(len(p)-n, 1<<30)
				r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[n])), uintptr(chunk))
				switch e {
				case 0:
					n += int(r)
				case syscall.EINTR:
				case syscall.EAGAIN:
					return false // the poller waits for room, then calls again
				default:
					errno = e
					return true
				}
			}
			return true
		})
		if err == nil && errno != 0 {
			err = os.NewSyscallError("write", errno)
		}
		if err != nil {
			// As net's Write does, so that callers that look for a
			// net.Error (the SSH library closes the connection on one)
			// still find it.
			return n, &net.OpError{Op: "write", Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
		}
		return n, nil
	}
}
