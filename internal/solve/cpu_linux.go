package solve

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD, which package syscall does not
// name: the calling thread's own use.
const rusageThread = 1

// threadCPU is the CPU time (user and system) the calling OS thread has
// used; the goroutine must be locked to its thread.
func threadCPU() (time.Duration, bool) { return rusage(rusageThread) }

// processCPU is the CPU time the whole process has used: its searches,
// the collector and the runtime's other threads.
func processCPU() (time.Duration, bool) { return rusage(syscall.RUSAGE_SELF) }

func rusage(who int) (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
