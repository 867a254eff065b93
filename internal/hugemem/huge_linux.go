package hugemem

import (
	"syscall"
	"unsafe"
)

// hugePages advises the kernel to back the pages wholly inside [p, p+size)
// with transparent huge pages (madvise MADV_HUGEPAGE): where THP is set to
// "madvise", the default of many distributions, memory gets them only so.
// The Go runtime does not touch a large allocation fresh from the OS, so
// the advice comes before its first page faults, which then take a 2 MiB
// page each. It is a hint: where the kernel says no, nothing changes.
func hugePages(p unsafe.Pointer, size uintptr) {
	const page = 4096
	start := (uintptr(p) + page - 1) &^ (page - 1)
	end := (uintptr(p) + size) &^ (page - 1)
	if end <= start {
		return
	}
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, start-uintptr(p))), end-start), syscall.MADV_HUGEPAGE)
}
