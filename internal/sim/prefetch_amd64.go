package sim

import "unsafe"

// prefetch asks the CPU to bring the cache line at p in, without waiting.
//
//go:noescape
func prefetch(p unsafe.Pointer)
