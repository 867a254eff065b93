package sim

// prefetch3 asks the CPU to bring the cache lines at a, b and c in, without
// waiting: one call for the three lines a delivery needs (see
// prefetchAhead). The addresses are hints; any value is safe.
func prefetch3(a, b, c uintptr)
