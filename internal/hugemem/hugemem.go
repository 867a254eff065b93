// Package hugemem makes the big per-node arrays of a million-node run
// that are read at random, backed by huge pages where the OS allows it.
package hugemem

import "unsafe"

// Make returns make([]T, n), for an array with an entry per node that a
// big run reads at random: the simulator's node states, or a factory's
// slab of nodes (changroberts.Factory). Past hugeArray bytes, it asks the
// OS to back the array with huge pages (see hugePages), before anything
// touches it. A million-node ring reads two such 32 MB arrays at random, once each
// per message: with 4 KiB pages, nearly every one of those reads also
// misses the TLB, and in a virtual machine a TLB miss walks two page
// tables. With 2 MiB pages the arrays need a few dozen TLB entries: the
// event loop of a million-node Chang-Roberts took 0.84 s instead of 0.94 s
// (means of eight runs each). Getting the huge pages costs the setup
// 0-0.15 s now and then, when the kernel has to compact memory first.
func Make[T any](n int) []T {
	a := make([]T, n)
	if size := uintptr(n) * unsafe.Sizeof(*new(T)); size >= hugeArray {
		hugePages(unsafe.Pointer(unsafe.SliceData(a)), size)
	}
	return a
}

// hugeArray is the size from which Make asks for huge pages: a few of
// them, and small runs (tests, exercises) are left as they were.
const hugeArray = 8 << 20
