package engine

import (
	"syscall"
	"unsafe"
)

const hugePage = 2 << 20

// mapHuge maps size bytes and asks for huge pages for them; slots is the
// start of the table within the mapping, on a huge page's boundary so that
// every page of it can be one.
func mapHuge(size int) (mem []byte, slots unsafe.Pointer) {
	mem, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil
	}
	off := (hugePage - int(uintptr(unsafe.Pointer(&mem[0]))%hugePage)) % hugePage
	// Without huge pages (a kernel that refuses them), the table still
	// works on small ones.
	_ = syscall.Madvise(mem[off:off+size], syscall.MADV_HUGEPAGE)
	return mem, unsafe.Pointer(&mem[off])
}

func unmap(mem []byte) { _ = syscall.Munmap(mem) }
