package store

import "syscall"

// mapSlab and unmapSlab take big tables from the OS with an anonymous
// mmap, off the Go heap. The collector lets the heap grow to twice what
// is live (GOGC=100); a search's visited set and parent links are most of
// what is live and never garbage, so on the heap they would double the
// peak RSS. Off it they count once (measured in the package README,
// "Memory per state"). slab_other.go is the plain version.
func mapSlab(n int) ([]byte, bool) {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]byte, n), false
	}
	return b, true
}

func unmapSlab(b []byte) { _ = syscall.Munmap(b) }
