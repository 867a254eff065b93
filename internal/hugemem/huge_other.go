//go:build !linux

package hugemem

import "unsafe"

// hugePages is a no-op where there is no madvise for transparent huge pages.
func hugePages(p unsafe.Pointer, size uintptr) {}
